//! Routes: each arrow through its chain of points, as smooth curves.
//!
//! An arrow leaves its tail's side facing the flow at the point nearest where it goes next
//! (within the side, clear of a box's corners), runs straight through each layer it crosses
//! (its dummy holds a place there, so no node is in the way) and bends only in the gaps
//! between layers, with tangents along the flow: an S-curve when it shifts sideways, a
//! straight line between two nodes that overlap across the flow. Arrows into one box or
//! ellipse end side by side on its outline, so each arrowhead shows, and their head labels
//! sit apart; a node's only arrow ends where it comes from. An arrow outside the layering
//! (not ranked, or a loop) is drawn straight.

mod ends;

use ends::{head_ports, Ends};

use crate::layers::Layering;
use crate::place::Placed;
use crate::proper::{Path, Proper};
use crate::{Graph, Layout, Outline, Point, Rect, Route, Size};

pub(crate) fn finish(
    graph: &Graph,
    layering: &Layering,
    proper: &Proper,
    placed: &Placed,
) -> Layout {
    let nodes: Vec<Point> = (0..graph.nodes.len())
        .map(|n| Point {
            x: placed.x[n],
            y: placed.centre_y(layering.layer[n]),
        })
        .collect();
    let ports = head_ports(graph, proper, placed);
    let routing = Routing {
        graph,
        layering,
        proper,
        placed,
        nodes: &nodes,
        bends: proper
            .trunks
            .iter()
            .map(|trunk| bends(trunk, &placed.x))
            .collect(),
    };
    let mut edges: Vec<Route> = (0..graph.edges.len())
        .map(|edge| route(&routing, edge, ports[edge]))
        .collect();
    crate::labels::spread_head_labels(graph, &mut edges);
    crate::labels::place_labels(graph, &nodes, &placed.frames, &mut edges);
    let frames: Vec<Rect> = placed
        .frames
        .iter()
        .map(|rect| rect.unwrap_or_default())
        .collect();
    let bounds = bounds(graph, &nodes, &edges, &placed.frames);
    Layout {
        nodes,
        edges,
        frames,
        layers: layering.layer.clone(),
        bounds,
    }
}

/// What every arrow's route reads.
struct Routing<'a> {
    graph: &'a Graph,
    layering: &'a Layering,
    proper: &'a Proper,
    placed: &'a Placed,
    nodes: &'a [Point],
    /// Per trunk: where it bends ([`bends`]).
    bends: Vec<Vec<usize>>,
}

/// The places along a chain, first and last left out, whose x differs from a neighbour's:
/// where an arrow running along it bends. Each arrow of a trunk runs through its own stretch
/// of the trunk's bends, so a hub's many arrows do not each walk the trunk point by point.
fn bends(chain: &[usize], x: &[f64]) -> Vec<usize> {
    (1..chain.len().saturating_sub(1))
        .filter(|&at| {
            let here = x[chain[at]];
            here != x[chain[at - 1]] || here != x[chain[at + 1]]
        })
        .collect()
}

fn route(routing: &Routing<'_>, edge: usize, port: Option<f64>) -> Route {
    let (graph, layering, proper, placed, nodes) = (
        routing.graph,
        routing.layering,
        routing.proper,
        routing.placed,
        routing.nodes,
    );
    let e = &graph.edges[edge];
    let ranked = !matches!(proper.paths[edge], Path::Unranked);
    let mut line: Vec<Point> = match &proper.paths[edge] {
        Path::Unranked => straight_line(graph, nodes, e.tail, e.head),
        Path::Points(points) => {
            let (first, last) = (points[0], points[points.len() - 1]);
            let inner = &points[1..points.len() - 1];
            let ends = Ends::of(
                graph,
                nodes,
                (first, last),
                port,
                (
                    inner.first().map(|&d| placed.x[d]),
                    inner.last().map(|&d| placed.x[d]),
                ),
            );
            let mut line = Line::start(graph, proper, placed, nodes, first, ends.exit);
            for &d in inner {
                line.through(proper, placed, d);
            }
            line.finish(graph, proper, placed, nodes, last, ends.entry)
        }
        Path::Trunk {
            tail,
            trunk,
            along,
            head,
        } => {
            let chain = &proper.trunks[*trunk][along.clone()];
            let ends = Ends::of(
                graph,
                nodes,
                (*tail, *head),
                port,
                (
                    chain.first().map(|&d| placed.x[d]),
                    chain.last().map(|&d| placed.x[d]),
                ),
            );
            let mut line = Line::start(graph, proper, placed, nodes, *tail, ends.exit);
            // Only where the trunk bends: its straight runs are one piece each.
            if let (Some(&first), Some(&last)) = (chain.first(), chain.last()) {
                let (whole, bends) = (&proper.trunks[*trunk], &routing.bends[*trunk]);
                let inside = &bends[bends.partition_point(|&at| at <= along.start)
                    ..bends.partition_point(|&at| at + 1 < along.end)];
                line.through(proper, placed, first);
                for &at in inside {
                    line.through(proper, placed, whole[at]);
                }
                if chain.len() > 1 {
                    line.through(proper, placed, last);
                }
            }
            line.finish(graph, proper, placed, nodes, *head, ends.entry)
        }
    };
    if layering.reversed[edge] && ranked {
        line.reverse();
    }
    let tip = *line.last().unwrap_or(&Point::default());
    let before = line[line.len().saturating_sub(2)];
    let along = unit(before, tip);
    let flow = if along.y.abs() > 1e-9 {
        along.y.signum()
    } else {
        0.0
    };
    let base = Point {
        x: tip.x - along.x * e.arrow_length,
        y: tip.y - along.y * e.arrow_length,
    };
    if let Some(last) = line.last_mut() {
        *last = base;
    }
    let points = if e.tail == e.head {
        line
    } else {
        curves(&line)
    };
    let start = points.first().copied().unwrap_or_default();
    let middle = points[points.len() / 2];
    let beside = |at: Point, size: Size| Point {
        x: at.x + 4.0 + size.breadth / 2.0,
        y: at.y,
    };
    let label = proper.label_vertex[edge].map(|d| {
        let size = e.label.unwrap_or_default();
        Point {
            x: placed.x[d] + graph.node_gap / 2.0 + size.breadth / 2.0,
            y: placed.centre_y(proper.vertices[d].layer),
        }
    });
    let label = label.or_else(|| e.label.map(|size| beside(middle, size)));
    Route {
        tip,
        label,
        floating_label: e.floating_label.map(|size| beside(middle, size)),
        // Clear of the node along the flow, however slanted the arrow's last piece (it is
        // slanted where the head is its layer's deepest node: no straight run before it).
        head_label: e.head_label.map(|size| Point {
            x: tip.x + 4.0 + size.breadth / 2.0,
            y: tip.y - flow * (size.depth / 2.0 + 2.0),
        }),
        tail_label: e.tail_label.map(|size| Point {
            x: start.x + 4.0 + size.breadth / 2.0,
            y: start.y + flow * (size.depth / 2.0 + 2.0),
        }),
        points,
    }
}

