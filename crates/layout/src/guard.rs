//! The layout guard: an estimate of what a layered layout of a styled graph will cost,
//! taken before layout, so a drawing that would take minutes is refused with a remedy
//! instead of hanging.
//!
//! A layered (`dot`) layout works on the drawn nodes plus one virtual node for every rank
//! an arrow passes through. Measured on real models (docs/performance.md, "The layout
//! guard"), layout time follows that total far better than the node count alone:
//! DenseNet-121's 433 nodes carry ~27,000 virtual nodes (each concatenation reads every
//! earlier layer of its block) and take longer than GPT-2-48's 2,271 nodes with ~2,000.

use tl_style::StyledGraph;

use crate::LayoutError;

/// The default ceiling on [`LayoutCost::total`]: about 10 s of embedded layout on the
/// machines the project is measured on (docs/performance.md).
pub const DEFAULT_MAX_LAYOUT_COST: usize = 200_000;

/// The default ceiling on drawn nodes before layout: layout time grows faster than the node
/// count (GPT-2 at 48 layers, 2,271 nodes: 0.46 s; at 96 layers, 4,527 nodes: 2.5 s; 10,000
/// nodes: over 100 s), so 5,000 nodes is about 3-5 s (docs/performance.md).
pub const DEFAULT_MAX_NODES: usize = 5000;

/// What a layered layout of one drawing will cost, estimated before layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutCost {
    /// Drawn nodes.
    pub nodes: usize,
    /// Virtual nodes: for every arrow, the ranks it passes through between its ends.
    pub virtual_nodes: usize,
}

impl LayoutCost {
    /// Nodes the layout places: drawn and virtual.
    pub fn total(self) -> usize {
        self.nodes.saturating_add(self.virtual_nodes)
    }
}

/// The guard's limits: drawings over them are refused unless `force` lifts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most drawn nodes.
    pub max_nodes: usize,
    /// Most [`LayoutCost::total`].
    pub max_layout_cost: usize,
    /// Lay out whatever the size.
    pub force: bool,
}

impl Limits {
    /// Refuses a drawing of `nodes` drawn nodes over [`Limits::max_nodes`] (checked before
    /// styling, from the visible graph's size).
    pub fn check_nodes(&self, nodes: usize) -> Result<(), LayoutError> {
        if nodes > self.max_nodes && !self.force {
            return Err(LayoutError::TooLarge {
                nodes,
                limit: self.max_nodes,
            });
        }
        Ok(())
    }

    /// Refuses a drawing whose estimated cost is over [`Limits::max_layout_cost`].
    pub fn check_cost(&self, cost: LayoutCost) -> Result<(), LayoutError> {
        if cost.total() > self.max_layout_cost && !self.force {
            return Err(LayoutError::TooCostly {
                nodes: cost.nodes,
                virtual_nodes: cost.virtual_nodes,
                limit: self.max_layout_cost,
            });
        }
        Ok(())
    }
}

/// Estimates the layout cost of `graph`: ranks by longest path over its arrows in node
/// order (nodes follow execution, so an arrow to an earlier node is a loop's back edge and
/// does not rank), nodes without parents then moved up to just below their lowest child,
/// each arrow then adding `span - 1` virtual nodes. An arrow label laid out
/// on the arrow (not floating) makes the layout split every rank in two, as Graphviz does,
/// so spans double. Linear in nodes and arrows.
pub fn layout_cost(graph: &StyledGraph) -> LayoutCost {
    layout_cost_with(graph, &estimated_ranks(graph))
}

/// [`layout_cost`] from ranks already estimated by [`estimated_ranks`].
pub fn layout_cost_with(graph: &StyledGraph, rank: &[usize]) -> LayoutCost {
    let ranked_labels = graph
        .edges
        .iter()
        .any(|edge| !edge.label.is_empty() && !edge.label_floats);
    let scale = if ranked_labels { 2 } else { 1 };
    let virtual_nodes = graph
        .edges
        .iter()
        .map(|edge| {
            let span = rank[edge.from].abs_diff(rank[edge.to]).max(1);
            (span * scale).saturating_sub(1)
        })
        .fold(0usize, usize::saturating_add);
    LayoutCost {
        nodes: graph.nodes.len(),
        virtual_nodes,
    }
}

