//! Rolled drawings (`rolled=True`): one node per layer instead of one per pass, with the
//! pass facts the labels need (drawing-spec 4.2): which passes of a layer feed which passes
//! of another, and the independent call groups of a layer's module.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use tl_trace_model::Trace;

use crate::{
    assign_clusters, hidden_ops, merge_edges, BufferVisibility, Edge, Node, NodeKind, TraceIndex,
    VisibleGraph,
};

/// Pass facts of a rolled arrow between two layers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassLabels {
    /// Passes of the source layer that feed the destination; `None` when every pass does.
    pub out: Option<Vec<u32>>,
    /// Passes of the destination layer that read the source; `None` when every pass does.
    pub into: Option<Vec<u32>>,
    /// The arrow goes back to a layer that first ran earlier (a recurrence).
    pub back_edge: bool,
}

/// The rolled graph: layers as nodes (their passes in `NodeKind::Layer`), modules deeper than
/// `depth` as one box per address (all calls together), clusters per module address
/// (represented by its first call), and per edge its pass labels.
pub fn rolled_graph(
    trace: &Trace,
    buffers: BufferVisibility,
    depth: u32,
) -> (VisibleGraph, Vec<PassLabels>) {
    let index = TraceIndex::new(trace);
    let hidden = hidden_ops(&index, buffers);

    // Layers, or the box of the module that holds them, in order of their first op.
    let box_of = |i: usize| {
        let folding = crate::folding_stack(&trace.ops[i]).len();
        let depth = depth as usize;
        (depth > 0 && folding >= depth).then(|| {
            trace.module_calls[index.stack(i)[depth - 1]]
                .address
                .as_str()
        })
    };
    let mut layers: IndexMap<(bool, &str), Vec<usize>> = IndexMap::new();
    for (i, op) in trace.ops.iter().enumerate() {
        match box_of(i) {
            Some(address) => layers.entry((true, address)).or_default().push(i),
            None if !hidden[i] => layers
                .entry((false, op.layer_label.as_str()))
                .or_default()
                .push(i),
            None => {}
        }
    }
    let mut node_of_op = vec![None; trace.ops.len()];
    let mut nodes = Vec::new();
    let mut chains: Vec<Vec<usize>> = Vec::new();
    let mut first_call_of: HashMap<&str, usize> = HashMap::new();
    for (i, call) in trace.module_calls.iter().enumerate() {
        first_call_of.entry(call.address.as_str()).or_insert(i);
    }
    for (&(boxed, name), passes) in &layers {
        for &op in passes {
            node_of_op[op] = Some(nodes.len());
        }
        // Clusters per module address, represented by the address's first call; a box sits
        // in the clusters of the modules around it.
        let addresses = index
            .stack(passes[0])
            .iter()
            .map(|&call| trace.module_calls[call].address.as_str());
        let enclosing: Vec<&str> = if boxed {
            addresses.take_while(|address| *address != name).collect()
        } else {
            addresses.collect()
        };
        chains.push(
            enclosing
                .iter()
                .map(|address| first_call_of[address])
                .collect(),
        );
        let kind = if boxed {
            NodeKind::ModuleBox(crate::ModuleBox {
                address: name.to_owned(),
                call: None,
                ops: passes.clone(),
                surfaced: Vec::new(),
                fold_members: None,
            })
        } else {
            NodeKind::Layer(passes.clone())
        };
        nodes.push(Node {
            kind,
            cluster: None,
        });
    }
    // Ops of a boxed module drawn beside its box.
    let boxes: HashMap<String, usize> = nodes
        .iter()
        .enumerate()
        .filter_map(|(position, node)| match &node.kind {
            NodeKind::ModuleBox(b) => Some((b.address.clone(), position)),
            _ => None,
        })
        .collect();
    for (i, node) in node_of_op.iter().enumerate() {
        let drawn_alone = node.is_some_and(|node| matches!(nodes[node].kind, NodeKind::Layer(_)));
        if drawn_alone {
            for address in index.tree.path(i) {
                if let Some(&position) = boxes.get(*address) {
                    if let NodeKind::ModuleBox(b) = &mut nodes[position].kind {
                        b.surfaced.push(i);
                    }
                }
            }
        }
    }

    let clusters = assign_clusters(&mut nodes, &chains, trace.module_calls.len());
    // Every dataflow pair between two layers, so the pass labels can be read off them.
    let mut edges = merge_edges(&index, &node_of_op, true);
    // A layer may feed its own next pass; what runs inside a box stays inside it.
    edges
        .retain(|edge| edge.from != edge.to || matches!(nodes[edge.from].kind, NodeKind::Layer(_)));
    let layer_passes: Vec<u32> = nodes
        .iter()
        .map(|node| match &node.kind {
            NodeKind::Layer(passes) => passes.len() as u32,
            // A box stands for every call of its module.
            _ => 0,
        })
        .collect();
    let mut labels = Vec::new();
    let edges: Vec<Edge> = edges
        .into_iter()
        .map(|Edge { from, to, pairs }| {
            let pass = |i: usize| trace.ops[i].pass_index;
            let mut out: Vec<u32> = pairs.iter().map(|&(p, _)| pass(p)).collect();
            let mut into: Vec<u32> = pairs.iter().map(|&(_, c)| pass(c)).collect();
            out.sort_unstable();
            out.dedup();
            into.sort_unstable();
            into.dedup();
            // A side every pass used needs no label (the guide).
            let partial =
                |list: Vec<u32>, all: u32| (all > 1 && list.len() as u32 != all).then_some(list);
            // Where a node first ran (inputs and outputs have no step number).
            let first_ran = |node: usize| nodes[node].kind.ops()[0];
            labels.push(PassLabels {
                out: partial(out, layer_passes[from]),
                into: partial(into, layer_passes[to]),
                back_edge: from == to || first_ran(to) < first_ran(from),
            });
            Edge { from, to, pairs }
        })
        .collect();
    (
        VisibleGraph {
            nodes,
            edges,
            clusters,
            hidden,
            node_of_op,
        },
        labels,
    )
}

