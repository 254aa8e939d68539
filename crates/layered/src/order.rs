//! Crossing reduction: the order of the points on each layer.
//!
//! Barycentric sweeps down and up the layers, keeping the order with the fewest crossings.
//! A layer is sorted frame by frame: at each level of nesting the things side by side are
//! points and whole frames, a point by its barycentre, a frame by one key for all its layers
//! (the mean barycentre of its nodes, or of everything inside it). So a frame's points stay
//! together on each layer and the frames keep one left-to-right order on every layer they
//! share, which is what lets the x placement draw them as rectangles that never overlap.
//! Then Graphviz's `transpose` swaps neighbours of one frame where that crosses less, which
//! keeps both. The whole runs twice, side by side on two threads, once for each frame key,
//! and the ordering with fewer crossings is kept.

use crate::proper::{Kind, Proper};
use crate::FrameTree;

/// Sweeps at most; fewer on very large graphs, where each costs more than it gains.
const SWEEPS: usize = 8;
const LARGE: usize = 200_000;

pub(crate) fn reduce_crossings(proper: &mut Proper, frames: &FrameTree) {
    // Two ways to key a frame, each better on some models (T5 and Whisper by nodes, Mixtral
    // with its arrows): the ordering with fewer crossings is kept, the first on a tie. They
    // run side by side, each on its own copy of the layers.
    let mut by_nodes = proper.layers.clone();
    if proper.vertices.len() > LARGE {
        sweep(proper, &mut by_nodes, frames, Keying::Nodes);
        proper.layers = by_nodes;
        return;
    }
    let mut by_everything = proper.layers.clone();
    let shared: &Proper = proper;
    let (everything_crossed, nodes_crossed) = crate::side_by_side(
        || sweep(shared, &mut by_everything, frames, Keying::Everything),
        || sweep(shared, &mut by_nodes, frames, Keying::Nodes),
    );
    proper.layers = if everything_crossed.is_some_and(|crossed| crossed < nodes_crossed) {
        by_everything
    } else {
        by_nodes
    };
}

/// What a frame's sort key is the mean position of.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keying {
    /// The nodes inside it (its arrows' points only when it holds no node).
    Nodes,
    /// Everything inside it, arrows' points too.
    Everything,
}

/// Barycentric sweeps then `transpose`, from the layers' creation order; the crossings left.
fn sweep(proper: &Proper, layers: &mut Vec<Vec<usize>>, frames: &FrameTree, keying: Keying) -> u64 {
    let mut pos = vec![0.0f64; proper.vertices.len()];
    // First order: creation order (nodes in the trace's execution order, then dummies).
    let initial: Vec<f64> = (0..proper.vertices.len()).map(|v| v as f64).collect();
    let keys = frame_keys(proper, frames, &initial, keying);
    for layer in 0..layers.len() {
        sort_layer(proper, layers, frames, layer, &initial, &keys);
    }
    positions(layers, &mut pos);
    let mut best = layers.clone();
    let mut fewest = crossings(proper, layers, &pos);
    let sweeps = if proper.vertices.len() > LARGE {
        4
    } else {
        SWEEPS
    };
    let mut stale = 0;
    for _ in 0..sweeps {
        if fewest == 0 || stale >= 2 {
            break;
        }
        for downward in [true, false] {
            let bary = barycentres(proper, &pos);
            let keys = frame_keys(proper, frames, &bary, keying);
            // Every layer, the first of the sweep too (by its own order): all of them are
            // then sorted with the same frame keys, so the frames keep one order.
            let order: Vec<usize> = if downward {
                (0..layers.len()).collect()
            } else {
                (0..layers.len()).rev().collect()
            };
            let mut value = pos.clone();
            for layer in order {
                layer_values(proper, layers, &pos, layer, downward, &mut value);
                sort_layer(proper, layers, frames, layer, &value, &keys);
                for (index, &v) in layers[layer].iter().enumerate() {
                    pos[v] = index as f64;
                }
            }
        }
        let now = crossings(proper, layers, &pos);
        if now < fewest {
            fewest = now;
            best.clone_from(layers);
            stale = 0;
        } else {
            stale += 1;
        }
    }
    *layers = best;
    positions(layers, &mut pos);
    transpose(proper, layers, &mut pos);
    crossings(proper, layers, &pos)
}

/// Passes over the layers at most in [`transpose`].
const TRANSPOSE_PASSES: usize = 4;

/// Graphviz's `transpose`: swaps two neighbours of one frame on a layer when that crosses
/// fewer links to the layers either side, until a pass swaps nothing. Neighbours of one
/// frame can trade places without breaking it or its order among the others.
fn transpose(proper: &Proper, layers: &mut [Vec<usize>], pos: &mut [f64]) {
    for _ in 0..TRANSPOSE_PASSES {
        let mut swapped = false;
        for layer in layers.iter_mut() {
            for at in 1..layer.len() {
                let (u, v) = (layer[at - 1], layer[at]);
                if proper.vertices[u].frame != proper.vertices[v].frame {
                    continue;
                }
                let before = pair_crossings(proper, pos, u, v);
                let after = pair_crossings(proper, pos, v, u);
                if after < before {
                    layer.swap(at - 1, at);
                    pos[u] = at as f64;
                    pos[v] = (at - 1) as f64;
                    swapped = true;
                }
            }
        }
        if !swapped {
            break;
        }
    }
}

