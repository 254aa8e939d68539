//! Layers: which layer each node sits on.
//!
//! Cycles are broken by reversing the arrows a depth-first search finds going back; each
//! node then sits one layer past its furthest predecessor (longest path), a labelled arrow
//! spanning two layers so its label has a layer of its own. A node with at least as many
//! arrows out as in (a model input, a constant, a hub such as rotary `cos`/`sin`, what
//! only a later block reads) moves up to just before its first reader, which shortens or
//! keeps the arrows' total length as Graphviz's network simplex would (nodes read by
//! nothing follow their writers rather than hold them back), but not so far that it
//! stretches one block's frame into the next block's layers. Runs of nodes then move on
//! together where that shortens the arrows ([`promote`]), and the sinks share the last
//! layer.

mod promote;

use crate::{FrameTree, Graph};

/// Readers from which a node's arrows run as one trunk (`proper`), so that moving one
/// reader further away costs little.
pub(crate) const HUB_READERS: usize = 6;

/// Each node's layer and how each arrow runs through the layers.
pub(crate) struct Layering {
    /// Per node.
    pub layer: Vec<usize>,
    /// Per arrow: laid out from head to tail, to break a cycle.
    pub reversed: Vec<bool>,
    /// Per arrow: runs down the layers (from a lower layer to a higher one once reversed);
    /// the others are drawn straight.
    pub ranked: Vec<bool>,
    /// How many layers there are.
    pub count: usize,
}

/// The layer gap an arrow needs: two for a labelled arrow, one otherwise.
pub(crate) fn span(graph: &Graph, edge: usize) -> usize {
    if graph.edges[edge].label.is_some() {
        2
    } else {
        1
    }
}

pub(crate) fn assign(graph: &Graph, frames: &FrameTree) -> Layering {
    let takes_part: Vec<bool> = graph
        .edges
        .iter()
        .map(|e| e.constraint && e.tail != e.head)
        .collect();
    let flow = Flow::new(graph, frames, break_cycles(graph, &takes_part), &takes_part);
    let order = topological(graph.nodes.len(), &flow.outgoing, &flow.incoming, &|edge| {
        flow.ends(edge)
    });
    let mut layer = vec![0usize; graph.nodes.len()];
    for &node in &order {
        for &edge in &flow.outgoing[node] {
            let (_, to) = flow.ends(edge);
            layer[to] = layer[to].max(layer[node] + span(graph, edge));
        }
    }
    move_up_to_readers(&flow, &order, &mut layer);
    promote::promote(&flow, &order, &mut layer);
    place_ends(&flow, &mut layer);
    place_sinks(&flow, &mut layer);
    let low = layer.iter().copied().min().unwrap_or(0);
    for l in &mut layer {
        *l -= low;
    }
    let ranked = (0..graph.edges.len())
        .map(|edge| {
            let (from, to) = flow.ends(edge);
            takes_part[edge] && layer[to] > layer[from]
        })
        .collect();
    Layering {
        count: layer.iter().copied().max().map_or(0, |l| l + 1),
        layer,
        reversed: flow.reversed,
        ranked,
    }
}

/// The arrows that order the layers, as they run once cycles are broken.
struct Flow<'g> {
    graph: &'g Graph,
    frames: &'g FrameTree,
    /// Per arrow: laid out from head to tail.
    reversed: Vec<bool>,
    /// Per node: the ordering arrows leaving it and entering it.
    outgoing: Vec<Vec<usize>>,
    incoming: Vec<Vec<usize>>,
    /// Per node: pinned to the last layer.
    is_sink: Vec<bool>,
}

