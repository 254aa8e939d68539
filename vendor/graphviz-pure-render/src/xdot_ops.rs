//! tl-draw's patch: the xdot job's operations as the values `parse_xdot` reads back from
//! their text, without writing the text ([`GraphJobs::xdot_drawing`]).
//!
//! Invariant: an object's [`OpList`] is what `parse_xdot` gives for the text the xdot engine
//! sets on it (after the label's backslashes are doubled), op for op and bit for bit, or it
//! is marked [`OpList::inexact`]. Numbers are read back without text
//! ([`crate::emit::num::xdot_num_read_back`]); a string reads back as itself when it is
//! not empty and holds neither a backslash (which the reader does not count) nor a raw input
//! byte (which the text holds as itself); an empty one ends the reading, as it ends
//! `parse_xdot`'s. Any other string makes the list inexact, and the drawing is then read
//! from its text (`tests/tests/workspace/painting.rs` holds the two ways to the same
//! operations).
//!
//! [`GraphJobs::xdot_drawing`]: crate::GraphJobs::xdot_drawing

use graphviz_pure_core::Point;
use graphviz_pure_core::xdot::{Grad, Op};

use crate::emit::num::{read_whole_number, xdot_num_read_back};
use crate::xdot_engine::{Gradient, GradientShape, XdotWriter, color_str, stop_text};

/// One object's operations (one `xbufs[]` entry).
#[derive(Debug, Default)]
pub(crate) struct OpList {
    pub ops: Vec<Op>,
    /// An operation the reader stops at (an empty string) was written: it and every
    /// operation after it are not read back.
    stopped: bool,
    /// A string or number was written whose text may not read back as the value: the
    /// text has to be read.
    pub inexact: bool,
}

impl OpList {
    fn push(&mut self, op: Option<Op>) {
        match op {
            Some(op) if !self.stopped => self.ops.push(op),
            Some(_) => {}
            None => self.stopped = true,
        }
    }

    /// The number the reader reads back from `v`'s text.
    fn number(&mut self, v: f64) -> f64 {
        xdot_num_read_back(v).unwrap_or_else(|| {
            self.inexact = true;
            f64::NAN
        })
    }

    /// The reader's pair for a point, `y` already through `yDir`.
    fn pair(&mut self, p: Point) -> (f64, f64) {
        (self.number(p.x), self.number(p.y))
    }

    /// The string the reader reads back, `None` where it stops.
    fn string(&mut self, s: &str) -> Option<String> {
        if s.is_empty() {
            return None;
        }
        if s.contains('\\') || graphviz_pure_core::charset::has_raw(s) {
            self.inexact = true;
        }
        Some(s.to_string())
    }
}

impl XdotWriter for OpList {
    fn is_empty(&self) -> bool {
        // What the text would hold, not what reads back: an object whose text is there
        // but reads as nothing is still set.
        self.ops.is_empty() && !self.stopped
    }

    fn color(&mut self, fill: bool, color: &str) {
        // `parseXDotColor`: a plain colour starts with `#`, `/` or an ASCII letter or digit.
        let plain = |c: &String| matches!(c.as_bytes()[0], b'#' | b'/' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z');
        let op = self
            .string(color)
            .filter(plain)
            .map(|c| Op::Color(fill, Grad::None(c)));
        self.push(op);
    }

    fn gradient(&mut self, gradient: &Gradient) {
        let y_dir = |p: Point| Point::new(p.x, crate::emit::y_dir(p.y, gradient.y_off));
        let mut stops = Vec::with_capacity(2);
        for (position, color) in gradient.stops {
            let position = read_whole_number(&stop_text(position)).unwrap_or_else(|| {
                self.inexact = true;
                f64::NAN
            });
            stops.push((position, color_str(color)));
        }
        let grad = match gradient.shape {
            GradientShape::Linear([from, to]) => {
                let ((x0, y0), (x1, y1)) = (self.pair(y_dir(from)), self.pair(y_dir(to)));
                Grad::Linear(x0, y0, x1, y1, stops)
            }
            GradientShape::Radial {
                inner,
                inner_radius,
                outer,
                outer_radius,
            } => {
                let (x0, y0) = self.pair(y_dir(inner));
                let r0 = self.number(inner_radius);
                let (x1, y1) = self.pair(y_dir(outer));
                let r1 = self.number(outer_radius);
                Grad::Radial(x0, y0, r0, x1, y1, r1, stops)
            }
        };
        self.push(Some(Op::Color(true, grad)));
    }

    fn style(&mut self, style: &str) {
        let op = self.string(style).map(Op::Style);
        self.push(op);
    }

    fn font(&mut self, size: f64, name: &str) {
        let size = self.number(size);
        let op = self.string(name).map(|name| Op::Font(size, name));
        self.push(op);
    }

    fn font_flags(&mut self, bits: u32) {
        self.push(Some(Op::FontChar(u64::from(bits))));
    }

    fn text(&mut self, at: Point, just: i32, width: f64, text: &str) {
        let (x, y) = self.pair(at);
        let width = self.number(width);
        let op = self
            .string(text)
            .map(|text| Op::Text(x, y, i64::from(just), width, text));
        self.push(op);
    }

    fn points(&mut self, op: char, points: &[Point], y_off: f64) {
        let list = points
            .iter()
            .map(|p| self.pair(Point::new(p.x, crate::emit::y_dir(p.y, y_off))))
            .collect();
        self.push(Some(match op {
            'P' | 'p' => Op::Polygon(op == 'P', list),
            'b' | 'B' => Op::Bezier(op == 'b', list),
            _ => Op::Polyline(list),
        }));
    }

    fn ellipse(&mut self, filled: bool, at: Point, rx: f64, ry: f64) {
        let (x, y) = self.pair(at);
        let radii = [self.number(rx), self.number(ry)];
        self.push(Some(Op::Ellipse(filled, [x, y, radii[0], radii[1]])));
    }

    fn image(&mut self, at: Point, width: f64, height: f64, name: &str) {
        for v in [at.x, at.y, width, height] {
            self.number(v);
        }
        let op = self.string(name).map(|_| Op::Image);
        self.push(op);
    }

    fn escaped(self) -> Self {
        // A string with a backslash made the list inexact; the rest reads back the same.
        self
    }

    fn version_attribute(_: &str) -> Option<Self> {
        None
    }
}
