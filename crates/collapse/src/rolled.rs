//! Rolled drawings (`rolled=True`): one node per layer instead of one per pass, with the
//! pass facts the labels need (the guide's "Loops: unrolled and rolled"): which passes of a layer feed which passes
//! of another, and the independent call groups of a layer's module.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use tl_trace_model::Trace;

use crate::{
    assign_clusters, hidden_ops, merge_edges, Edge, Node, NodeKind, StubSide, TraceIndex,
    VisibilityError, VisibilityOptions, VisibleGraph,
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

/// What a rolled node stands for, before it is built.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum RolledKey<'t> {
    /// A layer: all passes of one op layer.
    Layer(&'t str),
    /// A module box: every call of the module at this address.
    Box(&'t str),
    /// A capsule over a run of sibling modules, by index into the plan's capsules.
    Capsule(usize),
    /// A repeat fold's representative box and its ellipsis, by fold index.
    FoldRepresentative(usize),
    FoldEllipsis(usize),
    /// A capsule over operations, by index into the plan's op capsules.
    OpCapsule(usize),
    /// Outside a focused module: all passes of one layer on one side.
    Stub(&'t str, StubSide),
    /// What a loop's later steps run that no node of its first step draws (an `LSTMCell`
    /// loop's per-step input slices, each a layer of its own), by index into the loops.
    LoopRest(usize),
}

/// The rolled graph: layers as nodes (their passes in `NodeKind::Layer`), folded as
/// `options` say (modules deeper than `depth`, or the plan's boxes, capsules and folds, as
/// one node per address covering all calls), optionally inside one focused module with
/// one stub per outside layer; clusters per module address (represented by its first
/// call), and per edge its pass labels.
pub fn rolled_graph(
    trace: &Trace,
    options: &VisibilityOptions,
) -> Result<(VisibleGraph, Vec<PassLabels>), VisibilityError> {
    rolled_graph_with(&TraceIndex::validate(trace)?, options)
}

/// [`rolled_graph`] over an existing index (shared with the planner).
pub fn rolled_graph_with(
    index: &TraceIndex<'_>,
    options: &VisibilityOptions,
) -> Result<(VisibleGraph, Vec<PassLabels>), VisibilityError> {
    let trace = index.trace;
    let hidden = hidden_ops(index, options.buffers);
    let planned = crate::index_plan(options.plan.as_ref(), &index.tree);
    let loops = crate::planned_loops(index, &hidden, options.plan.as_ref(), &planned);
    let groups = rolled_groups(index, options, &hidden, &planned, &loops)?;
    let first_call_of: HashMap<&str, usize> = first_calls(trace);
    let (mut nodes, mut chains, node_of_op) = rolled_nodes(
        index,
        options.plan.as_ref(),
        &loops,
        &groups,
        &first_call_of,
    );
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
    // As unrolled: no frame of the boxed module around its box and the layers surfaced
    // beside it (it would repeat the box's title).
    for node in &nodes {
        let NodeKind::ModuleBox(b) = &node.kind else {
            continue;
        };
        let Some(&call) = first_call_of.get(b.address.as_str()) else {
            continue;
        };
        for &op in &b.surfaced {
            if let Some(layer) = node_of_op[op] {
                if let Some(at) = chains[layer].iter().position(|&c| c == call) {
                    chains[layer].truncate(at);
                }
            }
        }
    }

    let clusters = assign_clusters(&mut nodes, &chains, trace.module_calls.len());
    let (edges, labels) = pass_labelled_edges(index, &nodes, &node_of_op);
    Ok((
        VisibleGraph {
            nodes,
            edges,
            clusters,
            hidden,
            node_of_op,
        },
        labels,
    ))
}

/// The ops each rolled node draws, by what it stands for (in op order): a layer, a box, a
/// capsule, a fold, a stub; hidden ops and ops outside a focus are in none.
fn rolled_groups<'a>(
    index: &'a TraceIndex<'_>,
    options: &VisibilityOptions,
    hidden: &[bool],
    planned: &[Option<crate::Planned>],
    loops: &[crate::loops::CallLoop],
) -> Result<IndexMap<RolledKey<'a>, Vec<usize>>, VisibilityError> {
    let trace = index.trace;
    let inside = match &options.focus {
        Some(address) => Some(crate::focus_members(trace, &index.tree, address)?),
        None => None,
    };
    let op_capsule_of: HashMap<&str, usize> = options
        .plan
        .iter()
        .flat_map(|plan| plan.op_capsules.iter().enumerate())
        // A capsule of passes would hide the loop a rolled drawing exists to show: one over
        // operations that ran several times is left out, and its layers are drawn rolled.
        .filter(|(_, labels)| {
            labels.iter().all(|label| {
                index
                    .op(label)
                    .is_some_and(|op| trace.ops[op].num_passes <= 1)
            })
        })
        .flat_map(|(k, labels)| labels.iter().map(move |label| (label.as_str(), k)))
        .collect();
    let stub_side = |i: usize| {
        let inside = inside.as_ref()?;
        if inside[i] {
            return None;
        }
        let touches = |neighbours: &[usize]| neighbours.iter().any(|&n| inside[n]);
        if touches(index.children(i)) {
            Some(StubSide::Input)
        } else if touches(index.parents(i)) {
            Some(StubSide::Output)
        } else {
            None
        }
    };
    let key_of = |i: usize| -> Option<RolledKey<'_>> {
        let op = &trace.ops[i];
        if hidden[i] {
            return None;
        }
        if inside.is_some() {
            if let Some(side) = stub_side(i) {
                return Some(RolledKey::Stub(op.layer_label.as_str(), side));
            }
            if !inside.as_ref().is_some_and(|inside| inside[i]) {
                return None;
            }
        }
        if options.plan.is_some() {
            if let Some(&k) = op_capsule_of.get(op.label.as_str()) {
                return Some(RolledKey::OpCapsule(k));
            }
            let path = index.tree.path_ids(i);
            for &id in path {
                match planned[id as usize] {
                    Some(crate::Planned::Capsule(k)) => return Some(RolledKey::Capsule(k)),
                    Some(crate::Planned::Fold(k, true)) => {
                        return Some(RolledKey::FoldRepresentative(k))
                    }
                    Some(crate::Planned::Fold(k, false)) => {
                        return Some(RolledKey::FoldEllipsis(k))
                    }
                    _ => {}
                }
            }
            // A box leaves some of a module's own ops beside it (`crate::surfaces`).
            let trimmed = crate::boxable_path(index, i);
            if let Some(boxed) = trimmed
                .iter()
                .position(|&id| matches!(planned[id as usize], Some(crate::Planned::Box)))
            {
                return Some(RolledKey::Box(index.tree.path(i)[boxed]));
            }
        } else {
            let folding = crate::boxable_stack(index, i).len();
            let depth = options.depth as usize;
            if depth > 0 && folding >= depth {
                let address = trace.module_calls[index.stack(i)[depth - 1]]
                    .address
                    .as_str();
                return Some(RolledKey::Box(address));
            }
        }
        Some(RolledKey::Layer(op.layer_label.as_str()))
    };
    // Per loop, the nodes its first step draws; per op, the loop whose later steps hold it.
    let first_keys: Vec<HashSet<RolledKey<'_>>> = loops
        .iter()
        .map(|call_loop| call_loop.first.clone().filter_map(key_of).collect())
        .collect();
    let mut loop_of_op = vec![None; trace.ops.len()];
    for (k, call_loop) in loops.iter().enumerate() {
        for i in call_loop.later.clone() {
            loop_of_op[i] = Some(k);
        }
    }
    let mut groups: IndexMap<RolledKey<'_>, Vec<usize>> = IndexMap::new();
    for (i, in_loop) in loop_of_op.iter().enumerate() {
        if let Some(key) = key_of(i) {
            let key = match *in_loop {
                Some(k) if !first_keys[k].contains(&key) => RolledKey::LoopRest(k),
                _ => key,
            };
            groups.entry(key).or_default().push(i);
        }
    }
    Ok(groups)
}