/// The independent call groups of a layer whose passes share exactly one module address:
/// passes that reach one another through the dataflow (stopping at the next pass of the
/// same layer) form one group. Returns the groups as call indices of that module, or `None`
/// when there is a single group.
pub fn call_groups(trace: &Trace, passes: &[usize]) -> Option<Vec<Vec<u32>>> {
    if passes.len() < 2 {
        return None;
    }
    let address_of = |label: &str| {
        label
            .rsplit_once(':')
            .map_or(label.to_owned(), |(a, _)| a.to_owned())
    };
    let common: Vec<String> = {
        let sets: Vec<HashSet<String>> = passes
            .iter()
            .map(|&p| trace.ops[p].modules.iter().map(|m| address_of(m)).collect())
            .collect();
        let mut common: Vec<String> = sets[0]
            .iter()
            .filter(|a| sets.iter().all(|s| s.contains(*a)))
            .cloned()
            .collect();
        common.sort();
        common
    };
    let [module] = common.as_slice() else {
        return None;
    };
    let call_of = |p: usize| {
        trace.ops[p]
            .modules
            .iter()
            .find(|m| address_of(m) == *module)
            .and_then(|m| m.rsplit_once(':'))
            .and_then(|(_, index)| index.parse::<u32>().ok())
    };
    let index = TraceIndex::new(trace);
    let layer = &trace.ops[passes[0]].layer_label;
    // Union-find over passes: pass i reaches pass j along the forward dataflow.
    let mut group: Vec<usize> = (0..passes.len()).collect();
    fn root(group: &mut [usize], mut i: usize) -> usize {
        while group[i] != i {
            group[i] = group[group[i]];
            i = group[i];
        }
        i
    }
    for (i, &start) in passes.iter().enumerate() {
        let mut stack = vec![start];
        let mut seen = HashSet::new();
        while let Some(op) = stack.pop() {
            for &child in index.children(op) {
                if !seen.insert(child) {
                    continue;
                }
                if &trace.ops[child].layer_label == layer {
                    let j = passes
                        .iter()
                        .position(|&p| p == child)
                        .expect("passes of the layer");
                    let (a, b) = (root(&mut group, i), root(&mut group, j));
                    group[a] = b;
                } else {
                    stack.push(child);
                }
            }
        }
    }
    let mut groups: IndexMap<usize, Vec<u32>> = IndexMap::new();
    for (i, &pass) in passes.iter().enumerate() {
        let r = root(&mut group, i);
        groups.entry(r).or_default().extend(call_of(pass));
    }
    (groups.len() > 1).then(|| groups.into_values().collect())
}
