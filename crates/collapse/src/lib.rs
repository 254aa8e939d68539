//! Decides what a drawing shows: which operations are drawn, which are hidden with the
//! buffers, which module calls are folded into one box, which open module calls become
//! clusters, and which arrows connect the drawn nodes (drawing-spec sections 3 and 4.4).
//!
//! It reads a validated [`Trace`] and knows nothing of styles or DOT. Today it implements
//! the depth cut (`depth=`) and buffer visibility (`show_buffers=`); the collapse schedule,
//! repeat folding, module focus and rolled loops come with the collapse issue.
//!
//! Invariants of a [`VisibleGraph`]: every op of the trace is exactly one of drawn (an
//! [`NodeKind::Op`]), inside a module box, or hidden; every parent -> child pair between two
//! non-hidden ops is either internal to one box or carried by exactly one [`Edge`]; nodes,
//! edges and clusters are in execution order, so the same trace gives the same graph.

use std::collections::HashMap;

use indexmap::IndexMap;
use tl_trace_model::{OpKind, OpRecord, Trace};

/// Which buffer versions are drawn (`show_buffers=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BufferVisibility {
    /// Hide every buffer version.
    Never,
    /// Hide routine bookkeeping buffers (`running_mean`, `running_var`,
    /// `num_batches_tracked`); keep the others.
    #[default]
    Meaningful,
    /// Draw every buffer version and every buffer-only operation.
    Always,
}

/// What decides visibility.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisibilityOptions {
    /// Module levels drawn open; deeper modules become one box each. `0` never boxes.
    pub depth: u32,
    /// Buffer visibility.
    pub buffers: BufferVisibility,
}

impl Default for VisibilityOptions {
    fn default() -> Self {
        VisibilityOptions {
            depth: 1000,
            buffers: BufferVisibility::Meaningful,
        }
    }
}

/// A drawn node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeKind {
    /// One operation, input, output or buffer version: index into `trace.ops`.
    Op(usize),
    /// A whole module call drawn as one box.
    ModuleBox(ModuleBox),
}

/// A module call folded into one node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleBox {
    /// Index into `trace.module_calls`.
    pub call: usize,
    /// Ops of the call drawn outside the box (a block's own residual add), indices into
    /// `trace.ops`. The box's counts leave them out.
    pub surfaced: Vec<usize>,
}

/// A drawn node and the open module call (cluster) it sits in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// What it stands for.
    pub kind: NodeKind,
    /// Index into [`VisibleGraph::clusters`] of its innermost cluster.
    pub cluster: Option<usize>,
}

/// A drawn arrow and the dataflow pairs it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// Source node index.
    pub from: usize,
    /// Destination node index.
    pub to: usize,
    /// The underlying `(parent op, child op)` index pairs, in execution order.
    pub pairs: Vec<(usize, usize)>,
}

/// An open module call drawn as a cluster around its nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    /// Index into `trace.module_calls`.
    pub call: usize,
    /// Enclosing cluster.
    pub parent: Option<usize>,
}

/// What a drawing shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisibleGraph {
    /// Drawn nodes, in execution order of their first op.
    pub nodes: Vec<Node>,
    /// Drawn arrows, in execution order of their first underlying pair.
    pub edges: Vec<Edge>,
    /// Clusters, outermost before the clusters they contain.
    pub clusters: Vec<Cluster>,
    /// Per op of the trace: hidden with the buffers.
    pub hidden: Vec<bool>,
    /// Per op of the trace: the node that draws it or the box that holds it.
    pub node_of_op: Vec<Option<usize>>,
}

const BOOKKEEPING_BUFFERS: [&str; 3] = ["running_mean", "running_var", "num_batches_tracked"];

fn hidden_ops(trace: &Trace, buffers: BufferVisibility) -> Vec<bool> {
    let hide_buffer = |op: &OpRecord| match (&op.buffer, buffers) {
        (_, BufferVisibility::Always) | (None, _) => false,
        (Some(_), BufferVisibility::Never) => true,
        (Some(buffer), BufferVisibility::Meaningful) => {
            let leaf = buffer.address.rsplit('.').next().unwrap_or(&buffer.address);
            BOOKKEEPING_BUFFERS.contains(&leaf)
        }
    };
    let mut hidden: Vec<bool> = trace.ops.iter().map(hide_buffer).collect();
    if buffers == BufferVisibility::Always {
        return hidden;
    }
    let index = label_index(trace);
    // An operation that only touches hidden buffers (the step-counter update) goes too.
    for (i, op) in trace.ops.iter().enumerate() {
        if op.kind != OpKind::Op {
            continue;
        }
        let neighbours: Vec<usize> = op
            .parents
            .iter()
            .chain(&op.children)
            .map(|label| index[label.as_str()])
            .collect();
        if !neighbours.is_empty()
            && neighbours
                .iter()
                .all(|&n| hidden[n] && trace.ops[n].kind == OpKind::Buffer)
        {
            hidden[i] = true;
        }
    }
    hidden
}

fn label_index(trace: &Trace) -> HashMap<&str, usize> {
    trace
        .ops
        .iter()
        .enumerate()
        .map(|(i, op)| (op.label.as_str(), i))
        .collect()
}

/// The module-call stack that decides folding: the op's own stack without its atomic
/// module (an atomic module is already drawn as one rectangle, never as a box of its own).
fn folding_stack(op: &OpRecord) -> &[String] {
    let stack = op.modules.as_slice();
    if op.is_atomic_module && !stack.is_empty() {
        &stack[..stack.len() - 1]
    } else {
        stack
    }
}

