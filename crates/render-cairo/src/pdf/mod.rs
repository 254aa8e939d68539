//! tl-draw's own PDF writer, for the drawings it can write as cairo would: solid colours
//! (with alpha) and linear gradients of opaque ones, lines and curves, and Helvetica text
//! set in Nimbus Sans, embedded as subset fonts. Everything else (radial or translucent
//! gradients, node pictures, other font families, a machine without Nimbus Sans) is written
//! by cairo ([`writes`] decides).
//!
//! Why: cairo's PDF surface records the page, replays it into the content stream printing
//! numbers with the C library's `printf`, and subsets fonts through FreeType and fontconfig:
//! most of a small drawing's time to PDF (docs/performance.md, "PDF written by tl-draw").

mod content;
mod faces;
mod glyphs;

use std::io::Write;

use pdf_writer::{Filter, Finish, Name, Pdf, Rect, Ref, TextStr};

use crate::canvas::Linear;
use crate::paint::{font_of, parse_color, Frame, Rgba};
use crate::xdot::{Layout, Op};
use crate::RenderOptions;
use content::PdfCanvas;

/// Whether tl-draw's writer can write `layout` as `options` ask: no pictures and every
/// operation [`plain`] (Nimbus Sans at hand is [`write`]'s to find).
fn writes(layout: &Layout, options: &RenderOptions) -> bool {
    options.images.is_empty() && all_ops(layout).all(plain)
}

/// Whether one operation is within the writer's reach: fills with linear gradients of
/// opaque colours (tl-draw's nodes of partly frozen parameters) are; radial gradients,
/// translucent gradients and gradient pens are not.
fn plain(op: &Op) -> bool {
    match op {
        Op::FillColor(spec) => match spec.grad.as_str() {
            "linear" => spec
                .stops
                .iter()
                .all(|stop| parse_color(&stop.color).3 >= 1.0),
            "radial" => false,
            _ => true,
        },
        Op::PenColor(spec) => !matches!(spec.grad.as_str(), "linear" | "radial"),
        Op::Font { face, .. } => font_of(face, 0).0 == "Helvetica",
        _ => true,
    }
}

fn all_ops(layout: &Layout) -> impl Iterator<Item = &Op> {
    let objects = layout
        .objects
        .iter()
        .flat_map(|object| [object.draw.as_slice(), &object.label]);
    let edges = layout.edges.iter().flat_map(|edge| edge.op_lists());
    [layout.draw.as_slice(), &layout.label]
        .into_iter()
        .chain(objects)
        .chain(edges)
        .flatten()
}

/// Paints `layout` onto one page of `page` points (before `scale`) and writes the PDF;
/// `None` when the writer does not take the drawing ([`writes`]) or its fonts cannot be
/// read or embedded: cairo writes it then.
pub(crate) fn write(
    layout: &Layout,
    frame: Frame,
    page: (f64, f64),
    scale: f64,
    options: &RenderOptions,
) -> Option<Vec<u8>> {
    if !writes(layout, options) {
        return None;
    }
    let faces = faces::faces()?;
    let (width, height) = (page.0 * scale, page.1 * scale);
    let canvas = PdfCanvas::new(glyphs::GlyphSets::new(faces), scale, height);
    crate::paint_all(&canvas, layout, frame, page, options, |_| {});
    let painted = canvas.finish();

    let mut pdf = Pdf::new();
    let [catalog, pages, page_ref, contents, info] = [1, 2, 3, 4, 5].map(Ref::new);
    let mut next = 6;
    let fonts = painted.glyphs.write(&mut pdf, &mut next)?;
    let alphas: Vec<(Ref, Ref)> = painted
        .alphas
        .iter()
        .map(|&alpha| {
            let alpha = f32::from(alpha) / 1000.0;
            let (fill, stroke) = (Ref::new(next), Ref::new(next + 1));
            next += 2;
            pdf.ext_graphics(fill).non_stroking_alpha(alpha);
            pdf.ext_graphics(stroke).stroking_alpha(alpha);
            (fill, stroke)
        })
        .collect();
    let gradients = write_shadings(&mut pdf, &mut next, &painted.gradients);
    pdf.catalog(catalog).pages(pages);
    pdf.pages(pages).kids([page_ref]).count(1);
    let mut page_writer = pdf.page(page_ref);
    page_writer
        .media_box(Rect::new(0.0, 0.0, width as f32, height as f32))
        .parent(pages)
        .contents(contents);
    let mut resources = page_writer.resources();
    let mut font_names = resources.fonts();
    for (index, font) in &fonts {
        font_names.pair(Name(format!("F{index}").as_bytes()), *font);
    }
    font_names.finish();
    let mut states = resources.ext_g_states();
    for (index, (fill, stroke)) in alphas.iter().enumerate() {
        states.pair(Name(format!("A{index}").as_bytes()), *fill);
        states.pair(Name(format!("a{index}").as_bytes()), *stroke);
    }
    states.finish();
    let mut shadings = resources.shadings();
    for (index, gradient) in gradients.iter().enumerate() {
        shadings.pair(Name(format!("G{index}").as_bytes()), *gradient);
    }
    shadings.finish();
    resources.finish();
    page_writer.finish();
    let compressed = deflate(&painted.content);
    pdf.stream(contents, &compressed)
        .filter(Filter::FlateDecode);
    pdf.document_info(info).producer(TextStr("tl-draw"));
    Some(pdf.finish())
}

