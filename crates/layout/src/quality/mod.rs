//! How good a layout is, measured on what an engine wrote (its `-Tjson` text): arrow
//! crossings, total arrow length and the length of line they draw, drawing area and aspect,
//! arrows drawn through a node they do not join, frames overlapping without one holding the
//! other, and arrow labels set on a node or on another label. The numbers a faster engine must be compared on
//! (`docs/performance.md`, "Layout quality").

use serde_json::Value;

mod read;

/// Points per inch: node sizes are in inches, positions in points.
const POINTS: f64 = 72.0;
/// Straight pieces each cubic Bézier piece of an arrow is measured as.
const STEPS: usize = 8;
/// Side of the squares the drawn line is counted in (points): arrows nearer each other than
/// that run on one another.
const LINE_CELL: f64 = 2.0;
/// How far inside a node an arrow must pass to count as through it (points): arrows that
/// graze a border are not counted.
const INSET: f64 = 2.0;

/// The measures of one layout.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Quality {
    /// Nodes measured.
    pub nodes: usize,
    /// Arrows measured.
    pub arrows: usize,
    /// Points where two arrows that share no node cross.
    pub crossings: u64,
    /// Points where lines cross as drawn: [`Quality::crossings`] with those at one spot
    /// (an arrow crossing a trunk several arrows share) counted once.
    pub crossings_drawn: u64,
    /// Total length of the arrows, in points.
    pub arrow_length: f64,
    /// Length of the line the arrows draw, in points: [`Quality::arrow_length`] less where an
    /// arrow runs on a line an earlier one drew (a trunk several arrows share, arrows leaving
    /// one port), which a reader follows once.
    pub line_drawn: f64,
    /// The drawing's width, in points.
    pub width: f64,
    /// The drawing's height, in points.
    pub height: f64,
    /// (arrow, node) pairs where the arrow passes through a node it does not join.
    pub arrows_through_nodes: u64,
    /// Pairs of frames that overlap without one holding the other.
    pub frames_overlapping: u64,
    /// Arrow labels (middle, floating, head and tail) set on a node or on another arrow
    /// label, each counted once.
    pub labels_overlapping: u64,
}

/// A point, in points.
type Point = (f64, f64);
/// An arrow: its tail's and head's ids and its path as straight pieces.
type Arrow = (i64, i64, Vec<Point>);
/// A straight piece of an arrow: the arrow's index and the piece's ends.
type Piece = (usize, Point, Point);

#[derive(Debug, Clone, Copy)]
struct Rect {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Rect {
    fn overlaps(&self, other: &Rect) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    fn holds(&self, other: &Rect) -> bool {
        const SLACK: f64 = 0.5;
        self.x0 <= other.x0 + SLACK
            && self.y0 <= other.y0 + SLACK
            && other.x1 <= self.x1 + SLACK
            && other.y1 <= self.y1 + SLACK
    }

    /// Does the segment `a`-`b` pass through this rectangle's inside?
    fn cut_by(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        // Liang-Barsky clipping against the rectangle.
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let mut low: f64 = 0.0;
        let mut high: f64 = 1.0;
        for (p, q) in [
            (-dx, a.0 - self.x0),
            (dx, self.x1 - a.0),
            (-dy, a.1 - self.y0),
            (dy, self.y1 - a.1),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return false;
                }
            } else {
                let t = q / p;
                if p < 0.0 {
                    low = low.max(t);
                } else {
                    high = high.min(t);
                }
            }
        }
        low < high
    }
}

