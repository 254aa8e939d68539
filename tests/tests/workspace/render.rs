//! Rendered files: golden PNGs compared with a small pixel tolerance, PDF text a PDF tool
//! can extract, SVG that is well-formed XML, and the file rules of the facade.
//! `TL_UPDATE_GOLDEN=1` rewrites the golden PNGs: open every one before committing.

use std::process::Command;

use tl_draw::{draw, BufferVisibility, DrawOptions, GraphKind, OutputFormat, Trace, View};
use tl_render_cairo::{render, Format, RenderOptions};
use tl_tests::{fixtures_dir, repo_root, updating_golden};

fn trace(name: &str) -> Trace {
    Trace::load(fixtures_dir().join(format!("{name}.json"))).unwrap()
}

/// Decoded ARGB pixels of a PNG.
fn argb(png: &[u8]) -> (i32, i32, Vec<u8>) {
    let mut surface = cairo::ImageSurface::create_from_png(&mut std::io::Cursor::new(png)).unwrap();
    let (w, h, stride) = (surface.width(), surface.height(), surface.stride() as usize);
    let data = surface.data().unwrap();
    let mut pixels = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h as usize {
        pixels.extend_from_slice(&data[y * stride..y * stride + 4 * w as usize]);
    }
    (w, h, pixels)
}

/// Same size, and at most 1% of pixels differ by more than 48 in any channel (font
/// rasterisation differs slightly between machines).
fn assert_close(name: &str, actual: &[u8], expected: &[u8]) {
    let (aw, ah, a) = argb(actual);
    let (ew, eh, e) = argb(expected);
    assert_eq!(
        (aw, ah),
        (ew, eh),
        "{name}: size differs from the golden PNG"
    );
    let differing = a
        .chunks_exact(4)
        .zip(e.chunks_exact(4))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 48))
        .count();
    let share = differing as f64 / (aw * ah) as f64;
    assert!(
        share <= 0.01,
        "{name}: {:.2}% of pixels differ from the golden PNG; look at both",
        share * 100.0
    );
}

#[test]
fn golden_pngs() {
    let cases = [
        ("convnet", DrawOptions::default()),
        (
            "convnet.buffers_always",
            DrawOptions::default().show_buffers(BufferVisibility::Always),
        ),
        ("branch_true", DrawOptions::default()),
        ("recurrent", DrawOptions::default()),
        ("frozen", DrawOptions::default().show_legend(true)),
        ("custom_buffer", DrawOptions::default()),
        ("stack8.depth1", DrawOptions::default().depth(1)),
        (
            "convnet.color_by_time",
            DrawOptions::default().color_by("time"),
        ),
        (
            "convnet.edge_shapes.size_by_bytes",
            DrawOptions::default()
                .show_edge_shapes(true)
                .size_by("bytes"),
        ),
        (
            "convnet.view_speed",
            DrawOptions::default().view(View::Speed),
        ),
        ("photo", DrawOptions::default()),
        ("edited", DrawOptions::default()),
        ("edited.show_cone", DrawOptions::default().show_cone(true)),
        (
            "edited.view_interventions",
            DrawOptions::default().view(View::Interventions),
        ),
        (
            "backward.backward",
            DrawOptions::default()
                .graph(GraphKind::Backward)
                .show_module_paths(true),
        ),
        (
            "backward_twice.backward",
            DrawOptions::default().graph(GraphKind::Backward),
        ),
        (
            "backward.combined",
            DrawOptions::default().graph(GraphKind::Combined),
        ),
        (
            "recurrent.view_sequence",
            DrawOptions::default().view(View::Sequence),
        ),
        (
            "gpt2.view_transformer",
            DrawOptions::default().view(View::Transformer),
        ),
    ];
    let bundle = match tl_draw::Document::load(fixtures_dir().join("bundle.json")).unwrap() {
        tl_draw::Document::Bundle(bundle) => bundle,
        tl_draw::Document::Trace(_) => panic!("bundle.json is a bundle"),
    };
    let bundle_cases = [
        ("bundle.diff", tl_draw::BundleOptions::default()),
        (
            "bundle.union_combined",
            tl_draw::BundleOptions {
                graph: tl_draw::BundleGraph::Union(GraphKind::Combined),
                ..tl_draw::BundleOptions::default()
            },
        ),
    ];
    for (name, options) in bundle_cases {
        let png = tl_draw::draw_bundle(&bundle, &DrawOptions::default(), &options)
            .unwrap()
            .render_at(OutputFormat::Png, Some(72.0))
            .unwrap()
            .bytes;
        compare_with_golden(name, &png);
    }
    for (name, options) in cases {
        let fixture = name.split('.').next().unwrap();
        let png = draw(&trace(fixture), &options)
            .unwrap()
            .render_at(OutputFormat::Png, Some(72.0))
            .unwrap()
            .bytes;
        compare_with_golden(name, &png);
    }
}

