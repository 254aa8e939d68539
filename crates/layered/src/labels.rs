//! Where arrow labels go once every arrow is routed: head labels of arrows into one node
//! side by side, then head and floating labels (Graphviz's `xlabel`) where they overlap
//! nothing.

use crate::{Graph, Point, Rect, Route, Size};

/// Head labels of arrows into one node: their tips are a few points apart, so a label beside
/// each would sit on the next. The one arriving from furthest left goes left of its tip, the
/// others right of theirs side by side, in the order they arrive from (the rightmost
/// outermost): the gap before the tips is too shallow to stack them along the flow.
pub(crate) fn spread_head_labels(graph: &Graph, edges: &mut [Route]) {
    let mut by_head: Vec<Vec<usize>> = vec![Vec::new(); graph.nodes.len()];
    for (index, (edge, route)) in graph.edges.iter().zip(edges.iter()).enumerate() {
        if edge.tail != edge.head && route.head_label.is_some() {
            by_head[edge.head].push(index);
        }
    }
    for arrows in by_head.iter_mut().filter(|arrows| arrows.len() >= 2) {
        // Where each comes from: the start of its last curve.
        let from = |route: &Route| route.points[route.points.len().saturating_sub(4)];
        arrows.sort_by(|&a, &b| {
            from(&edges[a])
                .x
                .total_cmp(&from(&edges[b]).x)
                .then(a.cmp(&b))
        });
        let mut right = f64::NEG_INFINITY;
        for (rank, &index) in arrows.iter().enumerate() {
            let size = graph.edges[index].head_label.unwrap_or_default();
            let route = &mut edges[index];
            let tip = route.tip;
            let Some(label) = route.head_label.as_mut() else {
                continue;
            };
            if rank == 0 {
                label.x = tip.x - 4.0 - size.breadth / 2.0;
            } else {
                let left = (tip.x + 4.0).max(right + 4.0);
                label.x = left + size.breadth / 2.0;
                right = left + size.breadth;
            }
        }
    }
}

/// Along an arrow, where its floating label is tried, as a share of the way from its tail:
/// the middle first, then further out on either side.
const ALONG: [f64; 9] = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9];

/// Room between a floating label and its arrow, and between labels.
const LABEL_GAP: f64 = 4.0;

/// Side of the cells of the grid that finds what a label would overlap.
const CELL: f64 = 64.0;

/// Along an arrow's last piece (its last layer gap), back from its tip, where a head label
/// is tried after either side of the tip.
const NEAR_TIP: [f64; 2] = [0.85, 0.7];

/// Labels moved where they overlap no node, no frame's caption and no label placed before
/// them, the first place free in arrow order; a label with no free place goes where it
/// covers least. A head label (of its head's only labelled arrow: those of several arrows into one node
/// are set side by side already) goes right or left of its tip, then back along the arrow; a
/// floating label (Graphviz's `xlabel`) beside its arrow, from the middle out, on either
/// side. Set beside each tip or middle, the labels of arrows side by side (a
/// concatenation's inputs) or of a short arrow's two ends sit one on another.
pub(crate) fn place_labels(
    graph: &Graph,
    nodes: &[Point],
    frames: &[Option<Rect>],
    edges: &mut [Route],
) {
    let movable_head = |edge: &crate::Edge, labelled_into: &[usize]| {
        edge.head_label.is_some() && edge.tail != edge.head && labelled_into[edge.head] == 1
    };
    let mut labelled_into = vec![0usize; graph.nodes.len()];
    for edge in graph.edges.iter().filter(|e| e.head_label.is_some()) {
        labelled_into[edge.head] += 1;
    }
    if graph
        .edges
        .iter()
        .all(|edge| edge.floating_label.is_none() && !movable_head(edge, &labelled_into))
    {
        return;
    }
    let mut taken = Grid::default();
    for (n, at) in nodes.iter().enumerate() {
        taken.add(centred(*at, graph.nodes[n].size));
    }
    for (frame, rect) in graph.frames.iter().zip(frames) {
        if let Some(rect) = rect.filter(|_| frame.caption.depth > 0.0) {
            taken.add(caption_band(graph, frame, rect));
        }
    }
    for (edge, route) in graph.edges.iter().zip(edges.iter()) {
        let head = route
            .head_label
            .filter(|_| !movable_head(edge, &labelled_into));
        let fixed = [
            (route.label, edge.label),
            (head, edge.head_label),
            (route.tail_label, edge.tail_label),
        ];
        for (at, size) in fixed {
            if let (Some(at), Some(size)) = (at, size) {
                taken.add(centred(at, size));
            }
        }
    }
    for (edge, route) in graph.edges.iter().zip(edges.iter_mut()) {
        let (Some(size), Some(beside_tip)) = (edge.head_label, route.head_label) else {
            continue;
        };
        if !movable_head(edge, &labelled_into) {
            continue;
        }
        let mirrored = Point {
            x: 2.0 * route.tip.x - beside_tip.x,
            y: beside_tip.y,
        };
        let pieces = (route.points.len().saturating_sub(1) / 3).max(1) as f64;
        let back = NEAR_TIP.iter().flat_map(|&share| {
            let on_last_piece = 1.0 - (1.0 - share) / pieces;
            beside(point_along(&route.points, on_last_piece), size)
        });
        let candidates = [beside_tip, mirrored].into_iter().chain(back);
        let at = least_covered(&taken, candidates, size).unwrap_or(beside_tip);
        route.head_label = Some(at);
        taken.add(centred(at, size));
    }
    for (edge, route) in graph.edges.iter().zip(edges.iter_mut()) {
        let (Some(size), Some(beside_middle)) = (edge.floating_label, route.floating_label) else {
            continue;
        };
        let candidates = ALONG
            .iter()
            .flat_map(|&share| beside(point_along(&route.points, share), size));
        let at = least_covered(&taken, candidates, size).unwrap_or(beside_middle);
        route.floating_label = Some(at);
        taken.add(centred(at, size));
    }
}

