//! Coordinates: x across the layers, y down them.
//!
//! x is solved over a constraint graph whose variables are the points and each frame's left
//! and right side: on every layer, each thing must sit right of the one before it by their
//! extents and a gap, a frame's side by its margin. Because a frame's sides are one pair of
//! variables for all its layers, frames come out as rectangles that never overlap. Each
//! round pulls every point to the weighted mean of its neighbours, then makes that feasible
//! twice, pushing right in the constraints' order and left in the reverse, and takes the mean
//! of the two (the mean of two feasible placements is feasible). A second run pulls to the
//! weighted median instead, and the placement whose links travel less across is kept.
//!
//! y stacks the layers, each as deep as its deepest point, the layer gap between them, or
//! more where the margins and captions of the frames ending and starting there, and a
//! clearance past their sides, need it: a frame's side runs through the gap.

use smallvec::SmallVec;

use crate::proper::{Kind, Proper};
use crate::{CaptionSide, FrameTree, Graph, Rect};

/// Rounds of pulling points to their neighbours.
const ROUNDS: usize = 40;

/// Least space between a frame's side and what sits beyond it along the flow (Graphviz's
/// default cluster margin).
const FRAME_CLEARANCE: f64 = 8.0;

pub(crate) struct Placed {
    /// Per point: its centre's x.
    pub x: Vec<f64>,
    /// Per layer: its top and its depth.
    pub layer_top: Vec<f64>,
    pub layer_depth: Vec<f64>,
    /// Per frame: its rectangle (`None`: it holds nothing).
    pub frames: Vec<Option<Rect>>,
}

impl Placed {
    pub(crate) fn centre_y(&self, layer: usize) -> f64 {
        self.layer_top[layer] + self.layer_depth[layer] / 2.0
    }
}

/// `x[to] >= x[from] + gap`.
#[derive(Clone, Copy)]
struct Constraint {
    from: usize,
    to: usize,
    gap: f64,
}

pub(crate) fn place(graph: &Graph, proper: &Proper, frames: &FrameTree) -> Placed {
    let points = proper.vertices.len();
    let constraints = constraints(graph, proper, frames);
    let solver = Solver::new(points + 2 * frames.len(), &constraints);
    // Each pull is better on some models (the mean on LSTMCell-64 and Whisper, the median on
    // BERT, the VAE and the CNNs); the one whose arrows travel less across is kept (the mean
    // on a tie). They run side by side.
    let mut x = if points > LARGE {
        pulled(proper, &solver, Pull::Mean)
    } else {
        let (median, mean) = crate::side_by_side(
            || pulled(proper, &solver, Pull::Median),
            || pulled(proper, &solver, Pull::Mean),
        );
        match median {
            Some(median) if travel(proper, &median) < travel(proper, &mean) => median,
            _ => mean,
        }
    };
    let rows = layers_y(graph, proper, frames);
    let rects = frame_rects(graph, proper, frames, &x, &rows);
    x.truncate(points);
    Placed {
        x,
        layer_top: rows.top,
        layer_depth: rows.depth,
        frames: rects,
    }
}

/// Where each round pulls a point: to the weighted mean of its neighbours' places, or to
/// their weighted median (with an even split, the point's own place clamped between the
/// two middle ones).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pull {
    Mean,
    Median,
}

/// Points above this many are placed with the mean pull only.
const LARGE: usize = 200_000;

/// The x of every point after [`ROUNDS`] of `pull`, chains straightened.
fn pulled(proper: &Proper, solver: &Solver, pull: Pull) -> Vec<f64> {
    let points = proper.vertices.len();
    let mut desired = vec![0.0f64; points];
    let mut x = solver.solve(&desired, points);
    let mut neighbours: Vec<(f64, f64)> = Vec::new();
    for _ in 0..ROUNDS {
        for (v, want) in desired.iter_mut().enumerate() {
            neighbours.clear();
            neighbours.extend(
                proper.up[v]
                    .iter()
                    .chain(&proper.down[v])
                    .map(|l| (x[l.to], l.weight)),
            );
            *want = match pull {
                _ if neighbours.is_empty() => x[v],
                Pull::Mean => {
                    let (sum, weight) =
                        neighbours.iter().fold((0.0, 0.0), |(s, w), &(at, weight)| {
                            (s + at * weight, w + weight)
                        });
                    sum / weight
                }
                Pull::Median => weighted_median(&mut neighbours, x[v]),
            };
        }
        x = solver.solve(&desired, points);
    }
    let loose = loose_ends(proper);
    for &v in &loose {
        x[v] = f64::INFINITY;
    }
    straighten(proper, solver, &mut x);
    // Back beside what precedes them on their layer.
    for &v in &loose {
        x[v] = solver.room(v, &x).0;
        if !x[v].is_finite() {
            x[v] = 0.0;
        }
    }
    x
}

