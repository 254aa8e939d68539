//! Decides what a drawing shows: which operations are drawn, which are hidden with the
//! buffers, which modules are folded into one box, which runs of blocks become one dashed
//! capsule or one repeat fold, which later steps of a loop of calls become one node
//! ([`loops`]), which open module calls become clusters, which nodes a
//! module focus keeps, and which arrows connect the drawn nodes (the guide's "Module depth",
//! "Collapsing large models", "Focusing on one module", "Loops", "Buffers" and "The
//! backward pass": `docs/guides/drawing.md`).
//!
//! It reads a validated [`Trace`] (the entry points that take a `&Trace` validate it and
//! return its named error) and knows nothing of styles or DOT. [`visible_graph`] applies
//! either the depth cut (`depth=`) or a [`Plan`] (boxes, capsules, folds, loops);
//! [`schedule::Schedule`] builds the collapse schedule the `collapse=` levels read;
//! [`rolled::rolled_graph`] draws loops rolled and [`backward::backward_view`] the
//! backward pass. [`TraceIndex`], built from what validation resolved, serves all of them.
//!
//! Invariants of a [`VisibleGraph`]: every op of the trace is exactly one of drawn, held by
//! a group node (box, capsule, fold), outside a module focus, or hidden; every parent ->
//! child pair between two of its nodes is either internal to one node or carried by exactly
//! one [`Edge`]; nodes, edges and clusters are in execution order, so the same trace and
//! options give the same graph.

pub mod backward;
pub mod folds;
mod index;
pub mod loops;
pub mod outputs;
pub mod rolled;
pub mod schedule;
pub mod transitions;
mod tree;

use indexmap::IndexMap;
use rustc_hash::{FxHashMap as HashMap, FxHashSet};
use tl_trace_model::{OpKind, OpRecord, Trace, TraceError};

pub use index::TraceIndex;
pub use tree::{ModuleId, ModuleTree};

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

/// What is folded: module boxes, capsules over runs of sibling modules, repeat folds, loops
/// of calls.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Plan {
    /// Module addresses drawn as one box each (per call for modules called several times).
    pub boxes: Vec<String>,
    /// Runs of consecutive sibling modules drawn as one dashed capsule each.
    pub capsules: Vec<Vec<String>>,
    /// Runs of identical sibling modules drawn as the first one's box plus an ellipsis.
    pub folds: Vec<Vec<String>>,
    /// Runs of consecutive operations (labels) drawn as one dashed capsule each.
    pub op_capsules: Vec<Vec<String>>,
    /// Modules called in a loop ([`loops`]): every call after the first, with what runs
    /// between the calls, drawn as one ellipsis node.
    pub loops: Vec<String>,
}

impl Plan {
    /// True when the plan folds nothing.
    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty()
            && self.capsules.is_empty()
            && self.folds.is_empty()
            && self.op_capsules.is_empty()
            && self.loops.is_empty()
    }
}

/// What decides visibility.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisibilityOptions {
    /// Module levels drawn open; deeper modules become one box each. `0` never boxes.
    /// Ignored when `plan` is set (the plan replaces the depth rule).
    pub depth: u32,
    /// Buffer visibility.
    pub buffers: BufferVisibility,
    /// Boxes, capsules and folds chosen by the collapse schedule or `fold_repeats`.
    pub plan: Option<Plan>,
    /// Draw only the inside of this module (an address), with stubs for its neighbours.
    pub focus: Option<String>,
}

impl Default for VisibilityOptions {
    fn default() -> Self {
        VisibilityOptions {
            depth: 1000,
            buffers: BufferVisibility::Meaningful,
            plan: None,
            focus: None,
        }
    }
}

/// A module (or one call of it) folded into one node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleBox {
    /// Module address.
    pub address: String,
    /// Index into `trace.module_calls` of the call the box stands for; `None` for a
    /// container that is never called itself (a `ModuleList`).
    pub call: Option<usize>,
    /// Ops held by the box (hidden buffers included), indices into `trace.ops`.
    pub ops: Vec<usize>,
    /// Ops of the module drawn outside the box (a block's own residual add).
    pub surfaced: Vec<usize>,
    /// For the representative of a repeat fold: how many members the fold has.
    pub fold_members: Option<usize>,
}

