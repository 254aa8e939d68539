//! Layers: which layer each node sits on.
//!
//! Cycles are broken by reversing the arrows a depth-first search finds going back; each
//! node then sits one layer past its furthest predecessor (longest path), a labelled arrow
//! spanning two layers so its label has a layer of its own. A node with at least as many
//! arrows out as in (a model input, a constant, a hub such as rotary `cos`/`sin`, what
//! only a later block reads) moves up to just before its first reader, which shortens or
//! keeps the arrows' total length as Graphviz's network simplex would (nodes read by
//! nothing follow their writers rather than hold them back), and the sinks share the last
//! layer.

use crate::Graph;

/// Readers from which a node's arrows run as one trunk, so that moving one reader further
/// away costs little.
const HUB_READERS: usize = 6;

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

pub(crate) fn assign(graph: &Graph) -> Layering {
    let n = graph.nodes.len();
    let takes_part: Vec<bool> = graph
        .edges
        .iter()
        .map(|e| e.constraint && e.tail != e.head)
        .collect();
    let reversed = break_cycles(graph, &takes_part);
    let ends = |edge: usize| {
        let e = &graph.edges[edge];
        if reversed[edge] {
            (e.head, e.tail)
        } else {
            (e.tail, e.head)
        }
    };
    let mut outgoing = vec![Vec::new(); n];
    let mut incoming = vec![Vec::new(); n];
    for edge in (0..graph.edges.len()).filter(|&e| takes_part[e]) {
        let (from, to) = ends(edge);
        outgoing[from].push(edge);
        incoming[to].push(edge);
    }
    let order = topological(n, &outgoing, &incoming, &ends);
    let mut layer = vec![0usize; n];
    for &node in &order {
        for &edge in &outgoing[node] {
            let (_, to) = ends(edge);
            layer[to] = layer[to].max(layer[node] + span(graph, edge));
        }
    }
    let mut is_sink = vec![false; n];
    for &s in &graph.sinks {
        is_sink[s] = true;
    }
    // A node read by at least as many arrows as it reads moves up to just before its first
    // reader (readers before readers of readers): inputs and constants sit where they are
    // used, and a hub's readers' own inputs join them, so the long arrow that remains comes
    // from the hub and runs in its trunk. Its arrows' total length does not grow.
    // So does a node whose whole input cone reads nothing else and feeds only it (position
    // buckets built from `arange`s in each block): the cone follows it up, rigidly.
    let mut detached = vec![false; n];
    for &node in &order {
        detached[node] = incoming[node].iter().all(|&edge| {
            let (from, _) = ends(edge);
            detached[from] && outgoing[from].len() == 1
        });
    }
    // Ends (nodes read by nothing and not pinned to the last layer: a cache's keys and
    // values returned) do not hold their writers back: they follow them afterwards, so a
    // block's cached keys move up with the attention that reads them instead of staying
    // where their input is made.
    let is_end = |node: usize| outgoing[node].is_empty() && !is_sink[node];
    // An arrow from a hub (read six times or more: its arrows run in one trunk) or from a
    // detached cone (it follows) is not one a move would stretch.
    let held_by = |node: usize| {
        incoming[node]
            .iter()
            .filter(|&&edge| {
                let (from, _) = ends(edge);
                outgoing[from].len() < HUB_READERS && !(detached[from] && outgoing[from].len() == 1)
            })
            .count()
    };
    for &node in order.iter().rev() {
        if (outgoing[node].len() >= held_by(node) || detached[node])
            && !outgoing[node].is_empty()
            && !is_sink[node]
        {
            let first = outgoing[node]
                .iter()
                .filter(|&&edge| !is_end(ends(edge).1))
                .map(|&edge| layer[ends(edge).1] - span(graph, edge))
                .min();
            if let Some(first) = first {
                layer[node] = layer[node].max(first);
            }
        }
    }
    for node in (0..n).filter(|&node| is_end(node)) {
        if let Some(after) = incoming[node]
            .iter()
            .map(|&edge| layer[ends(edge).0] + span(graph, edge))
            .max()
        {
            layer[node] = after;
        }
    }
    place_sinks(graph, &mut layer, &is_sink, &outgoing, &incoming, &ends);
    let low = layer.iter().copied().min().unwrap_or(0);
    for l in &mut layer {
        *l -= low;
    }
    let ranked = (0..graph.edges.len())
        .map(|edge| {
            let (from, to) = ends(edge);
            takes_part[edge] && layer[to] > layer[from]
        })
        .collect();
    Layering {
        count: layer.iter().copied().max().map_or(0, |l| l + 1),
        layer,
        reversed,
        ranked,
    }
}

/// Sinks with no arrow out share the last layer, past every non-sink that points to one.
fn place_sinks(
    graph: &Graph,
    layer: &mut [usize],
    is_sink: &[bool],
    outgoing: &[Vec<usize>],
    incoming: &[Vec<usize>],
    ends: &dyn Fn(usize) -> (usize, usize),
) {
    let sinks: Vec<usize> = graph
        .sinks
        .iter()
        .copied()
        .filter(|&s| outgoing[s].is_empty())
        .collect();
    if sinks.is_empty() {
        return;
    }
    let mut last = layer.iter().copied().max().unwrap_or(0);
    for &s in &sinks {
        for &edge in &incoming[s] {
            let (from, _) = ends(edge);
            if !is_sink[from] {
                last = last.max(layer[from] + span(graph, edge));
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
