//! Room for long arrows beside module frames: a frame that a long arrow enters or leaves
//! gets a wider margin, so the arrow does not run squeezed against its border.

use tl_style::{StyledGraph, FRAME_MARGIN};

/// The margin of a frame that a long arrow (one passing at least one rank) enters or
/// leaves: such an arrow runs beside the frame's contents, and at the usual margin it is
/// squeezed against the frame's border for its whole length (a residual arrow beside a
/// block's box, or climbing between two nested frames).
const CROSSED_FRAME_MARGIN: u32 = 36;
/// Beyond this many nodes every frame keeps the usual margin: there wider margins slow the
/// layout (GPT-2-48, 2,271 nodes: 0.62 s to 0.83 s, median of 5, graphviz-pure), while up
/// to it the cost is within noise (GPT-2 small, GPT-2-24, BERT, DenseNet-121).
const MOST_NODES_WIDENED: usize = 1_500;

/// Gives every module frame that a long arrow crosses the wider margin; `rank` is the
/// layout guard's estimate ([`crate::guard::estimated_ranks`]).
pub fn widen_crossed_frames(graph: &mut StyledGraph, rank: &[usize]) {
    if graph.clusters.is_empty() || graph.nodes.len() > MOST_NODES_WIDENED {
        return;
    }
    let chain = |node: usize| -> Vec<usize> {
        let mut chain = Vec::new();
        let mut cluster = graph.nodes[node].cluster;
        while let Some(at) = cluster {
            chain.push(at);
            cluster = graph.clusters[at].parent;
        }
        chain
    };
    let mut crossed = vec![false; graph.clusters.len()];
    for edge in &graph.edges {
        if rank[edge.from].abs_diff(rank[edge.to]) < 2 {
            continue;
        }
        let (tail, head) = (chain(edge.from), chain(edge.to));
        for &cluster in tail.iter().filter(|c| !head.contains(c)) {
            crossed[cluster] = true;
        }
        for &cluster in head.iter().filter(|c| !tail.contains(c)) {
            crossed[cluster] = true;
        }
    }
    for (cluster, crossed) in graph.clusters.iter_mut().zip(crossed) {
        cluster.margin = if crossed {
            CROSSED_FRAME_MARGIN
        } else {
            FRAME_MARGIN
        };
    }
}