/// Compares a PNG with `tests/golden/png/<name>.png` (or rewrites it when updating).
fn compare_with_golden(name: &str, png: &[u8]) {
    let path = repo_root()
        .join("tests/golden/png")
        .join(format!("{name}.png"));
    if updating_golden() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, png).unwrap();
        return;
    }
    let expected = std::fs::read(&path).unwrap_or_else(|_| {
        panic!(
            "no golden PNG {}; run with TL_UPDATE_GOLDEN=1 and look at it",
            path.display()
        )
    });
    assert_close(name, png, &expected);
}

/// A PNG's page colour reaches its last row and column (the raster's size is rounded up to
/// whole pixels), so a drawing on an opaque page is an opaque, RGB file in every theme.
#[test]
fn a_png_is_opaque_to_its_last_row_and_column() {
    for theme in ["torchlens", "dark"] {
        let options = DrawOptions::default().theme(theme.parse().unwrap());
        let png = draw(&trace("convnet"), &options)
            .unwrap()
            .render_at(OutputFormat::Png, Some(100.0))
            .unwrap()
            .bytes;
        // Colour type, IHDR byte 25: 2 is RGB, 6 RGBA.
        assert_eq!(png[25], 2, "{theme}: an RGB file");
        let (w, h, pixels) = argb(&png);
        let pixel =
            |x: i32, y: i32| &pixels[4 * (y * w + x) as usize..4 * (y * w + x + 1) as usize];
        let page = pixel(0, 0).to_vec();
        for (x, y) in [
            (w - 1, 0),
            (0, h - 1),
            (w - 1, h - 1),
            (w - 1, h / 2),
            (w / 2, h - 1),
        ] {
            assert_eq!(pixel(x, y), page.as_slice(), "{theme}: pixel ({x}, {y})");
        }
    }
}

#[test]
fn pdf_text_is_extractable() {
    let folder = tempfile::tempdir().unwrap();
    let drawing = draw(&trace("convnet"), &DrawOptions::default()).unwrap();
    let written = drawing.write(folder.path().join("convnet")).unwrap();
    assert_eq!(
        written.path,
        folder.path().join("convnet.pdf"),
        "no extension: PDF"
    );
    let output = Command::new("pdftotext")
        .arg(&written.path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed by `cargo xtask setup`");
    let text = String::from_utf8_lossy(&output.stdout);
    for name in [
        "conv2d_1_1",
        "batchnorm_1_3",
        "relu_2_8",
        "softmax_1_12",
        "@features.0",
        "1.61K parameters",
    ] {
        assert!(
            text.contains(name),
            "{name} not found in the PDF text:\n{text}"
        );
    }
}

#[test]
fn svg_is_well_formed_xml() {
    for name in ["convnet", "gpt2", "branch_true"] {
        let svg = draw(&trace(name), &DrawOptions::default())
            .unwrap()
            .render(OutputFormat::Svg)
            .unwrap()
            .bytes;
        let text = String::from_utf8(svg).unwrap();
        let options = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..roxmltree::ParsingOptions::default()
        };
        let document = roxmltree::Document::parse_with_options(&text, options)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(document.root_element().tag_name().name(), "svg");
    }
}

#[test]
fn thousands_of_nodes_make_a_valid_readable_pdf() {
    // A 2,000-node laid-out chain of records: the PDF has a page and the text is there.
    let nodes: Vec<String> = (0..2000)
        .map(|i| format!("n{i} [shape=box label=\"op_{i}\"]"))
        .collect();
    let edges: Vec<String> = (1..2000).map(|i| format!("n{} -> n{i}", i - 1)).collect();
    let dot = format!(
        "digraph {{ node [fontname=Helvetica] {} {} }}",
        nodes.join(" "),
        edges.join(" ")
    );
    let json = graphviz_layout(&dot);
    let rendered = render(&json, Format::Pdf, &RenderOptions::default()).unwrap();
    assert_eq!(
        rendered.warnings.len(),
        1,
        "the 2,000-rank page is scaled to the PDF limit"
    );
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("chain.pdf");
    std::fs::write(&path, &rendered.bytes).unwrap();
    let text = Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .unwrap()
        .stdout;
    let text = String::from_utf8_lossy(&text);
    assert!(text.contains("op_0") && text.contains("op_1999"));
}

fn graphviz_layout(dot: &str) -> String {
    graphviz_pure::render_dot(dot, "dot", "json")
        .unwrap()
        .into_output()
}

/// Share of pixels close to the photo's yellow sun (250, 215, 80).
fn sun_pixels(png: &[u8]) -> usize {
    let (_, _, pixels) = argb(png);
    // cairo stores BGRA in memory on little-endian machines.
    pixels
        .chunks_exact(4)
        .filter(|p| p[2] > 230 && p[1] > 190 && p[1] < 235 && p[0] < 120)
        .count()
}