/// Writes each gradient as an axial shading from object `next` on; returns them in order.
fn write_shadings(pdf: &mut Pdf, next: &mut i32, gradients: &[Linear]) -> Vec<Ref> {
    let mut colour_runs = Vec::new();
    gradients
        .iter()
        .map(|gradient| {
            let run = colour_run(pdf, next, &mut colour_runs, &gradient.stops);
            let shading = Ref::new(*next);
            *next += 1;
            let (from, to) = (gradient.from, gradient.to);
            let mut axial = pdf.function_shading(shading);
            axial.shading_type(pdf_writer::types::FunctionShadingType::Axial);
            axial.color_space().device_rgb();
            axial
                .function(run)
                .coords([from.0, from.1, to.0, to.1].map(|value| value as f32))
                .extend([true, true]);
            shading
        })
        .collect()
}

/// The function giving a gradient's colour along its axis, through `stops` as cairo's
/// does: the first stop's colour before it, the last's after it (a stitching function whose
/// pieces are clamped to their stops). Written from object `next` on the first time these
/// stops are asked for; `written` remembers them (a drawing has a few colour pairs).
fn colour_run(
    pdf: &mut Pdf,
    next: &mut i32,
    written: &mut Vec<(Vec<(f64, Rgba)>, Ref)>,
    stops: &[(f64, Rgba)],
) -> Ref {
    if let Some((_, run)) = written.iter().find(|(known, _)| known == stops) {
        return *run;
    }
    let mut reference = || {
        *next += 1;
        Ref::new(*next - 1)
    };
    let rgb = |Rgba(r, g, b, _): Rgba| [r as f32, g as f32, b as f32];
    let padded = match stops {
        [] => vec![(0.0, Rgba(0.0, 0.0, 0.0, 1.0)); 2],
        [only] => vec![*only, *only],
        many => many.to_vec(),
    };
    let pieces: Vec<Ref> = padded
        .windows(2)
        .map(|pair| {
            let piece = reference();
            pdf.exponential_function(piece)
                .domain([0.0, 1.0])
                .c0(rgb(pair[0].1))
                .c1(rgb(pair[1].1))
                .n(1.0);
            piece
        })
        .collect();
    // Piece i covers [bound i-1, bound i] of the axis, the bounds being the inner stops;
    // its encoding maps its own two stops to 0 and 1, so the first and last pieces, which
    // reach to the axis's ends, hold their end colours past the first and last stops.
    let bounds: Vec<f32> = padded[1..padded.len() - 1]
        .iter()
        .map(|(frac, _)| *frac as f32)
        .collect();
    let encode: Vec<f32> = padded
        .windows(2)
        .enumerate()
        .flat_map(|(i, pair)| {
            let (start, end) = (pair[0].0, pair[1].0);
            let length = (end - start).max(1e-9);
            let low = if i == 0 { 0.0 } else { start };
            let high = if i + 2 == padded.len() { 1.0 } else { end };
            [
                ((low - start) / length) as f32,
                ((high - start) / length) as f32,
            ]
        })
        .collect();
    let run = reference();
    pdf.stitching_function(run)
        .domain([0.0, 1.0])
        .functions(pieces)
        .bounds(bounds)
        .encode(encode);
    written.push((stops.to_vec(), run));
    run
}

/// zlib-compressed `data`: at level 2 for a drawing of ordinary size, where the time counts
/// (level 1 is hardly faster and its files are about a fifth larger); level 5 past 4 MB,
/// where the file size counts more (the 100,000-operation drawing: 14.3 MB, for about a
/// second of its 11-13; docs/performance.md, "Deflate by zlib-rs").
fn deflate(data: &[u8]) -> Vec<u8> {
    let level = if data.len() > 4 << 20 { 5 } else { 2 };
    let mut encoder = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(data.len() / 4),
        flate2::Compression::new(level),
    );
    // Writing into a Vec cannot fail.
    let _ = encoder.write_all(data);
    encoder.finish().unwrap_or_default()
}
