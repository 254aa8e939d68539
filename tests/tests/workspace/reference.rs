//! Node by node against TorchLens 2.36.1: for every forward fixture and every real
//! architecture, the reference DOT in `fixtures/reference/` or `fixtures/real/reference/`
//! (TorchLens's own default drawing of the same trace) and tl-draw's
//! default drawing must agree on every node's rows, shape, fill and border count, and on
//! the arrows and their IF/THEN labels, except for the differences the guide asks for
//! (docs/decisions.md):
//!
//! * the condition row reads `IF: TRUE` / `IF: FALSE`, not `TRUE` / `FALSE`, with the word of
//!   its kind of test (`WHILE: TRUE`, `ASSERT: TRUE`, ...; [`tl_style::condition_word`]);
//! * a 0-d output reads `scalar, 4 B` and its value follows (`= 0.477`), not `(), 4 B`;
//! * arguments equal to their defaults (`eps=1e-05`, `momentum=0.1`, `padding_idx=-1`) are
//!   not shown;
//! * gradient arrows are drawn by `graph="combined"`, not by the forward drawing;
//! * a node carrying a picture (the input photo) is a rounded box with the picture above
//!   its rows; 2.36.1 draws no thumbnail for it;
//! * an edited op names its edit in a last row (`edited: zero_ablate`); 2.36.1 marks it
//!   with a magenta border only;
//! * a node's `annotate(data=...)` entries are rows under its other rows (`note: ...`);
//!   2.36.1 does not draw them;
//! * an output node with decoded class names keeps its rows (name, shape, address) and lists
//!   the names under them in a rounded box; 2.36.1 replaces its rows with `output`,
//!   `item 0` and the names, in an oval;
//! * the name is always the key that reads the record back: after a layer with several
//!   passes, 2.36.1 titles some nodes with its rewritten step counter (`layernorm_3_28` for
//!   the op that `trace["layernorm_3_27"]` returns).

use std::collections::{BTreeSet, HashMap};

use tl_draw::{draw, Collapse, DrawOptions, Trace};
use tl_style::{Fill, Shape, StyledNode};
use tl_tests::reference_dot::{parse_reference, EdgeLabels, ReferenceNode};
use tl_tests::{fixture_files, fixtures_dir, is_bundle};
use tl_trace_model::ConditionKind;

/// Arguments TorchLens shows although they equal their defaults.
const DEFAULT_ARGUMENTS: [&str; 3] = ["eps=1e-05", "momentum=0.1", "padding_idx=-1"];

/// The reference rows with the guide's deliberate differences applied; `name` is the
/// node's lookup key, `condition` the kind of test it decided, if any.
fn expected_rows(
    reference: &[String],
    name: &str,
    condition: Option<&ConditionKind>,
) -> Vec<String> {
    let mut rows = Vec::new();
    let same_layer_but_step = |row: &str| {
        let prefix = |text: &str| text.rsplit_once('_').map(|(head, _)| head.to_owned());
        row != name && !name.contains(':') && prefix(row).is_some() && prefix(row) == prefix(name)
    };
    for (position, row) in reference.iter().enumerate() {
        if position <= 1 && same_layer_but_step(row) {
            rows.push(name.to_owned());
        } else if position == 0 && (row == "TRUE" || row == "FALSE") {
            rows.push(format!(
                "{}: {row}",
                condition.map_or("IF", tl_style::condition_word)
            ));
        } else if let Some(size) = row.strip_prefix("(), ") {
            rows.push(format!("scalar, {size}"));
        } else if row.contains('=') && !row.starts_with('@') && !row.starts_with("params:") {
            let kept: Vec<&str> = row
                .split(", ")
                .filter(|item| !DEFAULT_ARGUMENTS.contains(item))
                .collect();
            if !kept.is_empty() {
                rows.push(kept.join(", "));
            }
        } else {
            rows.push(row.clone());
        }
    }
    rows
}

fn shape_name(shape: Shape) -> &'static str {
    shape.dot_name()
}