/// Do segments `a`-`b` and `c`-`d` cross at a point inside both?
fn cross(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let side = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    let (d1, d2) = (side(c, d, a), side(c, d, b));
    let (d3, d4) = (side(a, b, c), side(a, b, d));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// The measures of a layout written as Graphviz JSON (`-Tjson`); `None` when the text is
/// not such a layout.
pub fn measure(json: &str) -> Option<Quality> {
    let layout: Value = serde_json::from_str(json).ok()?;
    let bounds = read::rect_of_bb(layout.get("bb")?.as_str()?)?;
    let objects = layout
        .get("objects")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut nodes: Vec<(i64, Rect)> = Vec::new();
    let mut frames: Vec<Rect> = Vec::new();
    for object in objects {
        let id = object.get("_gvid").and_then(Value::as_i64).unwrap_or(-1);
        if object.get("nodes").is_some() {
            let is_frame = object
                .get("name")
                .and_then(Value::as_str)
                .is_some_and(|name| name.starts_with("cluster"));
            if is_frame {
                frames.extend(read::frame_box(object));
            }
        } else if let Some(rect) = read::node_box(object) {
            nodes.push((id, rect));
        }
    }
    let edges = layout
        .get("edges")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let arrows: Vec<Arrow> = edges.iter().filter_map(read::arrow).collect();
    let mut quality = Quality {
        nodes: nodes.len(),
        arrows: arrows.len(),
        width: bounds.x1 - bounds.x0,
        height: bounds.y1 - bounds.y0,
        ..Quality::default()
    };
    quality.arrow_length = arrows
        .iter()
        .flat_map(|(_, _, path)| path.windows(2))
        .map(|pair| ((pair[1].0 - pair[0].0).powi(2) + (pair[1].1 - pair[0].1).powi(2)).sqrt())
        .sum();
    quality.line_drawn = line_drawn(&arrows);
    (quality.crossings, quality.crossings_drawn) = crossings(&arrows, &bounds);
    quality.labels_overlapping = labels_overlapping(edges, &nodes, &bounds);
    quality.arrows_through_nodes = through_nodes(&arrows, &nodes);
    for (k, a) in frames.iter().enumerate() {
        for b in &frames[k + 1..] {
            if a.overlaps(b) && !a.holds(b) && !b.holds(a) {
                quality.frames_overlapping += 1;
            }
        }
    }
    Some(quality)
}

/// The length of line the arrows draw: each arrow walked in steps of half a square
/// ([`LINE_CELL`]), a step counted unless its square holds a line an earlier arrow drew.
fn line_drawn(arrows: &[Arrow]) -> f64 {
    let mut drawn: std::collections::HashSet<(i64, i64)> = std::collections::HashSet::new();
    let mut this_arrow: Vec<(i64, i64)> = Vec::new();
    let mut total = 0.0;
    for (_, _, path) in arrows {
        for pair in path.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let length = (b.0 - a.0).hypot(b.1 - a.1);
            if !length.is_finite() {
                continue;
            }
            let steps = (length / (LINE_CELL / 2.0)).ceil().max(1.0);
            for k in 0..steps as usize {
                let t = (k as f64 + 0.5) / steps;
                let square = (
                    ((a.0 + (b.0 - a.0) * t) / LINE_CELL).floor() as i64,
                    ((a.1 + (b.1 - a.1) * t) / LINE_CELL).floor() as i64,
                );
                if !drawn.contains(&square) {
                    total += length / steps;
                }
                this_arrow.push(square);
            }
        }
        drawn.extend(this_arrow.drain(..));
    }
    total
}

/// Arrow labels that overlap a node or another arrow label.
fn labels_overlapping(edges: &[Value], nodes: &[(i64, Rect)], bounds: &Rect) -> u64 {
    let mut labels = Vec::new();
    for edge in edges {
        for key in ["_ldraw_", "_hldraw_", "_tldraw_"] {
            read::text_boxes(edge.get(key), &mut labels);
        }
    }
    let grid = Grid::new(bounds, labels.len() + nodes.len());
    let mut cells: Vec<Vec<usize>> = vec![Vec::new(); grid.columns * grid.rows];
    let every: Vec<&Rect> = labels.iter().chain(nodes.iter().map(|(_, r)| r)).collect();
    for (index, rect) in every.iter().enumerate() {
        for cell in grid.cells(rect) {
            cells[cell].push(index);
        }
    }
    labels
        .iter()
        .enumerate()
        .filter(|(index, label)| {
            grid.cells(label).any(|cell| {
                cells[cell]
                    .iter()
                    .any(|&other| other != *index && label.overlaps(every[other]))
            })
        })
        .count() as u64
}

/// Segments of every arrow bucketed in a grid, so that only nearby pieces are compared.
struct Grid {
    cell: f64,
    columns: usize,
    rows: usize,
    bounds: Rect,
}

impl Grid {
    fn new(bounds: &Rect, pieces: usize) -> Grid {
        let side = (pieces as f64).sqrt().ceil().max(1.0);
        let cell = ((bounds.x1 - bounds.x0).max(bounds.y1 - bounds.y0) / side).max(1.0);
        Grid {
            cell,
            columns: ((bounds.x1 - bounds.x0) / cell).ceil().max(1.0) as usize + 1,
            rows: ((bounds.y1 - bounds.y0) / cell).ceil().max(1.0) as usize + 1,
            bounds: *bounds,
        }
    }