/// A run of consecutive sibling modules drawn as one dashed capsule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capsule {
    /// Member addresses, in flow order.
    pub members: Vec<String>,
    /// Ops held, indices into `trace.ops`.
    pub ops: Vec<usize>,
}

/// The `... +N more Class` node of a repeat fold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoldEllipsis {
    /// Addresses of the members it stands for (the representative excluded).
    pub members: Vec<String>,
    /// Ops held.
    pub ops: Vec<usize>,
}

/// The `... +N more calls of @module` node of a loop of calls ([`loops`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopEllipsis {
    /// The module whose calls mark the loop's steps.
    pub address: String,
    /// Its calls in the later steps, indices into `trace.module_calls`.
    pub calls: Vec<usize>,
    /// The modules the later steps call, in order, with how many calls each.
    pub called: Vec<(String, usize)>,
    /// The ops the later steps run outside any module call (indices into `trace.ops`).
    pub between: Vec<usize>,
    /// Ops held: the later steps' drawn ops.
    pub ops: Vec<usize>,
}

/// Which side of a focused module a stub is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StubSide {
    /// An outside op feeding the module.
    Input,
    /// An outside op reading from the module.
    Output,
}

/// A drawn node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeKind {
    /// One operation, input, output or buffer version: index into `trace.ops`.
    Op(usize),
    /// A whole module (or call) drawn as one box.
    ModuleBox(ModuleBox),
    /// A dashed capsule over a run of sibling modules.
    Capsule(Capsule),
    /// The ellipsis of a repeat fold.
    FoldEllipsis(FoldEllipsis),
    /// The ellipsis of a loop of calls.
    LoopEllipsis(LoopEllipsis),
    /// An outside op next to a focused module (index into `trace.ops`).
    Stub(usize, StubSide),
    /// A dashed capsule over a run of consecutive operations (indices into `trace.ops`).
    OpCapsule(Vec<usize>),
    /// A rolled layer: the indices of its passes, in order.
    Layer(Vec<usize>),
}

impl NodeKind {
    /// The ops this node holds or draws.
    pub fn ops(&self) -> Vec<usize> {
        match self {
            NodeKind::Op(op) | NodeKind::Stub(op, _) => vec![*op],
            NodeKind::ModuleBox(module_box) => module_box.ops.clone(),
            NodeKind::Capsule(capsule) => capsule.ops.clone(),
            NodeKind::FoldEllipsis(ellipsis) => ellipsis.ops.clone(),
            NodeKind::LoopEllipsis(ellipsis) => ellipsis.ops.clone(),
            NodeKind::Layer(passes) | NodeKind::OpCapsule(passes) => passes.clone(),
        }
    }
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
    /// Per op of the trace: the node that draws it or the group node that holds it.
    pub node_of_op: Vec<Option<usize>>,
}

/// Why a visibility request cannot be met.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VisibilityError {
    /// `module=` names no module.
    #[error("Module address '{0}' was not found in this Trace; the nearest addresses it has are {1} (`tl-draw check` lists every module)")]
    FocusNotFound(String, String),
    /// `module=` names a module call, not a module.
    #[error("Module focus '{0}' resolved to a module pass, not a Module; drop the ':<call>' suffix and focus the module '{1}'")]
    FocusIsCall(String, String),
    /// `module=` names a module that ran nothing.
    #[error("Module '{0}' has no layers to render. Empty modules cannot be focused; focus one of its parents or children")]
    FocusEmpty(String),
    /// The trace failed validation (its error names the field).
    #[error(transparent)]
    InvalidTrace(#[from] TraceError),
}

impl VisibilityError {
    /// Stable code.
    pub fn code(&self) -> &'static str {
        match self {
            VisibilityError::FocusNotFound(..) => "module_focus_not_found",
            VisibilityError::FocusIsCall(..) => "module_focus_invalid",
            VisibilityError::FocusEmpty(_) => "module_focus_empty",
            VisibilityError::InvalidTrace(error) => error.code(),
        }
    }
}