/// One node per group, with the chain of module calls (by each address's first call) around
/// it, and the node drawing each op.
fn rolled_nodes(
    index: &TraceIndex<'_>,
    plan: Option<&crate::Plan>,
    loops: &[crate::loops::CallLoop],
    groups: &IndexMap<RolledKey<'_>, Vec<usize>>,
    first_call_of: &HashMap<&str, usize>,
) -> (Vec<Node>, Vec<Vec<usize>>, Vec<Option<usize>>) {
    let trace = index.trace;
    let mut node_of_op = vec![None; trace.ops.len()];
    let mut nodes = Vec::new();
    let mut chains: Vec<Vec<usize>> = Vec::new();
    let member_list = |k: usize, fold: bool| -> Vec<String> {
        let plan = plan.expect("plan groups come from a plan");
        if fold {
            plan.folds[k].clone()
        } else {
            plan.capsules[k].clone()
        }
    };
    for (key, ops) in groups {
        for &op in ops {
            node_of_op[op] = Some(nodes.len());
        }
        let first = ops[0];
        // The address the node stands for: its clusters are the modules strictly around it.
        let anchor: Option<String> = match key {
            RolledKey::Layer(_) => None,
            RolledKey::Box(address) => Some((*address).to_owned()),
            RolledKey::Capsule(k) => Some(member_list(*k, false)[0].clone()),
            RolledKey::FoldRepresentative(k) | RolledKey::FoldEllipsis(k) => {
                Some(member_list(*k, true)[0].clone())
            }
            RolledKey::OpCapsule(_) => Some(
                trace.ops[first]
                    .modules
                    .last()
                    .and_then(|call| call.rsplit_once(':'))
                    .map_or_else(String::new, |(address, _)| format!("{address}.")),
            ),
            RolledKey::Stub(..) => Some(String::new()),
            RolledKey::LoopRest(k) => Some(loops[*k].address.clone()),
        };
        // A leaf module's several outputs are its rectangles, with no frame around them.
        let stack = index.stack(first);
        let stack = match key {
            RolledKey::Layer(_) if index.is_leaf_output(first) => &stack[..stack.len() - 1],
            _ => stack,
        };
        let addresses = stack
            .iter()
            .map(|&call| trace.module_calls[call].address.as_str());
        let enclosing: Vec<&str> = match &anchor {
            None => addresses.collect(),
            Some(anchor) => addresses
                .filter(|address| {
                    anchor.len() > address.len()
                        && anchor.starts_with(address)
                        && anchor.as_bytes()[address.len()] == b'.'
                })
                .collect(),
        };
        chains.push(
            enclosing
                .iter()
                .map(|address| first_call_of[address])
                .collect(),
        );
        let kind = match key {
            RolledKey::Layer(_) => NodeKind::Layer(ops.clone()),
            RolledKey::Box(address) => NodeKind::ModuleBox(crate::ModuleBox {
                address: (*address).to_owned(),
                call: None,
                ops: ops.clone(),
                surfaced: Vec::new(),
                fold_members: None,
            }),
            RolledKey::Capsule(k) => NodeKind::Capsule(crate::Capsule {
                members: member_list(*k, false),
                ops: ops.clone(),
            }),
            RolledKey::FoldRepresentative(k) => {
                let fold = member_list(*k, true);
                NodeKind::ModuleBox(crate::ModuleBox {
                    address: fold[0].clone(),
                    call: None,
                    ops: ops.clone(),
                    surfaced: Vec::new(),
                    fold_members: Some(fold.len()),
                })
            }
            RolledKey::FoldEllipsis(k) => NodeKind::FoldEllipsis(crate::FoldEllipsis {
                members: member_list(*k, true)[1..].to_vec(),
                ops: ops.clone(),
            }),
            RolledKey::OpCapsule(_) => NodeKind::OpCapsule(ops.clone()),
            RolledKey::Stub(_, side) => NodeKind::Stub(first, *side),
            RolledKey::LoopRest(k) => {
                let call_loop = &loops[*k];
                let (called, between) = call_loop.work_of(index, ops.iter().copied());
                NodeKind::LoopEllipsis(crate::LoopEllipsis {
                    address: call_loop.address.clone(),
                    calls: call_loop.calls[1..].to_vec(),
                    called,
                    between,
                    ops: ops.clone(),
                })
            }
        };
        nodes.push(Node {
            kind,
            cluster: None,
        });
    }
    (nodes, chains, node_of_op)
}

