//! dot's binding of `lib/common/ns.c` (network simplex, `rank`/`rank2`).
//!
//! The algorithm lives in [`crate::common::ns`], generic over
//! [`NsGraph`]; this module implements that trait over dot's fast graph
//! rooted at `GD_nlist(g)` (`ND_in`/`ND_out`, `ND_rank`, `ED_minlen`,
//! `ED_weight` and the tree scratch fields of `NodeInfo`/`EdgeInfo`).

use super::Dot;
use super::types::*;
use super::utils::atoi;
use crate::common::ns::{self, NsEdge, NsGraph, SEARCHSIZE};

/// `graph_t *g` as seen by `ns.c`: dot's arenas plus the graph being ranked.
struct DotNs<'x, 'a> {
    d: &'x mut Dot<'a>,
    g: G,
}

impl NsGraph for DotNs<'_, '_> {
    fn nlist(&self) -> Vec<usize> {
        let mut v = Vec::new();
        let mut n = self.d.graphs[self.g].nlist;
        while let Some(x) = n {
            v.push(x);
            n = self.d.nodes[x].next;
        }
        v
    }
    fn attr(&self, name: &str) -> Option<String> {
        self.d.agget(self.g, name).map(str::to_string)
    }
    fn is_normal(&self, n: usize) -> bool {
        self.d.nodes[n].node_type == NORMAL
    }
    fn dump_name(&self, n: usize) -> String {
        self.d.nodes[n].name.clone()
    }
    fn err_name(&self, n: usize) -> String {
        self.d.ns_err_name(n)
    }
    fn rank(&self, n: usize) -> i32 {
        self.d.nodes[n].rank
    }
    fn set_rank(&mut self, n: usize, r: i32) {
        self.d.nodes[n].rank = r;
    }
    fn set_mark(&mut self, n: usize, m: bool) {
        self.d.nodes[n].mark = m as usize;
    }
    fn priority(&self, n: usize) -> i32 {
        self.d.nodes[n].priority
    }
    fn set_priority(&mut self, n: usize, p: i32) {
        self.d.nodes[n].priority = p;
    }
    fn low(&self, n: usize) -> i32 {
        self.d.nodes[n].low
    }
    fn set_low(&mut self, n: usize, v: i32) {
        self.d.nodes[n].low = v;
    }
    fn lim(&self, n: usize) -> i32 {
        self.d.nodes[n].lim
    }
    fn set_lim(&mut self, n: usize, v: i32) {
        self.d.nodes[n].lim = v;
    }
    fn par(&self, n: usize) -> Option<usize> {
        self.d.nodes[n].par
    }
    fn set_par(&mut self, n: usize, e: Option<usize>) {
        self.d.nodes[n].par = e;
    }
    fn subtree(&self, n: usize) -> Option<usize> {
        self.d.nodes[n].subtree
    }
    fn set_subtree(&mut self, n: usize, s: Option<usize>) {
        self.d.nodes[n].subtree = s;
    }
    fn in_edges(&self, n: usize) -> &[usize] {
        &self.d.nodes[n].in_
    }
    fn out_edges(&self, n: usize) -> &[usize] {
        &self.d.nodes[n].out
    }
    fn tree_in(&self, n: usize) -> &[usize] {
        &self.d.nodes[n].tree_in
    }
    fn tree_out(&self, n: usize) -> &[usize] {
        &self.d.nodes[n].tree_out
    }
    fn tree_in_mut(&mut self, n: usize) -> &mut Vec<usize> {
        &mut self.d.nodes[n].tree_in
    }
    fn tree_out_mut(&mut self, n: usize) -> &mut Vec<usize> {
        &mut self.d.nodes[n].tree_out
    }
    fn tail(&self, e: usize) -> usize {
        self.d.edges[e].tail
    }
    fn head(&self, e: usize) -> usize {
        self.d.edges[e].head
    }
    fn minlen(&self, e: usize) -> i32 {
        self.d.edges[e].minlen
    }
    fn weight(&self, e: usize) -> i32 {
        self.d.edges[e].weight
    }
    fn cutvalue(&self, e: usize) -> i32 {
        self.d.edges[e].cutvalue
    }
    fn set_cutvalue(&mut self, e: usize, v: i32) {
        self.d.edges[e].cutvalue = v;
    }
    fn tree_index(&self, e: usize) -> i32 {
        self.d.edges[e].tree_index
    }
    fn set_tree_index(&mut self, e: usize, v: i32) {
        self.d.edges[e].tree_index = v;
    }
}