const BOOKKEEPING_BUFFERS: [&str; 3] = ["running_mean", "running_var", "num_batches_tracked"];

/// Per op: hidden with the buffers under `buffers`.
pub fn hidden_ops(index: &TraceIndex<'_>, buffers: BufferVisibility) -> Vec<bool> {
    let trace = index.trace;
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
    // An operation that only touches hidden buffers (the step-counter update) goes too.
    for (i, op) in trace.ops.iter().enumerate() {
        if op.kind != OpKind::Op {
            continue;
        }
        let mut neighbours = index.parents(i).iter().chain(index.children(i)).peekable();
        if neighbours.peek().is_some()
            && neighbours.all(|&n| hidden[n] && trace.ops[n].kind == OpKind::Buffer)
        {
            hidden[i] = true;
        }
    }
    hidden
}

/// Whether op `i` is drawn beside the box of its innermost module rather than in it
/// (the guide's "Module depth": a block's own op stays beside its box). An atomic module's op is: a leaf module's work is one rectangle,
/// never a box of its own. The single op a block runs itself is when it joins something
/// from outside the block (a residual add, so the skip arrow stays in sight: "each block's
/// residual add stays visible beside its box"); one that reads only from inside the block
/// (a ConvBlock's final relu) stays in the box, where the guide counts it ("4 ops + 6
/// buffers"): drawn beside it, it would show nothing the box does not.
pub(crate) fn surfaces(index: &TraceIndex<'_>, i: usize) -> bool {
    // Several outputs of a leaf call (an `nn.LSTMCell`'s h and c) are that call's work split
    // in two: a box of the call holds them (`depth=1`: `@cell:1 LSTMCell, 2 ops`, as
    // TorchLens boxes each call), where a single op is the module's rectangle.
    if !index.trace.ops[i].is_atomic_module {
        return false;
    }
    let Some(&own) = index.stack(i).last() else {
        return false;
    };
    let module = index.tree.record(index.call_module(own));
    module.children.is_empty()
        || index
            .parents(i)
            .iter()
            .any(|&parent| !index.stack(parent).contains(&own))
}

/// `list` (op `i`'s module path or call stack, outermost first) without its innermost
/// entry when the op [`surfaces`] beside that module's box: what boxes may take it into.
fn boxable<'a, T>(index: &TraceIndex<'_>, i: usize, list: &'a [T]) -> &'a [T] {
    if !list.is_empty() && surfaces(index, i) {
        &list[..list.len() - 1]
    } else {
        list
    }
}

/// The modules whose boxes (by plan) may hold op `i` ([`boxable`] of its module path).
pub(crate) fn boxable_path<'a>(index: &'a TraceIndex<'_>, i: usize) -> &'a [ModuleId] {
    boxable(index, i, index.tree.path_ids(i))
}

/// The calls whose boxes (by depth) may hold op `i` ([`boxable`] of its call stack; a
/// container that is never called, a `ModuleList`, is not on it, as depth counts calls).
pub(crate) fn boxable_stack<'a>(index: &'a TraceIndex<'_>, i: usize) -> &'a [usize] {
    boxable(index, i, index.stack(i))
}

/// The group a held op belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Group<'t> {
    /// A module box: address and the call it stands for, if per call.
    Box(&'t str, Option<usize>),
    /// A capsule, by index into the plan's capsules.
    Capsule(usize),
    /// A fold's representative box, by fold index.
    FoldRepresentative(usize),
    /// A fold's ellipsis, by fold index.
    FoldEllipsis(usize),
    /// A capsule over operations, by index into the plan's op capsules.
    OpCapsule(usize),
    /// The later iterations of a loop of calls, by index into the grouping's loops.
    LoopEllipsis(usize),
}

