//! Where an arrow leaves its tail and enters its head: the point of each node's side facing
//! the flow, clear of a box's corners, and the places of arrows that share their head.

use crate::place::Placed;
use crate::proper::{Path, Proper};
use crate::{Graph, Outline, Point};

/// Most room between the ends of two arrows into one node.
const PORT_GAP: f64 = 12.0;

/// Per arrow: how far from its head's middle it ends, for arrows that share their head. The
/// ranked arrows into one box or ellipse end on its near side in the order they arrive from,
/// each as near where it comes from as the side allows ([`side_room`]) and [`PORT_GAP`]
/// apart at least (less on a side too short for that), so each arrowhead shows; into
/// anything else at the middle. `None`: the arrow is its head's only one and ends where it
/// comes from ([`Ends`]).
pub(super) fn head_ports(graph: &Graph, proper: &Proper, placed: &Placed) -> Vec<Option<f64>> {
    let mut ports = vec![None; graph.edges.len()];
    let mut by_head: Vec<Vec<(f64, usize)>> = vec![Vec::new(); graph.nodes.len()];
    for (edge, path) in proper.paths.iter().enumerate() {
        // The laid-out head, and the point the arrow comes to it from.
        let (head, from) = match path {
            Path::Points(points) if points.len() >= 2 => {
                (points[points.len() - 1], points[points.len() - 2])
            }
            Path::Trunk {
                tail,
                trunk,
                along,
                head,
            } => (
                *head,
                along
                    .end
                    .checked_sub(1)
                    .map_or(*tail, |last| proper.trunks[*trunk][last]),
            ),
            _ => continue,
        };
        by_head[head].push((placed.x[from], edge));
    }
    for (head, arrows) in by_head.iter_mut().enumerate() {
        let node = &graph.nodes[head];
        if arrows.len() < 2 {
            continue;
        }
        if node.outline == Outline::Other {
            for &(_, edge) in arrows.iter() {
                ports[edge] = Some(0.0);
            }
            continue;
        }
        arrows.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        // On a small box, the middle half: arrowheads apart matter more than its corners.
        let room = side_room(graph, head).max(node.size.breadth / 4.0);
        let middle = placed.x[head];
        let gap = PORT_GAP.min(2.0 * room / (arrows.len() - 1) as f64);
        // Each as near its arrival as the side allows, then pushed apart: rightwards past
        // the one before, then back leftwards from the side's end.
        let mut at: Vec<f64> = arrows
            .iter()
            .map(|&(from, _)| from.clamp(middle - room, middle + room))
            .collect();
        for i in 1..at.len() {
            at[i] = at[i].max(at[i - 1] + gap);
        }
        let mut limit = middle + room;
        for place in at.iter_mut().rev() {
            *place = place.min(limit);
            limit = *place - gap;
        }
        for (&(_, edge), place) in arrows.iter().zip(at) {
            ports[edge] = Some(place - middle);
        }
    }
    ports
}

/// Least distance between where an arrow leaves or enters a box and the box's corner.
const CORNER_INSET: f64 = 10.0;

/// Where along a node's side facing the flow an arrow may leave or enter it, as an offset
/// from its middle: the side less its corners on a box, the middle half of an ellipse,
/// only the middle on other shapes.
fn side_room(graph: &Graph, node: usize) -> f64 {
    let node = &graph.nodes[node];
    let half = node.size.breadth / 2.0;
    match node.outline {
        Outline::Box => (half - CORNER_INSET.max(half * 0.3)).max(0.0),
        Outline::Ellipse => half / 2.0,
        Outline::Other => 0.0,
    }
}

/// Where a ranked arrow leaves its tail and enters its head, across the flow. Each end
/// faces the other end's next point, within the room its side gives ([`side_room`]): two
/// nodes one above the other are joined by a straight arrow, and an arrow to a node off to
/// one side shifts only as far as their sides leave, as Graphviz's arrows, aimed at the
/// nodes' middles, leave a box's side nearest the other. An arrow that shares its head
/// ends at its place among the others ([`head_ports`]).
pub(super) struct Ends {
    pub exit: f64,
    pub entry: f64,
}

impl Ends {
    /// `after_tail` and `before_head`: the x of the points next to each end, `None` where
    /// the ends are each other's next points.
    pub(super) fn of(
        graph: &Graph,
        nodes: &[Point],
        (tail, head): (usize, usize),
        port: Option<f64>,
        (after_tail, before_head): (Option<f64>, Option<f64>),
    ) -> Ends {
        let range = |node: usize| {
            let room = side_room(graph, node);
            (nodes[node].x - room, nodes[node].x + room)
        };
        let tail_range = range(tail);
        let head_range = match port {
            Some(offset) => (nodes[head].x + offset, nodes[head].x + offset),
            None => range(head),
        };
        let clamp = |x: f64, (low, high): (f64, f64)| x.clamp(low, high);
        match (after_tail, before_head) {
            (Some(after), Some(before)) => Ends {
                exit: clamp(after, tail_range),
                entry: clamp(before, head_range),
            },
            _ => {
                let (low, high) = (
                    tail_range.0.max(head_range.0),
                    tail_range.1.min(head_range.1),
                );
                if low <= high {
                    let middle = (nodes[tail].x + clamp(nodes[head].x, head_range)) / 2.0;
                    let x = middle.clamp(low, high);
                    Ends { exit: x, entry: x }
                } else if tail_range.1 < head_range.0 {
                    Ends {
                        exit: tail_range.1,
                        entry: head_range.0,
                    }
                } else {
                    Ends {
                        exit: tail_range.0,
                        entry: head_range.1,
                    }
                }
            }
        }
    }
}
