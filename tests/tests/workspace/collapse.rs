//! The guide's collapse numbers, drawn through the facade: node counts at each level, the
//! capsule at `max`, `@blocks` with `x2` at `auto` on 40 blocks, focus, repeat folds.

use tl_draw::{draw, Collapse, DrawOptions, Trace};
use tl_style::{Shape, StyledGraph};
use tl_tests::{check_golden, fixtures_dir};

fn trace(name: &str) -> Trace {
    Trace::load(fixtures_dir().join(format!("{name}.json"))).unwrap()
}

fn drawn(name: &str, options: DrawOptions) -> StyledGraph {
    let drawing = draw(&trace(name), &options).unwrap();
    check_golden(
        &format!("dot/{name}.{}.dot", golden_name(&options)),
        &drawing.dot,
    );
    drawing.styled
}

fn golden_name(options: &DrawOptions) -> String {
    let settings = options.settings();
    match (settings.collapse, &settings.module, settings.fold_repeats) {
        (_, Some(module), _) => format!("focus_{module}"),
        (Collapse::Level(level), ..) => format!("collapse_{level}"),
        (Collapse::None, _, Some(true)) => "fold_repeats".to_owned(),
        (collapse, ..) => format!("collapse_{collapse:?}").to_lowercase(),
    }
}

fn titles(graph: &StyledGraph) -> Vec<String> {
    graph.nodes.iter().map(|n| n.rows[0].text.clone()).collect()
}

#[test]
fn stack8_levels_fold_by_equal_ratios() {
    assert_eq!(drawn("stack8", DrawOptions::default()).nodes.len(), 44);
    let quarter = drawn(
        "stack8",
        DrawOptions::default().collapse(Collapse::Level(0.25)),
    );
    assert_eq!(quarter.nodes.len(), 32);
    let boxes: Vec<String> = quarter
        .nodes
        .iter()
        .filter(|n| n.shape == Shape::Box3d)
        .map(|n| n.rows[0].text.clone())
        .collect();
    assert_eq!(
        boxes,
        ["@blocks.0", "@blocks.1", "@blocks.2", "@blocks.3"],
        "the first four blocks"
    );
    let half = drawn(
        "stack8",
        DrawOptions::default().collapse(Collapse::Level(0.5)),
    );
    assert_eq!(half.nodes.len(), 20);
    // Each block's residual add stays visible beside its box.
    assert_eq!(
        half.nodes
            .iter()
            .filter(|n| n.rows[0].text.starts_with("add_"))
            .count(),
        8
    );
}

#[test]
fn stack8_max_has_the_capsule_of_the_first_six_blocks() {
    let max = drawn("stack8", DrawOptions::default().collapse(Collapse::Max));
    assert_eq!(max.nodes.len(), 9);
    let capsule = max
        .nodes
        .iter()
        .find(|n| n.rounded && n.dashed)
        .expect("a dashed rounded capsule");
    assert_eq!(
        capsule.rows[0].text,
        "blocks.0-5 -- 6 blocks, 30 ops, 1.78K params"
    );
}

#[test]
fn stack40_auto_is_one_blocks_box_fed_twice_by_the_embedding() {
    let auto = drawn("stack40", DrawOptions::default().collapse(Collapse::Auto));
    assert_eq!(
        titles(&auto),
        [
            "input_1",
            "linear_1_1",
            "@blocks",
            "linear_82_202",
            "output_1"
        ]
    );
    let into_blocks = auto.edges.iter().find(|e| e.to == 2).unwrap();
    assert_eq!(
        into_blocks
            .label
            .iter()
            .map(|l| l.text.as_str())
            .collect::<Vec<_>>(),
        ["x2"]
    );
    // The header still counts the whole network.
    assert_eq!(auto.header[1].text, "202 operations (17.6 KB of outputs)");
}

#[test]
fn focus_on_a_module_list_child() {
    let focus = drawn("stack8", DrawOptions::default().module("blocks.1"));
    assert_eq!(focus.header[0].text, "Stack > blocks.1");
    assert_eq!(focus.header[1].text, "Block");
    let stubs: Vec<String> = titles(&focus)
        .into_iter()
        .filter(|t| t.starts_with("from ") || t.starts_with("to "))
        .collect();
    assert_eq!(
        stubs,
        [
            "from add_1_6 (@blocks.0)",
            "to layernorm_3_12 (@blocks.2.norm)",
            "to add_3_16 (@blocks.2)"
        ]
    );
    assert!(
        focus.legend.is_some(),
        "a focused drawing shows its reading key"
    );
    let error = draw(&trace("stack8"), &DrawOptions::default().module("blocks.9")).unwrap_err();
    assert_eq!(error.code(), "module_focus_not_found");
    // It suggests real addresses of this model, nearest first, never a made-up example.
    assert!(
        error
            .to_string()
            .contains("the nearest addresses it has are 'blocks.0', 'blocks.1', 'blocks.2'"),
        "{error}"
    );
    let error = draw(&trace("gpt2"), &DrawOptions::default().module("attn")).unwrap_err();
    assert!(
        error.to_string().contains("'transformer.h.0.attn'")
            && !error.to_string().contains("features"),
        "{error}"
    );
}