/// Decides, per op, the group that holds it (if any).
struct Grouping<'i, 't> {
    index: &'i TraceIndex<'t>,
    /// The plan by module id: what each planned module belongs to.
    planned: Vec<Option<Planned>>,
    /// The plan's op capsules by op label.
    op_capsule_of: HashMap<&'t str, usize>,
    /// The plan's loops of calls (those that form one), and per op the loop whose later
    /// iterations hold it.
    loops: Vec<loops::CallLoop>,
    loop_of_op: Vec<Option<usize>>,
}

/// What a plan does with one module address.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Planned {
    Box,
    Capsule(usize),
    Fold(usize, bool),
}

/// What `plan` does with each module, by module id (the ops' paths are ids: no address is
/// hashed per op). An address the tree lacks holds no op and is left out; folds override
/// capsules, which override boxes.
pub(crate) fn index_plan(plan: Option<&Plan>, tree: &ModuleTree<'_>) -> Vec<Option<Planned>> {
    let mut planned = vec![None; tree.len()];
    let mut set = |address: &str, what: Planned| {
        if let Some(id) = tree.id(address) {
            planned[id as usize] = Some(what);
        }
    };
    if let Some(plan) = plan {
        for address in &plan.boxes {
            set(address, Planned::Box);
        }
        for (index, capsule) in plan.capsules.iter().enumerate() {
            for address in capsule {
                set(address, Planned::Capsule(index));
            }
        }
        for (index, fold) in plan.folds.iter().enumerate() {
            for (position, address) in fold.iter().enumerate() {
                set(address, Planned::Fold(index, position == 0));
            }
        }
    }
    planned
}

impl<'t> Grouping<'_, 't> {
    /// The call of module `module` in the op's stack (for per-call boxes of modules called
    /// often).
    fn call_of(&self, op: usize, module: ModuleId) -> Option<usize> {
        self.index
            .stack(op)
            .iter()
            .copied()
            .find(|&call| self.index.call_module(call) == module)
    }

    fn depth_group(&self, i: usize, depth: usize) -> Option<Group<'t>> {
        if depth == 0 || boxable_stack(self.index, i).len() < depth {
            return None;
        }
        let call = self.index.stack(i)[depth - 1];
        let address = self.index.trace.module_calls[call].address.as_str();
        Some(Group::Box(address, Some(call)))
    }

    fn plan_group(&self, index: usize, op: &OpRecord) -> Option<Group<'t>> {
        if let Some(call_loop) = self.loop_of_op[index] {
            return Some(Group::LoopEllipsis(call_loop));
        }
        if let Some(&index) = self.op_capsule_of.get(op.label.as_str()) {
            return Some(Group::OpCapsule(index));
        }
        let path = self.index.tree.path_ids(index);
        // Capsules and folds take their members whole, own ops included.
        for &id in path {
            match self.planned[id as usize] {
                Some(Planned::Capsule(index)) => return Some(Group::Capsule(index)),
                Some(Planned::Fold(index, true)) => return Some(Group::FoldRepresentative(index)),
                Some(Planned::Fold(index, false)) => return Some(Group::FoldEllipsis(index)),
                _ => {}
            }
        }
        // Boxes leave some of a module's own ops beside the box (`surfaces`); one box per
        // call of the module (a container that is never called: one box).
        let trimmed = boxable_path(self.index, index);
        let boxed = trimmed
            .iter()
            .position(|&id| matches!(self.planned[id as usize], Some(Planned::Box)))?;
        let address = self.index.tree.path(index)[boxed];
        Some(Group::Box(address, self.call_of(index, trimmed[boxed])))
    }
}

/// The plan's loops of calls that form one and that no module the plan folds hides (a loop
/// inside a box is folded with it).
pub(crate) fn planned_loops(
    index: &TraceIndex<'_>,
    hidden: &[bool],
    plan: Option<&Plan>,
    planned: &[Option<Planned>],
) -> Vec<loops::CallLoop> {
    let folded = |address: &String| {
        index
            .tree
            .id(address)
            .is_some_and(|id| planned[id as usize].is_some())
    };
    let addresses = plan.map_or(&[][..], |plan| plan.loops.as_slice());
    loops::call_loops_of(index, hidden, addresses)
        .into_iter()
        .filter(|call_loop| !call_loop.enclosing.iter().any(folded))
        .collect()
}

