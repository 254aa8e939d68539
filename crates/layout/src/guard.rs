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

mod seconds;
pub use seconds::{
    expected_seconds, layout_seconds, HUB_WORK_PER_SECOND, LAYERED_SECONDS_PER_ITEM,
};

/// The default ceiling on [`LayoutCost::total`]: about 10 s of embedded layout on the
/// machines the project is measured on (docs/performance.md).
pub const DEFAULT_MAX_LAYOUT_COST: usize = 200_000;

/// The default ceiling on drawn nodes before layout. The layered engine is linear in the
/// drawing: 100,000 nodes are about 10 s here (docs/performance.md).
pub const DEFAULT_MAX_NODES: usize = 100_000;

/// The ceiling on drawn nodes for Graphviz's `dot` algorithm (graphviz-pure or the system's
/// `dot`) when it is asked for by name: its time grows faster than the node count (GPT-2 at
/// 48 layers, 2,271 nodes: 0.46 s; at 96 layers, 4,527 nodes: 2.5 s; 10,000 nodes: over
/// 100 s), so 5,000 nodes is about 3-5 s (docs/performance.md).
pub const DOT_MAX_NODES: usize = 5000;

/// The work the layered layout's x placement (its network simplex) may do on a drawing the
/// guard lets through, in iterations times the points placed ([`LayoutCost::total`], what
/// one iteration's tree update walks). Measured here at about 2.5 ns a unit, so about 10 s:
/// a synthetic transformer of 1,800 operations (1,785 nodes, 101,685 points) ran over
/// 9 minutes in this phase unbounded, and 8 s with the bound (docs/performance.md).
pub const POSITION_BUDGET: f64 = 4.0e9;

/// Bounds below this many iterations per drawn node are not written: drawings that small
/// converge far sooner (GPT-2 small would be allowed 6,400), and their DOT stays as it was.
const UNBOUNDED_POSITION: f64 = 1000.0;

/// Graphviz's `nslimit` for `cost` (iterations of the x placement, per drawn node) that
/// keeps that phase within [`POSITION_BUDGET`], or `None` when the drawing is too small to
/// need one. Real models converge within it (the 32-layer Llama, allowed 12 per node,
/// draws the same picture as without it); a shape that does not is placed in bounded time,
/// less evenly. `force` lifts it with the other limits.
pub fn position_limit(cost: LayoutCost) -> Option<u32> {
    let work = cost.nodes.max(1) as f64 * cost.total().max(1) as f64;
    let per_node = POSITION_BUDGET / work;
    (per_node < UNBOUNDED_POSITION).then(|| per_node.floor().max(1.0) as u32)
}

/// The default ceiling on [`LayoutCost::hub_load`]. Measured on a synthetic transformer
/// whose mask is read by every block (docs/performance.md): at full detail, 1,200
/// operations (hub load 3.4 million) 2.6 s, 1,500 (6.3 million) 6 s, 1,800 (10.8 million)
/// over 9 minutes; at `--depth 2`, where ranked `x2` labels split every rank, 1,200 (1.6
/// million) 1.0 s, 1,800 (5.5 million) 8-12 s, 2,400 (13 million) 62 s, 6,000 (210
/// million) over 5 minutes. The real models measured stay under 0.2 million (DenseNet-121's
/// concatenations; the 32-layer Llama 0.01 million).
pub const DEFAULT_MAX_HUB_LOAD: usize = 8_000_000;

/// How much more a bundle of long arrows into one node costs than one out of one node, at
/// the same arrows and ranks: a chain of operations each also read by one final `stack`
/// lays out in 1.1 s at 100 operations (a load of 0.5 million before weighting), 15 s at 150
/// (1.7 million), over 2 minutes at 200 (4 million); a mask read by every block of a
/// synthetic transformer takes 6 s at 6.3 million (docs/performance.md).
const CONVERGING_HUB_WEIGHT: usize = 8;

/// Above this many drawn nodes, `layout_engine="auto"` uses the layered engine
/// (docs/performance.md, "The switch point").
pub const SWITCH_NODES: usize = 1_500;

/// Above this many points (drawn and virtual, [`LayoutCost::total`]), `layout_engine="auto"`
/// uses the layered engine (docs/performance.md, "The switch point").
pub const SWITCH_COST: usize = 20_000;

/// Past this many expected seconds of graphviz-pure's layout ([`expected_seconds`]),
/// `layout_engine="auto"` uses the layered engine: small drawings dense with arrows (a
/// DenseNet block opened into its 24 layers: 45 nodes, 347 arrows, 2.4 s) are where `dot`
/// is slowest for its size, and where its drawing tangles (docs/performance.md, "The switch
/// point").
pub const SWITCH_SECONDS: f64 = 1.0;

