//! Edits on a forked trace: the header line and purple marks of every drawing, the cone of
//! `show_cone=True` in every format, and `view="interventions"` with its caption, changed
//! values, box marks and census file. `TL_UPDATE_GOLDEN=1` rewrites the golden files.

use tl_draw::{draw, DrawOptions, OutputFormat, Trace, View};
use tl_tests::{check_golden, fixtures_dir};
use tl_trace_model::{EditRecord, EditSet};

fn trace(name: &str) -> Trace {
    Trace::load(fixtures_dir().join(format!("{name}.json"))).unwrap()
}

fn node_line<'a>(dot: &'a str, id: &str) -> &'a str {
    dot.lines()
        .find(|l| {
            l.starts_with(&format!("\t\"{id}\" [")) || l.starts_with(&format!("\t\t\"{id}\" ["))
        })
        .unwrap_or_else(|| panic!("no node {id}"))
}

#[test]
fn an_edited_fork_names_its_edit_and_marks_the_site() {
    let edited = trace("edited");
    let dot = draw(&edited, &DrawOptions::default()).unwrap().dot;
    check_golden("dot/edited.dot", &dot);
    assert!(dot.contains("1 edit: Δ zero_ablate on linear_1_1"));
    let site = node_line(&dot, "linear_1_1pass1");
    assert!(
        site.contains("edited: zero_ablate") && site.contains("penwidth=3"),
        "{site}"
    );
    assert!(site.contains("color=\"#8E44AD\""), "{site}");
    assert!(!node_line(&dot, "relu_1_2pass1").contains("penwidth"));
    // The clean parent draws as it always did.
    let clean = draw(&trace("edited_clean"), &DrawOptions::default())
        .unwrap()
        .dot;
    assert!(!clean.contains("edit"));
}

#[test]
fn a_site_without_a_recorded_firing_is_dashed() {
    let mut edited = trace("edited");
    for op in &mut edited.ops {
        op.edits.clear();
    }
    let dot = draw(&edited, &DrawOptions::default()).unwrap().dot;
    let site = node_line(&dot, "linear_1_1pass1");
    assert!(
        site.contains("(inferred site)") && site.contains("dashed"),
        "{site}"
    );
}

#[test]
fn the_cone_shades_everything_downstream_in_every_format() {
    let edited = trace("edited");
    let plain = draw(&edited, &DrawOptions::default()).unwrap();
    assert!(plain.cone.is_none());
    let coned = draw(&edited, &DrawOptions::default().show_cone(true)).unwrap();
    let cone = coned.cone.clone().unwrap();
    assert_eq!(
        cone.nodes,
        [
            "linear_1_1pass1",
            "relu_1_2pass1",
            "linear_2_3pass1",
            "output_1pass1"
        ]
    );
    assert_eq!(
        cone.edges.len(),
        3,
        "every arrow leaving the site, not the input's"
    );
    for format in [
        OutputFormat::Png,
        OutputFormat::Pdf,
        OutputFormat::Svg,
        OutputFormat::Eps,
    ] {
        let with = coned.render(format).unwrap().bytes;
        let without = plain.render(format).unwrap().bytes;
        assert_ne!(with, without, "{format:?}: the cone is painted");
    }
    // The SVG keeps its text as text (cairo's SVG had none, every glyph an outline), with
    // the cone as translucent copies of the 4 nodes' shapes and the 3 arrows' lines and heads.
    let svg = String::from_utf8(coned.render(OutputFormat::Svg).unwrap().bytes).unwrap();
    let plain_svg = String::from_utf8(plain.render(OutputFormat::Svg).unwrap().bytes).unwrap();
    assert_eq!(
        svg.matches("<text").count(),
        plain_svg.matches("<text").count()
    );
    assert!(svg.matches("<text").count() > 10);
    let layer = &svg[svg.find("<g class=\"tl-cone\">").expect("a cone layer")..];
    let layer = &layer[..layer.find("</g>").unwrap()];
    assert_eq!(
        layer.matches("fill-opacity=\"0.333\"").count(),
        4 + 3,
        "{layer}"
    );
    assert_eq!(layer.matches("<path").count(), 3, "{layer}");
    let dtd = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(&svg, dtd).expect("well-formed SVG");
    // The DOT cannot carry a translucent layer: it says so, never silently.
    assert!(coned
        .dot
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("// show_cone: 4 nodes and 3 arrows downstream of an edit are shaded"));
    assert!(!plain.dot.contains("show_cone"));
    let error = draw(&trace("convnet"), &DrawOptions::default().show_cone(true)).unwrap_err();
    assert_eq!(error.code(), "surgery_evidence_missing");
}