/// The rank of every node as a layered layout will roughly place it (see [`layout_cost`]).
pub fn estimated_ranks(graph: &StyledGraph) -> Vec<usize> {
    let mut rank = vec![0usize; graph.nodes.len()];
    // Edges in the order of their source, so one pass ranks every forward arrow.
    let mut forward: Vec<(usize, usize)> = graph
        .edges
        .iter()
        .filter(|edge| edge.from < edge.to && edge.look.as_ref().is_none_or(|l| l.constraint))
        .map(|edge| (edge.from, edge.to))
        .collect();
    forward.sort_unstable();
    for &(from, to) in &forward {
        rank[to] = rank[to].max(rank[from] + 1);
    }
    // A node with no ranked parent (a constant: GPT-2's empty cache tensors, position ids)
    // goes right below its lowest child, as the layout's own ranking puts it; left at rank
    // 0, GPT-2-48's cache constants alone would count 1,600 virtual nodes each.
    let mut has_parent = vec![false; rank.len()];
    let mut lowest_child = vec![usize::MAX; rank.len()];
    for &(from, to) in &forward {
        has_parent[to] = true;
        lowest_child[from] = lowest_child[from].min(rank[to]);
    }
    for node in 0..rank.len() {
        if !has_parent[node] && lowest_child[node] != usize::MAX {
            rank[node] = lowest_child[node] - 1;
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;
    use tl_style::{EdgeText, EdgeTextSize, Fill, GraphStyle, Row, Shape, StyledEdge, StyledNode};

    fn edge(from: usize, to: usize) -> StyledEdge {
        StyledEdge {
            from,
            to,
            dashed: false,
            head_label: Vec::new(),
            tail_label: Vec::new(),
            label: Vec::new(),
            label_floats: false,
            look: None,
        }
    }

    fn graph(nodes: usize, edges: Vec<StyledEdge>) -> StyledGraph {
        let node = |n: usize| {
            StyledNode::new(
                format!("n{n}"),
                vec![Row::bold(format!("n{n}"))],
                Shape::Box,
                Fill::Solid("white".to_owned()),
                "black".to_owned(),
                "black".to_owned(),
            )
        };
        StyledGraph {
            name: "M".to_owned(),
            comment: String::new(),
            style: GraphStyle {
                rankdir: "BT",
                page: "white".to_owned(),
                font: "Helvetica".to_owned(),
                font_color: "black".to_owned(),
                edge_color: "black".to_owned(),
                edge_font_color: "black".to_owned(),
                edge_penwidth: 1.0,
            },
            header: Vec::new(),
            nodes: (0..nodes).map(node).collect(),
            edges,
            clusters: Vec::new(),
            sink: Vec::new(),
            legend: None,
        }
    }

    #[test]
    fn a_chain_has_no_virtual_nodes_and_a_skip_arrow_adds_its_span() {
        let chain = graph(4, vec![edge(0, 1), edge(1, 2), edge(2, 3)]);
        assert_eq!(layout_cost(&chain).virtual_nodes, 0);
        let skip = graph(4, vec![edge(0, 1), edge(1, 2), edge(2, 3), edge(0, 3)]);
        assert_eq!(
            layout_cost(&skip),
            LayoutCost {
                nodes: 4,
                virtual_nodes: 2
            }
        );
        assert_eq!(layout_cost(&skip).total(), 6);
    }

    #[test]
    fn a_ranked_label_doubles_spans_and_a_floating_one_does_not() {
        let mut labelled = edge(1, 2);
        labelled.label = vec![EdgeText {
            text: "x2".to_owned(),
            size: EdgeTextSize::Note,
        }];
        let ranked = graph(3, vec![edge(0, 1), labelled.clone()]);
        assert_eq!(layout_cost(&ranked).virtual_nodes, 2);
        labelled.label_floats = true;
        let floating = graph(3, vec![edge(0, 1), labelled]);
        assert_eq!(layout_cost(&floating).virtual_nodes, 0);
    }

    #[test]
    fn a_constant_sits_below_its_child_not_at_the_bottom() {
        // 0 -> 2 -> 3 -> 4, and a constant 1 read by 4: one rank below it, no virtual node.
        let constant = graph(5, vec![edge(0, 2), edge(2, 3), edge(3, 4), edge(1, 4)]);
        assert_eq!(layout_cost(&constant).virtual_nodes, 0);
    }

    #[test]
    fn a_back_edge_does_not_rank_but_is_routed() {
        // 0 -> 1 -> 2 and a loop 2 -> 0: ranks 0, 1, 2; the back edge spans two ranks.
        let looped = graph(3, vec![edge(0, 1), edge(1, 2), edge(2, 0)]);
        assert_eq!(layout_cost(&looped).virtual_nodes, 1);
    }
}
