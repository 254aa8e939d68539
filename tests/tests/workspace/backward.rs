//! Backward and combined drawings: golden DOT, TorchLens 2.36.1's own backward drawing
//! step by step (with the guide's differences: `[i]` steps have no `grad` row, the key is
//! drawn only with `show_legend=True`), passes drawn apart, and the refusals.
//! `TL_UPDATE_GOLDEN=1` rewrites the golden files.

use std::collections::{BTreeMap, BTreeSet};

use tl_draw::{draw, Collapse, Direction, DrawOptions, GraphKind, Trace};
use tl_tests::reference_dot::parse_reference;
use tl_tests::{check_golden, fixtures_dir};

fn trace(name: &str) -> Trace {
    Trace::load(fixtures_dir().join(format!("{name}.json"))).unwrap()
}

fn backward() -> DrawOptions {
    DrawOptions::default().graph(GraphKind::Backward)
}

#[test]
fn golden_backward_and_combined_drawings() {
    let cases = [
        ("backward", "backward", backward()),
        (
            "backward",
            "backward.paths_values_key",
            backward()
                .show_module_paths(true)
                .show_grad_values(true)
                .show_legend(true),
        ),
        ("backward_twice", "backward", backward()),
        (
            "backward",
            "combined",
            DrawOptions::default().graph(GraphKind::Combined),
        ),
    ];
    for (fixture, name, options) in cases {
        let dot = draw(&trace(fixture), &options).unwrap().dot;
        check_golden(&format!("dot/{fixture}.{name}.dot"), &dot);
    }
}

#[test]
fn steps_match_torchlens_backward_drawing() {
    for fixture in ["backward", "backward_twice"] {
        let reference = std::fs::read_to_string(
            fixtures_dir()
                .join("reference")
                .join(format!("{fixture}.backward.dot")),
        )
        .unwrap();
        let (nodes, edges) = parse_reference(&reference, true);
        // TorchLens names nodes by object id; both drawings are read by title.
        let title = |rows: &[String]| rows[0].clone();
        // Their key is a node too (drawn by default there, only with show_legend=True here).
        let theirs: BTreeMap<String, Vec<String>> = nodes
            .values()
            .filter(|n| n.rows[0] != "backward key")
            .map(|n| {
                let rows: Vec<String> = n
                    .rows
                    .iter()
                    .filter(|r| *r != "grad N/A" && !r.starts_with("bwd "))
                    .cloned()
                    .collect();
                (title(&n.rows), rows)
            })
            .collect();
        let drawing = draw(&trace(fixture), &backward()).unwrap();
        let styled = &drawing.styled;
        let mut ours: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for node in &styled.nodes {
            let rows: Vec<String> = node
                .rows
                .iter()
                .map(|r| r.text.clone())
                .filter(|r| !r.starts_with("bwd "))
                .collect();
            // Passes drawn apart repeat a step once per pass: the rows agree.
            let previous = ours.insert(rows[0].clone(), rows.clone());
            assert!(previous.is_none_or(|p| p == rows), "{fixture}: {}", rows[0]);
        }
        assert_eq!(ours, theirs, "{fixture}: steps and their rows");
        let id_title: BTreeMap<&str, String> = nodes
            .iter()
            .map(|(id, n)| (id.as_str(), title(&n.rows)))
            .collect();
        let their_edges: BTreeSet<(String, String, bool)> = edges
            .iter()
            .map(|((from, to), labels)| {
                (
                    id_title[from.as_str()].clone(),
                    id_title[to.as_str()].clone(),
                    labels.iter().any(|l| l == "accum"),
                )
            })
            .collect();
        let our_edges: BTreeSet<(String, String, bool)> = styled
            .edges
            .iter()
            .map(|e| {
                (
                    styled.nodes[e.from].rows[0].text.clone(),
                    styled.nodes[e.to].rows[0].text.clone(),
                    e.label.iter().any(|l| l.text == "accum"),
                )
            })
            .collect();
        assert_eq!(our_edges, their_edges, "{fixture}: arrows and accum marks");
    }
}