/// Computes what is drawn for `trace` under `options`.
pub fn visible_graph(
    trace: &Trace,
    options: &VisibilityOptions,
) -> Result<VisibleGraph, VisibilityError> {
    let index = TraceIndex::validate(trace)?;
    let hidden = hidden_ops(&index, options.buffers);
    visible_graph_with(&index, hidden, options)
}

/// [`visible_graph`] over an existing index, with the ops hidden under `options.buffers`
/// already computed ([`hidden_ops`]): what the planner calls once per candidate plan.
pub fn visible_graph_with(
    index: &TraceIndex<'_>,
    hidden: Vec<bool>,
    options: &VisibilityOptions,
) -> Result<VisibleGraph, VisibilityError> {
    let trace = index.trace;
    let planned = index_plan(options.plan.as_ref(), &index.tree);
    let call_loops = planned_loops(index, &hidden, options.plan.as_ref(), &planned);
    let mut loop_of_op = vec![None; trace.ops.len()];
    for (k, call_loop) in call_loops.iter().enumerate() {
        for i in call_loop.later.clone() {
            loop_of_op[i] = Some(k);
        }
    }
    let grouping = Grouping {
        index,
        loops: call_loops,
        loop_of_op,
        planned,
        op_capsule_of: options
            .plan
            .iter()
            .flat_map(|plan| plan.op_capsules.iter().enumerate())
            .flat_map(|(index, labels)| labels.iter().map(move |label| (label.as_str(), index)))
            .collect(),
    };
    let inside = match &options.focus {
        Some(address) => Some(focus_members(trace, &index.tree, address)?),
        None => None,
    };
    let in_view = |i: usize| inside.as_ref().is_none_or(|inside| inside[i]);

    // 1. The group (if any) that holds each op, then which groups really fold something.
    let groups: Vec<Option<Group<'_>>> = trace
        .ops
        .iter()
        .enumerate()
        .map(|(i, op)| {
            if !in_view(i) {
                return None;
            }
            match &options.plan {
                Some(_) => grouping.plan_group(i, op),
                None => grouping.depth_group(i, options.depth as usize),
            }
        })
        .collect();
    let mut used: HashMap<&Group<'_>, usize> = HashMap::default();
    for (i, group) in groups.iter().enumerate() {
        if let (Some(group), false) = (group, hidden[i]) {
            *used.entry(group).or_default() += 1;
        }
    }

    // 2. Nodes in execution order; a group appears where its first drawn op ran.
    let (mut nodes, mut node_of_op, mut chains) = place_nodes(
        index,
        options,
        &grouping.loops,
        &groups,
        &used,
        &hidden,
        inside.as_deref(),
    );
    surface_beside_boxes(index, &mut nodes, &node_of_op);

    // 3. Focus stubs: one per outside op that feeds, or reads from, the focused module.
    if let Some(inside) = &inside {
        add_stubs(
            index,
            inside,
            &hidden,
            &mut nodes,
            &mut node_of_op,
            &mut chains,
        );
    }

    let clusters = assign_clusters(&mut nodes, &chains, trace.module_calls.len());
    let edges = merge_edges(index, &node_of_op, false);

    Ok(VisibleGraph {
        nodes,
        edges,
        clusters,
        hidden,
        node_of_op,
    })
}

