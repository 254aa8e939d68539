//! graphviz-pure's `dot` sizes every node twice inside its layout, and its writers once
//! more; it measures every arrow's and frame's label, and its writers again. `tl-layout`
//! measures the nodes and labels once, before the layout, and hands them to its patch of
//! `dot` (which reads them instead of measuring) and then to the writers. Every format
//! must be what graphviz-pure's own facade writes (parse, lay out, render, each label
//! measured two or three times), byte for byte.

use tl_draw::{draw, forget_recent_layouts, DrawOptions, LayoutEngine, Trace, View};
use tl_layout::{lay_out, TextFormat};
use tl_tests::on_guide_and_real_models;

const FORMATS: [TextFormat; 4] = [
    TextFormat::Svg,
    TextFormat::Json,
    TextFormat::Xdot,
    TextFormat::Plain,
];

/// `dot` laid out and written in `format` by graphviz-pure's facade alone, as a new `dot`
/// process would (the writers' counters begin again, as `tl-layout` has them do).
fn by_graphviz_pure(dot: &str, format: TextFormat) -> String {
    graphviz_pure_render::reset_render_state();
    let mut graph = graphviz_pure::parse_dot(dot).unwrap().into_output();
    let _warnings =
        graphviz_pure::layout_graph(&mut graph, graphviz_pure::LayoutEngine::Dot).unwrap();
    let format = graphviz_pure::OutputFormat::parse(format.name()).unwrap();
    graphviz_pure::render_graph(&graph, format)
        .unwrap()
        .into_output()
}

fn assert_written_as_graphviz_pure_writes(name: &str, trace: &Trace, options: &DrawOptions) {
    let options = options.clone().layout_engine(LayoutEngine::Embedded);
    let drawing = draw(trace, &options).unwrap();
    forget_recent_layouts();
    // All formats from one layout, as a PDF with pictures asks for two: the geometries are
    // copied for every job but the last.
    assert_dot_written_as_graphviz_pure_writes(name, &drawing.dot);
}

fn assert_dot_written_as_graphviz_pure_writes(name: &str, dot: &str) {
    let mut laid_out = lay_out(dot, &FORMATS, LayoutEngine::Embedded).unwrap();
    for format in FORMATS {
        assert!(
            laid_out.take(format) == by_graphviz_pure(dot, format),
            "{name}: dot's {} differs from graphviz-pure's own",
            format.name()
        );
    }
}

/// Labels whose text names their arrow's ends or their frame (`\T`, `\H`, `\E`, `\G`),
/// every kind of arrow label, HTML and plain frame captions placed every way, a subgraph
/// that is no frame, in each direction (across the page the captions' room turns). The
/// graph has enough nodes for `dot` to measure them beside its ranking and ordering.
#[test]
fn arrow_and_frame_labels_measured_once_write_as_graphviz_pure_writes() {
    for rankdir in ["TB", "BT", "LR", "RL"] {
        let mut dot =
            format!("digraph G {{ rankdir={rankdir} charset=latin1 node [shape=box fontsize=10]\n");
        for index in 1..80 {
            let previous = index - 1;
            dot.push_str(&match index % 6 {
                0 => format!("n{previous} -> n{index} [label=\"\\T to \\H\"]\n"),
                1 => format!("n{previous} -> n{index} [xlabel=<<B>x{index}</B>> fontsize=8]\n"),
                2 => format!("n{previous} -> n{index} [headlabel=\"arg 1\" taillabel=\"\\E\"]\n"),
                3 => format!(
                    "n{previous} -> n{index} [label=\"caf\u{e9} {index}\" labelfloat=true]\n"
                ),
                _ => format!("n{previous} -> n{index}\n"),
            });
        }
        for index in 0..8 {
            let caption = match index % 4 {
                0 => format!("label=<<B>@block.{index}</B><BR/>(\\G)>"),
                1 => "label=\"frame \\G\" labeljust=r labelloc=b".to_owned(),
                2 => format!("label=\"{index}\" fontname=Courier fontsize=20 labeljust=l"),
                _ => String::new(),
            };
            let kind = if index == 7 { "plain" } else { "cluster" };
            dot.push_str(&format!(
                "subgraph {kind}_{index} {{ {caption} n{} n{} n{} }}\n",
                index * 5,
                index * 5 + 1,
                index * 5 + 2
            ));
        }
        dot.push('}');
        assert_dot_written_as_graphviz_pure_writes(&format!("rankdir={rankdir}"), &dot);
    }
}

#[test]
fn dot_lays_out_and_writes_with_the_nodes_measured_once_as_graphviz_pure_does() {
    let guide = [
        ("convnet", DrawOptions::default()),
        ("gpt2", DrawOptions::default()),
        ("frozen", DrawOptions::default().show_legend(true)),
        ("recurrent", DrawOptions::default().show_edge_shapes(true)),
        ("edited", DrawOptions::default().view(View::Interventions)),
    ];
    on_guide_and_real_models(
        &guide,
        &["vit_b_16", "unet", "bert_base", "densenet121"],
        assert_written_as_graphviz_pure_writes,
    );
}

/// A node whose outline needs more points than can be allocated stops the layout with the
/// error graphviz-pure's own layout stops with, in a graph small enough that its nodes are
/// measured before the layout and in one large enough that they are measured beside it.
#[test]
fn a_node_that_cannot_be_measured_stops_the_layout_as_graphviz_pure_does() {
    for nodes in [10, 100] {
        let mut dot = String::from("digraph G {\n");
        for index in 1..nodes {
            dot.push_str(&format!("n{} -> n{index}\n", index - 1));
        }
        dot.push_str("n5 [shape=polygon sides=100 peripheries=2000000000]\n}");
        let ours = lay_out(&dot, &[TextFormat::Svg], LayoutEngine::Embedded)
            .expect_err("the layout stops")
            .to_string();
        graphviz_pure_render::reset_render_state();
        let mut graph = graphviz_pure::parse_dot(&dot).unwrap().into_output();
        let theirs = graphviz_pure::layout_graph(&mut graph, graphviz_pure::LayoutEngine::Dot)
            .expect_err("graphviz-pure's layout stops")
            .to_string();
        assert!(
            ours.contains(&theirs),
            "{nodes} nodes: {ours:?} against {theirs:?}"
        );
    }
}
