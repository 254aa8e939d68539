//! graphviz-pure's `dot` sizes every node twice inside its layout, and its writers once
//! more. `tl-layout` measures the nodes once, before the layout, and hands the geometries
//! to its patch of `dot` (which reads them instead of sizing) and then to the writers.
//! Every format must be what graphviz-pure's own facade writes (parse, lay out, render,
//! each label measured three times), byte for byte.

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
    let mut laid_out = lay_out(&drawing.dot, &FORMATS, LayoutEngine::Embedded).unwrap();
    for format in FORMATS {
        assert!(
            laid_out.take(format) == by_graphviz_pure(&drawing.dot, format),
            "{name}: dot's {} differs from graphviz-pure's own",
            format.name()
        );
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