/// The drawn nodes in execution order (a group where its first drawn op ran, every other
/// shown op alone), the node of each op, and each node's chain of open module calls.
fn place_nodes(
    index: &TraceIndex<'_>,
    options: &VisibilityOptions,
    loops: &[loops::CallLoop],
    groups: &[Option<Group<'_>>],
    used: &HashMap<&Group<'_>, usize>,
    hidden: &[bool],
    inside: Option<&[bool]>,
) -> (Vec<Node>, Vec<Option<usize>>, Vec<Vec<usize>>) {
    let trace = index.trace;
    let in_view = |i: usize| inside.is_none_or(|inside| inside[i]);
    let mut nodes: Vec<Node> = Vec::new();
    let mut node_of_op: Vec<Option<usize>> = vec![None; trace.ops.len()];
    let mut node_of_group: HashMap<Group<'_>, usize> = HashMap::default();
    let mut chains: Vec<Vec<usize>> = Vec::new();
    let boxed_addresses: FxHashSet<&str> = used
        .keys()
        .filter_map(|group| match group {
            Group::Box(address, _) => Some(*address),
            _ => None,
        })
        .collect();
    for (i, group) in groups.iter().enumerate() {
        if let Some(group) = group.as_ref().filter(|g| used.contains_key(g)) {
            let node = match node_of_group.get(group) {
                Some(&node) => node,
                None => {
                    let (kind, anchor) = group_node(index, options.plan.as_ref(), loops, group);
                    nodes.push(Node {
                        kind,
                        cluster: None,
                    });
                    chains.push(open_chain(index, i, &anchor));
                    node_of_group.insert(group.clone(), nodes.len() - 1);
                    nodes.len() - 1
                }
            };
            node_of_op[i] = Some(node);
            match &mut nodes[node].kind {
                NodeKind::ModuleBox(b) => b.ops.push(i),
                NodeKind::Capsule(s) => s.ops.push(i),
                NodeKind::FoldEllipsis(f) => f.ops.push(i),
                NodeKind::LoopEllipsis(l) => l.ops.push(i),
                NodeKind::OpCapsule(ops) => ops.push(i),
                NodeKind::Op(_) | NodeKind::Stub(..) | NodeKind::Layer(_) => {}
            }
            continue;
        }
        if hidden[i] || !in_view(i) {
            continue;
        }
        nodes.push(Node {
            kind: NodeKind::Op(i),
            cluster: None,
        });
        let boxed =
            |call: usize| boxed_addresses.contains(trace.module_calls[call].address.as_str());
        let stack = index.stack(i);
        let mut open = stack
            .iter()
            .position(|&call| boxed(call))
            .unwrap_or(stack.len());
        if open == stack.len() && index.is_leaf_output(i) {
            // Each output is the module's rectangle: no frame around the call.
            open -= 1;
        }
        chains.push(stack[..open].to_vec());
        node_of_op[i] = Some(nodes.len() - 1);
    }
    (nodes, node_of_op, chains)
}

/// Ops of a boxed module drawn outside its box are "surfaced": the counts leave them out,
/// and they sit beside the box in the frame around it, with no frame of their own.
fn surface_beside_boxes(index: &TraceIndex<'_>, nodes: &mut [Node], node_of_op: &[Option<usize>]) {
    let mut boxes_of: HashMap<String, Vec<usize>> = HashMap::default();
    for (position, node) in nodes.iter().enumerate() {
        if let NodeKind::ModuleBox(module_box) = &node.kind {
            boxes_of
                .entry(module_box.address.clone())
                .or_default()
                .push(position);
        }
    }
    for (i, node) in node_of_op.iter().enumerate() {
        let Some(node) = *node else { continue };
        if !matches!(nodes[node].kind, NodeKind::Op(_)) {
            continue;
        }
        for address in index.tree.path(i) {
            for &position in boxes_of.get(*address).into_iter().flatten() {
                if let NodeKind::ModuleBox(module_box) = &mut nodes[position].kind {
                    module_box.surfaced.push(i);
                }
            }
        }
    }
    // No frame of the boxed call around the box and the ops surfaced beside it: it would
    // repeat the box's own title (`@blocks.7` in `@blocks.7`, issue 29), and each surfaced
    // op's rows name the module already. TorchLens 2.36.1 draws that frame.
}

/// Clusters: the open calls (each node's `chain`, outermost first) holding at least two
/// drawn nodes; a single-op module is drawn as its rectangle, not as a cluster around it.
/// Sets each node's innermost cluster.
pub(crate) fn assign_clusters(
    nodes: &mut [Node],
    chains: &[Vec<usize>],
    calls: usize,
) -> Vec<Cluster> {
    let mut members = vec![0usize; calls];
    for chain in chains {
        for &call in chain {
            members[call] += 1;
        }
    }
    let mut clusters: Vec<Cluster> = Vec::new();
    let mut cluster_of_call: HashMap<usize, usize> = HashMap::default();
    for (node, chain) in nodes.iter_mut().zip(chains) {
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
    clusters
}

/// Edges between drawn nodes, merging the dataflow pairs that land on the same two nodes,
/// in execution order. Pairs inside one node are dropped unless `self_loops` (a rolled layer
/// feeding its own next pass).
pub(crate) fn merge_edges(
    index: &TraceIndex<'_>,
    node_of_op: &[Option<usize>],
    self_loops: bool,
) -> Vec<Edge> {
    let mut edges: IndexMap<(usize, usize), Vec<(usize, usize)>> = IndexMap::new();
    for (child, to) in node_of_op.iter().enumerate() {
        let Some(to) = *to else {
            continue;
        };
        for &parent in index.parents(child) {
            if let Some(from) = node_of_op[parent].filter(|&from| self_loops || from != to) {
                edges.entry((from, to)).or_default().push((parent, child));
            }
        }
    }
    edges
        .into_iter()
        .map(|((from, to), pairs)| Edge { from, to, pairs })
        .collect()
}

/// The node of a group and the address whose enclosing calls stay open around it.
fn group_node(
    index: &TraceIndex<'_>,
    plan: Option<&Plan>,
    loops: &[loops::CallLoop],
    group: &Group<'_>,
) -> (NodeKind, String) {
    let trace = index.trace;
    match group {
        // In the frames around the looped module's calls, as its first call's box.
        Group::LoopEllipsis(k) => {
            let call_loop = &loops[*k];
            let (called, between) = call_loop.later_work(index);
            (
                NodeKind::LoopEllipsis(LoopEllipsis {
                    address: call_loop.address.clone(),
                    calls: call_loop.calls[1..].to_vec(),
                    called,
                    between,
                    ops: Vec::new(),
                }),
                call_loop.address.clone(),
            )
        }
        Group::Box(address, call) => (
            NodeKind::ModuleBox(ModuleBox {
                address: (*address).to_owned(),
                call: *call,
                ops: Vec::new(),
                surfaced: Vec::new(),
                fold_members: None,
            }),
            (*address).to_owned(),
        ),
        Group::Capsule(index) => {
            let members = plan.expect("segments come from a plan").capsules[*index].clone();
            // Inside the frames of its members' parent (a capsule of `encoder.layers`'
            // children sits in the `@encoder.layers` frame, as rolled drawings put it).
            let anchor = members[0].clone();
            (
                NodeKind::Capsule(Capsule {
                    members,
                    ops: Vec::new(),
                }),
                anchor,
            )
        }
        Group::FoldRepresentative(index) => {
            let fold = &plan.expect("folds come from a plan").folds[*index];
            (
                NodeKind::ModuleBox(ModuleBox {
                    address: fold[0].clone(),
                    call: single_call(trace, &fold[0]),
                    ops: Vec::new(),
                    surfaced: Vec::new(),
                    fold_members: Some(fold.len()),
                }),
                fold[0].clone(),
            )
        }
        // Anchored at the deepest module all its operations ran in: the capsule stays in the
        // clusters they share (a run may cross module frames).
        Group::OpCapsule(capsule) => {
            let ops = &plan.expect("op segments come from a plan").op_capsules[*capsule];
            let innermost = |label: &String| {
                let op = &trace.ops[index.op(label).expect("planned ops exist")];
                op.modules
                    .last()
                    .and_then(|call| call.rsplit_once(':'))
                    .map_or("", |(address, _)| address)
            };
            let mut shared = innermost(&ops[0]);
            for label in &ops[1..] {
                let other = innermost(label);
                let holds = |module: &str| {
                    module.is_empty()
                        || other == module
                        || other.starts_with(module)
                            && other.as_bytes().get(module.len()) == Some(&b'.')
                };
                while !holds(shared) {
                    shared = shared.rsplit_once('.').map_or("", |(parent, _)| parent);
                }
            }
            let anchor = if shared.is_empty() {
                String::new()
            } else {
                format!("{shared}.")
            };
            (NodeKind::OpCapsule(Vec::new()), anchor)
        }
        Group::FoldEllipsis(index) => {
            let fold = &plan.expect("folds come from a plan").folds[*index];
            (
                NodeKind::FoldEllipsis(FoldEllipsis {
                    members: fold[1..].to_vec(),
                    ops: Vec::new(),
                }),
                fold[0].clone(),
            )
        }
    }
}

/// The only call of a module called exactly once.
fn single_call(trace: &Trace, address: &str) -> Option<usize> {
    let mut calls = trace
        .module_calls
        .iter()
        .enumerate()
        .filter(|(_, c)| c.address == address);
    match (calls.next(), calls.next()) {
        (Some((index, _)), None) => Some(index),
        _ => None,
    }
}

/// The calls (outermost first) that stay open around a group anchored at `anchor`: the
/// op's calls of modules strictly enclosing the anchor.
fn open_chain(index: &TraceIndex<'_>, op: usize, anchor: &str) -> Vec<usize> {
    index
        .stack(op)
        .iter()
        .copied()
        .filter(|&call| {
            let address = &index.trace.module_calls[call].address;
            anchor.len() > address.len()
                && anchor.starts_with(address.as_str())
                && anchor.as_bytes()[address.len()] == b'.'
        })
        .collect()
}

/// Per op: inside the focused module (any call).
pub(crate) fn focus_members(
    trace: &Trace,
    tree: &ModuleTree<'_>,
    address: &str,
) -> Result<Vec<bool>, VisibilityError> {
    if let Some((module, _)) = address.split_once(':') {
        if tree.module(module).is_some() {
            return Err(VisibilityError::FocusIsCall(
                address.to_owned(),
                module.to_owned(),
            ));
        }
    }
    if tree.module(address).is_none() || address == "self" {
        let addresses = trace
            .modules
            .iter()
            .map(|m| m.address.as_str())
            .filter(|a| *a != "self");
        let nearest: Vec<String> = tl_trace_model::suggest::nearest(address, addresses, 3)
            .iter()
            .map(|a| format!("'{a}'"))
            .collect();
        let nearest = if nearest.is_empty() {
            "none (it records no modules)".to_owned()
        } else {
            nearest.join(", ")
        };
        return Err(VisibilityError::FocusNotFound(address.to_owned(), nearest));
    }
    let inside: Vec<bool> = trace
        .ops
        .iter()
        .enumerate()
        .map(|(i, op)| op.kind == OpKind::Op && tree.path(i).contains(&address))
        .collect();
    if !inside.iter().any(|&i| i) {
        return Err(VisibilityError::FocusEmpty(address.to_owned()));
    }
    Ok(inside)
}

fn add_stubs(
    index: &TraceIndex<'_>,
    inside: &[bool],
    hidden: &[bool],
    nodes: &mut Vec<Node>,
    node_of_op: &mut [Option<usize>],
    chains: &mut Vec<Vec<usize>>,
) {
    let mut stubs: Vec<(usize, StubSide)> = Vec::new();
    for op in (0..inside.len()).filter(|&i| inside[i]) {
        for &parent in index.parents(op) {
            if !inside[parent] && !hidden[parent] && !stubs.contains(&(parent, StubSide::Input)) {
                stubs.push((parent, StubSide::Input));
            }
        }
        for &child in index.children(op) {
            if !inside[child] && !hidden[child] && !stubs.iter().any(|(o, _)| *o == child) {
                stubs.push((child, StubSide::Output));
            }
        }
    }
    for (op, side) in stubs {
        nodes.push(Node {
            kind: NodeKind::Stub(op, side),
            cluster: None,
        });
        chains.push(Vec::new());
        node_of_op[op] = Some(nodes.len() - 1);
    }
}

#[cfg(test)]
mod tests;