impl Dot<'_> {
    /// `agnameof(n)` in the simplex's error messages: anonymous and virtual nodes print as `%0`.
    fn ns_err_name(&self, n: N) -> String {
        if self.nodes[n].node_type == NORMAL {
            self.nodes[n].name.clone()
        } else {
            "%0".to_string()
        }
    }

    /// `rank2(g, balance, maxiter, search_size)`; a large run goes through a packed copy of
    /// the graph ([`Packed`], tl-draw's patch).
    pub fn rank2(
        &mut self,
        g: G,
        balance: i32,
        maxiter: i32,
        search_size: i32,
    ) -> Result<i32, String> {
        let nlist = DotNs { d: self, g }.nlist();
        if !packs(nlist.len(), self.nodes.len()) {
            return ns::rank2(&mut DotNs { d: self, g }, balance, maxiter, search_size);
        }
        let nodes = PackedNodes::take(self);
        let edges = packed_edges(self);
        let mut packed = Packed {
            d: self,
            g,
            nlist,
            nodes,
            edges,
        };
        let result = ns::rank2(&mut packed, balance, maxiter, search_size);
        let Packed { nodes, edges, .. } = packed;
        nodes.give_back(self);
        give_back_edges(self, edges);
        result
    }

    /// `rank(g, balance, maxiter)`
    pub fn ns_rank(&mut self, g: G, balance: i32, maxiter: i32) -> Result<i32, String> {
        let search_size = match self.agget(g, "searchsize") {
            Some(s) => atoi(s),
            None => SEARCHSIZE,
        };
        self.rank2(g, balance, maxiter, search_size)
    }
}

/// The fewest nodes a run is packed for: below, copying costs more than it saves.
const PACKED_FROM: usize = 64;

/// Whether a run over `ranked` of dot's `nodes` is packed: when it is large, and most of
/// the arenas (every node is copied, so a small component of a large graph is not).
fn packs(ranked: usize, nodes: usize) -> bool {
    #[cfg(test)]
    if tests::UNPACKED.get() {
        return false;
    }
    let packs = ranked >= PACKED_FROM && ranked * 4 >= nodes;
    #[cfg(test)]
    tests::PACKED_RUNS.set(tests::PACKED_RUNS.get() + usize::from(packs));
    packs
}

/// tl-draw's patch: dot's graph copied into dense arrays, a field at a time, for one
/// network simplex run. The indices are dot's, so the run reads and writes the same values
/// in the same order; only where they sit changes: the tree walks read a node's
/// `par`/`low`/`lim` and tree lists, which in dot's nodes lie 800 bytes apart, and a large
/// graph's run no longer fits the cache. The adjacency lists are moved, not copied, and
/// moved back with every field the run writes.
struct Packed<'x, 'a> {
    d: &'x Dot<'a>,
    g: G,
    nlist: Vec<usize>,
    nodes: PackedNodes,
    edges: Vec<NsEdge>,
}

/// Dot's node fields the run reads or writes, each in its own array.
#[derive(Default)]
struct PackedNodes {
    rank: Vec<i32>,
    priority: Vec<i32>,
    subtree: Vec<Option<usize>>,
    /// What the run set each node's mark to (dot's `mark` is wider than the run's flag,
    /// so only the marks the run wrote go back).
    mark: Vec<Option<bool>>,
    tree: Vec<TreePlace>,
    in_: Vec<Vec<usize>>,
    out: Vec<Vec<usize>>,
    tree_in: Vec<Vec<usize>>,
    tree_out: Vec<Vec<usize>>,
}

/// A node's place in the spanning tree, read together by every tree walk.
#[derive(Clone, Copy)]
struct TreePlace {
    par: Option<usize>,
    low: i32,
    lim: i32,
}

impl PackedNodes {
    /// Dot's nodes as the run reads them, their adjacency lists moved out.
    fn take(d: &mut Dot<'_>) -> Self {
        let mut packed = PackedNodes::default();
        for n in &mut d.nodes {
            packed.rank.push(n.rank);
            packed.priority.push(n.priority);
            packed.subtree.push(n.subtree);
            packed.mark.push(None);
            packed.tree.push(TreePlace {
                par: n.par,
                low: n.low,
                lim: n.lim,
            });
            packed.in_.push(std::mem::take(&mut n.in_));
            packed.out.push(std::mem::take(&mut n.out));
            packed.tree_in.push(std::mem::take(&mut n.tree_in));
            packed.tree_out.push(std::mem::take(&mut n.tree_out));
        }
        packed
    }