/// The polyline of a ranked arrow, built from its tail's far side, through each dummy's
/// layer, to its head's near side; points one above another in a straight run are one
/// piece. Straight down to the tail layer's floor and up from the head layer's ceiling, so
/// the bends stay in the gaps, where no node is.
struct Line {
    points: Vec<Point>,
}

impl Line {
    fn start(
        graph: &Graph,
        proper: &Proper,
        placed: &Placed,
        nodes: &[Point],
        tail: usize,
        exit: f64,
    ) -> Line {
        let layer = proper.vertices[tail].layer;
        let node = &graph.nodes[tail];
        let mut line = Line { points: Vec::new() };
        line.push(Point {
            x: exit,
            y: nodes[tail].y + node.size.depth / 2.0 * reach(node, exit - nodes[tail].x),
        });
        line.push(Point {
            x: exit,
            y: placed.layer_top[layer] + placed.layer_depth[layer],
        });
        line
    }

    fn through(&mut self, proper: &Proper, placed: &Placed, dummy: usize) {
        let layer = proper.vertices[dummy].layer;
        let top = placed.layer_top[layer];
        let x = placed.x[dummy];
        self.push(Point { x, y: top });
        self.push(Point {
            x,
            y: top + placed.layer_depth[layer],
        });
    }

    fn finish(
        mut self,
        graph: &Graph,
        proper: &Proper,
        placed: &Placed,
        nodes: &[Point],
        head: usize,
        entry: f64,
    ) -> Vec<Point> {
        let layer = proper.vertices[head].layer;
        let node = &graph.nodes[head];
        self.push(Point {
            x: entry,
            y: placed.layer_top[layer],
        });
        self.push(Point {
            x: entry,
            y: nodes[head].y - node.size.depth / 2.0 * reach(node, entry - nodes[head].x),
        });
        self.points
    }

    fn push(&mut self, p: Point) {
        let same = |a: Point, b: Point| (a.x - b.x).abs() < 1e-9 && (a.y - b.y).abs() < 1e-9;
        if self.points.last().is_some_and(|&last| same(last, p)) {
            return;
        }
        let run = self.points.len() >= 2 && {
            let (a, b) = (
                self.points[self.points.len() - 2],
                self.points[self.points.len() - 1],
            );
            (a.x - b.x).abs() < 1e-9 && (b.x - p.x).abs() < 1e-9
        };
        match self.points.last_mut() {
            Some(last) if run => *last = p,
            _ => self.points.push(p),
        }
    }
}

/// How far an arrow `across` from a node's middle reaches into it along the flow, as a share
/// of its half depth: on an ellipse, an arrow off its middle ends where the outline has
/// curved back.
fn reach(node: &crate::Node, across: f64) -> f64 {
    match node.outline {
        Outline::Ellipse if node.size.breadth > 0.0 => {
            let across = (2.0 * across / node.size.breadth).clamp(-1.0, 1.0);
            (1.0 - across * across).sqrt()
        }
        _ => 1.0,
    }
}

