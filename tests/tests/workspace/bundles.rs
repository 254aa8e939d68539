//! Bundle drawings: the diff (colours from the differences the bundle file carries, boxes
//! by their most changed op), the union graphs marking which members ran each node, and
//! the refusals. `TL_UPDATE_GOLDEN=1` rewrites the golden files.

use tl_draw::{
    draw_bundle, Bundle, BundleGraph, BundleMember, BundleOptions, DeltaOn, Document, DrawOptions,
    GraphKind, Trace, BUNDLE_FORMAT, FORMAT_VERSION,
};
use tl_tests::{check_golden, fixtures_dir};
use tl_trace_model::DeltaTable;

fn bundle() -> Bundle {
    match Document::load(fixtures_dir().join("bundle.json")).unwrap() {
        Document::Bundle(bundle) => bundle,
        Document::Trace(_) => panic!("bundle.json is a bundle"),
    }
}

fn trace(name: &str) -> Trace {
    Trace::load(fixtures_dir().join(format!("{name}.json"))).unwrap()
}

fn union_of(names: &[&str]) -> Bundle {
    Bundle {
        format: BUNDLE_FORMAT.to_owned(),
        version: FORMAT_VERSION,
        baseline: names[0].to_owned(),
        members: names
            .iter()
            .map(|name| BundleMember {
                name: (*name).to_owned(),
                trace: trace(name),
            })
            .collect(),
        deltas: Vec::new(),
    }
}

fn node<'a>(dot: &'a str, id: &str) -> &'a str {
    dot.lines()
        .find(|l| l.trim_start().starts_with(&format!("\"{id}\" [")))
        .unwrap_or_else(|| panic!("no node {id}"))
}

#[test]
fn golden_bundle_drawings() {
    let bundle = bundle();
    let cases = [
        ("diff", BundleOptions::default()),
        (
            "diff_cosine_grad",
            BundleOptions {
                metric: "cosine".to_owned(),
                on: DeltaOn::Grad,
                ..BundleOptions::default()
            },
        ),
        (
            "union_combined",
            BundleOptions {
                graph: BundleGraph::Union(GraphKind::Combined),
                ..BundleOptions::default()
            },
        ),
    ];
    for (name, options) in cases {
        let drawing = draw_bundle(&bundle, &DrawOptions::default(), &options).unwrap();
        check_golden(&format!("dot/bundle.{name}.dot"), &drawing.dot);
    }
}

#[test]
fn the_diff_colours_each_op_by_its_change_from_zero() {
    let drawing = draw_bundle(
        &bundle(),
        &DrawOptions::default(),
        &BundleOptions::default(),
    )
    .unwrap();
    let dot = &drawing.dot;
    assert!(dot.contains("diff: noisy against the baseline clean"));
    assert!(
        dot.contains("relative_l2 on out: 0 ... 0.4457"),
        "the scale starts at 0"
    );
    // linear_2_3 changed most (0.4457): the darkest viridis end.
    assert!(node(dot, "linear_2_3pass1").contains("fillcolor=\"#440154\""));
}

#[test]
fn a_folded_diff_colours_each_box_by_its_most_changed_op() {
    // Two copies of the 8-block stack with made-up differences: block k's ops differ by k.
    let stack = trace("stack8");
    let values = stack
        .ops
        .iter()
        .map(|op| {
            let block = op
                .modules
                .first()
                .and_then(|m| m.strip_prefix("blocks."))
                .and_then(|m| m.split([':', '.']).next())
                .and_then(|k| k.parse::<f64>().ok())
                .unwrap_or(0.0);
            (op.label.clone(), block / 10.0)
        })
        .collect();
    let bundle = Bundle {
        format: BUNDLE_FORMAT.to_owned(),
        version: FORMAT_VERSION,
        baseline: "a".to_owned(),
        members: ["a", "b"]
            .map(|name| BundleMember {
                name: name.to_owned(),
                trace: stack.clone(),
            })
            .into(),
        deltas: vec![DeltaTable {
            member: "b".to_owned(),
            metric: "relative_l2".to_owned(),
            on: DeltaOn::Out,
            values,
        }],
    };
    let drawing = draw_bundle(
        &bundle,
        &DrawOptions::default().depth(1),
        &BundleOptions::default(),
    )
    .unwrap();
    let dot = &drawing.dot;
    assert!(
        node(dot, "box:blocks.7:1").contains("fillcolor=\"#440154\""),
        "most changed"
    );
    assert!(
        node(dot, "box:blocks.0:1").contains("fillcolor=\"#FDE725\""),
        "unchanged"
    );
}

