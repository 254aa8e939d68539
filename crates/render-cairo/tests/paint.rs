//! Painting real layouts: every operation the drawings use, translucency, size limits and
//! text that fits the room the layout gave it.

use cairo::{Context, FontOptions, FontSlant, FontWeight, HintMetrics, HintStyle, ImageSurface};
use tl_render_cairo::xdot::{Layout, Op};
use tl_render_cairo::{png_size, render, Format, RenderOptions, Shading};

/// A graph using every drawing feature of tl-draw's drawings.
const EVERYTHING: &str = r##"digraph G {
  graph [label=<<B>Header</B><BR ALIGN="LEFT"/>second line<BR ALIGN="LEFT"/>> labelloc=t labeljust=l bgcolor="white"]
  subgraph cluster_a { label=<<B>@features</B>> penwidth=5 style="filled,dashed" fillcolor="white"
    a [shape=oval style="filled,solid" fillcolor="#98FB98" label=<<B>input_1</B><BR/>(2, 4) · Δ × …>]
    b [shape=box style="filled,dashed" fillcolor="#D9D9D9:#B0B0B0" gradangle=0 peripheries=2 label=<<I>italic</I> <U>under</U>>]
  }
  c [shape=cylinder style="filled" fillcolor="#CC79A780" label="buffer"]
  d [shape=box3d style="filled,rounded" fillcolor="#F7D460" label="box"]
  a -> b [label=<<FONT POINT-SIZE="18"><B><U>THEN</U></B></FONT>>]
  b -> c [style=dashed headlabel="arg 0"]
  c -> d [style=bold penwidth=3]
  a -> d [style=dotted]
}"##;

/// Render options at `dpi`, no shading.
fn at_dpi(dpi: f64) -> RenderOptions {
    RenderOptions {
        dpi: Some(dpi),
        shading: None,
        ..RenderOptions::default()
    }
}

fn layout_json(dot: &str) -> String {
    graphviz_pure::render_dot(dot, "dot", "json")
        .unwrap()
        .into_output()
}

fn pixels(png: &[u8]) -> (ImageSurface, i32, i32) {
    let surface = ImageSurface::create_from_png(&mut std::io::Cursor::new(png)).unwrap();
    let (w, h) = (surface.width(), surface.height());
    (surface, w, h)
}

/// Fraction of pixels that are not the white page.
fn ink(png: &[u8]) -> f64 {
    let (mut surface, w, h) = pixels(png);
    let stride = surface.stride() as usize;
    let data = surface.data().unwrap();
    let mut inked = 0usize;
    for y in 0..h as usize {
        for x in 0..w as usize {
            let p = &data[y * stride + 4 * x..y * stride + 4 * x + 4];
            if p[0] < 250 || p[1] < 250 || p[2] < 250 {
                inked += 1;
            }
        }
    }
    inked as f64 / (w * h) as f64
}

#[test]
fn every_operation_parses_and_paints_in_all_formats() {
    let json = layout_json(EVERYTHING);
    let layout = Layout::parse(&json).unwrap();
    let all_ops: Vec<&Op> = layout
        .objects
        .iter()
        .flat_map(|o| o.draw.iter().chain(&o.label))
        .chain(
            layout
                .edges
                .iter()
                .flat_map(|e| e.draw.iter().chain(&e.head_arrow).chain(&e.label)),
        )
        .collect();
    let has = |pred: fn(&Op) -> bool| all_ops.iter().any(|op| pred(op));
    assert!(has(|op| matches!(op, Op::FilledEllipse { .. })));
    assert!(has(|op| matches!(op, Op::FilledPolygon { .. })));
    assert!(has(|op| matches!(op, Op::Bspline { .. })));
    assert!(has(
        |op| matches!(op, Op::FillColor(c) if c.grad == "linear")
    ));
    assert!(has(
        |op| matches!(op, Op::Style { style } if style == "dashed")
    ));
    assert!(has(
        |op| matches!(op, Op::FontFlags { fontchar } if fontchar & 4 != 0)
    ));

    let png = render(&json, Format::Png, &RenderOptions::default()).unwrap();
    assert!(png.warnings.is_empty());
    let share = ink(&png.bytes);
    assert!(share > 0.05 && share < 0.8, "painted share {share}");
    let pdf = render(&json, Format::Pdf, &RenderOptions::default()).unwrap();
    assert!(pdf.bytes.starts_with(b"%PDF"));
    let svg = render(&json, Format::Svg, &RenderOptions::default()).unwrap();
    assert!(String::from_utf8(svg.bytes).unwrap().contains("<svg"));
}

#[test]
fn dpi_scales_raster_output_only() {
    let json = layout_json(EVERYTHING);
    let at = |dpi: f64| png_size(&render(&json, Format::Png, &at_dpi(dpi)).unwrap().bytes).unwrap();
    let (w1, h1) = at(72.0);
    let (w2, h2) = at(144.0);
    assert!((w2 - 2 * w1).abs() <= 1 && (h2 - 2 * h1).abs() <= 1);
    let pdf72 = render(&json, Format::Pdf, &at_dpi(72.0)).unwrap();
    let pdf300 = render(&json, Format::Pdf, &at_dpi(300.0)).unwrap();
    assert_eq!(
        pdf72.bytes.len() / 100,
        pdf300.bytes.len() / 100,
        "vector output ignores dpi"
    );
}