/// A straight arrow between two nodes' facing sides, or a loop on a node's right.
fn straight_line(graph: &Graph, nodes: &[Point], tail: usize, head: usize) -> Vec<Point> {
    let (a, b) = (nodes[tail], nodes[head]);
    let (sa, sb) = (graph.nodes[tail].size, graph.nodes[head].size);
    if tail == head {
        let side = a.x + sa.breadth / 2.0;
        let reach = side + 24.0;
        let (up, down) = (a.y - sa.depth / 4.0, a.y + sa.depth / 4.0);
        return vec![
            Point { x: side, y: up },
            Point {
                x: reach,
                y: up - 8.0,
            },
            Point {
                x: reach,
                y: down + 8.0,
            },
            Point { x: side, y: down },
        ];
    }
    if (a.y - b.y).abs() < 1e-9 {
        let toward = if b.x >= a.x { 1.0 } else { -1.0 };
        return vec![
            Point {
                x: a.x + toward * sa.breadth / 2.0,
                y: a.y,
            },
            Point {
                x: b.x - toward * sb.breadth / 2.0,
                y: b.y,
            },
        ];
    }
    let toward = if b.y > a.y { 1.0 } else { -1.0 };
    vec![
        Point {
            x: a.x,
            y: a.y + toward * sa.depth / 2.0,
        },
        Point {
            x: b.x,
            y: b.y - toward * sb.depth / 2.0,
        },
    ]
}

fn unit(from: Point, to: Point) -> Point {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let length = (dx * dx + dy * dy).sqrt();
    if length < 1e-9 {
        Point { x: 0.0, y: 1.0 }
    } else {
        Point {
            x: dx / length,
            y: dy / length,
        }
    }
}

/// Cubic Bézier points through a polyline: straight pieces where it does not shift
/// sideways, S-curves with tangents along the flow where it does.
fn curves(line: &[Point]) -> Vec<Point> {
    let mut points = Vec::with_capacity(line.len() * 3);
    points.push(line[0]);
    for pair in line.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let vertical = (a.x - b.x).abs() < 0.5 || (a.y - b.y).abs() < 1e-9;
        let (c1, c2) = if vertical {
            (
                Point {
                    x: a.x + (b.x - a.x) / 3.0,
                    y: a.y + (b.y - a.y) / 3.0,
                },
                Point {
                    x: a.x + 2.0 * (b.x - a.x) / 3.0,
                    y: a.y + 2.0 * (b.y - a.y) / 3.0,
                },
            )
        } else {
            let half = (b.y - a.y) / 2.0;
            (
                Point {
                    x: a.x,
                    y: a.y + half,
                },
                Point {
                    x: b.x,
                    y: b.y - half,
                },
            )
        };
        points.extend([c1, c2, b]);
    }
    points
}

fn bounds(graph: &Graph, nodes: &[Point], edges: &[Route], frames: &[Option<Rect>]) -> Rect {
    let mut low = Point {
        x: f64::INFINITY,
        y: f64::INFINITY,
    };
    let mut high = Point {
        x: f64::NEG_INFINITY,
        y: f64::NEG_INFINITY,
    };
    let mut take = |x: f64, y: f64| {
        low.x = low.x.min(x);
        low.y = low.y.min(y);
        high.x = high.x.max(x);
        high.y = high.y.max(y);
    };
    for (n, at) in nodes.iter().enumerate() {
        let size = graph.nodes[n].size;
        take(at.x - size.breadth / 2.0, at.y - size.depth / 2.0);
        take(at.x + size.breadth / 2.0, at.y + size.depth / 2.0);
    }
    for rect in frames.iter().flatten() {
        take(rect.min.x, rect.min.y);
        take(rect.max.x, rect.max.y);
    }
    for (e, route) in edges.iter().enumerate() {
        for p in &route.points {
            take(p.x, p.y);
        }
        let edge = &graph.edges[e];
        let labels = [
            (route.label, edge.label),
            (route.floating_label, edge.floating_label),
            (route.head_label, edge.head_label),
            (route.tail_label, edge.tail_label),
        ];
        for (at, size) in labels {
            if let (Some(at), Some(size)) = (at, size) {
                take(at.x - size.breadth / 2.0, at.y - size.depth / 2.0);
                take(at.x + size.breadth / 2.0, at.y + size.depth / 2.0);
            }
        }
    }
    if low.x > high.x {
        return Rect::default();
    }
    Rect {
        min: low,
        max: high,
    }
}

#[cfg(test)]
mod tests {
    use super::bends;

    #[test]
    fn a_chain_bends_where_a_place_differs_from_a_neighbours() {
        // Places 0..6 at x 0 0 5 5 5 0: bends at 1 and 2 (into 5) and at 4 (out of it);
        // the first and last places are every arrow's own ends, not bends.
        let x = [0.0, 0.0, 5.0, 5.0, 5.0, 0.0];
        assert_eq!(bends(&[0, 1, 2, 3, 4, 5], &x), [1, 2, 4]);
        assert_eq!(bends(&[0, 1], &x), Vec::<usize>::new());
        assert_eq!(bends(&[], &x), Vec::<usize>::new());
    }
}
