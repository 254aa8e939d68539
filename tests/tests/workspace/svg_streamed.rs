//! An SVG file is written as the layout engine writes it (`tl_layout::lay_out_svg_into`,
//! `Drawing::write_as`, `Drawing::write_once`): the file must be the SVG `Drawing::render`
//! returns whole, byte for byte, with either engine, and a large one must really arrive in
//! pieces.

use tl_draw::{draw, forget_recent_layouts, DrawOptions, OutputFormat, Trace, View, WriteOptions};
use tl_tests::on_guide_and_real_models;

/// The pieces `lay_out_svg_into` hands over for `options`' drawing of `trace`, laid out
/// afresh (nothing remembered).
fn pieces(trace: &Trace, options: &DrawOptions) -> Vec<String> {
    let drawing = draw(trace, options).unwrap();
    let mut pieces = Vec::new();
    forget_recent_layouts();
    let dot = std::borrow::Cow::Borrowed(drawing.dot.as_str());
    tl_layout::lay_out_svg_into(dot, drawing.layout_engine(), &mut |piece| {
        pieces.push(piece.to_owned())
    })
    .unwrap();
    pieces
}

/// Writes `options`' drawing of `trace` to an SVG file, by `write` and by `write_once`, and
/// compares each with the whole text; the census goes beside each.
fn assert_file_is_the_rendered_svg(name: &str, trace: &Trace, options: &DrawOptions) {
    let drawing = draw(trace, options).unwrap();
    let folder = tempfile::tempdir().unwrap();
    let (written, written_once) = (
        folder.path().join("drawing.svg"),
        folder.path().join("once.svg"),
    );
    forget_recent_layouts();
    drawing.write(&written).unwrap();
    forget_recent_layouts();
    drawing
        .clone()
        .write_once(&written_once, &WriteOptions::default())
        .unwrap();
    forget_recent_layouts();
    let whole = drawing.render(OutputFormat::Svg).unwrap().bytes;
    for path in [&written, &written_once] {
        assert!(
            std::fs::read(path).unwrap() == whole,
            "{name} ({:?}): the SVG written as it was made ({}) differs from the SVG rendered whole",
            drawing.layout_engine(),
            path.display()
        );
        let census = format!("{}.census.txt", path.display());
        assert_eq!(
            std::fs::read_to_string(census).ok(),
            drawing.census,
            "{name}"
        );
    }
    assert_eq!(
        pieces(trace, options).concat().into_bytes(),
        whole,
        "{name}"
    );
}

#[test]
fn an_svg_written_as_it_is_made_is_the_svg_rendered_whole() {
    let guide = [
        ("convnet", DrawOptions::default()),
        ("gpt2", DrawOptions::default()),
        ("frozen", DrawOptions::default().show_legend(true)),
        // Text beyond ASCII (`Δ`) and the edit's marks.
        ("edited", DrawOptions::default().view(View::Interventions)),
    ];
    // Real models at full detail, one per engine as `auto` picks them.
    on_guide_and_real_models(
        &guide,
        &["resnet50", "densenet121"],
        assert_file_is_the_rendered_svg,
    );
}

#[test]
fn a_large_svg_arrives_in_pieces_of_about_a_megabyte() {
    // 3,000 operations: about 4 MB of SVG, laid out by the layered engine.
    let trace = tl_trace_model::synthetic::transformer_of_size(3_000);
    let pieces = pieces(&trace, &DrawOptions::default());
    let total: usize = pieces.iter().map(String::len).sum();
    assert!(total > 3 << 20, "the SVG is {total} bytes");
    assert!(pieces.len() >= total >> 20, "{} pieces", pieces.len());
    // A piece ends after the first whole node, arrow or frame past a megabyte.
    assert!(pieces.iter().all(|piece| piece.len() < 2 << 20));
    assert!(pieces[..pieces.len() - 1]
        .iter()
        .all(|piece| piece.len() >= 1 << 20 && piece.ends_with("</g>\n")));
    assert!(pieces.concat().ends_with("</svg>\n"));
}
