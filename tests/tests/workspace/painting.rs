//! The painter reads the built-in engines' drawing operations directly
//! (`tl_layout::painting`, mapped in `tl-drawing`): the picture must be the one painted from
//! the same layout's `json` text, byte for byte, with either engine, in PDF and PNG.

use tl_draw::{draw, Collapse, DrawOptions, LayoutEngine, OutputFormat, Trace, View};
use tl_render_cairo::{render, Format, RenderOptions};
use tl_tests::{fixtures_dir, repo_root};

fn trace(path: std::path::PathBuf) -> Trace {
    Trace::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

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
    for (name, options) in guide {
        let trace = trace(fixtures_dir().join(format!("{name}.json")));
        for engine in [LayoutEngine::Embedded, LayoutEngine::Layered] {
            let options = options.clone().layout_engine(engine);
            assert_same_both_ways(name, &trace, &options);
        }
    }
    // Real models at full detail, one per engine as `auto` picks them.
    for name in ["resnet50", "bert_base", "densenet121"] {
        let trace = trace(repo_root().join(format!("fixtures/real/{name}.json")));
        assert_same_both_ways(name, &trace, &DrawOptions::default());
    }
}
