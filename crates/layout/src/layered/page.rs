//! From the engine's coordinates to Graphviz's page, and coordinates written as Graphviz
//! writes them.

use tl_layered::Point;

use super::input::Direction;

/// From the engine's coordinates (y down the layers) to Graphviz's (y up, origin at the
/// bottom left), turned for the graph's direction.
pub(super) struct Page {
    direction: Direction,
    min: Point,
    max: Point,
}

impl Page {
    pub(super) fn new(direction: Direction, bounds: &tl_layered::Rect) -> Page {
        Page {
            direction,
            min: bounds.min,
            max: bounds.max,
        }
    }

    pub(super) fn map(&self, p: Point) -> Point {
        match self.direction {
            Direction::TopToBottom => Point {
                x: p.x - self.min.x,
                y: self.max.y - p.y,
            },
            Direction::BottomToTop => Point {
                x: p.x - self.min.x,
                y: p.y - self.min.y,
            },
            Direction::LeftToRight => Point {
                x: p.y - self.min.y,
                y: self.max.x - p.x,
            },
            Direction::RightToLeft => Point {
                x: self.max.y - p.y,
                y: self.max.x - p.x,
            },
        }
    }

    /// A rectangle's least and greatest corners on the page.
    pub(super) fn rect(&self, rect: &tl_layered::Rect) -> (Point, Point) {
        let (a, b) = (self.map(rect.min), self.map(rect.max));
        (
            Point {
                x: a.x.min(b.x),
                y: a.y.min(b.y),
            },
            Point {
                x: a.x.max(b.x),
                y: a.y.max(b.y),
            },
        )
    }
}

/// A coordinate as Graphviz writes one: two decimals, no trailing zeros.
pub(super) fn num(value: f64) -> String {
    let mut text = String::new();
    push_num(&mut text, value);
    text
}

/// [`num`] appended to `out`.
pub(super) fn push_num(out: &mut String, value: f64) {
    use std::fmt::Write;
    let rounded = (value * 100.0).round() / 100.0;
    let start = out.len();
    let _ = write!(out, "{rounded:.2}");
    while out.ends_with('0') {
        out.pop();
    }
    if out.ends_with('.') {
        out.pop();
    }
    if &out[start..] == "-0" {
        out.truncate(start);
        out.push('0');
    }
}