/// Computes what is drawn for `trace` under `options`.
pub fn visible_graph(trace: &Trace, options: &VisibilityOptions) -> VisibleGraph {
    let hidden = hidden_ops(trace, options.buffers);
    let ops_by_label = label_index(trace);
    let calls: HashMap<&str, usize> = trace
        .module_calls
        .iter()
        .enumerate()
        .map(|(i, call)| (call.label.as_str(), i))
        .collect();
    let depth = options.depth as usize;

    // 1. The box (if any) that absorbs each op.
    let boxed_call: Vec<Option<usize>> = trace
        .ops
        .iter()
        .map(|op| {
            let stack = folding_stack(op);
            (depth > 0 && stack.len() >= depth).then(|| calls[stack[depth - 1].as_str()])
        })
        .collect();
    let is_boxed: Vec<bool> = {
        let mut boxed = vec![false; trace.module_calls.len()];
        for (i, call) in boxed_call.iter().enumerate() {
            if let (Some(call), false) = (call, hidden[i]) {
                boxed[*call] = true;
            }
        }
        boxed
    };

    // 2. Nodes in execution order; a box appears where its first drawn op ran.
    let mut nodes: Vec<Node> = Vec::new();
    let mut node_of_op: Vec<Option<usize>> = vec![None; trace.ops.len()];
    let mut node_of_box: HashMap<usize, usize> = HashMap::new();
    // The call chain each node sits in, outermost first, cut at the first boxed call.
    let mut chains: Vec<Vec<usize>> = Vec::new();
    for (i, op) in trace.ops.iter().enumerate() {
        if let Some(call) = boxed_call[i].filter(|&call| is_boxed[call]) {
            let node = *node_of_box.entry(call).or_insert_with(|| {
                nodes.push(Node {
                    kind: NodeKind::ModuleBox(ModuleBox {
                        call,
                        surfaced: Vec::new(),
                    }),
                    cluster: None,
                });
                chains.push(call_ancestry(trace, &calls, call));
                nodes.len() - 1
            });
            node_of_op[i] = Some(node);
            continue;
        }
        if hidden[i] {
            continue;
        }
        nodes.push(Node {
            kind: NodeKind::Op(i),
            cluster: None,
        });
        let stack: Vec<usize> = op
            .modules
            .iter()
            .map(|label| calls[label.as_str()])
            .collect();
        let open = stack
            .iter()
            .position(|&call| is_boxed[call])
            .unwrap_or(stack.len());
        chains.push(stack[..open].to_vec());
        node_of_op[i] = Some(nodes.len() - 1);
    }
    // Ops of a boxed call drawn outside it are "surfaced": the box's counts leave them out.
    for (i, op) in trace.ops.iter().enumerate() {
        if hidden[i]
            || node_of_op[i].is_some_and(|node| matches!(nodes[node].kind, NodeKind::ModuleBox(_)))
        {
            continue;
        }
        for label in &op.modules {
            if let Some(&node) = node_of_box.get(&calls[label.as_str()]) {
                if let NodeKind::ModuleBox(module_box) = &mut nodes[node].kind {
                    module_box.surfaced.push(i);
                }
            }
        }
    }

    // 3. Clusters: open calls holding at least two drawn nodes (a single-op module is
    //    drawn as its rectangle, not as a cluster around it).
    let mut members = vec![0usize; trace.module_calls.len()];
    for chain in &chains {
        for &call in chain {
            members[call] += 1;
        }
    }
    let mut clusters: Vec<Cluster> = Vec::new();
    let mut cluster_of_call: HashMap<usize, usize> = HashMap::new();
    for (node, chain) in nodes.iter_mut().zip(&chains) {
        let mut parent = None;
        for &call in chain.iter().filter(|&&call| members[call] >= 2) {
            let cluster = *cluster_of_call.entry(call).or_insert_with(|| {
                clusters.push(Cluster { call, parent });
                clusters.len() - 1
            });
            parent = Some(cluster);
        }
        node.cluster = parent;
    }

    // 4. Edges between distinct drawn nodes, merging pairs that land on the same two nodes.
    let mut edges: IndexMap<(usize, usize), Vec<(usize, usize)>> = IndexMap::new();
    for (child, op) in trace.ops.iter().enumerate() {
        let Some(to) = node_of_op[child] else {
            continue;
        };
        let mut seen = Vec::new();
        for label in &op.parents {
            let parent = ops_by_label[label.as_str()];
            if seen.contains(&parent) {
                continue;
            }
            seen.push(parent);
            let Some(from) = node_of_op[parent] else {
                continue;
            };
            if from != to {
                edges.entry((from, to)).or_default().push((parent, child));
            }
        }
    }
    let edges = edges
        .into_iter()
        .map(|((from, to), pairs)| Edge { from, to, pairs })
        .collect();

    VisibleGraph {
        nodes,
        edges,
        clusters,
        hidden,
        node_of_op,
    }
}

/// The calls enclosing `call` (outermost first), excluding `call` itself.
fn call_ancestry(trace: &Trace, calls: &HashMap<&str, usize>, call: usize) -> Vec<usize> {
    let mut chain = Vec::new();
    let mut current = trace.module_calls[call].parent_call.as_deref();
    while let Some(label) = current {
        let index = calls[label];
        chain.push(index);
        current = trace.module_calls[index].parent_call.as_deref();
    }
    chain.reverse();
    chain
}

#[cfg(test)]
mod tests;