    /// Every field the run writes, and the adjacency lists, back into dot's nodes.
    fn give_back(self, d: &mut Dot<'_>) {
        let PackedNodes {
            rank,
            priority,
            subtree,
            mark,
            tree,
            in_,
            out,
            tree_in,
            tree_out,
        } = self;
        let lists = in_.into_iter().zip(out).zip(tree_in).zip(tree_out);
        for (i, (n, (((in_, out), tree_in), tree_out))) in d.nodes.iter_mut().zip(lists).enumerate()
        {
            n.rank = rank[i];
            n.priority = priority[i];
            n.subtree = subtree[i];
            n.par = tree[i].par;
            n.low = tree[i].low;
            n.lim = tree[i].lim;
            n.in_ = in_;
            n.out = out;
            n.tree_in = tree_in;
            n.tree_out = tree_out;
            if let Some(mark) = mark[i] {
                n.mark = mark as usize;
            }
        }
    }
}

/// Dot's edges as the run reads them.
fn packed_edges(d: &Dot<'_>) -> Vec<NsEdge> {
    d.edges
        .iter()
        .map(|e| NsEdge {
            tail: e.tail,
            head: e.head,
            minlen: e.minlen,
            weight: e.weight,
            cutvalue: e.cutvalue,
            tree_index: e.tree_index,
        })
        .collect()
}

/// The two edge fields the run writes, back into dot's edges.
fn give_back_edges(d: &mut Dot<'_>, edges: Vec<NsEdge>) {
    for (e, p) in d.edges.iter_mut().zip(edges) {
        e.cutvalue = p.cutvalue;
        e.tree_index = p.tree_index;
    }
}

