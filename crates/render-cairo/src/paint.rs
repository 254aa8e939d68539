//! Replays xdot drawing operations on a cairo context.

use std::f64::consts::TAU;

use cairo::{Context, FontSlant, FontWeight, ImageSurface, LinearGradient, RadialGradient};

use crate::xdot::{ColorSpec, ImagePlacement, Op, Point};

/// An RGBA colour with components in 0..=1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgba(pub f64, pub f64, pub f64, pub f64);

/// Named colours Graphviz may leave unconverted.
const NAMED: [(&str, Rgba); 4] = [
    ("black", Rgba(0.0, 0.0, 0.0, 1.0)),
    ("white", Rgba(1.0, 1.0, 1.0, 1.0)),
    ("transparent", Rgba(1.0, 1.0, 1.0, 0.0)),
    ("none", Rgba(0.0, 0.0, 0.0, 0.0)),
];

/// Parses `#rrggbb`, `#rrggbbaa` or a basic colour name; unknown text reads as black.
pub fn parse_color(text: &str) -> Rgba {
    if let Some(hex) = text.strip_prefix('#') {
        let channel = |i: usize| {
            u8::from_str_radix(hex.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0) as f64 / 255.0
        };
        let alpha = if hex.len() >= 8 { channel(6) } else { 1.0 };
        return Rgba(channel(0), channel(2), channel(4), alpha);
    }
    NAMED
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(text))
        .map_or(Rgba(0.0, 0.0, 0.0, 1.0), |(_, rgba)| *rgba)
}

/// Maps layout coordinates (points, y up) to page coordinates (y down).
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    /// Left edge of the bounding box.
    pub llx: f64,
    /// Top edge of the bounding box.
    pub ury: f64,
    /// Margin around the drawing, in points.
    pub pad: f64,
}

impl Frame {
    fn map(&self, point: Point) -> (f64, f64) {
        (
            point[0] - self.llx + self.pad,
            self.ury - point[1] + self.pad,
        )
    }
}

#[derive(Clone)]
enum Paint {
    Solid(Rgba),
    Linear(LinearGradient),
    Radial(RadialGradient),
}

/// Drawing state; reset at the start of every operation list.
#[derive(Clone)]
struct State {
    pen: Paint,
    fill: Paint,
    line_width: f64,
    dash: Vec<f64>,
    invisible: bool,
    font_size: f64,
    font_face: String,
    font_flags: u32,
}

impl Default for State {
    fn default() -> Self {
        State {
            pen: Paint::Solid(Rgba(0.0, 0.0, 0.0, 1.0)),
            fill: Paint::Solid(Rgba(0.0, 0.0, 0.0, 1.0)),
            line_width: 1.0,
            dash: Vec::new(),
            invisible: false,
            font_size: 14.0,
            font_face: "Helvetica".to_owned(),
            font_flags: 0,
        }
    }
}

/// Paints operation lists onto one context.
pub struct Painter<'c> {
    context: &'c Context,
    frame: Frame,
    /// Overrides every fill and pen colour (the translucent shading layer).
    overlay: Option<Rgba>,
    /// Texts carry xdot escaping to undo.
    xdot_escaped_text: bool,
}

