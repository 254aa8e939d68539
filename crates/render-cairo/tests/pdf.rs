//! The PDF files tl-draw writes itself look as cairo paints the same layout, carry their
//! fonts embedded, subset and searchable, and leave to cairo what the writer does not do.
//! Read back with poppler (`pdftocairo`, `pdffonts`, `pdftotext`; installed by `cargo xtask
//! setup`).

use std::process::Command;

use cairo::ImageSurface;
use tl_render_cairo::xdot::Layout;
use tl_render_cairo::{render, Format, RenderOptions, Shading};

/// Every drawing feature the writer takes: solid and translucent fills, linear gradients,
/// dashed, dotted and bold lines, ellipses, curves, bold, italic and underlined text,
/// characters past ASCII, and a graph label, all in Helvetica as tl-draw's drawings are.
const PLAIN: &str = r##"digraph G {
  graph [label=<<B>Header</B><BR ALIGN="LEFT"/>second line<BR ALIGN="LEFT"/>> labelloc=t labeljust=l bgcolor="white" fontname="Helvetica"]
  node [fontname="Helvetica"] edge [fontname="Helvetica"]
  subgraph cluster_a { label=<<B>@features</B>> penwidth=5 style="filled,dashed" fillcolor="white"
    a [shape=oval style="filled,solid" fillcolor="#98FB98" label=<<B>input_1</B><BR/>(2, 4) · Δ × …>]
    b [shape=box style="filled,dashed" fillcolor="#D9D9D9" peripheries=2 label=<<I>italic</I> <U>under</U> <B><I>both</I></B>>]
  }
  c [shape=cylinder style="filled" fillcolor="#CC79A780" label="buffer"]
  d [shape=box3d style="filled,rounded" fillcolor="#F7D460" label="box"]
  e [shape=box style=filled fillcolor="#D9D9D9:#B0B0B0" gradangle=0 label="partly frozen"]
  f [shape=box style=filled fillcolor="#FF0000;0.3:#00FF00;0.4:#0000FF" gradangle=90 label="three stops"]
  d -> e -> f
  a -> b [label=<<FONT POINT-SIZE="18"><B><U>THEN</U></B></FONT>>]
  b -> c [style=dashed headlabel="arg 0"]
  c -> d [style=bold penwidth=3]
  a -> d [style=dotted]
}"##;

fn layout_json(dot: &str) -> String {
    graphviz_pure::render_dot(dot, "dot", "json")
        .unwrap()
        .into_output()
}

fn options() -> RenderOptions {
    RenderOptions {
        xdot_escaped_text: true,
        ..RenderOptions::default()
    }
}

/// Runs a poppler tool on `pdf` (written to a file first) with `args` and returns what it
/// printed (`to_stdout`: the tool's output file is `-`); it must print no warning.
fn poppler(tool: &str, pdf: &[u8], args: &[&str], to_stdout: bool) -> Vec<u8> {
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("drawing.pdf");
    std::fs::write(&file, pdf).unwrap();
    let mut command = Command::new(tool);
    command.args(args).arg(&file);
    if to_stdout {
        command.arg("-");
    }
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{tool} (poppler-utils, from `cargo xtask setup`): {e}"));
    assert!(output.status.success(), "{tool}: {output:?}");
    // poppler reads the file without a warning (a font of another type than declared, a
    // broken object).
    let warnings = String::from_utf8_lossy(&output.stderr);
    assert!(warnings.is_empty(), "{tool}: {warnings}");
    output.stdout
}

