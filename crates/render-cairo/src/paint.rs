//! Replays xdot drawing operations on a canvas.

use crate::canvas::{Canvas, Linear, Paint, Pen, TextFont, TextPlace};
use crate::xdot::{ColorSpec, Op, Point};

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
    pub(crate) fn map(&self, point: Point) -> (f64, f64) {
        (
            point[0] - self.llx + self.pad,
            self.ury - point[1] + self.pad,
        )
    }
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

/// Paints operation lists onto one canvas.
pub(crate) struct Painter<'c, C: Canvas> {
    canvas: &'c C,
    frame: Frame,
    /// Overrides every fill and pen colour (the translucent shading layer).
    overlay: Option<Paint>,
    /// Texts carry xdot escaping to undo.
    xdot_escaped_text: bool,
}

impl<'c, C: Canvas> Painter<'c, C> {
    /// A painter for `canvas` in `frame`.
    pub(crate) fn new(canvas: &'c C, frame: Frame, xdot_escaped_text: bool) -> Painter<'c, C> {
        Painter {
            canvas,
            frame,
            overlay: None,
            xdot_escaped_text,
        }
    }

    /// A painter that paints every shape in one translucent colour and skips text.
    pub(crate) fn overlay(canvas: &'c C, frame: Frame, color: Rgba) -> Painter<'c, C> {
        Painter {
            canvas,
            frame,
            overlay: Some(Paint::Solid(color)),
            xdot_escaped_text: false,
        }
    }

    fn paint_of(&self, spec: &ColorSpec) -> Paint {
        let stops = || {
            spec.stops
                .iter()
                .map(|stop| (stop.frac, parse_color(&stop.color)))
                .collect()
        };
        match (spec.grad.as_str(), spec.p0.as_deref(), spec.p1.as_deref()) {
            ("linear", Some([x0, y0, ..]), Some([x1, y1, ..])) => Paint::Linear(Linear {
                from: self.frame.map([*x0, *y0]),
                to: self.frame.map([*x1, *y1]),
                stops: stops(),
            }),
            ("radial", Some([x0, y0, r0]), Some([x1, y1, r1])) => Paint::Radial {
                from: self.frame.map([*x0, *y0]),
                from_radius: *r0,
                to: self.frame.map([*x1, *y1]),
                to_radius: *r1,
                stops: stops(),
            },
            _ => Paint::Solid(parse_color(spec.color.as_deref().unwrap_or("black"))),
        }
    }

    /// What `paint` paints with on this painter (the overlay's colour on an overlay).
    fn effective<'p>(&'p self, paint: &'p Paint) -> &'p Paint {
        self.overlay.as_ref().unwrap_or(paint)
    }

    /// Fills (when `filled`) then outlines the current path.
    fn finish_shape(&self, state: &State, filled: bool) {
        if state.invisible {
            self.canvas.finish_path(None, None);
            return;
        }
        let fill = filled.then(|| self.effective(&state.fill));
        let pen = if self.overlay.is_some() {
            // The overlay outlines only open lines (arrows), wide enough to see.
            (!filled).then(|| Pen {
                paint: self.effective(&state.pen),
                width: state.line_width.max(6.0),
                dash: &[],
            })
        } else {
            Some(Pen {
                paint: &state.pen,
                width: state.line_width,
                dash: &state.dash,
            })
        };
        self.canvas.finish_path(fill, pen);
    }

    fn polygon_path(&self, points: &[Point]) {
        for (i, point) in points.iter().enumerate() {
            let at = self.frame.map(*point);
            if i == 0 {
                self.canvas.move_to(at);
            } else {
                self.canvas.line_to(at);
            }
        }
    }

    fn bspline_path(&self, points: &[Point]) {
        let Some(first) = points.first() else { return };
        self.canvas.move_to(self.frame.map(*first));
        for triple in points[1..].chunks_exact(3) {
            self.canvas.curve_to(
                self.frame.map(triple[0]),
                self.frame.map(triple[1]),
                self.frame.map(triple[2]),
            );
        }
    }

    fn ellipse_path(&self, rect: &[f64; 4]) {
        let center = self.frame.map([rect[0], rect[1]]);
        let (rx, ry) = (rect[2].abs().max(1e-6), rect[3].abs().max(1e-6));
        self.canvas.ellipse(center, rx, ry);
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
        let (family, bold, italic) = font_of(&state.font_face, state.font_flags);
        let font = TextFont {
            family,
            bold,
            italic,
            size: state.font_size,
        };
        let place = TextPlace {
            anchor: self.frame.map(pt),
            align,
            width,
        };
        let (left, drawn) = self.canvas.text(font, text, place, &state.pen);
        if state.font_flags & 4 != 0 {
            let thickness = (state.font_size / 14.0).max(0.5);
            let y = place.anchor.1 + 2.0 * thickness;
            self.canvas.move_to((left, y));
            self.canvas.line_to((left + drawn, y));
            let pen = Pen {
                paint: &state.pen,
                width: thickness,
                dash: &[],
            };
            self.canvas.finish_path(None, Some(pen));
        }
    }

    /// Paints one operation list (state starts fresh).
    pub(crate) fn paint(&self, ops: &[Op]) {
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
                    self.canvas.close_path();
                    self.finish_shape(&state, true);
                }
                Op::Polygon { points } => {
                    self.polygon_path(points);
                    self.canvas.close_path();
                    self.finish_shape(&state, false);
                }
                Op::Polyline { points } => {
                    self.polygon_path(points);
                    self.finish_shape(&state, false);
                }
                Op::FilledBspline { points } => {
                    self.bspline_path(points);
                    self.canvas.close_path();
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

/// Font family and weight/slant for a PostScript-style name and xdot flags. Helvetica,
/// Times and Courier resolve through fontconfig to their metric-compatible faces.
pub(crate) fn font_of(face: &str, flags: u32) -> (&str, bool, bool) {
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