/// Whether `layout_engine="auto"` lays out a drawing of estimated `cost` with the layered
/// engine rather than graphviz-pure: past the sizes or the hub load (times nodes) at which
/// graphviz-pure's `dot` is expected to take about a second, or past the hub load at which
/// it takes minutes (the guard's hub limit).
pub fn prefers_layered(cost: LayoutCost) -> bool {
    cost.nodes > SWITCH_NODES
        || cost.total() > SWITCH_COST
        || cost.hub_load > DEFAULT_MAX_HUB_LOAD
        || expected_seconds(cost, crate::LayoutEngine::Embedded) > SWITCH_SECONDS
}

/// What a layered layout of one drawing will cost, estimated before layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutCost {
    /// Drawn nodes.
    pub nodes: usize,
    /// Drawn arrows.
    pub edges: usize,
    /// Virtual nodes: for every arrow, the ranks it passes through between its ends.
    pub virtual_nodes: usize,
    /// The heaviest hub: over the nodes with arrows crossing at least two ranks, the most
    /// such arrows out of one node, or into one (weighted by `CONVERGING_HUB_WEIGHT`),
    /// times the ranks they cross in all; when ranked arrow labels split every rank, those
    /// ranks are doubled and the load counted four times (measured: such a drawing is about
    /// four times slower at the same load). One node read by hundreds of others far apart
    /// (a mask every block reads) makes a bundle of parallel long arrows that the layout's
    /// x placement and arrow routing take minutes over, at a point count the total allows
    /// (see [`DEFAULT_MAX_HUB_LOAD`]).
    pub hub_load: usize,
    /// The node that hub is, and its arrows crossing at least two ranks, when there is one.
    pub hub: Option<(usize, usize)>,
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

    /// Refuses, for an `engine` running Graphviz's `dot` algorithm, a drawing of more than
    /// [`DOT_MAX_NODES`] (or `max_nodes`, if lower) nodes, or whose estimated cost is over
    /// [`Limits::max_layout_cost`], or whose hub load is over [`DEFAULT_MAX_HUB_LOAD`]
    /// scaled as that limit is from its default (`--max-layout-cost` moves both); `name`
    /// names a node of the drawing for the message. The layered engine is linear in the
    /// drawing: only the node limit holds for it.
    pub fn check_cost(
        &self,
        engine: crate::LayoutEngine,
        cost: LayoutCost,
        name: impl Fn(usize) -> String,
    ) -> Result<(), LayoutError> {
        if self.force || engine == crate::LayoutEngine::Layered {
            return Ok(());
        }
        let limit = DOT_MAX_NODES.min(self.max_nodes);
        if cost.nodes > limit {
            return Err(LayoutError::TooLargeForDot {
                engine: if engine == crate::LayoutEngine::SystemDot {
                    "system dot"
                } else {
                    "embedded (graphviz-pure)"
                },
                nodes: cost.nodes,
                limit,
            });
        }
        if cost.total() > self.max_layout_cost {
            return Err(LayoutError::TooCostly {
                nodes: cost.nodes,
                virtual_nodes: cost.virtual_nodes,
                limit: self.max_layout_cost,
            });
        }
        let hub_limit = (DEFAULT_MAX_HUB_LOAD as f64 * self.max_layout_cost as f64
            / DEFAULT_MAX_LAYOUT_COST as f64) as usize;
        if let (Some((hub, arrows)), true) = (cost.hub, cost.hub_load > hub_limit) {
            return Err(LayoutError::HubTooHeavy {
                hub: name(hub),
                arrows,
                load: cost.hub_load,
                limit: hub_limit,
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
    let span = |edge: &tl_style::StyledEdge| rank[edge.from].abs_diff(rank[edge.to]).max(1) * scale;
    let virtual_nodes = graph
        .edges
        .iter()
        .map(|edge| span(edge).saturating_sub(1))
        .fold(0usize, usize::saturating_add);
    // Per node: long arrows in and out, and the ranks they cross. Both make a bundle: a
    // mask read by every block, or every layer's output collected by one stack.
    let mut long_out = vec![(0usize, 0usize); graph.nodes.len()];
    let mut long_in = vec![(0usize, 0usize); graph.nodes.len()];
    for edge in &graph.edges {
        let crossed = span(edge);
        if crossed > 2 {
            for (arrows, ranks) in [&mut long_out[edge.from], &mut long_in[edge.to]] {
                *arrows += 1;
                *ranks = ranks.saturating_add(crossed);
            }
        }
    }
    let (hub, hub_load) = long_out
        .iter()
        .map(|&(arrows, ranks)| (arrows, ranks, 1))
        .chain(
            long_in
                .iter()
                .map(|&(arrows, ranks)| (arrows, ranks, CONVERGING_HUB_WEIGHT)),
        )
        .enumerate()
        .map(|(at, (arrows, ranks, weight))| {
            let load = arrows
                .saturating_mul(ranks)
                .saturating_mul(scale * scale * weight);
            ((at % graph.nodes.len(), arrows), load)
        })
        .filter(|&(_, load)| load > 0)
        .max_by_key(|&(_, load)| load)
        .map_or((None, 0), |(hub, load)| (Some(hub), load));
    LayoutCost {
        nodes: graph.nodes.len(),
        edges: graph.edges.len(),
        virtual_nodes,
        hub_load,
        hub,
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
    use crate::LayoutEngine;
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
                edges: 4,
                virtual_nodes: 2,
                // The arrow into 3 crosses three ranks: a converging load of 3 x 8.
                hub_load: 24,
                hub: Some((3, 1)),
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

    /// A mask read by `blocks` blocks, each a chain of `depth` ops: the mask sits below the
    /// first block, and its arrow to block `b` crosses `b * depth` ranks.
    fn masked_blocks(blocks: usize, depth: usize) -> StyledGraph {
        let mut edges = Vec::new();
        let mask = 0;
        for b in 0..blocks {
            let first = 1 + b * depth;
            if b > 0 {
                edges.push(edge(first - 1, first));
            }
            for op in first..first + depth - 1 {
                edges.push(edge(op, op + 1));
            }
            edges.push(edge(mask, first + depth - 1));
        }
        graph(1 + blocks * depth, edges)
    }

    fn limits() -> Limits {
        Limits {
            max_nodes: DEFAULT_MAX_NODES,
            max_layout_cost: DEFAULT_MAX_LAYOUT_COST,
            force: false,
        }
    }

    #[test]
    fn a_hub_read_far_apart_is_refused_naming_it_and_force_or_a_higher_limit_lets_it_through() {
        // 250 blocks of 2 ops: 63,000 points, well under the point limit, but the mask's
        // long arrows cross 62,000 ranks in all: a load of 15 million.
        let graph = masked_blocks(250, 2);
        let cost = layout_cost(&graph);
        assert!(cost.total() < DEFAULT_MAX_LAYOUT_COST / 3, "{cost:?}");
        let (hub, arrows) = cost.hub.unwrap();
        assert_eq!((hub, arrows), (0, 249), "{cost:?}");
        let error = limits()
            .check_cost(LayoutEngine::Embedded, cost, |node| format!("`n{node}`"))
            .unwrap_err();
        assert_eq!(error.code(), "layout_too_large");
        let message = error.to_string();
        assert!(
            message.contains("`n0` has 249 arrows to nodes far apart"),
            "{message}"
        );
        assert!(message.contains("--force"), "{message}");
        assert!(message.contains("--layout-engine layered"), "{message}");
        // The layered engine takes it, and `auto` picks the layered engine for it.
        assert!(limits()
            .check_cost(LayoutEngine::Layered, cost, |_| String::new())
            .is_ok());
        assert_eq!(LayoutEngine::Auto.resolve(cost), LayoutEngine::Layered);
        // A quarter of the blocks is well within the limit.
        assert!(limits()
            .check_cost(
                LayoutEngine::Embedded,
                layout_cost(&masked_blocks(60, 2)),
                |_| String::new()
            )
            .is_ok());
        let forced = Limits {
            force: true,
            ..limits()
        };
        assert!(forced
            .check_cost(LayoutEngine::Embedded, cost, |_| String::new())
            .is_ok());
        let raised = Limits {
            max_layout_cost: DEFAULT_MAX_LAYOUT_COST * 100,
            ..limits()
        };
        assert!(raised
            .check_cost(LayoutEngine::Embedded, cost, |_| String::new())
            .is_ok());
    }

    #[test]
    fn long_arrows_each_between_their_own_two_nodes_are_no_hub() {
        // A chain of 700 ops in which op n also feeds op n + 300: 300 long arrows (90,000
        // points), no two sharing an end, as the cache outputs of a decoder.
        let mut edges: Vec<StyledEdge> = (0..699).map(|n| edge(n, n + 1)).collect();
        edges.extend((0..300).map(|n| edge(n, n + 300)));
        let cost = layout_cost(&graph(700, edges));
        assert!(cost.hub_load <= 300 * CONVERGING_HUB_WEIGHT, "{cost:?}");
        assert!(limits()
            .check_cost(LayoutEngine::Embedded, cost, |_| String::new())
            .is_ok());
        let chain: Vec<StyledEdge> = (0..1999).map(|n| edge(n, n + 1)).collect();
        let cost = layout_cost(&graph(2000, chain));
        assert_eq!((cost.hub_load, cost.hub), (0, None));
    }

    #[test]
    fn auto_keeps_graphviz_for_small_drawings_and_dot_by_name_stops_at_its_node_limit() {
        let chain = |nodes: usize| {
            let edges = (0..nodes - 1).map(|n| edge(n, n + 1)).collect();
            layout_cost(&graph(nodes, edges))
        };
        assert_eq!(
            LayoutEngine::Auto.resolve(chain(600)),
            LayoutEngine::Embedded
        );
        assert_eq!(
            LayoutEngine::Auto.resolve(chain(SWITCH_NODES + 1)),
            LayoutEngine::Layered
        );
        assert_eq!(
            LayoutEngine::Embedded.resolve(chain(SWITCH_NODES + 1)),
            LayoutEngine::Embedded
        );
        let large = chain(DOT_MAX_NODES + 1);
        let error = limits()
            .check_cost(LayoutEngine::Embedded, large, |_| String::new())
            .unwrap_err();
        assert_eq!(error.code(), "layout_too_large");
        assert!(
            error.to_string().contains("--layout-engine layered"),
            "{error}"
        );
        assert!(limits()
            .check_cost(LayoutEngine::Layered, large, |_| String::new())
            .is_ok());
        assert!(limits().check_nodes(DEFAULT_MAX_NODES).is_ok());
        assert!(limits().check_nodes(DEFAULT_MAX_NODES + 1).is_err());
    }

    #[test]
    fn ranked_labels_count_a_hub_four_times_over_its_doubled_spans() {
        let plain = layout_cost(&masked_blocks(10, 5));
        let mut labelled = masked_blocks(10, 5);
        labelled.edges[0].label = vec![EdgeText {
            text: "x2".to_owned(),
            size: EdgeTextSize::Note,
        }];
        assert_eq!(layout_cost(&labelled).hub_load, plain.hub_load * 8);
    }

    #[test]
    fn auto_switches_on_expected_seconds_for_small_drawings_dense_with_arrows() {
        let cost = |nodes, edges, virtual_nodes, hub_load| LayoutCost {
            nodes,
            edges,
            virtual_nodes,
            hub_load,
            hub: None,
        };
        // A DenseNet-121 block opened into its 24 layers (measured 2.4 s with graphviz-pure).
        let dense_block = cost(45, 347, 5553, 497_664);
        assert!(expected_seconds(dense_block, crate::LayoutEngine::Embedded) > SWITCH_SECONDS);
        assert!(prefers_layered(dense_block));
        // GPT-2 small's first collapse stop, its 24 key/value outputs one node that every
        // block feeds (5.6 s with graphviz-pure), goes to the layered engine; a drawing of its
        // size without that bundle, or GPT-2-48's 69-node stop with it (0.2 s), does not.
        let gpt2_stop = cost(512, 599, 9921, 5_683_776);
        assert!(prefers_layered(gpt2_stop));
        assert!(!prefers_layered(cost(512, 599, 9921, 0)));
        assert!(!prefers_layered(cost(69, 117, 3000, 3_591_552)));
        // The layered engine's estimate is linear in nodes and arrows.
        let seconds = expected_seconds(dense_block, crate::LayoutEngine::Layered);
        assert!((seconds - 392.0 * LAYERED_SECONDS_PER_ITEM).abs() < 1e-12);
    }

    #[test]
    fn the_position_limit_keeps_the_budget_and_leaves_small_drawings_alone() {
        let cost = |nodes, virtual_nodes| LayoutCost {
            nodes,
            edges: nodes,
            virtual_nodes,
            hub_load: 0,
            hub: None,
        };
        // GPT-2 small: 579 nodes, 1,073 points: no limit written.
        assert_eq!(position_limit(cost(579, 494)), None);
        // The 32-layer Llama: 12 iterations per node, which it converges within.
        assert_eq!(position_limit(cost(1980, 157_801)), Some(12));
        // Never below one iteration per node.
        assert_eq!(position_limit(cost(100_000, 10_000_000)), Some(1));
        let limited = cost(1785, 99_900);
        let per_node = position_limit(limited).unwrap() as f64;
        assert!(per_node * 1785.0 * limited.total() as f64 <= POSITION_BUDGET);
    }
}