/// The fraction of 4 x 4-pixel blocks whose mean colour differs by more than a quarter in
/// some channel, over the part both rasters cover (which may differ by a pixel's rounding
/// per side). Blocks, not pixels: the two rasterisers draw a hairline as one dark pixel or
/// as two grey ones, which averages out, while a misplaced shape or glyph does not.
fn differing(a: &[u8], b: &[u8]) -> f64 {
    const BLOCK: usize = 4;
    let read = |png: &[u8]| ImageSurface::create_from_png(&mut std::io::Cursor::new(png)).unwrap();
    let (mut a, mut b) = (read(a), read(b));
    assert!(
        (a.width() - b.width()).abs() <= 1 && (a.height() - b.height()).abs() <= 1,
        "{}x{} against {}x{}",
        a.width(),
        a.height(),
        b.width(),
        b.height()
    );
    let (width, height) = (
        a.width().min(b.width()) as usize,
        a.height().min(b.height()) as usize,
    );
    let (stride_a, stride_b) = (a.stride() as usize, b.stride() as usize);
    let (a, b) = (a.data().unwrap(), b.data().unwrap());
    let mean = |data: &[u8], stride: usize, x: usize, y: usize, channel: usize| -> u32 {
        let mut sum = 0u32;
        for dy in 0..BLOCK {
            for dx in 0..BLOCK {
                sum += u32::from(data[(y + dy) * stride + 4 * (x + dx) + channel]);
            }
        }
        sum / (BLOCK * BLOCK) as u32
    };
    let (mut blocks, mut differ) = (0usize, 0usize);
    for y in (0..height - BLOCK + 1).step_by(BLOCK) {
        for x in (0..width - BLOCK + 1).step_by(BLOCK) {
            blocks += 1;
            let apart = (0..4).any(|channel| {
                mean(&a, stride_a, x, y, channel).abs_diff(mean(&b, stride_b, x, y, channel)) > 64
            });
            differ += usize::from(apart);
        }
    }
    differ as f64 / blocks as f64
}

/// `json`'s PDF, rasterised by poppler at `dpi`, against cairo's PNG of it at the same
/// scale (`page_scale`: how much the PDF was scaled down to fit its size limit).
fn pdf_against_png(
    json: &str,
    options: &RenderOptions,
    dpi: f64,
    page_scale: f64,
) -> (Vec<u8>, f64) {
    let pdf = render(json, Format::Pdf, options).unwrap().bytes;
    let dpi_text = dpi.to_string();
    let args = ["-png", "-singlefile", "-r", dpi_text.as_str()];
    let raster = poppler("pdftocairo", &pdf, &args, true);
    let png_options = RenderOptions {
        dpi: Some(dpi * page_scale),
        ..options.clone()
    };
    let png = render(json, Format::Png, &png_options).unwrap().bytes;
    let share = differing(&raster, &png);
    (pdf, share)
}

#[test]
fn the_pdf_looks_as_cairo_paints_the_layout() {
    let json = layout_json(PLAIN);
    let shaded = RenderOptions {
        shading: Some(Shading {
            color: "#FF000060".to_owned(),
            nodes: vec!["b".to_owned()],
            edges: vec![("a".to_owned(), "b".to_owned())],
        }),
        ..options()
    };
    for options in [options(), shaded] {
        let (pdf, share) = pdf_against_png(&json, &options, 144.0, 1.0);
        assert!(
            String::from_utf8_lossy(&pdf).contains("/Producer (tl-draw)"),
            "written by tl-draw, not cairo"
        );
        // Antialiasing differs between the two rasterisers, along edges and in glyphs.
        assert!(share < 0.01, "{share} of the blocks differ");
    }
}

#[test]
fn a_page_scaled_down_to_the_pdf_limit_stays_in_register() {
    // A chain over 14,400 points long: scaled down to fit, which drifts the bottom of the
    // page away from the top when the scale is written too coarsely.
    let nodes: String = (0..320)
        .map(|i| format!("n{i} [shape=box label=\"linear_{i}\\n(1, 768), 3.0 KB\"] "))
        .collect();
    let edges: String = (1..320).map(|i| format!("n{} -> n{i} ", i - 1)).collect();
    let json = layout_json(&format!(
        "digraph G {{ node [fontname=\"Helvetica\"] {nodes} {edges} }}"
    ));
    let rendered = render(&json, Format::Pdf, &options()).unwrap();
    assert!(rendered.warnings[0].contains("scaled down"), "{rendered:?}");
    let (_, lly, _, ury) = Layout::parse(&json).unwrap().bounding_box().unwrap();
    // The page is the drawing and a 4-point margin on each side, 14,400 points at most.
    let page_scale = 14_400.0 / (ury - lly + 8.0);
    let (_, share) = pdf_against_png(&json, &options(), 72.0, page_scale);
    assert!(share < 0.01, "{share} of the blocks differ");
}