/// The guide: fold_repeats=False "never folds". At `max` the stack's six identical blocks
/// are one capsule (a fold of repeats); with False each block is its own box instead.
#[test]
fn fold_repeats_false_never_folds_even_at_max() {
    let trace = trace("stack8");
    let max = draw(&trace, &DrawOptions::default().collapse(Collapse::Max)).unwrap();
    assert!(titles(&max.styled).iter().any(|t| t.contains("6 blocks")));
    let unfolded = draw(
        &trace,
        &DrawOptions::default()
            .collapse(Collapse::Max)
            .fold_repeats(false),
    )
    .unwrap();
    let titles = titles(&unfolded.styled);
    assert!(!titles
        .iter()
        .any(|t| t.contains("blocks.0-5") || t.contains('\u{2026}')));
    for block in 0..8 {
        assert!(
            titles.contains(&format!("@blocks.{block}")),
            "blocks.{block} boxed: {titles:?}"
        );
    }
}

#[test]
fn repeat_folds_draw_the_first_member_and_an_ellipsis() {
    let folded = drawn("stack8", DrawOptions::default().fold_repeats(true));
    assert_eq!(
        titles(&folded),
        [
            "input_1",
            "linear_1_1",
            "@blocks.0",
            "... +7 more Block",
            "linear_18_42",
            "output_1"
        ]
    );
}

#[test]
fn rolled_recurrent_reads_like_the_guide() {
    let drawing = draw(&trace("recurrent"), &DrawOptions::default().rolled(true)).unwrap();
    check_golden("dot/recurrent.rolled.dot", &drawing.dot);
    let graph = drawing.styled;
    assert_eq!(
        titles(&graph),
        [
            "input_1",
            "zeroslike_1_1",
            // The guide: "(x3) after a name says the layer ran three times"; the address
            // row lists its three separate calls.
            "linear_1_2 (x3)",
            "linear_2_3 (x3)",
            "add_1_4 (x3)",
            "tanh_1_5 (x3)",
            "output_1"
        ]
    );
    let rows = |title: &str| -> Vec<String> {
        graph
            .nodes
            .iter()
            .find(|n| n.rows[0].text == title)
            .unwrap()
            .rows
            .iter()
            .map(|r| r.text.clone())
            .collect()
    };
    assert!(
        rows("linear_1_2 (x3)").contains(&"@inp:1,2,3".to_owned()),
        "independent calls are call groups"
    );
    assert!(rows("linear_2_3 (x3)").contains(&"@rec".to_owned()));
    let edge = |from: &str, to: &str| {
        let find = |t: &str| {
            graph
                .nodes
                .iter()
                .position(|n| n.rows[0].text.starts_with(t))
                .unwrap()
        };
        graph
            .edges
            .iter()
            .find(|e| e.from == find(from) && e.to == find(to))
            .unwrap()
            .clone()
    };
    assert_eq!(edge("zeroslike_1_1", "linear_2_3").head_label, ["In 1"]);
    let back = edge("tanh_1_5", "linear_2_3");
    let texts: Vec<&str> = back.label.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(texts, ["In 2-3", "Out 1-2"], "the recurrence back-edge");
    assert_eq!(edge("tanh_1_5", "output_1").tail_label, ["Out 3"]);
    let plain = edge("add_1_4", "tanh_1_5");
    assert!(
        plain.label.is_empty() && plain.head_label.is_empty() && plain.tail_label.is_empty(),
        "used on every pass"
    );
}

#[test]
fn rolled_drawings_box_by_depth() {
    let drawing = draw(
        &trace("gpt2"),
        &DrawOptions::default().rolled(true).depth(2),
    )
    .unwrap();
    check_golden("dot/gpt2.rolled_depth2.dot", &drawing.dot);
    let graph = drawing.styled;
    let boxes: Vec<String> = graph
        .nodes
        .iter()
        .filter(|n| n.shape == Shape::Box3d)
        .map(|n| n.rows[0].text.clone())
        .collect();
    assert_eq!(boxes, ["@transformer.h.0", "@transformer.h.1"]);
    assert!(
        graph.edges.iter().all(|e| e.from != e.to),
        "what runs inside a box stays inside it"
    );
}