impl<'g> Flow<'g> {
    fn new(
        graph: &'g Graph,
        frames: &'g FrameTree,
        reversed: Vec<bool>,
        takes_part: &[bool],
    ) -> Flow<'g> {
        let n = graph.nodes.len();
        let mut flow = Flow {
            graph,
            frames,
            reversed,
            outgoing: vec![Vec::new(); n],
            incoming: vec![Vec::new(); n],
            is_sink: vec![false; n],
        };
        for edge in (0..graph.edges.len()).filter(|&e| takes_part[e]) {
            let (from, to) = flow.ends(edge);
            flow.outgoing[from].push(edge);
            flow.incoming[to].push(edge);
        }
        for &s in &graph.sinks {
            flow.is_sink[s] = true;
        }
        flow
    }

    /// An arrow's ends as it runs down the layers.
    fn ends(&self, edge: usize) -> (usize, usize) {
        let e = &self.graph.edges[edge];
        if self.reversed[edge] {
            (e.head, e.tail)
        } else {
            (e.tail, e.head)
        }
    }

    /// Ends (nodes read by nothing and not pinned to the last layer: a cache's keys and
    /// values returned) do not hold their writers back: they follow them afterwards
    /// ([`place_ends`]), so a block's cached keys move up with the attention that reads
    /// them instead of staying where their input is made.
    fn is_end(&self, node: usize) -> bool {
        self.outgoing[node].is_empty() && !self.is_sink[node]
    }

    /// Hubs' long arrows run in one trunk ([`HUB_READERS`]), so moving one reader further
    /// away costs little.
    fn is_hub(&self, node: usize) -> bool {
        self.outgoing[node].len() >= HUB_READERS
    }
}

/// A node read by at least as many arrows as it reads moves up to just before its first
/// reader (readers before readers of readers): inputs and constants sit where they are
/// used, and a hub's readers' own inputs join them, so the long arrow that remains comes
/// from the hub and runs in its trunk. Its arrows' total length does not grow. So does a
/// node whose whole input cone reads nothing else and feeds only it (position buckets
/// built from `arange`s in each block): the cone follows it up, rigidly.
///
/// A node moves no further than the last layer its own frame already reaches when the move
/// would stretch a block ([`stretches_a_block`]): T5's position bias, an output of one
/// block's attention read only by the next block, stays at the end of its attention
/// instead of stretching that frame into the next block's layers, which would set the
/// blocks side by side. A hub (its arrows run in a trunk) still moves.
fn move_up_to_readers(flow: &Flow<'_>, order: &[usize], layer: &mut [usize]) {
    let (graph, outgoing, incoming) = (flow.graph, &flow.outgoing, &flow.incoming);
    let mut detached = vec![false; graph.nodes.len()];
    for &node in order {
        detached[node] = incoming[node].iter().all(|&edge| {
            let (from, _) = flow.ends(edge);
            detached[from] && outgoing[from].len() == 1
        });
    }
    // An arrow from a hub (read six times or more: its arrows run in one trunk) or from a
    // detached cone (it follows) is not one a move would stretch.
    let held_by = |node: usize| {
        incoming[node]
            .iter()
            .filter(|&&edge| {
                let (from, _) = flow.ends(edge);
                !(flow.is_hub(from) || detached[from] && outgoing[from].len() == 1)
            })
            .count()
    };
    // Per frame: the last layer it reaches so far.
    let mut reach: Vec<usize> = frame_spans(flow, layer, |_| true)
        .iter()
        .map(|span| span.map_or(0, |(_, last)| last))
        .collect();
    for &node in order.iter().rev() {
        let moves = (outgoing[node].len() >= held_by(node) || detached[node])
            && !outgoing[node].is_empty()
            && !flow.is_sink[node];
        let first = outgoing[node]
            .iter()
            .map(|&edge| (flow.ends(edge).1, span(graph, edge)))
            .filter(|&(reader, _)| !flow.is_end(reader))
            .map(|(reader, span)| (layer[reader] - span, reader))
            .min();
        let (Some((first, reader)), true) = (first, moves) else {
            continue;
        };
        let frame = graph.nodes[node].frame;
        let first = match frame {
            Some(own) if !flow.is_hub(node) && stretches_a_block(flow, own, reader) => {
                first.min(reach[own])
            }
            _ => first,
        };
        layer[node] = layer[node].max(first);
        for &f in flow.frames.chain(frame) {
            reach[f] = reach[f].max(layer[node]);
        }
    }
}

/// An end follows its writers, but not out of its own frame: the last block's position
/// bias, returned and read by nothing, stays in that block's layers.
fn place_ends(flow: &Flow<'_>, layer: &mut [usize]) {
    let graph = flow.graph;
    let spans = frame_spans(flow, layer, |node| !flow.is_end(node));
    for node in (0..graph.nodes.len()).filter(|&node| flow.is_end(node)) {
        if let Some(after) = flow.incoming[node]
            .iter()
            .map(|&edge| layer[flow.ends(edge).0] + span(graph, edge))
            .max()
        {
            // (A frame holding only ends has no span.)
            let start = graph.nodes[node]
                .frame
                .and_then(|frame| spans[frame])
                .map_or(0, |(first, _)| first);
            layer[node] = after.max(start);
        }
    }
}