/// The first of `candidates` where a label of `size` (and [`LABEL_GAP`] around it) covers
/// nothing taken; else the one where it covers the least (the first on a tie).
fn least_covered(
    taken: &Grid,
    candidates: impl Iterator<Item = Point>,
    size: Size,
) -> Option<Point> {
    let mut best: Option<(f64, Point)> = None;
    for at in candidates {
        let covered = taken.covered(&centred(at, grown(size)));
        if covered == 0.0 {
            return Some(at);
        }
        if best.is_none_or(|(least, _)| covered < least) {
            best = Some((covered, at));
        }
    }
    best.map(|(_, at)| at)
}

/// Centres of a label of `size` right and left of a point on its arrow.
fn beside(at: Point, size: Size) -> [Point; 2] {
    let off = LABEL_GAP + size.breadth / 2.0;
    [
        Point {
            x: at.x + off,
            y: at.y,
        },
        Point {
            x: at.x - off,
            y: at.y,
        },
    ]
}

/// The band across a frame where its caption sits: the frame's whole breadth (where across
/// it the page sets the caption depends on the flow's direction), as deep as the caption and
/// the frame's margin, at the end [`Graph::caption_side`] says.
fn caption_band(graph: &Graph, frame: &crate::Frame, rect: Rect) -> Rect {
    let depth = frame.caption.depth + frame.margin;
    match graph.caption_side {
        crate::CaptionSide::Start => Rect {
            min: rect.min,
            max: Point {
                x: rect.max.x,
                y: rect.min.y + depth,
            },
        },
        crate::CaptionSide::End => Rect {
            min: Point {
                x: rect.min.x,
                y: rect.max.y - depth,
            },
            max: rect.max,
        },
    }
}

/// `size` with [`LABEL_GAP`] around it.
fn grown(size: Size) -> Size {
    Size {
        breadth: size.breadth + 2.0 * LABEL_GAP,
        depth: size.depth + 2.0 * LABEL_GAP,
    }
}

/// The rectangle of `size` centred on `at`.
pub(crate) fn centred(at: Point, size: Size) -> Rect {
    Rect {
        min: Point {
            x: at.x - size.breadth / 2.0,
            y: at.y - size.depth / 2.0,
        },
        max: Point {
            x: at.x + size.breadth / 2.0,
            y: at.y + size.depth / 2.0,
        },
    }
}

/// The point `share` of the way along a route's cubic pieces (by piece, then by parameter).
fn point_along(points: &[Point], share: f64) -> Point {
    let pieces = points.len().saturating_sub(1) / 3;
    if pieces == 0 {
        return points.first().copied().unwrap_or_default();
    }
    let at = share.clamp(0.0, 1.0) * pieces as f64;
    let piece = (at.floor() as usize).min(pieces - 1);
    let t = at - piece as f64;
    let [a, b, c, d] = [0, 1, 2, 3].map(|k| points[3 * piece + k]);
    let u = 1.0 - t;
    let mix = |p: f64, q: f64, r: f64, s: f64| {
        u * u * u * p + 3.0 * u * u * t * q + 3.0 * u * t * t * r + t * t * t * s
    };
    Point {
        x: mix(a.x, b.x, c.x, d.x),
        y: mix(a.y, b.y, c.y, d.y),
    }
}