#[test]
fn two_passes_each_get_a_dashed_box_and_name_their_pass() {
    let drawing = draw(&trace("backward_twice"), &backward()).unwrap();
    let styled = &drawing.styled;
    let titles: Vec<&str> = styled.clusters.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(titles, ["backward pass 1", "backward pass 2"]);
    assert!(styled.clusters.iter().all(|c| c.dashed));
    for node in &styled.nodes {
        let pass = node.cluster.unwrap() + 1;
        assert!(
            node.rows.iter().any(|r| r.text == format!("bwd {pass}")),
            "{}",
            node.id
        );
    }
    assert!(
        drawing.dot.contains("rankdir=TB"),
        "backward flows top down"
    );
}

#[test]
fn module_paths_values_and_the_key_are_opt_in() {
    let plain = draw(&trace("backward"), &backward()).unwrap();
    assert!(plain.styled.legend.is_none());
    assert!(!plain.dot.contains("param fc2.bias"));
    let full = draw(
        &trace("backward"),
        &backward()
            .show_module_paths(true)
            .show_grad_values(true)
            .show_legend(true),
    )
    .unwrap();
    assert!(full.dot.contains("param fc2.bias") && full.dot.contains("module fc2"));
    assert!(full.dot.contains("norm=2.83 max|g|=1"));
    let key = full.styled.legend.unwrap();
    assert!(key.entries.iter().any(|e| e.text.starts_with("accum = ")));
}

#[test]
fn combined_links_each_forward_op_to_its_step() {
    let drawing = draw(
        &trace("backward"),
        &DrawOptions::default().graph(GraphKind::Combined),
    )
    .unwrap();
    let dot = &drawing.dot;
    assert!(dot.contains("rankdir=LR"), "combined flows left to right");
    for (op, step) in [
        ("linear_1_1pass1", "bwd:addmm_back_2_7"),
        ("relu_1_2pass1", "bwd:relu_back_1_5"),
        ("linear_2_3pass1", "bwd:addmm_back_1_3"),
    ] {
        let link = format!("\"{op}\" -> \"{step}\"");
        let line = dot
            .lines()
            .find(|l| l.contains(&link))
            .unwrap_or_else(|| panic!("{link}"));
        assert!(line.contains("constraint=false") && line.contains("style=dashed"));
    }
    // A direction passed wins over the graph's default.
    let down = draw(
        &trace("backward"),
        &DrawOptions::default()
            .graph(GraphKind::Combined)
            .direction(Direction::TopDown),
    )
    .unwrap();
    assert!(down.dot.contains("rankdir=TB"));
}

#[test]
fn backward_drawings_refuse_what_they_cannot_draw() {
    let code =
        |fixture: &str, options: DrawOptions| draw(&trace(fixture), &options).unwrap_err().code();
    assert_eq!(code("convnet", backward()), "backward_graph_unavailable");
    assert_eq!(
        code("convnet", DrawOptions::default().graph(GraphKind::Combined)),
        "backward_graph_unavailable"
    );
    assert_eq!(
        code("backward", backward().module("fc1")),
        "module_focus_graph_invalid"
    );
    assert_eq!(
        code("backward", backward().collapse(Collapse::Auto)),
        "backward_option_invalid"
    );
}

/// Every text an arrow carries reads on the page (4.5:1), forward and backward: the
/// backward ink is light, so its labels take a darker shade of it.
#[test]
fn arrow_text_reads_on_the_page() {
    for (name, options) in [
        ("backward", backward()),
        (
            "backward",
            DrawOptions::default().graph(GraphKind::Combined),
        ),
        ("recurrent", DrawOptions::default().rolled(true)),
    ] {
        let drawing = draw(&trace(name), &options).unwrap();
        let page = &drawing.styled.style.page;
        for edge in &drawing.styled.edges {
            let text = edge
                .look
                .as_ref()
                .map_or(&drawing.styled.style.edge_font_color, |look| {
                    &look.font_color
                });
            let contrast = tl_style::contrast::ratio(text, page);
            assert!(
                contrast >= 4.5,
                "{name}: arrow text {text} on {page}: {contrast:.2}"
            );
        }
    }
}