    /// The cells a box touches.
    fn cells(&self, rect: &Rect) -> impl Iterator<Item = usize> + '_ {
        let column = |x: f64| {
            (((x - self.bounds.x0) / self.cell).floor().max(0.0) as usize).min(self.columns - 1)
        };
        let row = |y: f64| {
            (((y - self.bounds.y0) / self.cell).floor().max(0.0) as usize).min(self.rows - 1)
        };
        let (c0, c1, r0, r1) = (column(rect.x0), column(rect.x1), row(rect.y0), row(rect.y1));
        (r0..=r1).flat_map(move |r| (c0..=c1).map(move |c| r * self.columns + c))
    }
}

fn segment_box(a: (f64, f64), b: (f64, f64)) -> Rect {
    Rect {
        x0: a.0.min(b.0),
        y0: a.1.min(b.1),
        x1: a.0.max(b.0),
        y1: a.1.max(b.1),
    }
}

/// The crossings of arrows that share no node, and the spots they are at (squares of
/// [`LINE_CELL`]).
fn crossings(arrows: &[Arrow], bounds: &Rect) -> (u64, u64) {
    let pieces: Vec<Piece> = arrows
        .iter()
        .enumerate()
        .flat_map(|(k, (_, _, path))| path.windows(2).map(move |pair| (k, pair[0], pair[1])))
        .collect();
    let grid = Grid::new(bounds, pieces.len());
    let mut cells: Vec<Vec<usize>> = vec![Vec::new(); grid.columns * grid.rows];
    for (index, &(_, a, b)) in pieces.iter().enumerate() {
        for cell in grid.cells(&segment_box(a, b)) {
            cells[cell].push(index);
        }
    }
    let shares_node = |i: usize, j: usize| {
        let (a, b) = (&arrows[i], &arrows[j]);
        a.0 == b.0 || a.0 == b.1 || a.1 == b.0 || a.1 == b.1
    };
    let mut seen = std::collections::HashSet::new();
    for members in &cells {
        for (k, &p) in members.iter().enumerate() {
            for &q in &members[k + 1..] {
                let (ep, a, b) = pieces[p];
                let (eq, c, d) = pieces[q];
                if ep != eq && !shares_node(ep, eq) && cross(a, b, c, d) {
                    seen.insert((p.min(q), p.max(q)));
                }
            }
        }
    }
    let spots: std::collections::HashSet<(i64, i64)> = seen
        .iter()
        .map(|&(p, q)| {
            let ((_, a, b), (_, c, d)) = (pieces[p], pieces[q]);
            let (r, s) = ((b.0 - a.0, b.1 - a.1), (d.0 - c.0, d.1 - c.1));
            // Where a + t r meets c + u s (the pieces cross, so r x s is not zero).
            let t = ((c.0 - a.0) * s.1 - (c.1 - a.1) * s.0) / (r.0 * s.1 - r.1 * s.0);
            (
                ((a.0 + t * r.0) / LINE_CELL).floor() as i64,
                ((a.1 + t * r.1) / LINE_CELL).floor() as i64,
            )
        })
        .collect();
    (seen.len() as u64, spots.len() as u64)
}

