//! Paints a laid-out graph onto PDF, PNG and SVG surfaces: with cairo, and PDF mostly with a
//! writer of its own (`pdf`, for drawings whose text is Helvetica, with no node pictures).
//!
//! The input is the layout engine's `json` output (graphviz-pure's or `dot -Tjson`'s):
//! geometry as xdot drawing operations, parsed by [`xdot::Layout`]. Painting replays them in
//! Graphviz's order (background, clusters outermost first, edges, nodes, the graph label),
//! fitting every text into the width the layout reserved. It needs cairo but not Graphviz.
//!
//! Invariants: the same layout and options give the same bytes in every format (cairo's
//! time stamps are fixed); raster output never exceeds cairo's 32,767-pixel limit and PDF
//! pages never exceed the 14,400-point PDF page limit (larger drawings are scaled down, with
//! a warning).

mod cairo_canvas;
mod canvas;
mod fonts;
mod paint;
mod pdf;
mod png_file;
pub mod xdot;

use std::io::Cursor;

use cairo::{
    Context, FontOptions, HintMetrics, HintStyle, PdfSurface, PsSurface, RecordingSurface,
    SvgSurface,
};

use canvas::{Canvas, Paint};
pub use fonts::{use_fonts_in, FONT_FILES};
pub use paint::{parse_color, Rgba};
use paint::{Frame, Painter};
use xdot::{Layout, Op};

/// Output formats cairo writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// PDF, vector, text selectable.
    Pdf,
    /// PNG raster.
    Png,
    /// SVG, vector, self-contained.
    Svg,
    /// PostScript (level 3), vector.
    Ps,
    /// Encapsulated PostScript: one page with a bounding box, for including in documents.
    Eps,
}

/// A translucent layer painted over chosen nodes and arrows (the edit "cone").
#[derive(Debug, Clone, PartialEq)]
pub struct Shading {
    /// Colour with alpha, `#rrggbbaa`.
    pub color: String,
    /// Node ids to shade.
    pub nodes: Vec<String>,
    /// Arrows to shade, as (tail id, head id).
    pub edges: Vec<(String, String)>,
}

/// How to paint.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RenderOptions {
    /// Dots per inch of PNG output (96 when unset); ignored by vector formats.
    pub dpi: Option<f64>,
    /// A translucent layer on top.
    pub shading: Option<Shading>,
    /// Node pictures and where the layout placed them ([`xdot::image_placements`]).
    pub images: Vec<xdot::ImagePlacement>,
    /// Texts in the layout still carry xdot's escaping (`\\` for a backslash), as
    /// graphviz-pure's `json` output does; `dot -Tjson` 2.x unescapes them itself.
    pub xdot_escaped_text: bool,
}

/// Painted bytes and anything the user should know about them.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// The file contents.
    pub bytes: Vec<u8>,
    /// Warnings (e.g. the drawing was scaled down to fit a size limit).
    pub warnings: Vec<String>,
}

/// Why painting failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The layout output could not be read.
    #[error(
        "the layout engine's json output could not be read ({0}); report this with the DOT source"
    )]
    Layout(#[from] serde_json::Error),
    /// The layout has no usable bounding box.
    #[error("the layout has no bounding box ({0:?}); report this with the DOT source")]
    BoundingBox(String),
    /// cairo refused.
    #[error("cairo failed while painting: {0}; try another format or a lower dpi")]
    Cairo(#[from] cairo::Error),
    /// Encoding the PNG failed.
    #[error("the PNG could not be encoded: {0}; try another format or a lower dpi")]
    Png(String),
    /// Writing the PDF or SVG stream failed.
    #[error("cairo could not write the document: {0}")]
    Stream(std::io::Error),
    /// A program's own fonts ([`use_fonts_in`]) could not be used.
    #[error("the fonts in {folder} cannot be used: {problem}; reinstall the program")]
    Fonts {
        /// The folder given.
        folder: std::path::PathBuf,
        /// What is wrong.
        problem: String,
    },
}

impl RenderError {
    /// Stable code.
    pub fn code(&self) -> &'static str {
        match self {
            RenderError::Layout(_) | RenderError::BoundingBox(_) => "layout_output_invalid",
            RenderError::Cairo(_) | RenderError::Png(_) | RenderError::Stream(_) => "render_failed",
            RenderError::Fonts { .. } => "fonts_unusable",
        }
    }
}