impl NsGraph for Packed<'_, '_> {
    fn nlist(&self) -> Vec<usize> {
        self.nlist.clone()
    }
    fn attr(&self, name: &str) -> Option<String> {
        self.d.agget(self.g, name).map(str::to_string)
    }
    fn is_normal(&self, n: usize) -> bool {
        self.d.nodes[n].node_type == NORMAL
    }
    fn dump_name(&self, n: usize) -> String {
        self.d.nodes[n].name.clone()
    }
    fn err_name(&self, n: usize) -> String {
        self.d.ns_err_name(n)
    }
    fn rank(&self, n: usize) -> i32 {
        self.nodes.rank[n]
    }
    fn set_rank(&mut self, n: usize, r: i32) {
        self.nodes.rank[n] = r;
    }
    fn set_mark(&mut self, n: usize, m: bool) {
        self.nodes.mark[n] = Some(m);
    }
    fn priority(&self, n: usize) -> i32 {
        self.nodes.priority[n]
    }
    fn set_priority(&mut self, n: usize, p: i32) {
        self.nodes.priority[n] = p;
    }
    fn low(&self, n: usize) -> i32 {
        self.nodes.tree[n].low
    }
    fn set_low(&mut self, n: usize, v: i32) {
        self.nodes.tree[n].low = v;
    }
    fn lim(&self, n: usize) -> i32 {
        self.nodes.tree[n].lim
    }
    fn set_lim(&mut self, n: usize, v: i32) {
        self.nodes.tree[n].lim = v;
    }
    fn par(&self, n: usize) -> Option<usize> {
        self.nodes.tree[n].par
    }
    fn set_par(&mut self, n: usize, e: Option<usize>) {
        self.nodes.tree[n].par = e;
    }
    fn subtree(&self, n: usize) -> Option<usize> {
        self.nodes.subtree[n]
    }
    fn set_subtree(&mut self, n: usize, s: Option<usize>) {
        self.nodes.subtree[n] = s;
    }
    fn in_edges(&self, n: usize) -> &[usize] {
        &self.nodes.in_[n]
    }
    fn out_edges(&self, n: usize) -> &[usize] {
        &self.nodes.out[n]
    }
    fn tree_in(&self, n: usize) -> &[usize] {
        &self.nodes.tree_in[n]
    }
    fn tree_out(&self, n: usize) -> &[usize] {
        &self.nodes.tree_out[n]
    }
    fn tree_in_mut(&mut self, n: usize) -> &mut Vec<usize> {
        &mut self.nodes.tree_in[n]
    }
    fn tree_out_mut(&mut self, n: usize) -> &mut Vec<usize> {
        &mut self.nodes.tree_out[n]
    }
    fn tail(&self, e: usize) -> usize {
        self.edges[e].tail
    }
    fn head(&self, e: usize) -> usize {
        self.edges[e].head
    }
    fn minlen(&self, e: usize) -> i32 {
        self.edges[e].minlen
    }
    fn weight(&self, e: usize) -> i32 {
        self.edges[e].weight
    }
    fn cutvalue(&self, e: usize) -> i32 {
        self.edges[e].cutvalue
    }
    fn set_cutvalue(&mut self, e: usize, v: i32) {
        self.edges[e].cutvalue = v;
    }
    fn tree_index(&self, e: usize) -> i32 {
        self.edges[e].tree_index
    }
    fn set_tree_index(&mut self, e: usize, v: i32) {
        self.edges[e].tree_index = v;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::{LayoutEngine, layout_graph};
    use graphviz_pure_core::{AttrMap, Graph, GraphKind, NodeId, SubgraphData, SubgraphId};
    use std::cell::Cell;

    thread_local! {
        /// Lays out without packing, to compare.
        pub(super) static UNPACKED: Cell<bool> = const { Cell::new(false) };
        /// How many runs were packed.
        pub(super) static PACKED_RUNS: Cell<usize> = const { Cell::new(0) };
    }

    pub(crate) fn attrs(pairs: &[(&str, &str)]) -> AttrMap {
        AttrMap::from_plain(pairs.iter().map(|(k, v)| ((*k).into(), (*v).into())))
    }

    pub(crate) fn cluster(
        id: u32,
        name: &str,
        nodes: Vec<NodeId>,
        subgraphs: Vec<SubgraphId>,
    ) -> SubgraphData {
        SubgraphData {
            id: SubgraphId(id),
            name: name.into(),
            is_cluster: true,
            graph_attrs: attrs(&[("label", name)]),
            node_defaults: AttrMap::new(),
            edge_defaults: AttrMap::new(),
            nodes,
            edges: Vec::new(),
            subgraphs,
            bb: Default::default(),
            html_name: false,
            empty_name: false,
            layout: Default::default(),
        }
    }

    /// Twelve blocks of a residual network (each a frame in a frame) over 100 nodes: edges
    /// skipping ranks, labelled edges, an edge against the flow that does not constrain the
    /// ranks, a second component; ranked with `newrank` or not.
    pub(crate) fn residual_blocks(newrank: bool) -> Graph {
        let mut g = Graph::new("G", GraphKind::Directed, false);
        g.graph_attrs.insert("newrank".into(), newrank.to_string());
        let mut last = g.ensure_node("input");
        let mut subgraphs = Vec::new();
        for block in 0..12u32 {
            let ops: Vec<NodeId> = (0..8)
                .map(|i| g.ensure_node(&format!("b{block}_{i}")))
                .collect();
            g.add_edge(last, ops[0], AttrMap::new());
            for pair in ops.windows(2) {
                g.add_edge(pair[0], pair[1], AttrMap::new());
            }
            g.add_edge(last, ops[7], attrs(&[("label", "skip")]));
            g.add_edge(ops[2], ops[5], AttrMap::new());
            let inner = subgraphs.len() as u32 + 1;
            subgraphs.push(cluster(
                inner - 1,
                &format!("cluster_b{block}"),
                ops.clone(),
                vec![SubgraphId(inner)],
            ));
            subgraphs.push(cluster(
                inner,
                &format!("cluster_b{block}_mlp"),
                ops[3..6].to_vec(),
                Vec::new(),
            ));
            last = ops[7];
        }
        let [side, side_out, b0_6, b0_7] =
            ["side", "side_out", "b0_6", "b0_7"].map(|n| g.ensure_node(n));
        g.add_edge(side, side_out, AttrMap::new());
        g.add_edge(b0_7, b0_6, attrs(&[("constraint", "false")]));
        g.subgraphs = subgraphs;
        g
    }

    /// A packed run reads and writes what dot's own does: the same drawing, to the bit.
    #[test]
    fn packed_network_simplex_lays_out_as_unpacked() {
        for newrank in [false, true] {
            let mut packed = residual_blocks(newrank);
            PACKED_RUNS.set(0);
            layout_graph(&mut packed, LayoutEngine::Dot).unwrap();
            assert!(
                PACKED_RUNS.get() > 0,
                "newrank={newrank}: no run was packed"
            );
            assert!(
                packed
                    .subgraphs
                    .iter()
                    .all(|frame| frame.bb.ur.y > frame.bb.ll.y)
            );
            UNPACKED.set(true);
            let mut unpacked = residual_blocks(newrank);
            let laid_out = layout_graph(&mut unpacked, LayoutEngine::Dot);
            UNPACKED.set(false);
            laid_out.unwrap();
            // Each layout takes the next number, for the pictures it reads.
            unpacked.layout.usershapes.layout_id = packed.layout.usershapes.layout_id;
            assert!(packed == unpacked, "newrank={newrank}: the drawings differ");
        }
    }
}