#[test]
fn interventions_view_marks_changes_and_writes_the_census() {
    let edited = trace("edited");
    let drawing = draw(&edited, &DrawOptions::default().view(View::Interventions)).unwrap();
    check_golden("dot/edited.view_interventions.dot", &drawing.dot);
    let dot = &drawing.dot;
    assert!(dot.contains("zero_ablate on module fc1 (recorded at linear_1_1)"));
    assert!(dot.contains("4 ops differ from the clean run (largest |Δ| = 1.19 at linear_1_1)"));
    let relu = node_line(dot, "relu_1_2pass1");
    assert!(
        relu.contains("max |Δ| = 1.19") && relu.contains("penwidth=2"),
        "{relu}"
    );
    assert!(!node_line(dot, "input_1pass1").contains("max |Δ|"));
    let dir = tempfile::tempdir().unwrap();
    let written = drawing.write(dir.path().join("edited.svg")).unwrap();
    let census = std::fs::read_to_string(dir.path().join("edited.svg.census.txt")).unwrap();
    assert!(written.path.ends_with("edited.svg"));
    assert!(
        census.contains("edit 1: zero_ablate on module fc1; sites linear_1_1:1; firing recorded")
    );
    assert!(census.contains("relu_1_2:1: max |Δ| = 1.19"));
    // A plain drawing writes no census.
    let plain = draw(&edited, &DrawOptions::default()).unwrap();
    plain.write(dir.path().join("plain.svg")).unwrap();
    assert!(!dir.path().join("plain.svg.census.txt").exists());
    let error = draw(
        &trace("convnet"),
        &DrawOptions::default().view(View::Interventions),
    )
    .unwrap_err();
    assert_eq!(error.code(), "surgery_evidence_missing");
}

#[test]
fn without_the_clean_run_only_the_edits_are_marked() {
    let mut edited = trace("edited");
    edited.edits.as_mut().unwrap().clean_parent_available = false;
    for op in &mut edited.ops {
        op.clean_max_abs_change = None;
    }
    let dot = draw(&edited, &DrawOptions::default().view(View::Interventions))
        .unwrap()
        .dot;
    assert!(dot.contains(
        "the clean trace was not available when this trace was exported: only the edits are marked"
    ));
    assert!(!dot.contains("max |Δ|"));
    assert!(node_line(&dot, "linear_1_1pass1").contains("edited: zero_ablate"));
}

/// The 8-block stack with a `scale` edit on `blocks.2.mlp.fc1`, its firing recorded at the
/// site or not.
fn stack_edited_in_block_2(recorded: bool) -> Trace {
    let mut stack = trace("stack8");
    let position = stack
        .ops
        .iter()
        .position(|op| op.modules.last().is_some_and(|m| m == "blocks.2.mlp.fc1:1"))
        .unwrap();
    if recorded {
        stack.ops[position].edits = vec![tl_trace_model::EditFire {
            helper: "scale".to_owned(),
            engine: None,
        }];
    }
    stack.edits = Some(EditSet {
        edits: vec![EditRecord {
            helper: "scale".to_owned(),
            target: "module blocks.2.mlp.fc1".to_owned(),
            sites: vec![stack.ops[position].label.clone()],
            recorded,
        }],
        clean_parent_available: false,
    });
    stack
}

#[test]
fn a_collapsed_box_takes_the_marks_of_what_it_holds() {
    let stack = stack_edited_in_block_2(false);
    let dot = draw(
        &stack,
        &DrawOptions::default().view(View::Interventions).depth(1),
    )
    .unwrap()
    .dot;
    let block = node_line(&dot, "box:blocks.2:1");
    assert!(
        block.contains("holds edited") && block.contains("dashed"),
        "{block}"
    );
    assert!(!node_line(&dot, "box:blocks.3:1").contains("holds edited"));
}

/// A fold is dashed because it is a fold: its key line must not read its dashes as an
/// inferred site when it holds a recorded edit (issue 29).
#[test]
fn a_fold_holding_a_recorded_edit_is_not_read_as_an_inferred_site() {
    let stack = stack_edited_in_block_2(true);
    let dot = draw(
        &stack,
        &DrawOptions::default()
            .view(View::Interventions)
            .collapse(tl_draw::Collapse::Max),
    )
    .unwrap()
    .dot;
    let fold = dot
        .lines()
        .find(|l| l.contains("holds edited"))
        .expect("the fold holding blocks.2 is marked");
    assert!(fold.contains("dashed"), "a fold is dashed: {fold}");
    assert!(!fold.contains("inferred"), "{fold}");
    assert!(
        dot.contains("an edited op, or a box or fold holding one (a dashed op: site inferred"),
        "the key says what dashes mean, and on what"
    );
}