/// Each address's first module call (a rolled frame stands for every call of its module).
fn first_calls(trace: &tl_trace_model::Trace) -> HashMap<&str, usize> {
    let mut first_call_of: HashMap<&str, usize> = HashMap::new();
    for (i, call) in trace.module_calls.iter().enumerate() {
        first_call_of.entry(call.address.as_str()).or_insert(i);
    }
    first_call_of
}

/// The arrows between rolled nodes, each with its pass labels.
fn pass_labelled_edges(
    index: &TraceIndex<'_>,
    nodes: &[Node],
    node_of_op: &[Option<usize>],
) -> (Vec<Edge>, Vec<PassLabels>) {
    let trace = index.trace;
    // Every dataflow pair between two layers, so the pass labels can be read off them.
    let mut edges = merge_edges(index, node_of_op, true);
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
    (edges, labels)
}

/// The independent call groups of a layer whose passes share exactly one module address:
/// passes that reach one another through the dataflow (stopping at the next pass of the
/// same layer) form one group. Returns the groups as call indices of that module, or `None`
/// when there is a single group.
pub fn call_groups(index: &TraceIndex<'_>, passes: &[usize]) -> Option<Vec<Vec<u32>>> {
    let trace = index.trace;
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
                // Another pass of the layer joins this one's group. (An op that only
                // carries the layer's label, in a trace whose labels disagree with its
                // passes, is walked through like any other op.)
                let pass = (&trace.ops[child].layer_label == layer)
                    .then(|| passes.iter().position(|&p| p == child))
                    .flatten();
                match pass {
                    Some(j) => {
                        let (a, b) = (root(&mut group, i), root(&mut group, j));
                        group[a] = b;
                    }
                    None => stack.push(child),
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