/// The weighted median of `(place, weight)` pairs; between two middle places, the one of
/// them nearest `now`.
pub(crate) fn weighted_median(pairs: &mut [(f64, f64)], now: f64) -> f64 {
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: f64 = pairs.iter().map(|p| p.1).sum();
    let mut below = 0.0;
    for (index, &(at, weight)) in pairs.iter().enumerate() {
        below += weight;
        if below * 2.0 > total {
            return at;
        }
        if below * 2.0 == total {
            let above = pairs.get(index + 1).map_or(at, |p| p.0);
            return now.clamp(at, above);
        }
    }
    now
}

/// How far the links travel across: the sum of their horizontal spans.
fn travel(proper: &Proper, x: &[f64]) -> f64 {
    proper
        .down
        .iter()
        .enumerate()
        .flat_map(|(v, links)| links.iter().map(move |l| (v, l.to)))
        .map(|(v, w)| (x[v] - x[w]).abs())
        .sum()
}

fn left_side(points: usize, frame: usize) -> usize {
    points + 2 * frame
}

fn right_side(points: usize, frame: usize) -> usize {
    points + 2 * frame + 1
}

/// The constraints of every layer's order, and each frame's caption width.
fn constraints(graph: &Graph, proper: &Proper, frames: &FrameTree) -> Vec<Constraint> {
    let points = proper.vertices.len();
    let mut out = Vec::with_capacity(points * 2);
    let margin = |f: usize| graph.frames[f].margin;
    // The right sides of `closing` (outermost first), innermost first after `last`.
    let close =
        |closing: &[usize], last: &mut Option<(usize, f64, bool)>, out: &mut Vec<Constraint>| {
            for &f in closing.iter().rev() {
                if let Some((from, extent, _)) = *last {
                    let side = right_side(points, f);
                    out.push(Constraint {
                        from,
                        to: side,
                        gap: extent + margin(f),
                    });
                    *last = Some((side, 0.0, true));
                }
            }
        };
    for layer in &proper.layers {
        // The last thing placed: its variable, how far right of it the next must start, and
        // whether a gap is owed before the next thing.
        let mut last: Option<(usize, f64, bool)> = None;
        let mut previous: Option<usize> = None;
        for &b in layer {
            let vb = &proper.vertices[b];
            let chain_b = frames.chain(vb.frame);
            let shared = previous.map_or(0, |a| {
                frames
                    .chain(proper.vertices[a].frame)
                    .iter()
                    .zip(chain_b)
                    .take_while(|(x, y)| x == y)
                    .count()
            });
            if let Some(a) = previous {
                let closing = &frames.chain(proper.vertices[a].frame)[shared..];
                close(closing, &mut last, &mut out);
            }
            let gap = match previous {
                Some(a) if is_thin(proper, a) && is_thin(proper, b) => graph.node_gap / 2.0,
                _ => graph.node_gap,
            };
            for &g in &chain_b[shared..] {
                let side = left_side(points, g);
                if let Some((from, extent, owed)) = last {
                    let gap = if owed { gap } else { 0.0 };
                    out.push(Constraint {
                        from,
                        to: side,
                        gap: extent + gap,
                    });
                }
                last = Some((side, margin(g), false));
            }
            if let Some((from, extent, owed)) = last {
                let gap = if owed { gap } else { 0.0 };
                out.push(Constraint {
                    from,
                    to: b,
                    gap: extent + gap + vb.left,
                });
            }
            last = Some((b, vb.right, true));
            previous = Some(b);
        }
        if let Some(a) = previous {
            close(frames.chain(proper.vertices[a].frame), &mut last, &mut out);
        }
    }
    for (f, frame) in graph.frames.iter().enumerate() {
        out.push(Constraint {
            from: left_side(points, f),
            to: right_side(points, f),
            gap: frame.caption.breadth + 16.0 + 2.0 * frame.margin,
        });
    }
    out.sort_unstable_by(|a, b| {
        (a.from, a.to)
            .cmp(&(b.from, b.to))
            .then(b.gap.total_cmp(&a.gap))
    });
    out.dedup_by(|later, kept| later.from == kept.from && later.to == kept.to);
    out
}