fn fill_name(fill: &Fill) -> String {
    match fill {
        Fill::Solid(color) => color.to_ascii_lowercase(),
        Fill::Gradient(a, b) => format!("{a}:{b}").to_ascii_lowercase(),
    }
}

/// One node of ours against TorchLens's node of the same id: rows (the guide's differences
/// applied), shape, fill and border count.
fn compare_node(
    name: &str,
    node: &StyledNode,
    reference: &ReferenceNode,
    conditions: &HashMap<String, &ConditionKind>,
    annotation_rows: &BTreeSet<String>,
) {
    let mut rows: Vec<String> = node.rows.iter().map(|r| r.text.clone()).collect();
    // Our extra value row under a scalar, the edit row and the annotation rows.
    rows.retain(|row| {
        !row.starts_with("= ") && !row.starts_with("edited: ") && !annotation_rows.contains(row)
    });
    let decoded = reference.rows.get(1).is_some_and(|row| row == "item 0");
    if decoded {
        // Only the class-name rows are comparable (`1. abstract 39%`).
        let ranked = |rows: &[String]| -> Vec<String> {
            rows.iter()
                .filter(|row| {
                    row.split_once(". ")
                        .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
                })
                .cloned()
                .collect()
        };
        assert_eq!(
            ranked(&rows),
            ranked(&reference.rows),
            "{name}: decoded labels"
        );
    } else {
        let condition = conditions.get(node.id.as_str());
        let title = &rows[usize::from(condition.is_some())];
        assert_eq!(
            rows,
            expected_rows(&reference.rows, title, condition.copied()),
            "{name}: rows of {}",
            node.id
        );
    }
    // A node carrying a picture or decoded names is a rounded box (the guide);
    // 2.36.1 draws no picture and an oval.
    let reference_shape = if node.picture.is_some() || decoded {
        "box"
    } else {
        reference.shape.as_str()
    };
    assert_eq!(
        shape_name(node.shape),
        reference_shape,
        "{name}: shape of {}",
        node.id
    );
    assert_eq!(
        fill_name(&node.fill),
        reference.fill,
        "{name}: fill of {}",
        node.id
    );
    assert_eq!(
        node.peripheries.unwrap_or(1),
        reference.peripheries,
        "{name}: borders of {}",
        node.id
    );
}