/// Whether moving a node of frame `own` up to `reader` would stretch a frame that holds
/// other frames (a block) into the reader's layers: `reader` sits neither in `own` or a frame
/// around it, nor directly under `own`'s parent. A side module one level below the frame it
/// shares with its reader (a router, the rotary embedding) costs only its own width when
/// stretched beside the reader, so its nodes still move.
fn stretches_a_block(flow: &Flow<'_>, own: usize, reader: usize) -> bool {
    let (frames, reader) = (flow.frames, flow.graph.nodes[reader].frame);
    // The reader's frame holds `own` when it is their common frame (no frame: the whole
    // drawing, which holds all); `own`'s parent holds the reader when it is on the reader's
    // chain (no parent: the whole drawing).
    let around_own = reader.is_none() || frames.common(reader, Some(own)) == reader;
    let beside_own = frames
        .parent(own)
        .is_none_or(|parent| frames.chain(reader).contains(&parent));
    !around_own && !beside_own
}

/// Each frame's first and last layer among its nodes (nested frames' included) that
/// `counted` keeps.
fn frame_spans(
    flow: &Flow<'_>,
    layer: &[usize],
    counted: impl Fn(usize) -> bool,
) -> Vec<Option<(usize, usize)>> {
    let nodes = &flow.graph.nodes;
    flow.frames.spans(
        (0..nodes.len())
            .filter(|&node| counted(node))
            .map(|node| (nodes[node].frame, layer[node])),
    )
}

/// Sinks with no arrow out share the last layer, past every non-sink that points to one.
fn place_sinks(flow: &Flow<'_>, layer: &mut [usize]) {
    let sinks: Vec<usize> = flow
        .graph
        .sinks
        .iter()
        .copied()
        .filter(|&s| flow.outgoing[s].is_empty())
        .collect();
    if sinks.is_empty() {
        return;
    }
    let mut last = layer.iter().copied().max().unwrap_or(0);
    for &s in &sinks {
        for &edge in &flow.incoming[s] {
            let (from, _) = flow.ends(edge);
            if !flow.is_sink[from] {
                last = last.max(layer[from] + span(flow.graph, edge));
            }
        }
    }
    for s in sinks {
        layer[s] = last;
    }
}

/// Reverses the arrows an iterative depth-first search, from nodes in order, finds going
/// back to a node still on its stack.
fn break_cycles(graph: &Graph, takes_part: &[bool]) -> Vec<bool> {
    let n = graph.nodes.len();
    let mut outgoing = vec![Vec::new(); n];
    for (edge, e) in graph.edges.iter().enumerate() {
        if takes_part[edge] {
            outgoing[e.tail].push(edge);
        }
    }
    let mut reversed = vec![false; graph.edges.len()];
    // 0: not seen, 1: on the stack, 2: done.
    let mut state = vec![0u8; n];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for start in 0..n {
        if state[start] != 0 {
            continue;
        }
        state[start] = 1;
        stack.push((start, 0));
        while let Some(top) = stack.last_mut() {
            let (node, next) = *top;
            if let Some(&edge) = outgoing[node].get(next) {
                top.1 += 1;
                let head = graph.edges[edge].head;
                match state[head] {
                    0 => {
                        state[head] = 1;
                        stack.push((head, 0));
                    }
                    1 => reversed[edge] = true,
                    _ => {}
                }
            } else {
                state[node] = 2;
                stack.pop();
            }
        }
    }
    reversed
}

/// Kahn's order of an acyclic graph, ties in node order.
fn topological(
    n: usize,
    outgoing: &[Vec<usize>],
    incoming: &[Vec<usize>],
    ends: &dyn Fn(usize) -> (usize, usize),
) -> Vec<usize> {
    let mut waiting: Vec<usize> = incoming.iter().map(Vec::len).collect();
    let mut order: Vec<usize> = (0..n).filter(|&v| waiting[v] == 0).collect();
    let mut at = 0;
    while at < order.len() {
        let node = order[at];
        at += 1;
        for &edge in &outgoing[node] {
            let (_, to) = ends(edge);
            waiting[to] -= 1;
            if waiting[to] == 0 {
                order.push(to);
            }
        }
    }
    order
}