impl<'c> Painter<'c> {
    /// A painter for `context` in `frame`.
    pub fn new(context: &'c Context, frame: Frame, xdot_escaped_text: bool) -> Painter<'c> {
        Painter {
            context,
            frame,
            overlay: None,
            xdot_escaped_text,
        }
    }

    /// A painter that paints every shape in one translucent colour and skips text.
    pub fn overlay(context: &'c Context, frame: Frame, color: Rgba) -> Painter<'c> {
        Painter {
            context,
            frame,
            overlay: Some(color),
            xdot_escaped_text: false,
        }
    }

    fn paint_of(&self, spec: &ColorSpec) -> Paint {
        let stops = |add: &dyn Fn(f64, Rgba)| {
            for stop in &spec.stops {
                add(stop.frac, parse_color(&stop.color));
            }
        };
        match (spec.grad.as_str(), spec.p0.as_deref(), spec.p1.as_deref()) {
            ("linear", Some([x0, y0, ..]), Some([x1, y1, ..])) => {
                let (a, b) = (self.frame.map([*x0, *y0]), self.frame.map([*x1, *y1]));
                let gradient = LinearGradient::new(a.0, a.1, b.0, b.1);
                stops(&|frac, c| gradient.add_color_stop_rgba(frac, c.0, c.1, c.2, c.3));
                Paint::Linear(gradient)
            }
            ("radial", Some([x0, y0, r0]), Some([x1, y1, r1])) => {
                let (a, b) = (self.frame.map([*x0, *y0]), self.frame.map([*x1, *y1]));
                let gradient = RadialGradient::new(a.0, a.1, *r0, b.0, b.1, *r1);
                stops(&|frac, c| gradient.add_color_stop_rgba(frac, c.0, c.1, c.2, c.3));
                Paint::Radial(gradient)
            }
            _ => Paint::Solid(parse_color(spec.color.as_deref().unwrap_or("black"))),
        }
    }

    fn set_source(&self, paint: &Paint) {
        if let Some(Rgba(r, g, b, a)) = self.overlay {
            self.context.set_source_rgba(r, g, b, a);
            return;
        }
        // Sources that cannot be set leave cairo's previous one; nothing to report.
        let _ = match paint {
            Paint::Solid(Rgba(r, g, b, a)) => {
                self.context.set_source_rgba(*r, *g, *b, *a);
                Ok(())
            }
            Paint::Linear(gradient) => self.context.set_source(gradient),
            Paint::Radial(gradient) => self.context.set_source(gradient),
        };
    }

    fn stroke(&self, state: &State) {
        let context = self.context;
        context.set_line_width(if self.overlay.is_some() {
            state.line_width.max(6.0)
        } else {
            state.line_width
        });
        context.set_dash(
            if self.overlay.is_some() {
                &[]
            } else {
                &state.dash
            },
            0.0,
        );
        self.set_source(&state.pen);
        let _ = context.stroke();
    }

    /// Fills (when `filled`) then outlines the current path.
    fn finish_shape(&self, state: &State, filled: bool) {
        if state.invisible {
            self.context.new_path();
            return;
        }
        if filled {
            self.set_source(&state.fill);
            let _ = self.context.fill_preserve();
        }
        if self.overlay.is_some() && filled {
            self.context.new_path();
        } else {
            self.stroke(state);
        }
    }

    fn polygon_path(&self, points: &[Point]) {
        for (i, point) in points.iter().enumerate() {
            let (x, y) = self.frame.map(*point);
            if i == 0 {
                self.context.move_to(x, y);
            } else {
                self.context.line_to(x, y);
            }
        }
    }

    fn bspline_path(&self, points: &[Point]) {
        let Some(first) = points.first() else { return };
        let (x, y) = self.frame.map(*first);
        self.context.move_to(x, y);
        for triple in points[1..].chunks_exact(3) {
            let (a, b, c) = (
                self.frame.map(triple[0]),
                self.frame.map(triple[1]),
                self.frame.map(triple[2]),
            );
            self.context.curve_to(a.0, a.1, b.0, b.1, c.0, c.1);
        }
    }

    fn ellipse_path(&self, rect: &[f64; 4]) {
        let (cx, cy) = self.frame.map([rect[0], rect[1]]);
        let (rx, ry) = (rect[2].abs().max(1e-6), rect[3].abs().max(1e-6));
        self.context.save().ok();
        self.context.translate(cx, cy);
        self.context.scale(rx, ry);
        self.context.new_sub_path();
        self.context.arc(0.0, 0.0, 1.0, 0.0, TAU);
        self.context.restore().ok();
    }

    fn text(&self, state: &State, pt: Point, align: &str, width: f64, text: &str) {
        if self.overlay.is_some() || state.invisible || text.is_empty() {
            return;
        }
        let unescaped;
        let text = if self.xdot_escaped_text && text.contains('\\') {
            unescaped = text.replace("\\\\", "\\");
            unescaped.as_str()
        } else {
            text
        };
        let context = self.context;
        let (family, bold, italic) = font_of(&state.font_face, state.font_flags);
        match crate::fonts::helvetica(bold, italic).filter(|_| family == "Helvetica") {
            Some(face) => context.set_font_face(face),
            None => select_system_font(context, family, bold, italic),
        }
        context.set_font_size(state.font_size);
        let advance = context
            .text_extents(text)
            .map(|e| e.x_advance())
            .unwrap_or(width);
        // Squeeze only when the real text is wider than the room the layout gave it.
        let squeeze = if advance > width && advance > 0.0 {
            width / advance
        } else {
            1.0
        };
        let drawn = advance * squeeze;
        let (x, y) = self.frame.map(pt);
        let left = match align {
            "c" => x - drawn / 2.0,
            "r" => x - drawn,
            _ => x,
        };
        self.set_source(&state.pen);
        context.save().ok();
        context.translate(left, y);
        context.scale(squeeze, 1.0);
        context.move_to(0.0, 0.0);
        let _ = context.show_text(text);
        context.restore().ok();
        if state.font_flags & 4 != 0 {
            let thickness = (state.font_size / 14.0).max(0.5);
            context.set_line_width(thickness);
            context.set_dash(&[], 0.0);
            context.move_to(left, y + 2.0 * thickness);
            context.line_to(left + drawn, y + 2.0 * thickness);
            let _ = context.stroke();
        }
    }

    /// Paints a node picture scaled into its rectangle; a picture that cannot be read is
    /// left out (the layout kept its room empty).
    pub fn image(&self, image: &ImagePlacement) {
        let Ok(mut file) = std::fs::File::open(&image.file) else {
            return;
        };
        let Ok(surface) = ImageSurface::create_from_png(&mut file) else {
            return;
        };
        let [x, y, width, height] = image.rect;
        let (left, top) = self.frame.map([x, y + height]);
        let (scale_x, scale_y) = (
            width / f64::from(surface.width().max(1)),
            height / f64::from(surface.height().max(1)),
        );
        let context = self.context;
        context.save().ok();
        context.translate(left, top);
        context.scale(scale_x, scale_y);
        let _ = context.set_source_surface(&surface, 0.0, 0.0);
        let _ = context.paint();
        context.restore().ok();
    }

    /// Paints one operation list (state starts fresh).
    pub fn paint(&self, ops: &[Op]) {
        let mut state = State::default();
        for op in ops {
            match op {
                Op::FillColor(spec) => state.fill = self.paint_of(spec),
                Op::PenColor(spec) => state.pen = self.paint_of(spec),
                Op::Style { style } => apply_style(&mut state, style),
                Op::Font { size, face } => {
                    state.font_size = *size;
                    state.font_face = face.clone();
                }
                Op::FontFlags { fontchar } => state.font_flags = *fontchar,
                Op::FilledEllipse { rect } => {
                    self.ellipse_path(rect);
                    self.finish_shape(&state, true);
                }
                Op::Ellipse { rect } => {
                    self.ellipse_path(rect);
                    self.finish_shape(&state, false);
                }
                Op::FilledPolygon { points } => {
                    self.polygon_path(points);
                    self.context.close_path();
                    self.finish_shape(&state, true);
                }
                Op::Polygon { points } => {
                    self.polygon_path(points);
                    self.context.close_path();
                    self.finish_shape(&state, false);
                }
                Op::Polyline { points } => {
                    self.polygon_path(points);
                    self.finish_shape(&state, false);
                }
                Op::FilledBspline { points } => {
                    self.bspline_path(points);
                    self.context.close_path();
                    self.finish_shape(&state, true);
                }
                Op::Bspline { points } => {
                    self.bspline_path(points);
                    self.finish_shape(&state, false);
                }
                Op::Text {
                    pt,
                    align,
                    width,
                    text,
                } => self.text(&state, *pt, align, *width, text),
            }
        }
    }
}

fn apply_style(state: &mut State, style: &str) {
    match style {
        "solid" => state.dash.clear(),
        "dashed" => state.dash = vec![6.0, 3.0],
        "dotted" => state.dash = vec![1.0, 3.0],
        "bold" => state.line_width = 2.0,
        "invis" | "invisible" => state.invisible = true,
        other => {
            if let Some(width) = other
                .strip_prefix("setlinewidth(")
                .and_then(|rest| rest.strip_suffix(')'))
                .and_then(|n| n.parse::<f64>().ok())
            {
                state.line_width = width;
            }
        }
    }
}

/// Sets `family` as fontconfig resolves it.
fn select_system_font(context: &Context, family: &str, bold: bool, italic: bool) {
    context.select_font_face(
        family,
        if italic {
            FontSlant::Italic
        } else {
            FontSlant::Normal
        },
        if bold {
            FontWeight::Bold
        } else {
            FontWeight::Normal
        },
    );
}

/// Font family and weight/slant for a PostScript-style name and xdot flags. Helvetica,
/// Times and Courier resolve through fontconfig to their metric-compatible faces.
fn font_of(face: &str, flags: u32) -> (&str, bool, bool) {
    let (family, variant) = face.split_once('-').unwrap_or((face, ""));
    let bold = flags & 1 != 0 || variant.contains("Bold");
    let italic = flags & 2 != 0 || variant.contains("Italic") || variant.contains("Oblique");
    let family = match family {
        "Times" => "Times",
        "Courier" => "Courier",
        "Helvetica" | "Arial" | "sans-serif" | "" => "Helvetica",
        other => other,
    };
    (family, bold, italic)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse_with_alpha() {
        assert_eq!(parse_color("#ff0000"), Rgba(1.0, 0.0, 0.0, 1.0));
        assert_eq!(parse_color("#00000080").3, 128.0 / 255.0);
        assert_eq!(parse_color("white"), Rgba(1.0, 1.0, 1.0, 1.0));
    }

    #[test]
    fn faces_map_to_families() {
        assert_eq!(font_of("Helvetica-Bold", 0), ("Helvetica", true, false));
        assert_eq!(font_of("Helvetica", 1), ("Helvetica", true, false));
        assert_eq!(font_of("Times-Italic", 0), ("Times", false, true));
    }
}
