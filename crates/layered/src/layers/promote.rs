//! Promotion (after Nikolov and Tarassov, "Graph layering by promotion of nodes", 2006): a
//! node moves one layer on along the flow, with every node it would otherwise run into and
//! the inputs that feed only what moves, when that shortens the arrows in total; repeated
//! until no such move is left. Each move shortens the arrows, so it ends.
//!
//! The moves of [`super::move_up_to_readers`] take one node at a time, so a run that reads
//! more than it feeds stays where the longest path put it even when all of it belongs
//! further on: T5's and Whisper's decoders start with a self-attention computed from the
//! decoder's own input, beside the encoder's first layers, while the rest of their first
//! block waits for the encoder's output (arrows up to 280 times their length in dot's
//! drawing). Moved together, such a run joins its block, as Graphviz's network simplex puts
//! it.
//!
//! Ends (read by nothing), which follow their writers afterwards, neither hold a move back
//! nor count; an arrow from a hub runs in its trunk, so its length does not count either. A
//! move stretches no frame: a node goes past the last layer of its innermost frame only
//! with the whole frame (and then no further than the last layer of the innermost frame
//! that does not move whole), since a frame stretched along the flow sets the next block
//! beside it instead of after it.

use super::{span, Flow};

/// Most nodes one move may take along: a move that would take more (a cascade down a long
/// stretch of the graph) is not tried, which keeps each pass linear in the graph's size.
const MOST_MOVED: usize = 64;

/// Most passes over the nodes.
const MOST_PASSES: usize = 8;

pub(super) fn promote(flow: &Flow<'_>, order: &[usize], layer: &mut [usize]) {
    let n = flow.graph.nodes.len();
    // Whether an arrow holds its head after its tail, and whether its length counts.
    let holds = |edge: usize| !flow.is_end(flow.ends(edge).1);
    let counts = |edge: usize| {
        let (from, _) = flow.ends(edge);
        holds(edge) && !flow.is_hub(from)
    };
    // Per node: how much the arrows' length grows when it alone moves one layer on.
    let growth: Vec<isize> = (0..n)
        .map(|node| {
            let into = flow.incoming[node].iter().filter(|&&e| counts(e)).count();
            let out_of = flow.outgoing[node].iter().filter(|&&e| counts(e)).count();
            into as isize - out_of as isize
        })
        .collect();
    let frames = flow.frames;
    let mut size = vec![0usize; frames.len()];
    for node in (0..n).filter(|&node| !flow.is_end(node)) {
        for &f in frames.chain(flow.graph.nodes[node].frame) {
            size[f] += 1;
        }
    }
    let mut mover = Mover {
        seen: vec![0; n],
        stamp: 0,
        moved: Vec::new(),
        stack: Vec::new(),
        last: super::frame_spans(flow, layer, |node| !flow.is_end(node))
            .iter()
            .map(|span| span.map_or(0, |(_, last)| last))
            .collect(),
        size,
        taken: vec![(0, 0); frames.len()],
    };
    for _ in 0..MOST_PASSES {
        let mut any = false;
        // A move starts at a node with more arrows out than in: one that would shorten them
        // if nothing held it (trying every node finds no more on the real models, at two
        // to eight times the cost).
        for &node in order.iter().rev().filter(|&&node| growth[node] < 0) {
            while mover.gather(flow, node, layer, &holds, &growth) && mover.fits(flow, layer) {
                for &v in &mover.moved {
                    layer[v] += 1;
                    for &f in frames.chain(flow.graph.nodes[v].frame) {
                        mover.last[f] = mover.last[f].max(layer[v]);
                    }
                }
                any = true;
            }
        }
        if !any {
            break;
        }
    }
}

/// One move's nodes, gathered without allocating per move, and the frames' reach.
struct Mover {
    /// Per node: the move that last took it (`stamp`).
    seen: Vec<u32>,
    stamp: u32,
    moved: Vec<usize>,
    stack: Vec<usize>,
    /// Per frame: the last layer its nodes reach, and how many nodes it holds (nested
    /// frames' included, ends left out).
    last: Vec<usize>,
    size: Vec<usize>,
    /// Per frame: the move that last counted it, and how many of its nodes that move takes.
    taken: Vec<(u32, usize)>,
}

impl Mover {
    /// Gathers into `moved` the best move of `start` one layer on: `start` and every node it
    /// would run into (all of them must move), then nodes all of whose arrows lead into what
    /// moves (an input cone following its readers), as many of those as shorten the arrows
    /// most. `false` when that does not shorten them or takes too many nodes.
    fn gather(
        &mut self,
        flow: &Flow<'_>,
        start: usize,
        layer: &[usize],
        holds: &impl Fn(usize) -> bool,
        growth: &[isize],
    ) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.taken.fill((0, 0));
            self.stamp = 1;
        }
        self.moved.clear();
        self.stack.clear();
        self.seen[start] = self.stamp;
        self.stack.push(start);
        while let Some(node) = self.stack.pop() {
            if self.moved.len() == MOST_MOVED {
                return false;
            }
            self.moved.push(node);
            for &edge in &flow.outgoing[node] {
                let (_, to) = flow.ends(edge);
                if holds(edge)
                    && self.seen[to] != self.stamp
                    && layer[to] < layer[node] + 1 + span(flow.graph, edge)
                {
                    self.seen[to] = self.stamp;
                    self.stack.push(to);
                }
            }
        }
        let mut sum: isize = self.moved.iter().map(|&v| growth[v]).sum();
        let (mut best, mut best_len) = (sum, self.moved.len());
        let mut next = 0;
        while next < self.moved.len() {
            let node = self.moved[next];
            next += 1;
            for &edge in &flow.incoming[node] {
                let (from, _) = flow.ends(edge);
                let follows = self.moved.len() < MOST_MOVED
                    && self.seen[from] != self.stamp
                    && flow.outgoing[from]
                        .iter()
                        .all(|&out| !holds(out) || self.seen[flow.ends(out).1] == self.stamp);
                if follows {
                    self.seen[from] = self.stamp;
                    self.moved.push(from);
                    sum += growth[from];
                    if sum < best {
                        (best, best_len) = (sum, self.moved.len());
                    }
                }
            }
        }
        self.moved.truncate(best_len);
        best < 0
    }

    /// Whether the gathered move stretches no frame: each node stays within the last layer
    /// of the innermost frame around it that does not move whole.
    fn fits(&mut self, flow: &Flow<'_>, layer: &[usize]) -> bool {
        let frames = flow.frames;
        for &v in &self.moved {
            for &f in frames.chain(flow.graph.nodes[v].frame) {
                let taken = &mut self.taken[f];
                *taken = if taken.0 == self.stamp {
                    (self.stamp, taken.1 + 1)
                } else {
                    (self.stamp, 1)
                };
            }
        }
        self.moved.iter().all(|&v| {
            frames
                .chain(flow.graph.nodes[v].frame)
                .iter()
                .rev()
                .find(|&&f| self.taken[f].1 < self.size[f])
                .is_none_or(|&f| layer[v] < self.last[f])
        })
    }
}