#[test]
fn union_graphs_list_the_members_that_ran_each_node() {
    let both = union_of(&["backward_twice", "backward"]);
    let options = |graph| BundleOptions {
        graph: BundleGraph::Union(graph),
        ..BundleOptions::default()
    };
    let forward =
        draw_bundle(&both, &DrawOptions::default(), &options(GraphKind::Forward)).unwrap();
    assert!(node(&forward.dot, "relu_1_2pass1").contains("[backward_twice, backward]"));
    let backward = draw_bundle(
        &both,
        &DrawOptions::default(),
        &options(GraphKind::Backward),
    )
    .unwrap();
    // The second backward pass's own steps ran only in backward_twice.
    let own = node(&backward.dot, "bwd:sum_back_2_12:2");
    assert!(
        own.contains("[backward_twice]") && own.contains("dashed"),
        "{own}"
    );
    assert!(node(&backward.dot, "bwd:relu_back_1_5:1").contains("[backward_twice, backward]"));
}

#[test]
fn bundle_requests_that_cannot_be_drawn_are_refused() {
    let code = |bundle: &Bundle, options: BundleOptions| {
        draw_bundle(bundle, &DrawOptions::default(), &options)
            .unwrap_err()
            .code()
    };
    let bundle = bundle();
    let with = |f: fn(&mut BundleOptions)| {
        let mut options = BundleOptions::default();
        f(&mut options);
        options
    };
    assert_eq!(
        code(&bundle, with(|o| o.metric = "l1".to_owned())),
        "metric_name_invalid"
    );
    assert_eq!(
        code(
            &bundle,
            with(|o| o.members = Some(vec!["other".to_owned()]))
        ),
        "bundle_member_unknown"
    );
    assert_eq!(
        code(
            &bundle,
            with(|o| o.members = Some(vec!["clean".to_owned()]))
        ),
        "bundle_member_unknown",
        "a diff needs a member besides the baseline"
    );
    assert_eq!(
        code(&union_of(&["backward", "edited"]), BundleOptions::default()),
        "bundle_deltas_missing"
    );
    let mut no_grads = bundle.clone();
    no_grads.deltas.retain(|d| d.on == DeltaOn::Out);
    assert_eq!(
        code(&no_grads, with(|o| o.on = DeltaOn::Grad)),
        "bundle_metric_unavailable"
    );
}

#[test]
fn a_union_keeps_the_callers_node_hook() {
    let both = union_of(&["backward", "backward_twice"]);
    let options =
        DrawOptions::default().node_spec_fn(|_, node| node.rows.push(tl_draw::Row::plain("mine")));
    let drawing = draw_bundle(
        &both,
        &options,
        &BundleOptions {
            graph: BundleGraph::Union(GraphKind::Forward),
            ..BundleOptions::default()
        },
    )
    .unwrap();
    let relu = node(&drawing.dot, "relu_1_2pass1");
    assert!(
        relu.contains("[backward, backward_twice]") && relu.contains("mine"),
        "{relu}"
    );
}

#[test]
fn a_union_draws_the_branches_each_member_took() {
    let both = union_of(&["branch_true", "branch_false"]);
    let drawing = draw_bundle(
        &both,
        &DrawOptions::default(),
        &BundleOptions {
            graph: BundleGraph::Union(GraphKind::Forward),
            ..BundleOptions::default()
        },
    )
    .unwrap();
    let dot = &drawing.dot;
    // Both arms, each run by one member; the shared condition by both.
    let pos = node(dot, "linear_1_3pass1");
    assert!(pos.contains("@pos") && pos.contains("[branch_true]") && pos.contains("dashed"));
    // The other member's linear under the same label is its own node.
    let neg = node(dot, "linear_1_3@branch_falsepass1");
    assert!(
        neg.contains("@neg") && neg.contains("[branch_false]"),
        "{neg}"
    );
    assert!(node(dot, "gt_1_2pass1").contains("[branch_true, branch_false]"));
    // The output reads from both arms.
    assert_eq!(
        drawing
            .styled
            .edges
            .iter()
            .filter(|e| drawing.styled.nodes[e.to].id == "output_1pass1")
            .count(),
        2
    );
    // Each member's output had one input: the union's two arrows into it are alternatives,
    // not `arg 0` and `arg 1` of one call.
    assert!(drawing
        .styled
        .edges
        .iter()
        .all(|e| e.head_label.is_empty() && e.label.iter().all(|t| !t.text.starts_with("arg"))));
    // The caption is short lines without markup, each said only when drawn.
    let caption: Vec<&str> = drawing
        .styled
        .header
        .iter()
        .map(|row| row.text.as_str())
        .collect();
    let union_rows = &caption[caption
        .iter()
        .position(|r| r.starts_with("union of"))
        .unwrap()..];
    assert_eq!(
        union_rows,
        [
            "union of branch_true, branch_false",
            "[names]: the members that ran a node",
            "dashed: not every member ran it",
            "name@member: that member's own op under a label another used"
        ]
    );
    assert!(union_rows.iter().all(|r| r.len() <= 70 && !r.contains('`')));
}