/// The nodes with no link at all that end their layer outside every frame (the key beside
/// the outputs): set aside while the chains are straightened, so they hold no chain back,
/// then put beside what precedes them. One inside a frame stays where it is: a chain
/// straightened past it would push it out through the frame's side.
fn loose_ends(proper: &Proper) -> Vec<usize> {
    proper
        .layers
        .iter()
        .filter_map(|layer| layer.last().copied())
        .filter(|&v| {
            let vertex = &proper.vertices[v];
            matches!(vertex.kind, Kind::Node(_))
                && vertex.frame.is_none()
                && proper.up[v].is_empty()
                && proper.down[v].is_empty()
        })
        .collect()
}

/// Sets each chain (a long arrow, a trunk, a run of operations) in as few straight runs as
/// the constraints allow: walking down the chain, a run goes on while some x fits every dummy
/// in it, and takes the median of their places clamped into that room. Each move stays
/// within what the dummy's neighbours on its layer (and the frames' sides) leave, so the
/// placement stays feasible.
fn straighten(proper: &Proper, solver: &Solver, x: &mut [f64]) {
    // A chain goes on from a point to the next layer's point through a dummy-to-dummy link
    // (a long arrow, a trunk), or through the only link out of one and into the other (a
    // run of operations one after another).
    let next = |v: usize| {
        let down = &proper.down[v];
        let dummy = |w: usize| proper.vertices[w].kind == Kind::Dummy;
        if dummy(v) {
            if let Some(link) = down.iter().find(|l| dummy(l.to)) {
                return Some(link.to);
            }
        }
        match down.as_slice() {
            [only] if proper.up[only.to].len() == 1 => Some(only.to),
            _ => None,
        }
    };
    let mut continues = vec![false; proper.vertices.len()];
    for v in 0..proper.vertices.len() {
        if let Some(w) = next(v) {
            continues[w] = true;
        }
    }
    for (start, &continued) in continues.iter().enumerate() {
        if continued || next(start).is_none() {
            continue;
        }
        let mut chain = vec![start];
        while let Some(following) = next(*chain.last().unwrap_or(&start)) {
            chain.push(following);
        }
        let mut begin = 0;
        while begin < chain.len() {
            let (mut low, mut high) = solver.room(chain[begin], x);
            let mut end = begin + 1;
            while end < chain.len() {
                let (l, h) = solver.room(chain[end], x);
                if l.max(low) > h.min(high) {
                    break;
                }
                low = low.max(l);
                high = high.min(h);
                end += 1;
            }
            let mut places: Vec<f64> = chain[begin..end].iter().map(|&v| x[v]).collect();
            places.sort_by(f64::total_cmp);
            let at = places[places.len() / 2].clamp(low, high);
            for &v in &chain[begin..end] {
                x[v] = at;
            }
            begin = end;
        }
    }
}

/// A dummy or a filler: a line or nothing, not a box.
fn is_thin(proper: &Proper, v: usize) -> bool {
    !matches!(proper.vertices[v].kind, Kind::Node(_)) && proper.vertices[v].right == 0.0
}

/// A variable's constraints on one side: a point has its neighbours on its layer and the
/// sides of the frames it starts or ends, mostly one or two, kept inline.
type Gaps = SmallVec<[(usize, f64); 2]>;

/// The constraint graph in a fixed order, for repeated solving.
struct Solver {
    order: Vec<usize>,
    /// Per variable: `(other, gap)` of the constraints into it and out of it.
    into: Vec<Gaps>,
    out_of: Vec<Gaps>,
}

