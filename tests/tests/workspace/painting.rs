//! The painter reads the built-in engines' drawing operations directly
//! (`tl_layout::painting`, mapped in `tl-drawing`): the picture must be the one painted from
//! the same layout's `json` text, byte for byte, with either engine, in PDF and PNG.

use graphviz_pure_core::charset::Decoded;
use graphviz_pure_render::{GraphJobs, XdotDrawing};
use tl_draw::{draw, Collapse, DrawOptions, LayoutEngine, OutputFormat, Trace, View};
use tl_render_cairo::{render, Format, RenderOptions};
use tl_tests::on_guide_and_real_models;

/// Paints `options`' drawing of `trace` both ways and compares the bytes.
fn assert_same_both_ways(name: &str, trace: &Trace, options: &DrawOptions) {
    let drawing = draw(trace, options).unwrap();
    let json = drawing.layout_json().unwrap();
    let from_text = RenderOptions {
        xdot_escaped_text: true,
        ..RenderOptions::default()
    };
    for (format, painted) in [
        (OutputFormat::Pdf, Format::Pdf),
        (OutputFormat::Png, Format::Png),
    ] {
        let direct = drawing.render(format).unwrap();
        let read_back = render(&json, painted, &from_text).unwrap();
        assert!(
            direct.bytes == read_back.bytes,
            "{name} ({format:?}, {:?}): painted from the layout's operations, the file differs from the one painted from its json text",
            drawing.layout_engine()
        );
        assert_eq!(direct.warnings, read_back.warnings, "{name}");
    }
}

#[test]
fn operations_paint_as_the_json_text_does() {
    let guide = [
        ("convnet", DrawOptions::default()),
        ("gpt2", DrawOptions::default()),
        // The key, and a two-colour gradient fill (partly frozen parameters).
        ("frozen", DrawOptions::default().show_legend(true)),
        ("recurrent", DrawOptions::default().show_edge_shapes(true)),
        ("backward", DrawOptions::default()),
        // Text beyond ASCII (`Δ`) and the edit's marks.
        ("edited", DrawOptions::default().view(View::Interventions)),
        ("resnet18", DrawOptions::default().collapse(Collapse::Max)),
    ];
    // Real models at full detail, one per engine as `auto` picks them.
    on_guide_and_real_models(
        &guide,
        &["resnet50", "bert_base", "densenet121"],
        assert_same_both_ways,
    );
}

/// The operations each object of `dot`'s layout is drawn with, handed over without text and
/// read from the xdot text (both as Debug text), and whether the first were read from the
/// text after all.
fn operations_both_ways(dot: &Decoded) -> (String, String, bool) {
    graphviz_pure_render::reset_render_state();
    let mut graph = graphviz_pure_render::decoded::parse_dot(dot).unwrap();
    graphviz_pure_layout::layout_graph(&mut graph, graphviz_pure_layout::LayoutEngine::Dot)
        .unwrap();
    let handed = GraphJobs::new(&graph).xdot_drawing().unwrap();
    let read = GraphJobs::new(&graph)
        .xdot_drawing_read_from_text()
        .unwrap();
    assert!(read.read_from_text);
    // Debug text tells the zeros' signs apart.
    let ops = |drawing: &XdotDrawing| format!("{:?} {:?}", drawing.bb, drawing.sets);
    (ops(&handed), ops(&read), handed.read_from_text)
}

#[test]
fn operations_handed_over_are_what_their_xdot_text_reads_back_as() {
    // The drawings of the guide and of real models: never read from text.
    let guide = [
        ("convnet", DrawOptions::default()),
        ("frozen", DrawOptions::default().show_legend(true)),
        ("recurrent", DrawOptions::default().show_edge_shapes(true)),
        ("edited", DrawOptions::default().view(View::Interventions)),
    ];
    on_guide_and_real_models(
        &guide,
        &["vit_b_16", "densenet121"],
        |name, trace, options| {
            let dot = draw(
                trace,
                &options.clone().layout_engine(LayoutEngine::Embedded),
            )
            .unwrap()
            .dot;
            let (handed, read, from_text) = operations_both_ways(&Decoded::from_text(&dot));
            assert!(!from_text, "{name}: read from its text");
            assert!(
                handed == read,
                "{name}: the operations differ from their text's"
            );
        },
    );
    // Every kind of operation and operand: gradients (linear, radial, angled, with a stop
    // position), styles with arguments, pen widths, bold and italic text (`t`), text beyond
    // ASCII, every label of an arrow, frames, each direction, an older xdot version.
    for rankdir in ["TB", "LR", "BT"] {
        for version in ["", "xdotversion=1.2", "xdotversion=1.5"] {
            let dot = format!(
                "digraph G {{ rankdir={rankdir} {version}
                 subgraph cluster_a {{ label=\"Frame Δ\" style=filled fillcolor=\"yellow:blue\" gradientangle=90
                   a [label=\"a\" shape=box style=\"filled,dashed\" fillcolor=\"red:green\"]
                   b [label=<<b>bold</b> <i>it</i> plain>] }}
                 c [shape=ellipse style=radial fillcolor=\"white:black;0.3\" penwidth=2.5]
                 d [shape=circle style=\"setlinewidth(3),dotted\" label=\"中文 -12.5\"]
                 a -> b [label=\"mid\" headlabel=\"h\" taillabel=\"t\" xlabel=\"x\" arrowhead=diamond]
                 b -> c [style=\"tapered\" penwidth=4 dir=both]
                 c -> d; a -> d [color=\"#ff000080\"] }}"
            );
            let (handed, read, from_text) = operations_both_ways(&Decoded::from_text(&dot));
            assert!(!from_text, "{rankdir} {version}: read from its text");
            assert!(handed == read, "{rankdir} {version}: {handed}\n!=\n{read}");
        }
    }
    // Strings whose text does not read back as themselves: a backslash (not counted by
    // the reader) and a raw input byte.
    for (what, dot) in [
        ("a backslash", b"digraph { a [label=\"x\\\\y\"] }".to_vec()),
        // Labels are converted to UTF-8; a font's name is not.
        (
            "a raw byte",
            b"digraph { a [fontname=\"caf\xe9\"] }".to_vec(),
        ),
    ] {
        let (handed, read, from_text) = operations_both_ways(&Decoded::decode(dot));
        assert!(from_text, "{what}: not read from its text");
        assert!(handed == read, "{what}: {handed}\n!=\n{read}");
    }
    // An empty font name: the reader stops at it, and reads nothing after it.
    let empty = "digraph { a [label=<<font face=\"\">x</font>>] b [label=<<b>y</b>>] a -> b }";
    let (handed, read, from_text) = operations_both_ways(&Decoded::from_text(empty));
    assert!(!from_text, "an empty string: read from its text");
    assert!(handed == read, "an empty string: {handed}\n!=\n{read}");
}