fn through_nodes(arrows: &[Arrow], nodes: &[(i64, Rect)]) -> u64 {
    let mut count = 0;
    for (tail, head, path) in arrows {
        for (id, rect) in nodes {
            if id == tail || id == head {
                continue;
            }
            let inner = Rect {
                x0: rect.x0 + INSET,
                y0: rect.y0 + INSET,
                x1: rect.x1 - INSET,
                y1: rect.y1 - INSET,
            };
            if inner.x0 >= inner.x1 || inner.y0 >= inner.y1 {
                continue;
            }
            if path.windows(2).any(|pair| inner.cut_by(pair[0], pair[1])) {
                count += 1;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{lay_out, LayoutEngine, TextFormat};

    fn quality_of(dot: &str) -> Quality {
        let laid_out = lay_out(dot, &[TextFormat::Json], LayoutEngine::Embedded).unwrap();
        measure(laid_out.get(TextFormat::Json).unwrap()).unwrap()
    }

    #[test]
    fn a_chain_has_no_crossings_and_its_arrows_measure_their_gaps() {
        let quality = quality_of("digraph { a -> b -> c }");
        assert_eq!((quality.nodes, quality.arrows), (3, 2));
        assert_eq!(quality.crossings, 0);
        assert_eq!(quality.arrows_through_nodes, 0);
        assert!(quality.arrow_length > 50.0 && quality.arrow_length < 200.0);
        assert!(quality.height > quality.width);
    }

    #[test]
    fn two_pinned_arrows_that_must_cross_are_counted() {
        // K(3,3) is not planar: any drawing of it has a crossing.
        let quality = quality_of("digraph { {a b c} -> {d e f} }");
        assert!(quality.crossings >= 1, "{quality:?}");
    }

    /// A layout whose node `m` (1 x 0.5 inch) is written at (100, 1000) and whose arrow from
    /// `a` to `b` is written level at y = 1005, through it; `node_drawn`, `arrow_drawn` and
    /// `frame` are the drawing operations and the frame added to it.
    fn written_apart(node_drawn: &str, arrow_drawn: &str, frames: &str) -> Quality {
        let node = |id: u32, name: &str, pos: &str, drawn: &str| {
            format!(
                r#"{{"_gvid": {id}, "name": "{name}", "pos": "{pos}", "width": "1", "height": "0.5"{drawn}}}"#
            )
        };
        let layout = format!(
            r#"{{"bb": "0,0,300,2000", "objects": [{}, {}, {}{frames}],
            "edges": [{{"tail": 1, "head": 2, "pos": "e,250,1005 0,1005 50,1005 150,1005 240,1005"{arrow_drawn}}}]}}"#,
            node(0, "m", "100,1000", node_drawn),
            node(1, "a", "0,1005", ""),
            node(2, "b", "290,1005", ""),
        );
        measure(&layout).unwrap()
    }

    #[test]
    fn what_a_layout_draws_is_measured_where_it_is_drawn() {
        // Graphviz writes `pos` and `bb` with five significant digits (10 pt apart beyond
        // 100,000 pt); the drawing operations carry hundredths. Read from the positions
        // alone, the arrow runs through the node.
        assert_eq!(written_apart("", "", "").arrows_through_nodes, 1);
        // Drawn, the node is 30 pt lower and the arrow passes above it.
        let drawn_lower = r#", "_draw_": [{"op": "c", "grad": "none", "color": "black"}, {"op": "E", "rect": [100, 1030, 36, 18]}]"#;
        assert_eq!(written_apart(drawn_lower, "", "").arrows_through_nodes, 0);
        let polygon_lower = r#", "_draw_": [{"op": "P", "points": [[64, 1012], [136, 1012], [136, 1048], [64, 1048]]}]"#;
        assert_eq!(written_apart(polygon_lower, "", "").arrows_through_nodes, 0);
        // Drawn, the arrow runs 60 pt above where it is written, clear of the node.
        let arrow_higher = r#", "_draw_": [{"op": "b", "points": [[0, 1065], [50, 1065], [150, 1065], [240, 1065]]}], "_hdraw_": [{"op": "P", "points": [[240, 1062], [250, 1065], [240, 1068]]}]"#;
        let quality = written_apart("", arrow_higher, "");
        assert_eq!(quality.arrows_through_nodes, 0);
        // Its length: the spline's 240 pt and 10 pt to the arrowhead's drawn tip.
        assert!((quality.arrow_length - 250.0).abs() < 1e-9, "{quality:?}");
        // Two frames written overlapping, drawn side by side.
        let frame = |name: &str, bb: &str, drawn: &str| {
            format!(
                r#", {{"_gvid": 9, "name": "{name}", "nodes": [], "bb": "{bb}", "_draw_": [{{"op": "p", "points": {drawn}}}]}}"#
            )
        };
        let frames = frame(
            "cluster_l",
            "0,0,110,50",
            "[[0, 0], [100, 0], [100, 50], [0, 50]]",
        ) + &frame(
            "cluster_r",
            "90,0,200,50",
            "[[104, 0], [200, 0], [200, 50], [104, 50]]",
        );
        assert_eq!(written_apart("", "", &frames).frames_overlapping, 0);
        let undrawn = r#", {"_gvid": 9, "name": "cluster_l", "nodes": [], "bb": "0,0,110,50"}, {"_gvid": 10, "name": "cluster_r", "nodes": [], "bb": "90,0,200,50"}"#;
        assert_eq!(written_apart("", "", undrawn).frames_overlapping, 1);
    }

    #[test]
    fn labels_on_a_node_or_on_each_other_are_counted_once_each() {
        let layout = |labels: &str| {
            format!(
                r#"{{"bb": "0,0,200,200", "objects": [{{"_gvid": 0, "name": "a", "pos": "100,100", "width": "1", "height": "0.5"}}],
                "edges": [{labels}]}}"#
            )
        };
        let text = |x: f64, y: f64| {
            format!(
                r#"{{"tail": 0, "head": 0, "pos": "", "_ldraw_": [{{"op": "F", "size": 10, "face": "Helvetica"}}, {{"op": "T", "pt": [{x},{y}], "align": "l", "width": 30, "text": "arg 0"}}]}}"#
            )
        };
        // Apart from the node (72 x 36 around 100,100) and from each other: none.
        let apart = format!("{}, {}", text(0.0, 10.0), text(150.0, 10.0));
        assert_eq!(measure(&layout(&apart)).unwrap().labels_overlapping, 0);
        // One on the node, two on each other: three.
        let on = format!(
            "{}, {}, {}",
            text(90.0, 100.0),
            text(0.0, 10.0),
            text(20.0, 12.0)
        );
        assert_eq!(measure(&layout(&on)).unwrap().labels_overlapping, 3);
    }

    #[test]
    fn arrows_on_one_line_draw_it_once() {
        let layout = |poses: &[&str]| {
            let edges: Vec<String> = poses
                .iter()
                .map(|pos| format!(r#"{{"tail": 0, "head": 1, "pos": "{pos}"}}"#))
                .collect();
            format!(
                r#"{{"bb": "0,0,200,200", "objects": [], "edges": [{}]}}"#,
                edges.join(", ")
            )
        };
        let straight = |x: f64| format!("{x},0 {x},30 {x},70 {x},100");
        // Two arrows on one line: 200 pt of arrows, 100 of line.
        let shared = measure(&layout(&[&straight(50.0), &straight(50.0)])).unwrap();
        assert!((shared.arrow_length - 200.0).abs() < 1e-6, "{shared:?}");
        assert!((shared.line_drawn - 100.0).abs() < 1e-6, "{shared:?}");
        // Side by side, 10 pt apart: both drawn.
        let apart = measure(&layout(&[&straight(50.0), &straight(60.0)])).unwrap();
        assert!((apart.line_drawn - 200.0).abs() < 1e-6, "{apart:?}");
        // A diagonal measures its length, not its squares.
        let diagonal = measure(&layout(&["0,0 30,30 70,70 100,100"])).unwrap();
        assert!(
            (diagonal.line_drawn - diagonal.arrow_length).abs() < 1e-6,
            "{diagonal:?}"
        );
    }

    #[test]
    fn an_arrow_across_a_shared_trunk_crosses_it_once_as_drawn() {
        // Three arrows (0 -> 1, 2 -> 3, 4 -> 5) down one line at x = 53, and one (6 -> 7)
        // across it; then the trunk's arrows 10 pt apart.
        let layout = |xs: [f64; 3]| {
            let mut edges: Vec<String> = xs
                .iter()
                .enumerate()
                .map(|(k, x)| {
                    format!(
                        r#"{{"tail": {}, "head": {}, "pos": "{x},0 {x},30 {x},70 {x},100"}}"#,
                        2 * k,
                        2 * k + 1
                    )
                })
                .collect();
            edges.push(r#"{"tail": 6, "head": 7, "pos": "0,47 30,47 70,47 100,47"}"#.into());
            format!(
                r#"{{"bb": "0,0,100,100", "objects": [], "edges": [{}]}}"#,
                edges.join(", ")
            )
        };
        let trunk = measure(&layout([53.0; 3])).unwrap();
        assert_eq!(
            (trunk.crossings, trunk.crossings_drawn),
            (3, 1),
            "{trunk:?}"
        );
        let apart = measure(&layout([43.0, 53.0, 63.0])).unwrap();
        assert_eq!(
            (apart.crossings, apart.crossings_drawn),
            (3, 3),
            "{apart:?}"
        );
    }

    #[test]
    fn segments_cross_only_inside_both() {
        assert!(cross((0.0, 0.0), (2.0, 2.0), (0.0, 2.0), (2.0, 0.0)));
        assert!(!cross((0.0, 0.0), (1.0, 1.0), (2.0, 0.0), (3.0, 1.0)));
        let square = Rect {
            x0: 0.0,
            y0: 0.0,
            x1: 1.0,
            y1: 1.0,
        };
        assert!(square.cut_by((-1.0, 0.5), (2.0, 0.5)));
        assert!(!square.cut_by((-1.0, 2.0), (2.0, 2.0)));
    }
}