#[test]
fn photo_input_shows_its_thumbnail_unless_shape_only() {
    let photo = trace("photo");
    let drawn = draw(&photo, &DrawOptions::default()).unwrap();
    assert!(
        sun_pixels(&drawn.render(OutputFormat::Png).unwrap().bytes) > 50,
        "the thumbnail is painted"
    );
    let svg = String::from_utf8(drawn.render(OutputFormat::Svg).unwrap().bytes).unwrap();
    assert!(
        svg.contains("xlink:href=\"data:image/png;base64,"),
        "SVG pictures are inlined"
    );
    assert_eq!(
        draw(&photo, &DrawOptions::default()).unwrap().dot,
        drawn.dot,
        "DOT stays deterministic"
    );
    let plain = draw(
        &photo,
        &DrawOptions::default().batch_render(tl_draw::BatchRender::ShapeOnly),
    )
    .unwrap();
    // Only the input's thumbnail goes: relu_1_2's feature-map grid stays.
    assert_eq!(plain.dot.matches("<IMG").count(), 1);
    let input = plain
        .dot
        .lines()
        .find(|l| l.contains("<B>input_1</B>"))
        .unwrap();
    assert!(!input.contains("<IMG"), "{input}");
    let relu = plain
        .dot
        .lines()
        .find(|l| l.contains("<B>relu_1_2</B>"))
        .unwrap();
    assert!(relu.contains("<IMG"), "{relu}");
    assert_eq!(
        sun_pixels(&plain.render(OutputFormat::Png).unwrap().bytes),
        0
    );
}

/// The same drawing gives the same PDF bytes, whenever it is written (cairo stamps the
/// current time unless told a date; before, every run's PDF differed).
#[test]
fn pdf_output_is_byte_identical_run_to_run() {
    let drawing = draw(&trace("convnet"), &DrawOptions::default()).unwrap();
    let first = drawing.render(OutputFormat::Pdf).unwrap().bytes;
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let second = drawing.render(OutputFormat::Pdf).unwrap().bytes;
    assert!(first == second, "PDF bytes differ between two renders");
}

/// Node pictures: the DOT names them relatively (`tl-draw-pictures/<hash>.png`), so it is
/// the same whatever the machine's temporary folder; a render leaves no file behind; a
/// `.dot` output writes the pictures beside itself, so it lays out where it is. Before, they
/// were cached for ever in a shared temporary folder named in the DOT.
#[test]
fn pictures_leave_no_files_behind_and_the_dot_names_them_relatively() {
    let drawing = draw(&trace("photo"), &DrawOptions::default()).unwrap();
    assert!(
        drawing.dot.contains("SRC=\"tl-draw-pictures/tl-picture-"),
        "relative picture paths"
    );
    assert!(!drawing
        .dot
        .contains(&*std::env::temp_dir().to_string_lossy()));
    let scratch = tempfile::tempdir().unwrap();
    let before = std::fs::read_dir(std::env::temp_dir()).unwrap().count();
    for format in [OutputFormat::Svg, OutputFormat::Png, OutputFormat::Pdf] {
        drawing.render(format).unwrap();
    }
    let svg = String::from_utf8(drawing.render(OutputFormat::Svg).unwrap().bytes).unwrap();
    assert_eq!(
        svg.matches("data:image/png;base64,").count(),
        2,
        "both pictures inlined"
    );
    // Other tests run beside this one, so only check that renders do not accumulate.
    assert!(std::fs::read_dir(std::env::temp_dir()).unwrap().count() <= before + 4);
    let written = drawing.write(scratch.path().join("photo.dot")).unwrap();
    let pictures: Vec<_> = std::fs::read_dir(scratch.path().join("tl-draw-pictures"))
        .unwrap()
        .collect();
    assert_eq!(pictures.len(), 2, "the .dot's pictures are beside it");
    tl_tests::assert_system_dot_reads(&written.path, scratch.path());
}

/// PostScript, EPS, SVGZ and the layout engine's text formats give the same bytes run to
/// run (cairo stamps PostScript with the time, gzip its header), and the text formats name
/// pictures as the DOT does, with the pictures written beside the file.
#[test]
fn every_format_is_byte_identical_run_to_run_and_text_formats_name_pictures_relatively() {
    let drawing = draw(&trace("photo"), &DrawOptions::default()).unwrap();
    let formats = [
        OutputFormat::Ps,
        OutputFormat::Eps,
        OutputFormat::Svgz,
        OutputFormat::Json,
        OutputFormat::Xdot,
        OutputFormat::Plain,
    ];
    let first: Vec<Vec<u8>> = formats
        .iter()
        .map(|format| drawing.render(*format).unwrap().bytes)
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(1100));
    for (format, bytes) in formats.iter().zip(&first) {
        assert!(
            drawing.render(*format).unwrap().bytes == *bytes,
            "{format:?} bytes differ between two renders"
        );
    }
    let eps = String::from_utf8_lossy(&first[1]);
    assert!(eps.contains("%%BoundingBox:") && eps.contains("%%CreationDate: D:20000101000000"));
    let temp = std::env::temp_dir();
    for text in &first[3..] {
        let text = String::from_utf8_lossy(text);
        assert!(text.contains("tl-draw-pictures"), "pictures named");
        assert!(
            !text.contains(&*temp.to_string_lossy()),
            "no private folder"
        );
    }
    let scratch = tempfile::tempdir().unwrap();
    drawing.write(scratch.path().join("photo.json")).unwrap();
    assert_eq!(
        std::fs::read_dir(scratch.path().join("tl-draw-pictures"))
            .unwrap()
            .count(),
        2,
        "the JSON's pictures are beside it"
    );
}
