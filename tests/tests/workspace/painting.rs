//! The painter reads the built-in engines' drawing operations directly
//! (`tl_layout::painting`, mapped in `tl-drawing`): the picture must be the one painted from
//! the same layout's `json` text, byte for byte, with either engine, in PDF and PNG.

use tl_draw::{draw, Collapse, DrawOptions, OutputFormat, Trace, View};
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