/// Crossings between the links of `left` and of `right`, `left` being left of `right`, on
/// both sides (a pair with too many links to count is taken as fine as it is).
fn pair_crossings(proper: &Proper, pos: &[f64], left: usize, right: usize) -> u64 {
    let mut total = 0;
    for links in [&proper.up, &proper.down] {
        let (a, b) = (&links[left], &links[right]);
        if a.len() * b.len() > 10_000 {
            return 0;
        }
        for l in a {
            total += b.iter().filter(|r| pos[r.to] < pos[l.to]).count() as u64;
        }
    }
    total
}

fn positions(layers: &[Vec<usize>], pos: &mut [f64]) {
    for layer in layers {
        for (index, &v) in layer.iter().enumerate() {
            pos[v] = index as f64;
        }
    }
}

/// Each point's barycentre over its links both ways; its own position when it has none.
fn barycentres(proper: &Proper, pos: &[f64]) -> Vec<f64> {
    (0..proper.vertices.len())
        .map(|v| {
            let links = proper.up[v].iter().chain(&proper.down[v]);
            let (sum, count) = links.fold((0.0, 0usize), |(s, c), l| (s + pos[l.to], c + 1));
            if count == 0 {
                pos[v]
            } else {
                sum / count as f64
            }
        })
        .collect()
}

/// Writes the sort values of one layer's points into `value` (only they are read):
/// barycentres over the layer just sorted, or their own position without links there.
fn layer_values(
    proper: &Proper,
    layers: &[Vec<usize>],
    pos: &[f64],
    layer: usize,
    downward: bool,
    value: &mut [f64],
) {
    for &v in &layers[layer] {
        let links = if downward {
            &proper.up[v]
        } else {
            &proper.down[v]
        };
        value[v] = if links.is_empty() {
            pos[v]
        } else {
            links.iter().map(|l| pos[l.to]).sum::<f64>() / links.len() as f64
        };
    }
}

/// One key a frame: the mean value of the points `keying` counts inside it (fillers never).
fn frame_keys(proper: &Proper, frames: &FrameTree, value: &[f64], keying: Keying) -> Vec<f64> {
    // Per frame: (sum, count) over its nodes, and over its arrows' points.
    let mut nodes = vec![(0.0f64, 0usize); frames.len()];
    let mut dummies = vec![(0.0f64, 0usize); frames.len()];
    for (v, vertex) in proper.vertices.iter().enumerate() {
        let tally = match vertex.kind {
            Kind::Filler => continue,
            Kind::Node(_) => &mut nodes,
            Kind::Dummy => &mut dummies,
        };
        for &f in frames.chain(vertex.frame) {
            tally[f].0 += value[v];
            tally[f].1 += 1;
        }
    }
    nodes
        .iter()
        .zip(&dummies)
        .map(|(&(node_sum, node_count), &(dummy_sum, dummy_count))| {
            let (sum, count) = match keying {
                Keying::Nodes if node_count > 0 => (node_sum, node_count),
                _ => (node_sum + dummy_sum, node_count + dummy_count),
            };
            if count == 0 {
                0.0
            } else {
                sum / count as f64
            }
        })
        .collect()
}

/// Sorts a layer frame by frame.
fn sort_layer(
    proper: &Proper,
    layers: &mut [Vec<usize>],
    frames: &FrameTree,
    layer: usize,
    value: &[f64],
    keys: &[f64],
) {
    let mut points = std::mem::take(&mut layers[layer]);
    let vertices = &proper.vertices;
    points.sort_by(|&a, &b| {
        let (chain_a, chain_b) = (
            frames.chain(vertices[a].frame),
            frames.chain(vertices[b].frame),
        );
        let shared = chain_a
            .iter()
            .zip(chain_b)
            .take_while(|(x, y)| x == y)
            .count();
        // What stands for each at the first level where they part: a frame or the point.
        let unit = |chain: &[usize], v: usize| match chain.get(shared) {
            Some(&f) => (keys[f], 1u8, f),
            None => (value[v], 0u8, v),
        };
        let (ua, ub) = (unit(chain_a, a), unit(chain_b, b));
        ua.0.total_cmp(&ub.0)
            .then(ua.1.cmp(&ub.1))
            .then(ua.2.cmp(&ub.2))
    });
    layers[layer] = points;
}

/// Crossings between neighbouring layers, by counting inversions with a Fenwick tree.
fn crossings(proper: &Proper, layers: &[Vec<usize>], pos: &[f64]) -> u64 {
    let mut total = 0u64;
    for pair in layers.windows(2) {
        let mut links: Vec<(usize, usize)> = pair[0]
            .iter()
            .flat_map(|&u| {
                proper.down[u]
                    .iter()
                    .map(move |l| (pos[u] as usize, pos[l.to] as usize))
            })
            .collect();
        links.sort_unstable();
        let size = pair[1].len() + 1;
        let mut tree = vec![0u64; size + 1];
        for (seen, &(_, to)) in links.iter().enumerate() {
            // Links seen so far that end right of `to` cross this one.
            let mut at = to + 1;
            let mut not_right = 0u64;
            while at > 0 {
                not_right += tree[at];
                at &= at - 1;
            }
            total += seen as u64 - not_right;
            let mut at = to + 1;
            while at <= size {
                tree[at] += 1;
                at += at & at.wrapping_neg();
            }
        }
    }
    total
}