impl Solver {
    fn new(variables: usize, constraints: &[Constraint]) -> Solver {
        let mut into = vec![Gaps::new(); variables];
        let mut out_of = vec![Gaps::new(); variables];
        for c in constraints {
            into[c.to].push((c.from, c.gap));
            out_of[c.from].push((c.to, c.gap));
        }
        // Kahn's order; a cycle (which a consistent frame order rules out) leaves its
        // variables to the end, and the constraints against the order are then skipped.
        let mut waiting: Vec<usize> = into.iter().map(|gaps| gaps.len()).collect();
        let mut order: Vec<usize> = (0..variables).filter(|&v| waiting[v] == 0).collect();
        let mut at = 0;
        while at < order.len() {
            let v = order[at];
            at += 1;
            for &(to, _) in &out_of[v] {
                waiting[to] -= 1;
                if waiting[to] == 0 {
                    order.push(to);
                }
            }
        }
        if order.len() < variables {
            let mut placed = vec![false; variables];
            for &v in &order {
                placed[v] = true;
            }
            order.extend((0..variables).filter(|&v| !placed[v]));
            let mut rank = vec![0usize; variables];
            for (index, &v) in order.iter().enumerate() {
                rank[v] = index;
            }
            for (v, list) in into.iter_mut().enumerate() {
                list.retain(|&mut (from, _)| rank[from] < rank[v]);
            }
            for (v, list) in out_of.iter_mut().enumerate() {
                list.retain(|&mut (to, _)| rank[to] > rank[v]);
            }
        }
        Solver {
            order,
            into,
            out_of,
        }
    }

    /// The room `v` has, its neighbours where `x` puts them.
    fn room(&self, v: usize, x: &[f64]) -> (f64, f64) {
        let low = self.into[v]
            .iter()
            .map(|&(from, gap)| x[from] + gap)
            .fold(f64::NEG_INFINITY, f64::max);
        let high = self.out_of[v]
            .iter()
            .map(|&(to, gap)| x[to] - gap)
            .fold(f64::INFINITY, f64::min);
        (low, high.max(low))
    }

    /// The mean of the placement pushed right from `desired` and the one pushed left.
    /// Frame sides (past `points`) have no wish: as far in as their constraints allow.
    fn solve(&self, desired: &[f64], points: usize) -> Vec<f64> {
        let n = self.order.len();
        let mut right = vec![f64::NEG_INFINITY; n];
        for &v in &self.order {
            let low = self.into[v]
                .iter()
                .map(|&(from, gap)| right[from] + gap)
                .fold(f64::NEG_INFINITY, f64::max);
            right[v] = if v < points { desired[v].max(low) } else { low };
        }
        // A side nothing pushed sits as far right as what follows it allows.
        for &v in self.order.iter().rev() {
            if right[v] == f64::NEG_INFINITY {
                right[v] = self.out_of[v]
                    .iter()
                    .map(|&(to, gap)| right[to] - gap)
                    .fold(f64::INFINITY, f64::min);
                if !right[v].is_finite() {
                    right[v] = 0.0;
                }
            }
        }
        let mut left = vec![f64::INFINITY; n];
        for &v in self.order.iter().rev() {
            let high = self.out_of[v]
                .iter()
                .map(|&(to, gap)| left[to] - gap)
                .fold(f64::INFINITY, f64::min);
            left[v] = if v < points {
                desired[v].min(high)
            } else {
                high
            };
        }
        for &v in &self.order {
            if left[v] == f64::INFINITY {
                left[v] = self.into[v]
                    .iter()
                    .map(|&(from, gap)| left[from] + gap)
                    .fold(f64::NEG_INFINITY, f64::max);
                if !left[v].is_finite() {
                    left[v] = 0.0;
                }
            }
        }
        right
            .iter()
            .zip(&left)
            .map(|(r, l)| (r + l) / 2.0)
            .collect()
    }
}

/// Layer tops and depths, each frame's layer span and the room it takes before its first
/// layer and after its last (margins, captions, and the frames inside ending there too).
struct Rows {
    top: Vec<f64>,
    depth: Vec<f64>,
    spans: Vec<Option<(usize, usize)>>,
    extents: Vec<(f64, f64)>,
}

