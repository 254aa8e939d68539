//! What a painter needs of a surface: paths, filling and outlining them, and text. cairo's
//! context is one canvas (every format cairo writes); `pdf` is another, for the PDF files
//! tl-draw writes itself.
//!
//! Coordinates are page coordinates: points, y down, the drawing's margin included.

use crate::paint::Rgba;

/// A page position.
pub(crate) type At = (f64, f64);

/// What fills or outlines a shape.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Paint {
    Solid(Rgba),
    Linear(Linear),
    /// From the circle at `from` of radius `from_radius` to the one at `to`.
    Radial {
        from: At,
        from_radius: f64,
        to: At,
        to_radius: f64,
        stops: Vec<(f64, Rgba)>,
    },
}

/// A linear gradient from `from` to `to`, colour stops at fractions of the way.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Linear {
    pub from: At,
    pub to: At,
    pub stops: Vec<(f64, Rgba)>,
}

/// How a path is outlined.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pen<'a> {
    pub paint: &'a Paint,
    pub width: f64,
    /// Dash and gap lengths; empty for a solid line.
    pub dash: &'a [f64],
}

/// The face and size of a text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TextFont<'a> {
    /// Family as fontconfig names it (`Helvetica`, `Times`, ...).
    pub family: &'a str,
    pub bold: bool,
    pub italic: bool,
    /// Size in points.
    pub size: f64,
}

/// Where a text goes: its baseline anchor, its alignment there (`l`, `c` or `r`) and the
/// width the layout measured for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextPlace<'a> {
    pub anchor: At,
    pub align: &'a str,
    pub width: f64,
}

/// Where a text of `advance` points is set in `place`: its left end, the horizontal
/// squeeze that keeps it within the width the layout measured (1 when it fits), and the
/// width it then takes. A text that cannot be measured takes the measured width.
pub(crate) fn fit_text(advance: Option<f64>, place: TextPlace<'_>) -> (f64, f64, f64) {
    let advance = advance.unwrap_or(place.width);
    let squeeze = if advance > place.width && advance > 0.0 {
        place.width / advance
    } else {
        1.0
    };
    let drawn = advance * squeeze;
    let (x, _) = place.anchor;
    let left = match place.align {
        "c" => x - drawn / 2.0,
        "r" => x - drawn,
        _ => x,
    };
    (left, squeeze, drawn)
}

/// A surface painted on. Paths are built with `move_to` .. `close_path` and `ellipse`, then
/// ended by `finish_path`.
pub(crate) trait Canvas {
    fn move_to(&self, at: At);
    fn line_to(&self, at: At);
    fn curve_to(&self, a: At, b: At, c: At);
    fn close_path(&self);
    /// A closed ellipse centred at `center` with half-axes `rx` and `ry`, as a new sub-path.
    fn ellipse(&self, center: At, rx: f64, ry: f64);
    /// Ends the current path: filled with `fill`, then outlined with `pen`; with neither,
    /// it is dropped.
    fn finish_path(&self, fill: Option<&Paint>, pen: Option<Pen<'_>>);
    /// Sets `text` in `font` at `place` in `paint`, squeezed to the width the layout
    /// measured; returns its left end and drawn width.
    fn text(
        &self,
        font: TextFont<'_>,
        text: &str,
        place: TextPlace<'_>,
        paint: &Paint,
    ) -> (f64, f64);
}