/// Cairo image surfaces are limited to this many pixels per side.
pub const MAX_RASTER_SIDE: f64 = 32767.0;
/// At most this many pixels in one raster image (4 bytes each: 1 GiB). Cairo also needs
/// a row stride times the height to fit in an `i32`, which this keeps well inside.
pub const MAX_RASTER_PIXELS: f64 = 268_435_456.0;
/// PDF viewers refuse pages larger than this many points per side.
pub const MAX_PDF_SIDE: f64 = 14400.0;
/// The creation date written into every PDF, so that output is deterministic.
const PDF_CREATION_DATE: &str = "2000-01-01T00:00:00Z";
/// Margin around the drawing, in points (Graphviz's default `pad`).
const PAD: f64 = 4.0;
/// Default raster resolution (Graphviz's).
const DEFAULT_DPI: f64 = 96.0;

/// Paints `layout_json` (the layout engine's `json` output) in `format`.
pub fn render(
    layout_json: &str,
    format: Format,
    options: &RenderOptions,
) -> Result<Rendered, RenderError> {
    render_layout(&Layout::parse(layout_json)?, format, options)
}

/// Paints `layout` in `format`.
pub fn render_layout(
    layout: &Layout,
    format: Format,
    options: &RenderOptions,
) -> Result<Rendered, RenderError> {
    let (llx, lly, urx, ury) = layout
        .bounding_box()
        .ok_or_else(|| RenderError::BoundingBox(layout.bb.clone()))?;
    let (width, height) = (urx - llx + 2.0 * PAD, ury - lly + 2.0 * PAD);
    let frame = Frame { llx, ury, pad: PAD };
    let mut warnings = Vec::new();
    let mut fit = |wanted: f64, limit: f64, what: &str| {
        let largest = width.max(height) * wanted;
        if largest > limit {
            warnings.push(format!(
                "the drawing is {largest:.0} {what} on its longest side, over the {limit:.0} limit: it was scaled down to fit; \
                 collapse it (depth=, collapse=\"auto\") or focus a module for a readable picture"
            ));
            limit / largest * wanted
        } else {
            wanted
        }
    };
    let bytes = match format {
        Format::Png => {
            let scale = fit(
                options.dpi.unwrap_or(DEFAULT_DPI) / 72.0,
                MAX_RASTER_SIDE,
                "pixels",
            );
            let (scale, pixels_wide, pixels_high) =
                raster_size(width, height, scale, &mut warnings);
            // The drawing is recorded once and replayed band by band: cairo replays only
            // what reaches each band.
            let recording = RecordingSurface::create(
                cairo::Content::ColorAlpha,
                Some(cairo::Rectangle::new(
                    0.0,
                    0.0,
                    f64::from(pixels_wide),
                    f64::from(pixels_high),
                )),
            )?;
            let context = Context::new(&recording)?;
            // Unhinted metrics, or PNG text comes out wider than the layout measured.
            let mut font_options = FontOptions::new()?;
            font_options.set_hint_metrics(HintMetrics::Off);
            font_options.set_hint_style(HintStyle::None);
            context.set_font_options(&font_options);
            context.scale(scale, scale);
            // The page colour covers every pixel, the last row and column too.
            let page = (
                f64::from(pixels_wide) / scale,
                f64::from(pixels_high) / scale,
            );
            paint_all(&context, layout, frame, page, options, |image| {
                cairo_canvas::paint_image(&context, frame, image)
            });
            drop(context);
            let opaque = page_color(layout).3 >= 1.0;
            png_file::encode_in_bands(pixels_wide, pixels_high, opaque, |band, top| {
                let context = Context::new(band)?;
                context.set_operator(cairo::Operator::Source);
                context.set_source_surface(&recording, 0.0, -f64::from(top))?;
                context.paint()?;
                Ok(())
            })?
        }
        Format::Pdf => {
            let scale = fit(1.0, MAX_PDF_SIDE, "points");
            if let Some(bytes) = pdf::write(layout, frame, (width, height), scale, options) {
                return Ok(Rendered { bytes, warnings });
            }
            let surface = PdfSurface::for_stream(width * scale, height * scale, Vec::<u8>::new())?;
            // cairo stamps the current time into every PDF; a fixed date makes the same
            // drawing give the same bytes (the file's own time is its modification time).
            surface.set_metadata(cairo::PdfMetadata::CreateDate, PDF_CREATION_DATE)?;
            let context = Context::new(&surface)?;
            context.scale(scale, scale);
            paint_all(&context, layout, frame, (width, height), options, |image| {
                cairo_canvas::paint_image(&context, frame, image)
            });
            drop(context);
            finish_stream(surface.finish_output_stream())?
        }
        Format::Ps | Format::Eps => {
            let scale = fit(1.0, MAX_PDF_SIDE, "points");
            let surface = PsSurface::for_stream(width * scale, height * scale, Vec::<u8>::new())?;
            surface.set_eps(format == Format::Eps);
            let context = Context::new(&surface)?;
            context.scale(scale, scale);
            paint_all(&context, layout, frame, (width, height), options, |image| {
                cairo_canvas::paint_image(&context, frame, image)
            });
            drop(context);
            fixed_creation_date(finish_stream(surface.finish_output_stream())?)
        }
        Format::Svg => {
            let surface = SvgSurface::for_stream(width, height, Vec::<u8>::new())?;
            let context = Context::new(&surface)?;
            paint_all(&context, layout, frame, (width, height), options, |image| {
                cairo_canvas::paint_image(&context, frame, image)
            });
            drop(context);
            renumber_surfaces(finish_stream(surface.finish_output_stream())?)
        }
    };
    Ok(Rendered { bytes, warnings })
}