#[test]
fn huge_raster_output_is_scaled_to_cairos_limit_with_a_warning() {
    // A long, thin chain: over the limit on one side, small on the other.
    let chain: Vec<String> = (0..60).map(|i| format!("n{i} -> n{}", i + 1)).collect();
    let json = layout_json(&format!("digraph {{ rankdir=LR {} }}", chain.join(" ")));
    let rendered = render(&json, Format::Png, &at_dpi(600.0)).unwrap();
    let (w, h) = png_size(&rendered.bytes).unwrap();
    assert!(w.max(h) <= 32767);
    assert!(w.max(h) > 32000, "scaled to fit, not shrunk further");
    assert_eq!(rendered.warnings.len(), 1);
    assert!(rendered.warnings[0].contains("scaled down"));
}

#[test]
fn a_raster_scaled_to_the_side_limit_never_rounds_over_it() {
    // Before: some sizes scaled to exactly the limit rounded up to 32,768 px and cairo
    // refused them ("Invalid Size"): GPT-2 small to PNG, `--dpi 5000`.
    let chain: Vec<String> = (0..60).map(|i| format!("n{i} -> n{}", i + 1)).collect();
    let json = layout_json(&format!("digraph {{ {} }}", chain.join(" ")));
    for dpi in [97.0, 333.0, 601.0, 1234.5, 5000.0] {
        let rendered =
            render(&json, Format::Png, &at_dpi(dpi)).unwrap_or_else(|e| panic!("dpi {dpi}: {e}"));
        let (w, h) = png_size(&rendered.bytes).unwrap();
        assert!(w.max(h) <= 32767, "dpi {dpi}: {w}x{h}");
    }
}

#[test]
fn shading_paints_translucently_over_chosen_nodes_and_arrows() {
    let json = layout_json(EVERYTHING);
    let plain = render(&json, Format::Png, &RenderOptions::default()).unwrap();
    let shading = Shading {
        color: "#CC79A760".to_owned(),
        nodes: vec!["b".to_owned(), "c".to_owned()],
        edges: vec![("b".to_owned(), "c".to_owned())],
    };
    let shaded = render(
        &json,
        Format::Png,
        &RenderOptions {
            dpi: None,
            shading: Some(shading.clone()),
            ..RenderOptions::default()
        },
    )
    .unwrap();
    assert!(
        ink(&shaded.bytes) > ink(&plain.bytes),
        "the shading adds colour"
    );
    // Translucent: the node's text still shows through (the node is not a flat block).
    let (mut surface, w, h) = pixels(&shaded.bytes);
    let stride = surface.stride() as usize;
    let data = surface.data().unwrap();
    let distinct: std::collections::HashSet<[u8; 4]> = (0..h as usize)
        .flat_map(|y| (0..w as usize).map(move |x| (x, y)))
        .map(|(x, y)| {
            data[y * stride + 4 * x..y * stride + 4 * x + 4]
                .try_into()
                .unwrap()
        })
        .collect();
    assert!(distinct.len() > 50);
    for format in [Format::Pdf, Format::Svg] {
        let with = render(
            &json,
            format,
            &RenderOptions {
                dpi: None,
                shading: Some(shading.clone()),
                ..RenderOptions::default()
            },
        )
        .unwrap();
        let without = render(&json, format, &RenderOptions::default()).unwrap();
        assert_ne!(
            with.bytes, without.bytes,
            "{format:?} carries the shading natively"
        );
    }
}

#[test]
fn text_fits_the_width_the_layout_measured() {
    let json = layout_json(
        "digraph { node [fontname=Helvetica] a [shape=box label=<<B>linear_1_1</B><BR/>params: weight (16, 8) · bias (16,)>] }",
    );
    let layout = Layout::parse(&json).unwrap();
    let surface = ImageSurface::create(cairo::Format::ARgb32, 10, 10).unwrap();
    let context = Context::new(&surface).unwrap();
    let mut options = FontOptions::new().unwrap();
    options.set_hint_metrics(HintMetrics::Off);
    options.set_hint_style(HintStyle::None);
    context.set_font_options(&options);
    let mut bold = false;
    let mut checked = 0;
    for op in layout.objects.iter().flat_map(|o| &o.label) {
        match op {
            Op::FontFlags { fontchar } => bold = fontchar & 1 != 0,
            Op::Font { size, .. } => context.set_font_size(*size),
            Op::Text { width, text, .. } => {
                let weight = if bold {
                    FontWeight::Bold
                } else {
                    FontWeight::Normal
                };
                context.select_font_face("Helvetica", FontSlant::Normal, weight);
                let advance = context.text_extents(text).unwrap().x_advance();
                let ratio = advance / width;
                assert!(
                    (0.97..=1.03).contains(&ratio),
                    "{text:?}: real {advance:.2} vs layout {width:.2}"
                );
                checked += 1;
            }
            _ => {}
        }
    }
    assert_eq!(checked, 2, "both rows measured");
}

#[test]
fn svg_output_is_the_same_however_many_drawings_came_before() {
    let json = layout_json("digraph { a -> b }");
    let first = render(&json, Format::Svg, &RenderOptions::default())
        .unwrap()
        .bytes;
    for _ in 0..3 {
        render(&json, Format::Pdf, &RenderOptions::default()).unwrap();
    }
    let later = render(&json, Format::Svg, &RenderOptions::default())
        .unwrap()
        .bytes;
    assert_eq!(
        first, later,
        "cairo's process-wide surface counter is renumbered"
    );
    assert!(String::from_utf8(later)
        .unwrap()
        .contains("id=\"surface1\""));
}
