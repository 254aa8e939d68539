//! The proper layered graph: every link joins neighbouring layers.
//!
//! An arrow spanning several layers becomes a chain of dummy points, one a layer. The
//! unlabelled long arrows leaving a hub (six or more) share one chain, its trunk, running to
//! the furthest reader, each arrow branching off one layer before its head: a hub read by
//! every block of a model costs one point a layer instead of one per reader and layer.
//! A node with fewer long arrows gives each its own chain, free to run on the side of its
//! head (a shared trunk drew GELU's two skips on one side, one of them out and back). Long
//! arrows that converge on one node, each the only long arrow of its tail, share a
//! converging trunk the same way (every step of a scan collected by one `stack`). A trunk's
//! dummy sits in the innermost frame holding both ends of what it still carries; an arrow
//! with a chain of its own runs inside the frame around its head from the first layer that
//! frame's nodes reach, and inside the frame around its tail up to the last (a residual
//! beside its block's chain, not around the block's side). So arrows enter and leave
//! frames across their ends, never through a frame they do not reach. A frame with no point
//! on a layer it spans gets an empty filler there, so that layer's ordering keeps room for
//! the frame.

use smallvec::SmallVec;

use crate::layers::{span, Layering, HUB_READERS};
use crate::{FrameTree, Graph};

/// What a point of the proper graph stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A node of the graph.
    Node(usize),
    /// A point of a long arrow.
    Dummy,
    /// An empty place holding a frame's room on a layer.
    Filler,
}

/// A point on a layer.
#[derive(Debug, Clone)]
pub(crate) struct Vertex {
    pub layer: usize,
    pub frame: Option<usize>,
    /// Extent left of the centre.
    pub left: f64,
    /// Extent right of the centre.
    pub right: f64,
    /// Extent along the flow.
    pub depth: f64,
    pub kind: Kind,
}

/// An arrow's way through the layers.
#[derive(Debug, Clone, Default)]
pub(crate) enum Path {
    /// Not ranked: drawn straight.
    #[default]
    Unranked,
    /// Its own points, tail and head included.
    Points(Vec<usize>),
    /// Its tail, the dummies `along` a shared trunk, then its head: kept as such, so a
    /// hub's many arrows cost memory for their ends, not for every layer they cross.
    Trunk {
        tail: usize,
        trunk: usize,
        along: std::ops::Range<usize>,
        head: usize,
    },
}

/// A link to a point on a neighbouring layer, with its pull in the x placement.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Link {
    pub to: usize,
    pub weight: f64,
}

/// A point's links to one neighbouring layer: a dummy has one, most operations one or two,
/// so they sit inline rather than in a heap vector with room for four (60 MB on the
/// 100,000-operation drawing).
pub(crate) type Links = SmallVec<[Link; 2]>;

pub(crate) struct Proper {
    pub vertices: Vec<Vertex>,
    /// Each layer's points, in order.
    pub layers: Vec<Vec<usize>>,
    /// Per point: links to the layer before.
    pub up: Vec<Links>,
    /// Per point: links to the layer after.
    pub down: Vec<Links>,
    /// Per arrow: its way from the laid-out tail to the laid-out head.
    pub paths: Vec<Path>,
    /// The trunks: each a chain of dummies, one a layer, from just past its tail.
    pub trunks: Vec<Vec<usize>>,
    /// Per arrow: the dummy its label sits beside.
    pub label_vertex: Vec<Option<usize>>,
}

impl Proper {
    fn add(&mut self, vertex: Vertex) -> usize {
        let id = self.vertices.len();
        self.layers[vertex.layer].push(id);
        self.vertices.push(vertex);
        self.up.push(Links::new());
        self.down.push(Links::new());
        id
    }

    fn link(&mut self, from: usize, to: usize) {
        let dummies = [from, to]
            .iter()
            .filter(|&&v| self.vertices[v].kind == Kind::Dummy)
            .count();
        // Graphviz's weights: straight long arrows matter most.
        let weight = [1.0, 2.0, 8.0][dummies];
        self.down[from].push(Link { to, weight });
        self.up[to].push(Link { to: from, weight });
    }

    fn dummy(&mut self, layer: usize, frame: Option<usize>) -> usize {
        self.add(Vertex {
            layer,
            frame,
            left: 0.0,
            right: 0.0,
            depth: 0.0,
            kind: Kind::Dummy,
        })
    }
}

/// Where one arrow's dummies sit: the frames around its ends, and the layers each frame's
/// nodes span.
struct Reach<'a> {
    frames: &'a FrameTree,
    /// Per frame: the first and last layer of a node inside it.
    spans: Vec<Option<(usize, usize)>>,
}