#[test]
fn default_drawings_match_torchlens_node_by_node() {
    let mut compared = 0;
    // The guide's fixtures and the real architectures (those with TorchLens's DOT: the depth
    // variants of GPT-2 have none).
    let mut real: Vec<_> = std::fs::read_dir(fixtures_dir().join("real"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    real.sort();
    for path in fixture_files().into_iter().chain(real) {
        let text = std::fs::read_to_string(&path).unwrap();
        if is_bundle(&text) {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let reference_file = path
            .parent()
            .unwrap()
            .join("reference")
            .join(format!("{name}.dot"));
        let Ok(reference) = std::fs::read_to_string(&reference_file) else {
            assert!(
                path.starts_with(fixtures_dir().join("real")),
                "{name}: no reference"
            );
            continue;
        };
        let (reference_nodes, reference_edges) = parse_reference(&reference, false);
        let trace = Trace::from_json(&text).unwrap();
        // `force`: Mamba's 5,103 nodes are over the layout guard, and nothing is laid out.
        let drawing = draw(&trace, &DrawOptions::default().force(true)).unwrap();
        let styled = &drawing.styled;

        let ours: BTreeSet<&str> = styled.nodes.iter().map(|n| n.id.as_str()).collect();
        // Node ids are labels with `:` spelt `pass` (`gt_1_3:1` -> `gt_1_3pass1`).
        let conditions: HashMap<String, &ConditionKind> = trace
            .ops
            .iter()
            .filter_map(|op| Some((op.label.replace(':', "pass"), &op.condition.as_ref()?.kind)))
            .collect();
        let theirs: BTreeSet<&str> = reference_nodes.keys().map(String::as_str).collect();
        assert_eq!(ours, theirs, "{name}: the drawn nodes differ");
        let annotation_rows: BTreeSet<String> = trace
            .ops
            .iter()
            .flat_map(|op| op.annotations.iter())
            .map(|(key, value)| format!("{key}: {}", tl_style::args::value_text(value)))
            .collect();
        for node in &styled.nodes {
            compare_node(
                &name,
                node,
                &reference_nodes[&node.id],
                &conditions,
                &annotation_rows,
            );
        }

        let our_edges: EdgeLabels = styled
            .edges
            .iter()
            .map(|edge| {
                let labels: Vec<String> = edge
                    .label
                    .iter()
                    .filter(|t| t.size == tl_style::EdgeTextSize::Emphasis)
                    .map(|t| t.text.clone())
                    .collect();
                (
                    (
                        styled.nodes[edge.from].id.clone(),
                        styled.nodes[edge.to].id.clone(),
                    ),
                    labels,
                )
            })
            .collect();
        let our_keys: BTreeSet<_> = our_edges.keys().collect();
        let their_keys: BTreeSet<_> = reference_edges.keys().collect();
        assert_eq!(our_keys, their_keys, "{name}: the arrows differ");
        for (key, labels) in &our_edges {
            let theirs: Vec<String> = reference_edges[key]
                .iter()
                .filter(|l| matches!(l.as_str(), "IF" | "THEN" | "ELSE"))
                .cloned()
                .collect();
            assert_eq!(labels, &theirs, "{name}: IF/THEN label of {key:?}");
        }
        compared += 1;
    }
    assert!(
        compared >= 28,
        "compared only {compared} fixtures (18 and 10 real)"
    );
}

/// At `auto` and `max` the two planners fold differently (docs/decisions.md, the `max`
/// planner; docs/schedules.md), so the node sets differ; every operation both draw as its
/// own node must still read and look the same (rows, shape, fill, borders), on every real
/// architecture with TorchLens's collapsed drawings.
#[test]
fn collapsed_drawings_agree_with_torchlens_on_every_operation_both_draw() {
    let mut compared = 0;
    let folder = fixtures_dir().join("real");
    for name in [
        "bert_base",
        "densenet121",
        "gpt2_small",
        "llama_32",
        "llama_4",
        "lstm_gru",
        "lstmcell_64",
        "mixtral_4",
        "mobilenet_v3_large",
        "resnet50",
        "t5_small",
        "unet",
        "vae_dict",
        "vit_b_16",
        "whisper_tiny",
    ] {
        let text = std::fs::read_to_string(folder.join(format!("{name}.json"))).unwrap();
        let trace = Trace::from_json(&text).unwrap();
        let conditions: HashMap<String, &ConditionKind> = trace
            .ops
            .iter()
            .filter_map(|op| Some((op.label.replace(':', "pass"), &op.condition.as_ref()?.kind)))
            .collect();
        let annotation_rows = BTreeSet::new();
        for (level, collapse) in [("auto", Collapse::Auto), ("max", Collapse::Max)] {
            let reference = std::fs::read_to_string(
                folder.join("reference").join(format!("{name}.{level}.dot")),
            )
            .unwrap();
            let (reference_nodes, _) = parse_reference(&reference, false);
            let drawing = draw(&trace, &DrawOptions::default().collapse(collapse)).unwrap();
            for node in &drawing.styled.nodes {
                // Operation nodes: ids are labels with `:` spelt `pass`.
                if let (true, Some(reference)) =
                    (node.id.contains("pass"), reference_nodes.get(&node.id))
                {
                    compare_node(
                        &format!("{name} at {level}"),
                        node,
                        reference,
                        &conditions,
                        &annotation_rows,
                    );
                    compared += 1;
                }
            }
        }
    }
    // GPT-2's 24 cache outputs are one node of tl-draw's own when folded: fewer to compare.
    assert!(compared >= 90, "compared only {compared} nodes");
}