#[test]
fn rolled_drawings_take_the_collapse_plan_folds_and_focus() {
    // A model without loops rolls to its unrolled drawing, folded the same way.
    for options in [
        DrawOptions::default().collapse(Collapse::Level(0.5)),
        DrawOptions::default().collapse(Collapse::Max),
        DrawOptions::default().fold_repeats(true),
        DrawOptions::default().module("blocks.1"),
    ] {
        let sorted = |graph: StyledGraph| {
            let mut titles = titles(&graph);
            titles.sort();
            titles
        };
        let unrolled = draw(&trace("stack8"), &options).unwrap().styled;
        let rolled = draw(&trace("stack8"), &options.rolled(true))
            .unwrap()
            .styled;
        assert_eq!(sorted(rolled), sorted(unrolled));
    }
    // Focus inside a loop: one node per layer, one stub per outside layer (all passes).
    let focus = drawn(
        "recurrent",
        DrawOptions::default().rolled(true).module("rec"),
    );
    let mut rows: Vec<String> = focus.nodes.iter().map(|n| n.rows[0].text.clone()).collect();
    rows.sort();
    assert_eq!(
        rows,
        [
            "from tanh_1_5",
            "from zeroslike_1_1",
            "linear_2_3 (x3)",
            "to add_1_4"
        ]
    );
}

/// A residual arrow passing a block's box runs inside the block's frame: the frames such
/// long arrows enter or leave get a wider margin (36 pt, else 20) so the arrow is not
/// squeezed against the border; frames no long arrow crosses keep the usual margin.
#[test]
fn frames_crossed_by_long_arrows_leave_them_room() {
    let half = draw(&trace("stack8"), &DrawOptions::default().depth(2)).unwrap();
    let blocks: Vec<_> = half
        .styled
        .clusters
        .iter()
        .filter(|c| c.title.starts_with("@blocks."))
        .collect();
    assert_eq!(blocks.len(), 8);
    assert!(
        blocks.iter().all(|c| c.margin == 36),
        "every block has a skip arrow"
    );
    assert_eq!(half.dot.matches("margin=36").count(), 8);
    let convnet = draw(&trace("convnet"), &DrawOptions::default()).unwrap();
    assert!(convnet.styled.clusters.iter().all(|c| c.margin == 20));
}

/// A leaf module with two outputs fed from outside (`nn.LSTMCell` returning `(h, c)`):
/// each output is the module's rectangle with its address row (`@cell:1`), with no frame,
/// as TorchLens draws it (the node-by-node test compares the rest); rolled, the same with
/// `(x3)`. The arrows from one step's `(h, c)` into the next keep their argument positions
/// (2.36.1 drops them for a parent layer that ran several times: docs/decisions.md).
#[test]
fn a_leaf_module_with_two_outputs_draws_each_as_its_rectangle() {
    let loop_trace = trace("cell_loop");
    let unrolled = draw(&loop_trace, &DrawOptions::default()).unwrap();
    assert!(
        unrolled.styled.clusters.is_empty(),
        "no frame around a leaf's outputs"
    );
    for step in 1..=3 {
        for layer in ["lstmcell_1_4", "lstmcell_2_5"] {
            let node = unrolled
                .styled
                .nodes
                .iter()
                .find(|n| n.rows[0].text == format!("{layer}:{step}"))
                .unwrap();
            assert_eq!(node.shape, Shape::Box);
            assert_eq!(node.rows.last().unwrap().text, format!("@cell:{step}"));
        }
    }
    let into_step_2: Vec<String> = unrolled
        .styled
        .edges
        .iter()
        .filter(|e| unrolled.styled.nodes[e.to].id == "lstmcell_1_4pass2")
        .flat_map(|e| e.head_label.clone())
        .collect();
    assert_eq!(into_step_2, ["arg 0", "arg (1, 0)", "arg (1, 1)"]);
    let rolled = draw(&loop_trace, &DrawOptions::default().rolled(true)).unwrap();
    assert!(rolled.styled.clusters.is_empty());
    let titles = titles(&rolled.styled);
    assert!(
        titles.contains(&"lstmcell_1_4 (x3)".to_owned()),
        "{titles:?}"
    );
}

/// A loop too long to read pass by pass: `max` capsules the unrolled passes, while a rolled
/// drawing keeps the loop (one node per layer, `(x20)`), never capsules over passes, so
/// `--rolled --collapse max` draws what `--rolled` does. Before, it drew per-pass capsules
/// and no loop.
#[test]
fn a_rolled_max_drawing_keeps_the_loop() {
    let long = trace("long_loop");
    let unrolled_max = draw(&long, &DrawOptions::default().collapse(Collapse::Max)).unwrap();
    let full = draw(&long, &DrawOptions::default()).unwrap();
    assert!(unrolled_max.styled.nodes.len() * 4 < full.styled.nodes.len());
    let rolled = draw(&long, &DrawOptions::default().rolled(true))
        .unwrap()
        .styled;
    let rolled_max = draw(
        &long,
        &DrawOptions::default().rolled(true).collapse(Collapse::Max),
    )
    .unwrap();
    assert_eq!(titles(&rolled_max.styled), titles(&rolled));
    assert!(
        titles(&rolled).contains(&"tanh_1_5 (x20)".to_owned()),
        "{:?}",
        titles(&rolled)
    );
}