fn layers_y(graph: &Graph, proper: &Proper, frames: &FrameTree) -> Rows {
    let count = proper.layers.len();
    let mut depth = vec![0.0f64; count];
    for v in &proper.vertices {
        depth[v.layer] = depth[v.layer].max(v.depth);
    }
    let spans = frames.spans(proper.vertices.iter().map(|v| (v.frame, v.layer)));
    // Innermost frames first, so a frame's room counts the frames inside it.
    let mut extents = vec![(0.0f64, 0.0f64); frames.len()];
    for &f in frames.innermost_first() {
        let frame = &graph.frames[f];
        let (caption_start, caption_end) = match graph.caption_side {
            CaptionSide::Start => (frame.caption.depth, 0.0),
            CaptionSide::End => (0.0, frame.caption.depth),
        };
        extents[f].0 += frame.margin + caption_start;
        extents[f].1 += frame.margin + caption_end;
        if let (Some(parent), Some((low, high))) = (frames.parent(f), spans[f]) {
            if let Some((parent_low, parent_high)) = spans[parent] {
                if low == parent_low {
                    extents[parent].0 = extents[parent].0.max(extents[f].0);
                }
                if high == parent_high {
                    extents[parent].1 = extents[parent].1.max(extents[f].1);
                }
            }
        }
    }
    let mut before = vec![0.0f64; count];
    let mut after = vec![0.0f64; count];
    for (f, span) in spans.iter().enumerate() {
        if let Some((low, high)) = *span {
            before[low] = before[low].max(extents[f].0);
            after[high] = after[high].max(extents[f].1);
        }
    }
    // Between two layers, the frames ending after the first and starting before the second
    // need their room and a clearance outside their sides; the layer gap can hold it, as in
    // Graphviz, where a frame's side runs through the gap between ranks.
    let mut top = vec![0.0f64; count];
    let mut at = before.first().copied().unwrap_or(0.0);
    for layer in 0..count {
        if layer > 0 {
            let frames_room = after[layer - 1] + before[layer];
            at += if frames_room > 0.0 {
                graph.layer_gap.max(frames_room + FRAME_CLEARANCE)
            } else {
                graph.layer_gap
            };
        }
        top[layer] = at;
        at += depth[layer];
    }
    Rows {
        top,
        depth,
        spans,
        extents,
    }
}

/// Each frame's rectangle: tight around what it holds, wide enough for its caption, and
/// within the sides the x placement gave it.
fn frame_rects(
    graph: &Graph,
    proper: &Proper,
    frames: &FrameTree,
    x: &[f64],
    rows: &Rows,
) -> Vec<Option<Rect>> {
    let (spans, extents, top, depth) = (&rows.spans, &rows.extents, &rows.top, &rows.depth);
    let points = proper.vertices.len();
    let mut tight: Vec<Option<(f64, f64)>> = vec![None; frames.len()];
    let widen = |slot: &mut Option<(f64, f64)>, low: f64, high: f64| {
        *slot = Some(slot.map_or((low, high), |(l, h)| (l.min(low), h.max(high))));
    };
    for (v, vertex) in proper.vertices.iter().enumerate() {
        if let Some(f) = vertex.frame {
            let margin = graph.frames[f].margin;
            widen(
                &mut tight[f],
                x[v] - vertex.left - margin,
                x[v] + vertex.right + margin,
            );
        }
    }
    let mut rects = vec![None; frames.len()];
    for &f in frames.innermost_first() {
        let (Some((low, high)), Some((tight_low, tight_high))) = (spans[f], tight[f]) else {
            continue;
        };
        let frame = &graph.frames[f];
        let need = frame.caption.breadth + 16.0 + 2.0 * frame.margin;
        let (side_low, side_high) = (x[left_side(points, f)], x[right_side(points, f)]);
        let min_x = side_low.max(tight_low.min(side_high - need));
        let max_x = side_high.min(tight_high.max(min_x + need));
        rects[f] = Some(Rect {
            min: crate::Point {
                x: min_x,
                y: top[low] - extents[f].0,
            },
            max: crate::Point {
                x: max_x,
                y: top[high] + depth[high] + extents[f].1,
            },
        });
        if let Some(parent) = frames.parent(f) {
            let margin = graph.frames[parent].margin;
            widen(&mut tight[parent], min_x - margin, max_x + margin);
        }
    }
    rects
}