#[test]
fn fonts_are_embedded_as_subsets_and_text_can_be_searched() {
    let pdf = render(&layout_json(PLAIN), Format::Pdf, &options())
        .unwrap()
        .bytes;
    let fonts = String::from_utf8(poppler("pdffonts", &pdf, &[], false)).unwrap();
    for face in [
        "NimbusSans-Regular",
        "NimbusSans-Bold",
        "NimbusSans-Italic",
        "NimbusSans-BoldItalic",
    ] {
        let line = fonts
            .lines()
            .find(|line| line.contains(&format!("+{face} ")))
            .unwrap_or_else(|| panic!("{face} not in\n{fonts}"));
        // Type, encoding, then embedded, subset, Unicode map.
        assert!(line.contains("CID Type 0C"), "{line}");
        assert!(line.contains("yes yes yes"), "{line}");
    }
    let text = String::from_utf8(poppler("pdftotext", &pdf, &[], true)).unwrap();
    for words in [
        "input_1",
        "(2, 4) · Δ × …",
        "italic",
        "THEN",
        "arg 0",
        "Header",
    ] {
        assert!(text.contains(words), "{words:?} not in\n{text}");
    }
}

#[test]
fn every_printable_character_reads_back() {
    // Over 92 glyphs in one face: their numbers in the subset take every byte value PDF
    // strings escape (line ends, parentheses, the backslash).
    let printable: String = (b'!'..=b'~')
        .map(char::from)
        .filter(|c| !matches!(c, '"' | '\\'))
        .collect();
    let dot =
        format!("digraph {{ node [fontname=\"Helvetica\" shape=box] a [label=\"{printable}\"] }}");
    let pdf = render(&layout_json(&dot), Format::Pdf, &options())
        .unwrap()
        .bytes;
    assert!(String::from_utf8_lossy(&pdf).contains("/Producer (tl-draw)"));
    let text = String::from_utf8(poppler("pdftotext", &pdf, &[], true)).unwrap();
    assert!(text.contains(&printable), "{printable:?} not in\n{text}");
}

#[test]
fn a_drawing_without_text_has_no_fonts_and_reads_back() {
    let dot = r##"digraph { node [fontname="Helvetica" shape=point] a -> b -> c }"##;
    let json = layout_json(dot);
    let (pdf, share) = pdf_against_png(&json, &options(), 144.0, 1.0);
    assert!(String::from_utf8_lossy(&pdf).contains("/Producer (tl-draw)"));
    let fonts = String::from_utf8(poppler("pdffonts", &pdf, &[], false)).unwrap();
    assert_eq!(fonts.lines().count(), 2, "only the header:\n{fonts}");
    assert!(share < 0.01, "{share} of the blocks differ");
}

#[test]
fn the_same_layout_gives_the_same_bytes() {
    let json = layout_json(PLAIN);
    let first = render(&json, Format::Pdf, &options()).unwrap().bytes;
    let second = render(&json, Format::Pdf, &options()).unwrap().bytes;
    assert!(first == second, "two PDFs of one layout differ");
}

#[test]
fn radial_and_translucent_gradients_and_other_families_are_left_to_cairo() {
    for dot in [
        r##"digraph { a [style=radial fillcolor="#D9D9D9:#B0B0B0" fontname="Helvetica"] }"##,
        r##"digraph { a [style=filled fillcolor="#D9D9D980:#B0B0B0" fontname="Helvetica"] }"##,
        r##"digraph { a [fontname="Times-Roman" label="serif"] }"##,
    ] {
        let pdf = render(&layout_json(dot), Format::Pdf, &options())
            .unwrap()
            .bytes;
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("cairo"), "{dot}: not written by cairo");
        assert!(!text.contains("/Producer (tl-draw)"), "{dot}");
    }
}