/// A loop over single-op modules (an RNN's input and recurrent `Linear`, stepped 20 times):
/// `auto` draws the first step op by op and the 19 later ones as one ellipsis saying what
/// they run. Before, `auto` was 4 nodes: two capsules of passes split at step 12 (issue 29).
#[test]
fn auto_draws_a_long_loop_as_its_first_step_and_the_later_ones() {
    let auto = drawn("long_loop", DrawOptions::default().collapse(Collapse::Auto));
    assert_eq!(
        titles(&auto),
        [
            "input_1",
            "zeroslike_1_1",
            "linear_1_2:1",
            "linear_2_3:1",
            "add_1_4:1",
            "tanh_1_5:1",
            "mul_1_6:1",
            "... +19 more steps of the loop",
            "linear_3_7",
            "output_1"
        ]
    );
    let ellipsis: Vec<&str> = auto.nodes[7].rows.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(
        ellipsis[1..],
        [
            "@inp, @rec (Linear): 19 calls each",
            "and 57 other ops (add, tanh, mul)"
        ]
    );
}

/// Capsules pass condition tests, as TorchLens's do: on the branching and control-flow
/// fixtures `max` draws 4 nodes, TorchLens 2.36.1's count on the same traces (before,
/// 6 and 36: every condition broke the run).
#[test]
fn max_capsules_run_through_condition_tests() {
    for name in ["branch_true", "control_flow"] {
        let max = draw(
            &trace(name),
            &DrawOptions::default().collapse(Collapse::Max),
        )
        .unwrap();
        assert_eq!(
            max.styled.nodes.len(),
            4,
            "{name}: {:?}",
            titles(&max.styled)
        );
    }
}

#[test]
fn a_rolled_drawing_keeps_the_argument_labels_of_each_pass() {
    // The 4-layer Llama runs no loop: rolled, its arrows say which argument each tensor
    // fills exactly as unrolled (they all had none before: a layer's slots were not read).
    let trace = Trace::load(fixtures_dir().join("real/llama_4.json")).unwrap();
    let slots = |graph: &StyledGraph| -> Vec<(usize, usize, Vec<String>)> {
        graph
            .edges
            .iter()
            .filter(|e| {
                e.head_label
                    .iter()
                    .any(|t| t.starts_with("arg") || t.starts_with("kwarg"))
            })
            .map(|e| (e.from, e.to, e.head_label.clone()))
            .collect()
    };
    let unrolled = draw(&trace, &DrawOptions::default()).unwrap().styled;
    let rolled = draw(&trace, &DrawOptions::default().rolled(true))
        .unwrap()
        .styled;
    assert!(slots(&unrolled).len() >= 40, "{}", slots(&unrolled).len());
    assert_eq!(slots(&rolled), slots(&unrolled));
}

/// The guide: fold_repeats=True "folds every repeated run it can", 0.0 is the same as
/// "none", and a larger level never shows more. Before, the eight-block stack drew 6 nodes
/// at "none", 44 at 0.0, 6 at 0.5, 38 at "auto" and 9 at "max"; loops did not fold.
#[test]
fn fold_repeats_true_folds_at_every_level_and_levels_only_fold_more() {
    // Runs of identical blocks, and loops of calls (an RNN's steps, an LSTMCell's).
    for name in ["stack8", "stack40", "long_loop", "cell_loop"] {
        let trace = trace(name);
        let nodes = |options: DrawOptions| draw(&trace, &options).unwrap().styled.nodes.len();
        let count = |collapse: Collapse| {
            nodes(DrawOptions::default().fold_repeats(true).collapse(collapse))
        };
        let none = count(Collapse::None);
        assert_eq!(count(Collapse::Level(0.0)), none, "{name}: 0.0 is none");
        let mut previous = none;
        for level in [0.25, 0.5, 0.75, 1.0] {
            let nodes = count(Collapse::Level(level));
            assert!(
                nodes <= previous,
                "{name}: {level} draws {nodes} > {previous}"
            );
            previous = nodes;
        }
        assert!(count(Collapse::Max) <= previous, "{name}: max");
        assert!(count(Collapse::Auto) <= none, "{name}: auto");
        // Folded: fewer nodes than without the fold at the same level.
        let unfolded = nodes(DrawOptions::default().collapse(Collapse::Level(0.0)));
        assert!(none < unfolded, "{name}: {none} vs {unfolded}");
    }
}