/// Rectangles by the grid cells they cover.
#[derive(Default)]
struct Grid {
    rects: Vec<Rect>,
    cells: std::collections::HashMap<(i64, i64), Vec<usize>>,
}

impl Grid {
    /// The cells `rect` covers; none for a rectangle that is not finite (which a layout
    /// never makes), so a broken one cannot make the grid loop for ever.
    fn cells_of(rect: &Rect) -> impl Iterator<Item = (i64, i64)> {
        let finite = [rect.min.x, rect.min.y, rect.max.x, rect.max.y]
            .iter()
            .all(|v| v.is_finite());
        let cell = |v: f64| (v / CELL).floor() as i64;
        let (x0, x1, y0, y1) = if finite {
            (
                cell(rect.min.x),
                cell(rect.max.x),
                cell(rect.min.y),
                cell(rect.max.y),
            )
        } else {
            (0, -1, 0, -1)
        };
        (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
    }

    fn add(&mut self, rect: Rect) {
        let index = self.rects.len();
        for cell in Self::cells_of(&rect) {
            self.cells.entry(cell).or_default().push(index);
        }
        self.rects.push(rect);
    }

    /// The area of `rect` that the rectangles taken cover (counted once per rectangle, an
    /// area covered by two counted twice).
    fn covered(&self, rect: &Rect) -> f64 {
        let mut seen = std::collections::BTreeSet::new();
        let mut area = 0.0;
        for cell in Self::cells_of(rect) {
            for &i in self.cells.get(&cell).into_iter().flatten() {
                if !seen.insert(i) {
                    continue;
                }
                let other = &self.rects[i];
                let across = rect.max.x.min(other.max.x) - rect.min.x.max(other.min.x);
                let along = rect.max.y.min(other.max.y) - rect.min.y.max(other.min.y);
                if across > 0.0 && along > 0.0 {
                    area += across * along;
                }
            }
        }
        area
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CaptionSide, Edge, Node, Outline};

    #[test]
    fn floating_labels_of_arrows_side_by_side_overlap_no_label_and_no_node() {
        // Four arrows running down side by side 12 pt apart from a row of nodes to another,
        // each with a 50 pt label beside its middle, as a concatenation's inputs run: set
        // beside the middles, each label sits on the next.
        let label = Size {
            breadth: 50.0,
            depth: 14.0,
        };
        let size = Size {
            breadth: 10.0,
            depth: 20.0,
        };
        let node = Node {
            size,
            frame: None,
            outline: Outline::Box,
        };
        let edge = |tail: usize| Edge {
            tail,
            head: tail + 4,
            constraint: true,
            label: None,
            floating_label: Some(label),
            head_label: None,
            tail_label: None,
            arrow_length: 7.0,
            visible: true,
        };
        let graph = Graph {
            nodes: vec![node; 8],
            edges: (0..4).map(edge).collect(),
            frames: Vec::new(),
            sinks: Vec::new(),
            node_gap: 2.0,
            layer_gap: 36.0,
            caption_side: CaptionSide::Start,
        };
        let x = |n: usize| 12.0 * (n % 4) as f64;
        let nodes: Vec<Point> = (0..8)
            .map(|n| Point {
                x: x(n),
                y: if n < 4 { 0.0 } else { 300.0 },
            })
            .collect();
        let mut routes: Vec<Route> = (0..4)
            .map(|n| {
                let at = |y: f64| Point { x: x(n), y };
                Route {
                    points: vec![at(10.0), at(100.0), at(200.0), at(290.0)],
                    tip: at(290.0),
                    label: None,
                    floating_label: Some(Point {
                        x: x(n) + LABEL_GAP + label.breadth / 2.0,
                        y: 150.0,
                    }),
                    head_label: None,
                    tail_label: None,
                }
            })
            .collect();
        place_labels(&graph, &nodes, &[], &mut routes);
        let rects: Vec<Rect> = routes
            .iter()
            .map(|route| centred(route.floating_label.unwrap(), label))
            .collect();
        let apart = |a: &Rect, b: &Rect| {
            a.max.x <= b.min.x || b.max.x <= a.min.x || a.max.y <= b.min.y || b.max.y <= a.min.y
        };
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                assert!(apart(a, b), "labels overlap: {a:?} {b:?}");
            }
            for at in &nodes {
                assert!(apart(a, &centred(*at, size)), "label {a:?} on a node");
            }
        }
    }
}