impl<'a> Reach<'a> {
    fn new(graph: &Graph, layering: &Layering, frames: &'a FrameTree) -> Reach<'a> {
        let placed = graph
            .nodes
            .iter()
            .map(|node| node.frame)
            .zip(layering.layer.iter().copied());
        Reach {
            frames,
            spans: frames.spans(placed),
        }
    }

    /// The frame a dummy of an arrow from a node in `tail` to one in `head` sits in on
    /// `layer`: the innermost frame around the head, or else the tail, that is not around
    /// both and whose nodes reach `layer`; otherwise the innermost frame around both. So
    /// an arrow into a block runs inside it from the block's first layer, and one out of a
    /// block inside it to its last, as dot draws a residual, instead of around its side.
    fn frame(&self, layer: usize, tail: Option<usize>, head: Option<usize>) -> Option<usize> {
        let common = self.frames.common(tail, head);
        let shared = self.frames.chain(common).len();
        let within = |end: Option<usize>| {
            self.frames.chain(end)[shared..]
                .iter()
                .rev()
                .find(|&&f| {
                    self.spans[f].is_some_and(|(first, last)| (first..=last).contains(&layer))
                })
                .copied()
        };
        within(head).or_else(|| within(tail)).or(common)
    }
}

pub(crate) fn build(graph: &Graph, layering: &Layering, frames: &FrameTree) -> Proper {
    let reach = Reach::new(graph, layering, frames);
    let mut proper = Proper {
        vertices: Vec::with_capacity(graph.nodes.len() * 2),
        layers: vec![Vec::new(); layering.count],
        up: Vec::new(),
        down: Vec::new(),
        paths: vec![Path::Unranked; graph.edges.len()],
        trunks: Vec::new(),
        label_vertex: vec![None; graph.edges.len()],
    };
    for (index, node) in graph.nodes.iter().enumerate() {
        proper.add(Vertex {
            layer: layering.layer[index],
            frame: node.frame,
            left: node.size.breadth / 2.0,
            right: node.size.breadth / 2.0,
            depth: node.size.depth,
            kind: Kind::Node(index),
        });
    }
    let ends = |edge: usize| {
        let e = &graph.edges[edge];
        if layering.reversed[edge] {
            (e.head, e.tail)
        } else {
            (e.tail, e.head)
        }
    };
    // Long unlabelled arrows, by laid-out tail, for the trunks.
    let mut by_tail: Vec<Vec<usize>> = vec![Vec::new(); graph.nodes.len()];
    for edge in (0..graph.edges.len()).filter(|&e| layering.ranked[e]) {
        let (from, to) = ends(edge);
        let length = layering.layer[to] - layering.layer[from];
        if graph.edges[edge].label.is_some() {
            labelled_chain(graph, layering, &reach, &mut proper, edge, (from, to));
        } else if length == 1 {
            proper.link(from, to);
            proper.paths[edge] = Path::Points(vec![from, to]);
        } else {
            by_tail[from].push(edge);
        }
    }
    // A lone long arrow into a head that several long arrows reach joins their converging
    // trunk instead (every step of a scan collected by one `stack`).
    let mut by_head: Vec<Vec<usize>> = vec![Vec::new(); graph.nodes.len()];
    for edges in by_tail.iter_mut().filter(|edges| edges.len() == 1) {
        by_head[ends(edges[0]).1].push(edges[0]);
    }
    for (head, edges) in by_head.iter_mut().enumerate() {
        if edges.len() >= 2 {
            for &edge in edges.iter() {
                by_tail[ends(edge).0].clear();
            }
            converging_trunk(graph, layering, frames, &mut proper, head, edges, &ends);
        }
    }
    for (tail, edges) in by_tail.iter_mut().enumerate() {
        if edges.len() >= HUB_READERS {
            trunk(graph, layering, frames, &mut proper, tail, edges, &ends);
        } else {
            for &edge in edges.iter() {
                let (from, to) = ends(edge);
                let path = own_chain(graph, layering, &reach, &mut proper, (from, to));
                proper.paths[edge] = Path::Points(path);
            }
        }
    }
    add_fillers(frames, &mut proper);
    proper
}

/// One chain for a labelled arrow; the dummy on its middle layer is as wide as the label.
fn labelled_chain(
    graph: &Graph,
    layering: &Layering,
    reach: &Reach<'_>,
    proper: &mut Proper,
    edge: usize,
    (from, to): (usize, usize),
) {
    let path = own_chain(graph, layering, reach, proper, (from, to));
    let (first, last) = (layering.layer[from], layering.layer[to]);
    let middle = first + (last - first).max(span(graph, edge)) / 2;
    let label = graph.edges[edge].label.unwrap_or_default();
    if last > first + 1 {
        let dummy = path[middle.min(last - 1) - first];
        let v = &mut proper.vertices[dummy];
        v.right = label.breadth + graph.node_gap / 2.0;
        v.depth = label.depth;
        proper.label_vertex[edge] = Some(dummy);
    }
    proper.paths[edge] = Path::Points(path);
}

/// A chain of dummies of its own from `from` to `to`, ends included.
fn own_chain(
    graph: &Graph,
    layering: &Layering,
    reach: &Reach<'_>,
    proper: &mut Proper,
    (from, to): (usize, usize),
) -> Vec<usize> {
    let (tail_frame, head_frame) = (graph.nodes[from].frame, graph.nodes[to].frame);
    let mut path = vec![from];
    for layer in layering.layer[from] + 1..layering.layer[to] {
        let dummy = proper.dummy(layer, reach.frame(layer, tail_frame, head_frame));
        proper.link(*path.last().unwrap_or(&from), dummy);
        path.push(dummy);
    }
    proper.link(*path.last().unwrap_or(&from), to);
    path.push(to);
    path
}

/// One chain shared by the long unlabelled arrows leaving `tail`.
fn trunk(
    graph: &Graph,
    layering: &Layering,
    frames: &FrameTree,
    proper: &mut Proper,
    tail: usize,
    edges: &mut [usize],
    ends: &dyn Fn(usize) -> (usize, usize),
) {
    let layer_of = |edge: usize| layering.layer[ends(edge).1];
    edges.sort_by_key(|&edge| std::cmp::Reverse(layer_of(edge)));
    let first = layering.layer[tail] + 1;
    let top = layer_of(edges[0]) - 1;
    // Each trunk layer's frame: what holds the tail and every head still ahead.
    let mut chain = vec![0usize; top + 1 - first];
    let mut held: Option<Option<usize>> = None;
    let mut next = 0;
    for layer in (first..=top).rev() {
        while next < edges.len() && layer_of(edges[next]) > layer {
            let head_frame = graph.nodes[ends(edges[next]).1].frame;
            held = Some(match held {
                None => head_frame,
                Some(frame) => frames.common(frame, head_frame),
            });
            next += 1;
        }
        let frame = frames.common(held.flatten(), graph.nodes[tail].frame);
        chain[layer - first] = proper.dummy(layer, frame);
    }
    proper.link(tail, chain[0]);
    for pair in chain.windows(2) {
        proper.link(pair[0], pair[1]);
    }
    let trunk = proper.trunks.len();
    for &edge in edges.iter() {
        let head = ends(edge).1;
        let reach = layer_of(edge) - first;
        proper.link(chain[reach - 1], head);
        proper.paths[edge] = Path::Trunk {
            tail,
            trunk,
            along: 0..reach,
            head,
        };
    }
    proper.trunks.push(chain);
}

/// One chain shared by the long unlabelled arrows into `head`, from just past the earliest
/// tail; each arrow joins it one layer past its tail.
fn converging_trunk(
    graph: &Graph,
    layering: &Layering,
    frames: &FrameTree,
    proper: &mut Proper,
    head: usize,
    edges: &mut [usize],
    ends: &dyn Fn(usize) -> (usize, usize),
) {
    let layer_of = |edge: usize| layering.layer[ends(edge).0];
    edges.sort_by_key(|&edge| layer_of(edge));
    let first = layer_of(edges[0]) + 1;
    let top = layering.layer[head] - 1;
    // Each trunk layer's frame: what holds the head and every tail already joined.
    let mut chain = Vec::with_capacity(top + 1 - first);
    let mut held: Option<Option<usize>> = None;
    let mut next = 0;
    for layer in first..=top {
        while next < edges.len() && layer_of(edges[next]) < layer {
            let tail_frame = graph.nodes[ends(edges[next]).0].frame;
            held = Some(match held {
                None => tail_frame,
                Some(frame) => frames.common(frame, tail_frame),
            });
            next += 1;
        }
        let frame = frames.common(held.flatten(), graph.nodes[head].frame);
        chain.push(proper.dummy(layer, frame));
    }
    for pair in chain.windows(2) {
        proper.link(pair[0], pair[1]);
    }
    if let Some(&last) = chain.last() {
        proper.link(last, head);
    }
    let trunk = proper.trunks.len();
    for &edge in edges.iter() {
        let tail = ends(edge).0;
        let join = layer_of(edge) + 1 - first;
        proper.link(tail, chain[join]);
        proper.paths[edge] = Path::Trunk {
            tail,
            trunk,
            along: join..chain.len(),
            head,
        };
    }
    proper.trunks.push(chain);
}

/// An empty filler on each layer a frame spans but has no point on.
fn add_fillers(frames: &FrameTree, proper: &mut Proper) {
    let spans = frames.spans(proper.vertices.iter().map(|v| (v.frame, v.layer)));
    let mut present: Vec<Vec<bool>> = spans
        .iter()
        .map(|s| s.map_or(Vec::new(), |(low, high)| vec![false; high + 1 - low]))
        .collect();
    for v in &proper.vertices {
        for &f in frames.chain(v.frame) {
            if let Some((low, _)) = spans[f] {
                present[f][v.layer - low] = true;
            }
        }
    }
    // Innermost frames first, so a filler also holds the frames around it.
    for &f in frames.innermost_first() {
        let Some((low, _)) = spans[f] else { continue };
        for offset in 0..present[f].len() {
            if present[f][offset] {
                continue;
            }
            let layer = low + offset;
            proper.add(Vertex {
                layer,
                frame: Some(f),
                left: 0.0,
                right: 0.0,
                depth: 0.0,
                kind: Kind::Filler,
            });
            for &outer in frames.chain(Some(f)) {
                if let Some((outer_low, _)) = spans[outer] {
                    present[outer][layer - outer_low] = true;
                }
            }
        }
    }
}