/// The pixel size of a raster of `width` x `height` points at `scale` pixels a point, and
/// the scale to paint at: shrunk further (with a warning) when the area is over
/// [`MAX_RASTER_PIXELS`], and each side clamped to [`MAX_RASTER_SIDE`] (a side scaled to
/// exactly the limit can round up one pixel over it, which cairo refuses as "Invalid Size").
fn raster_size(width: f64, height: f64, scale: f64, warnings: &mut Vec<String>) -> (f64, i32, i32) {
    let mut scale = scale;
    let pixels = width * height * scale * scale;
    if pixels > MAX_RASTER_PIXELS {
        warnings.push(format!(
            "the drawing would be {:.0} megapixels, over the {:.0} limit: it was scaled down to fit; \
             collapse it (depth=, collapse=\"auto\"), focus a module, or lower dpi= for a readable picture",
            pixels / 1e6,
            MAX_RASTER_PIXELS / 1e6
        ));
        scale *= (MAX_RASTER_PIXELS / pixels).sqrt();
    }
    let side = |points: f64| (points * scale).ceil().clamp(1.0, MAX_RASTER_SIDE) as i32;
    (scale, side(width), side(height))
}

/// cairo stamps the current time into PostScript's `%%CreationDate:` comment; the fixed
/// date of PDF output instead makes the same drawing give the same bytes.
fn fixed_creation_date(postscript: Vec<u8>) -> Vec<u8> {
    const KEY: &[u8] = b"%%CreationDate: ";
    let Some(start) = postscript.windows(KEY.len()).position(|w| w == KEY) else {
        return postscript;
    };
    let value = start + KEY.len();
    let end = postscript[value..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(postscript.len(), |n| value + n);
    let mut fixed = Vec::with_capacity(postscript.len());
    fixed.extend_from_slice(&postscript[..value]);
    fixed.extend_from_slice(b"D:20000101000000");
    fixed.extend_from_slice(&postscript[end..]);
    fixed
}

/// Cairo numbers SVG surfaces with a counter that lives as long as the process
/// (`id="surface1925"`); numbering them from 1 in order of appearance makes the same
/// drawing give the same bytes however many were painted before it.
fn renumber_surfaces(svg: Vec<u8>) -> Vec<u8> {
    const PREFIX: &[u8] = b"surface";
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut out = Vec::with_capacity(svg.len());
    let mut i = 0;
    while i < svg.len() {
        if svg[i..].starts_with(PREFIX) {
            let start = i + PREFIX.len();
            let end = start
                + svg[start..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
            if end > start {
                let number = svg[start..end].to_vec();
                let position = match seen.iter().position(|n| *n == number) {
                    Some(p) => p,
                    None => {
                        seen.push(number);
                        seen.len() - 1
                    }
                };
                out.extend_from_slice(PREFIX);
                out.extend_from_slice((position + 1).to_string().as_bytes());
                i = end;
                continue;
            }
        }
        out.push(svg[i]);
        i += 1;
    }
    out
}

fn finish_stream(
    finished: Result<Box<dyn std::any::Any>, cairo::StreamWithError>,
) -> Result<Vec<u8>, RenderError> {
    let stream = finished.map_err(|error| RenderError::Stream(error.error))?;
    Ok(*stream
        .downcast::<Vec<u8>>()
        .expect("the stream is the Vec<u8> we gave cairo"))
}

/// The page colour: the first fill colour of the graph's own drawing.
fn page_color(layout: &Layout) -> Rgba {
    layout
        .draw
        .iter()
        .find_map(|op| match op {
            Op::FillColor(spec) => spec.color.as_deref().map(parse_color),
            _ => None,
        })
        .unwrap_or(Rgba(1.0, 1.0, 1.0, 1.0))
}

/// Paints the whole drawing on `canvas`, in Graphviz's order: the page, the graph's own
/// drawing, clusters outermost first, arrows, nodes, pictures (by `picture`), the graph's
/// label, and the shading layer on top.
pub(crate) fn paint_all<C: Canvas>(
    canvas: &C,
    layout: &Layout,
    frame: Frame,
    page: (f64, f64),
    options: &RenderOptions,
    picture: impl Fn(&xdot::ImagePlacement),
) {
    let (width, height) = page;
    canvas.move_to((0.0, 0.0));
    canvas.line_to((width, 0.0));
    canvas.line_to((width, height));
    canvas.line_to((0.0, height));
    canvas.close_path();
    canvas.finish_path(Some(&Paint::Solid(page_color(layout))), None);
    let painter = Painter::new(canvas, frame, options.xdot_escaped_text);
    painter.paint(&layout.draw);
    let (clusters, nodes) = layout
        .objects
        .split_at(layout.subgraph_count.min(layout.objects.len()));
    for cluster in clusters {
        painter.paint(&cluster.draw);
        painter.paint(&cluster.label);
    }
    for edge in &layout.edges {
        for ops in edge.op_lists() {
            painter.paint(ops);
        }
    }
    for node in nodes {
        painter.paint(&node.draw);
        painter.paint(&node.label);
    }
    for image in &options.images {
        picture(image);
    }
    painter.paint(&layout.label);
    if let Some(shading) = &options.shading {
        let overlay = Painter::overlay(canvas, frame, parse_color(&shading.color));
        let name = |index: usize| layout.objects.get(index).map(|o| o.name.as_str());
        for edge in &layout.edges {
            let key = (name(edge.tail), name(edge.head));
            if shading
                .edges
                .iter()
                .any(|(t, h)| key == (Some(t.as_str()), Some(h.as_str())))
            {
                overlay.paint(&edge.draw);
                overlay.paint(&edge.head_arrow);
            }
        }
        for node in nodes
            .iter()
            .filter(|node| shading.nodes.contains(&node.name))
        {
            overlay.paint(&node.draw);
        }
    }
}

/// Reads a PNG's pixel size (for tests and callers that check output).
pub fn png_size(bytes: &[u8]) -> Result<(i32, i32), RenderError> {
    let info = png::Decoder::new(Cursor::new(bytes))
        .read_info()
        .map_err(|e| RenderError::Png(e.to_string()))?;
    let header = info.info();
    Ok((header.width as i32, header.height as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raster_over_the_pixel_budget_is_scaled_to_it_with_a_warning() {
        let mut warnings = Vec::new();
        // 20,000 x 20,000 points at 1 pixel a point: each side fits, the area does not.
        let (scale, w, h) = raster_size(20_000.0, 20_000.0, 1.0, &mut warnings);
        assert!(
            f64::from(w) * f64::from(h) <= MAX_RASTER_PIXELS * 1.001,
            "{w}x{h}"
        );
        assert!(scale < 1.0);
        assert!(warnings[0].contains("megapixels"), "{warnings:?}");
        let mut none = Vec::new();
        assert_eq!(raster_size(100.0, 50.0, 2.0, &mut none), (2.0, 200, 100));
        assert!(none.is_empty());
    }

    #[test]
    fn a_side_never_rounds_over_the_limit() {
        let mut warnings = Vec::new();
        let (_, w, _) = raster_size(32_767.000_01, 10.0, 1.0, &mut warnings);
        assert_eq!(w, 32_767);
    }
}
