//! The collapse schedule: folding steps ordered cheapest-first, mapped to levels 0.0..=1.0
//! by equal ratios, with `"auto"` and `"max"` (the guide's "Collapsing large models").
//!
//! `max` is the most condensed legal plan: modules are boxed from the top of the tree down
//! wherever a box hides at most a dominance limit of the operations (0.60, then 0.75), and
//! runs of consecutive sibling boxes that chain into each other become one dashed capsule
//! under the same limit; a plan is legal when it draws between 3 and 12 nodes (20 at the
//! last level). When no plan is legal, the largest boxes are used whatever they hide. The
//! interior steps box the max plan's modules one at a time, cheapest first (box cost:
//! grain, generic containers, dominance), keeping each step that lowers the node count.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use tl_trace_model::{IndexLists, OpKind, Trace, TraceError};

use crate::loops::CallLoop;
use crate::{
    hidden_ops, visible_graph_with, BufferVisibility, ModuleId, ModuleTree, Plan, TraceIndex,
    VisibilityOptions,
};

/// One stop of the schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct Stop {
    /// Level: 0.0 for the full drawing, 1.0 for `"max"`.
    pub level: f64,
    /// Nodes drawn at this stop.
    pub nodes: usize,
    /// What is folded.
    pub plan: Plan,
    /// What this stop folds beyond the previous one (`module box @blocks.0`).
    pub folds: Vec<String>,
}

/// The stops from the full drawing (first) to `"max"` (last).
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    /// Stops with strictly increasing `level` and strictly decreasing `nodes`.
    pub stops: Vec<Stop>,
}

/// Dominance limits and node-count ceilings of the max search, in order.
const LEVELS: [(f64, usize); 3] = [(0.60, 12), (0.75, 12), (0.75, 20)];
/// The fewest members of a capsule ("a run of consecutive blocks").
const MIN_SEGMENT: usize = 3;
/// The fewest nodes a condensed drawing keeps.
const MIN_NODES: usize = 3;
/// Containers whose box says little about the model.
const GENERIC: [&str; 4] = ["Sequential", "ModuleList", "ModuleDict", "ParameterList"];

/// Readable size: 25 nodes for traces of more than 100 recorded tensors, else 40. As in
/// TorchLens 2.36.1, every record counts (inputs, outputs and buffer versions too): ResNet-18
/// has 69 operations but 151 records, so its band is 25.
pub fn readable_band(trace: &Trace) -> usize {
    if trace.ops.len() > 100 {
        25
    } else {
        40
    }
}

/// Facts the planner reads, computed once, so that planning stays linear in the trace.
/// Per-module facts are vectors indexed by [`ModuleId`].
pub(crate) struct Facts<'i, 't> {
    pub(crate) index: &'i TraceIndex<'t>,
    pub(crate) hidden: Vec<bool>,
    /// Per module: index of the first op run inside it (`usize::MAX`: none).
    first_op: Vec<usize>,
    /// Per module: the ops whose path contains it.
    ops_in: IndexLists,
    /// Per module: drawn nodes a box of it would hold.
    held: Vec<usize>,
    /// Per module: boxes it is drawn as (one per call; one for a container).
    box_nodes: Vec<usize>,
    /// Per module: its children that ran, in flow order, and its rank among its siblings.
    children_flow: IndexLists,
    rank: Vec<usize>,
    /// Operations in the trace.
    total_ops: usize,
    /// Nodes of the full drawing.
    full: usize,
    /// Runs of alike outputs drawn as one node each in every folded stop
    /// ([`crate::outputs`]), and the nodes that saves.
    outputs: Vec<Vec<String>>,
    output_saving: usize,
    /// Per op: a member of one of `outputs`. Reading into that one node does not stop a run
    /// of blocks from being a chain (a cache tensor leaves every block).
    grouped_output: Vec<bool>,
    buffers: BufferVisibility,
    /// The trace's loops of calls ([`crate::loops`]).
    loops: Vec<CallLoop>,
    /// Sibling links by parent address, computed on first use (each level asks again).
    links: RefCell<FxHashMap<String, Rc<SiblingLinks>>>,
}

/// How the siblings of one parent connect: enough to test any run for being a chain in
/// constant time.
pub(crate) struct SiblingLinks {
    /// The siblings, in flow order.
    pub(crate) siblings: Vec<String>,
    /// `linked[k]`: sibling `k` is fed only by sibling `k - 1`, which feeds only `k`.
    linked: Vec<bool>,
    /// Distinct outside ops feeding each sibling (the previous sibling included).
    sources: Vec<usize>,
    /// Distinct ops of each sibling read from outside it.
    exits: Vec<usize>,
}

impl SiblingLinks {
    /// Are `siblings[start..=end]` one chain: one outside op feeding the first, one op of
    /// the last feeding the outside, each member feeding only the next?
    pub(crate) fn is_chain(&self, start: usize, end: usize) -> bool {
        self.sources[start] == 1
            && self.exits[end] == 1
            && (start + 1..=end).all(|k| self.linked[k])
    }
}

impl<'i, 't> Facts<'i, 't> {
    pub(crate) fn new(index: &'i TraceIndex<'t>, buffers: BufferVisibility) -> Facts<'i, 't> {
        let trace = index.trace;
        let tree = &index.tree;
        let modules = tree.len();
        let hidden = hidden_ops(index, buffers);
        let mut first_op = vec![usize::MAX; modules];
        let ops_in = IndexLists::build(
            (0..trace.ops.len()).map(|i| tree.path_ids(i).iter().map(|&id| id as usize)),
        )
        .inverse(modules);
        let mut held = vec![0usize; modules];
        // Calls of one module never interleave (a recursive call nests inside the outer
        // one, and the outer call is the one counted), so counting changes counts calls.
        let mut last_call: Vec<Option<Option<usize>>> = vec![None; modules];
        let mut box_nodes = vec![0usize; modules];
        for (i, &hidden_op) in hidden.iter().enumerate() {
            let path = tree.path_ids(i);
            for &id in path {
                let id = id as usize;
                if first_op[id] == usize::MAX {
                    first_op[id] = i;
                }
            }
            if hidden_op {
                continue;
            }
            // A box leaves some of a module's own ops beside it (`crate::surfaces`).
            let trimmed = crate::boxable_path(index, i);
            for &id in trimmed {
                let call = index
                    .stack(i)
                    .iter()
                    .copied()
                    .find(|&call| index.call_module(call) == id);
                let id = id as usize;
                held[id] += 1;
                if last_call[id] != Some(call) {
                    last_call[id] = Some(call);
                    box_nodes[id] += 1;
                }
            }
        }
        let children_flow = IndexLists::build((0..modules as ModuleId).map(|id| {
            let mut children: Vec<usize> = index
                .module_children(id)
                .iter()
                .copied()
                .filter(|&child| first_op[child] != usize::MAX)
                .collect();
            children.sort_by_key(|&child| first_op[child]);
            children.into_iter()
        }));
        let mut rank = vec![0usize; modules];
        for id in 0..modules {
            for (k, &child) in children_flow.row(id).iter().enumerate() {
                rank[child] = k;
            }
        }
        let full = hidden.iter().filter(|&&h| !h).count();
        let outputs = crate::outputs::output_groups(index, &hidden);
        let output_saving = crate::outputs::saving(&outputs);
        let mut grouped_output = vec![false; trace.ops.len()];
        for label in outputs.iter().flatten() {
            if let Some(op) = index.op(label) {
                grouped_output[op] = true;
            }
        }
        let loops = crate::loops::call_loops(index, &hidden);
        Facts {
            index,
            outputs,
            output_saving,
            grouped_output,
            hidden,
            first_op,
            ops_in,
            held,
            box_nodes,
            children_flow,
            rank,
            total_ops: trace
                .ops
                .iter()
                .filter(|op| op.kind == OpKind::Op)
                .count()
                .max(1),
            full,
            buffers,
            loops,
            links: RefCell::default(),
        }
    }

    pub(crate) fn trace(&self) -> &'t Trace {
        self.index.trace
    }

    pub(crate) fn tree(&self) -> &ModuleTree<'t> {
        &self.index.tree
    }

    /// The share of the operations one box of `address` hides: a module called in a loop
    /// is boxed per call, so its share is a call's (an `LSTMCell` run 64 times hides a
    /// 64th of its operations in each box, not all of them in one).
    fn share(&self, address: &str) -> f64 {
        self.tree().id(address).map_or(0.0, |id| self.share_of(id))
    }

    fn share_of(&self, id: ModuleId) -> f64 {
        let boxes = self.box_nodes[id as usize].max(1);
        self.tree().op_count_of(id) as f64 / boxes as f64 / self.total_ops as f64
    }

    /// The modules enclosing the loop of calls named by `address` (none for no loop).
    fn loop_enclosing(&self, address: &str) -> &[String] {
        self.loops
            .iter()
            .find(|call_loop| call_loop.address == address)
            .map_or(&[], |call_loop| &call_loop.enclosing)
    }

    /// The loops of calls a plan of these boxes and capsules can fold: those no box or
    /// capsule of a module enclosing them hides.
    fn loops_beside(&self, boxes: &[String], capsules: &[Vec<String>]) -> Vec<String> {
        let grouped: FxHashSet<&str> = boxes
            .iter()
            .chain(capsules.iter().flatten())
            .map(String::as_str)
            .collect();
        self.loops
            .iter()
            .filter(|call_loop| {
                !call_loop
                    .enclosing
                    .iter()
                    .any(|address| grouped.contains(address.as_str()))
                    && !capsules.iter().flatten().any(|a| *a == call_loop.address)
            })
            .map(|call_loop| call_loop.address.clone())
            .collect()
    }

    /// Per module fact at `address`, `missing` for unknown addresses.
    fn fact<T: Copy>(&self, facts: &[T], address: &str, missing: T) -> T {
        self.tree()
            .id(address)
            .map_or(missing, |id| facts[id as usize])
    }

    /// Index of the first op run inside `address`.
    pub(crate) fn first_op(&self, address: &str) -> usize {
        self.fact(&self.first_op, address, usize::MAX)
    }

    /// The ops whose path contains `address`.
    pub(crate) fn ops_in(&self, address: &str) -> &[usize] {
        self.tree()
            .id(address)
            .map_or(&[], |id| self.ops_in.row(id as usize))
    }

    /// Children of `address` that ran, in flow order.
    pub(crate) fn children_in_flow(&self, address: &str) -> Vec<String> {
        self.tree()
            .id(address)
            .map(|id| {
                self.children_flow
                    .row(id as usize)
                    .iter()
                    .map(|&child| self.tree().record(child as ModuleId).address.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Drawn nodes a box of `address` would hold (its own single op stays outside).
    fn held(&self, address: &str) -> usize {
        self.fact(&self.held, address, 0)
    }

    /// Nodes saved by boxing `address` (its held nodes become one box per call).
    fn saving(&self, address: &str) -> usize {
        self.held(address).saturating_sub(self.box_nodes(address))
    }

    /// Can module `id` be boxed: not the root, more than one op, not a wrapper of a single
    /// child holding the very same ops, and its box saves at least one node.
    fn boxable(&self, id: ModuleId) -> bool {
        let tree = self.tree();
        let count = tree.op_count_of(id);
        let module = tree.record(id);
        let wrapper = module.children.len() == 1 && tree.op_count(&module.children[0]) == count;
        let index = id as usize;
        let saving = self.held[index].saturating_sub(self.box_nodes[index].max(1));
        module.parent.is_some() && count > 1 && !wrapper && saving > 0
    }

    /// The outermost module holding exactly the operations of `id`: its parent while the
    /// parent only wraps it (one child, no operations of its own). A box is named after it
    /// (`@inc (DoubleConv)`, not its only child `@inc.net (Sequential)`); the top-level
    /// model is never one.
    fn outermost_wrapper(&self, mut id: ModuleId) -> ModuleId {
        let tree = self.tree();
        while let Some(parent) = tree.record(id).parent.as_deref().and_then(|p| tree.id(p)) {
            let record = tree.record(parent);
            let wraps = record.parent.is_some()
                && record.children.len() == 1
                && tree.op_count_of(parent) == tree.op_count_of(id);
            if !wraps {
                break;
            }
            id = parent;
        }
        id
    }

    /// Boxes from the top down wherever a box hides at most `limit` of the operations.
    fn frontier(&self, limit: f64) -> Vec<String> {
        let tree = self.tree();
        let mut boxes = Vec::new();
        let root = tree
            .id("self")
            .map_or(&[][..], |id| self.children_flow.row(id as usize));
        let mut stack: Vec<usize> = root.iter().rev().copied().collect();
        while let Some(index) = stack.pop() {
            let id = index as ModuleId;
            if self.share_of(id) <= limit && self.boxable(id) {
                boxes.push(tree.record(self.outermost_wrapper(id)).address.clone());
            } else {
                stack.extend(self.children_flow.row(index).iter().rev());
            }
        }
        boxes
    }

    /// How the children of `parent` connect to each other.
    pub(crate) fn sibling_links(&self, parent: &str) -> Rc<SiblingLinks> {
        if let Some(links) = self.links.borrow().get(parent) {
            return Rc::clone(links);
        }
        let links = Rc::new(self.compute_sibling_links(parent));
        self.links
            .borrow_mut()
            .insert(parent.to_owned(), Rc::clone(&links));
        links
    }

    /// [`Facts::sibling_links`], in one pass over the parent's ops.
    fn compute_sibling_links(&self, parent: &str) -> SiblingLinks {
        let siblings = self.children_in_flow(parent);
        let parent_id = self.tree().id(parent);
        // Siblings sit at this position of an op's path, right below the parent.
        let level = parent_id.map_or(0, |id| self.tree().record(id).depth as usize);
        let member = |op: usize| {
            let path = self.index.tree.path_ids(op);
            let sibling = *path.get(level)?;
            let under_parent = level == 0 || Some(path[level - 1]) == parent_id;
            under_parent.then(|| self.rank[sibling as usize])
        };
        let n = siblings.len();
        let mut linked = vec![true; n];
        let mut sources: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut exits: Vec<Vec<usize>> = vec![Vec::new(); n];
        let ops: Vec<usize> = if parent == "self" {
            (0..self.trace().ops.len()).collect()
        } else {
            self.ops_in(parent).to_vec()
        };
        // Context: an op outside every sibling that feeds several of them (a decoder's
        // rotary cos and sin, an attention mask). A run of blocks sharing it is still a
        // chain: it passes the hidden state from one to the next.
        let mut fed: FxHashMap<usize, usize> = FxHashMap::default();
        let mut context: FxHashSet<usize> = FxHashSet::default();
        for &op in &ops {
            let Some(k) = member(op) else { continue };
            for &parent_op in self.index.parents(op).iter().filter(|&&p| !self.hidden[p]) {
                if member(parent_op).is_none() {
                    match fed.insert(parent_op, k) {
                        Some(before) if before != k => {
                            context.insert(parent_op);
                        }
                        _ => {}
                    }
                }
            }
        }
        for op in ops {
            let Some(k) = member(op) else { continue };
            let read = self.index.parents(op).iter();
            for &parent_op in read.filter(|&&p| !self.hidden[p] && !context.contains(&p)) {
                let from = member(parent_op);
                // Sources of a member: everything feeding it from outside, the previous
                // sibling included.
                if from != Some(k) {
                    sources[k].push(parent_op);
                }
                if from != Some(k) && from != k.checked_sub(1) {
                    linked[k] = false;
                }
            }
            let read_by = self.index.children(op).iter();
            for &child in read_by.filter(|&&c| !self.hidden[c] && !self.grouped_output[c]) {
                let to = member(child);
                if to != Some(k) {
                    exits[k].push(op);
                    if to != Some(k + 1) && k + 1 < n {
                        linked[k + 1] = false;
                    }
                }
            }
        }
        let distinct = |mut ops: Vec<usize>| {
            ops.sort_unstable();
            ops.dedup();
            ops.len()
        };
        SiblingLinks {
            sources: sources.into_iter().map(distinct).collect(),
            exits: exits.into_iter().map(distinct).collect(),
            linked,
            siblings,
        }
    }

    /// Capsules over chains of at least [`MIN_SEGMENT`] consecutive sibling boxes, each
    /// hiding at most `limit` of the operations: per parent its longest chain and, when the
    /// parent is a module that ran (ViT's `encoder.layers`, a Sequential the model calls),
    /// then the longest among the siblings left, until none is left: twelve encoder layers
    /// too many for one capsule become two. The children of a container that never ran
    /// (a `ModuleList` the model indexes) keep one capsule, the rest drawn as boxes.
    fn capsules(&self, boxes: &[String], limit: f64) -> Vec<Vec<String>> {
        let boxed: FxHashSet<&str> = boxes.iter().map(String::as_str).collect();
        let mut capsules = Vec::new();
        let mut parents: Vec<String> = boxes.iter().map(|b| parent_of(b)).collect();
        parents.dedup();
        for parent in parents {
            let links = self.sibling_links(&parent);
            let ran = self
                .tree()
                .id(&parent)
                .is_some_and(|id| self.tree().record(id).num_calls > 0 && !parent.is_empty());
            let mut taken = vec![false; links.siblings.len()];
            while let Some((start, end)) = self.longest_segment(&links, &boxed, &taken, limit) {
                taken[start..=end].iter_mut().for_each(|t| *t = true);
                capsules.push(links.siblings[start..=end].to_vec());
                if !ran {
                    break;
                }
            }
        }
        capsules
    }

    /// The longest legal chain of boxed siblings none of which is `taken`.
    fn longest_segment(
        &self,
        links: &SiblingLinks,
        boxed: &FxHashSet<&str>,
        taken: &[bool],
        limit: f64,
    ) -> Option<(usize, usize)> {
        let siblings = &links.siblings;
        let usable = |k: usize| !taken[k] && boxed.contains(siblings[k].as_str());
        // Sliding window: the furthest reachable end only moves forward with the start.
        let mut best: Option<(usize, usize)> = None;
        let mut end = 0;
        let mut window_ops = 0;
        for start in 0..siblings.len() {
            if end < start {
                end = start;
                window_ops = 0;
            }
            if !usable(start) {
                continue;
            }
            if end == start && window_ops == 0 {
                window_ops = self.tree().op_count(&siblings[start]);
            }
            while end + 1 < siblings.len()
                && usable(end + 1)
                && links.linked[end + 1]
                && (window_ops + self.tree().op_count(&siblings[end + 1])) as f64
                    / self.total_ops as f64
                    <= limit
            {
                end += 1;
                window_ops += self.tree().op_count(&siblings[end]);
            }
            let fits = window_ops as f64 / self.total_ops as f64 <= limit;
            if links.sources[start] == 1 && fits {
                // The window is linked throughout; the longest legal run from this start
                // ends at its last member with a single exit.
                let last = (start + MIN_SEGMENT - 1..=end)
                    .rev()
                    .find(|&e| links.exits[e] == 1);
                if let Some(last) = last {
                    if best.is_none_or(|(s, e)| last - start > e - s) {
                        best = Some((start, last));
                    }
                }
            }
            window_ops -= self.tree().op_count(&siblings[start]);
        }
        best
    }

    /// The most operations one capsule may hide at `limit`.
    fn most_in_capsule(&self, limit: f64) -> usize {
        ((limit * self.total_ops as f64).floor() as usize).max(MIN_SEGMENT)
    }

    /// Capsules over runs of at least [`MIN_SEGMENT`] operations (the guide: a box that
    /// "stands for a run of operations and names its first and last operation, how many it
    /// holds and the modules it spans"), hiding at most `limit` of the operations. A run is a
    /// stretch of operations drawn one after another (condition tests included, as TorchLens
    /// passes them): consecutive in the drawing's order, where every arrow points forward, so
    /// no path leaves a run and comes back, and one node can stand for it. Runs may cross
    /// module frames (ViT's patch embedding into the encoder's first add and dropout); the
    /// capsule sits in the frames all its operations share. A stretch longer than a capsule
    /// may hide is cut into consecutive pieces that may.
    fn op_runs(&self, plan: &Plan, limit: f64) -> Vec<Vec<String>> {
        let options = VisibilityOptions {
            buffers: self.buffers,
            plan: Some(plan.clone()),
            ..VisibilityOptions::default()
        };
        let graph = visible_graph_with(self.index, self.hidden.clone(), &options)
            .expect("plans without focus always draw");
        let plain_op = |node: &crate::Node| match node.kind {
            crate::NodeKind::Op(op) => (self.trace().ops[op].kind == OpKind::Op).then_some(op),
            _ => None,
        };
        let most = self.most_in_capsule(limit);
        let mut runs: Vec<Vec<String>> = Vec::new();
        let mut run: Vec<String> = Vec::new();
        let mut close = |run: &mut Vec<String>| {
            if run.len() >= MIN_SEGMENT && run.len() as f64 / self.total_ops as f64 <= limit {
                runs.push(std::mem::take(run));
            }
            run.clear();
        };
        for node in &graph.nodes {
            match plain_op(node) {
                Some(op) => {
                    if run.len() == most {
                        close(&mut run);
                    }
                    run.push(self.trace().ops[op].label.clone());
                }
                None => close(&mut run),
            }
        }
        close(&mut run);
        runs
    }

    /// Nodes drawn for a plan: exact, through the visible graph.
    pub(crate) fn count(&self, plan: &Plan) -> usize {
        let options = VisibilityOptions {
            buffers: self.buffers,
            plan: Some(plan.clone()),
            ..VisibilityOptions::default()
        };
        visible_graph_with(self.index, self.hidden.clone(), &options)
            .expect("plans without focus always draw")
            .nodes
            .len()
    }

    /// Nodes drawn when only these (non-nested) modules are boxed, without drawing.
    fn count_boxes(&self, boxes: &[String]) -> usize {
        self.full - boxes.iter().map(|b| self.saving(b)).sum::<usize>()
    }

    /// Boxes a module is drawn as (one per call, one for a container).
    fn box_nodes(&self, address: &str) -> usize {
        self.fact(&self.box_nodes, address, 1).max(1)
    }

    /// Nodes drawn for a plan of boxes and capsules (no op capsules), without drawing: a
    /// capsule holds every drawn op of its members, own ops included.
    fn count_groups(&self, plan: &Plan) -> usize {
        let in_capsules: usize = plan
            .capsules
            .iter()
            .map(|capsule| {
                let held: usize = capsule
                    .iter()
                    .flat_map(|member| self.ops_in(member))
                    .filter(|&&op| !self.hidden[op])
                    .count();
                held.saturating_sub(1)
            })
            .sum();
        self.count_boxes(&plan.boxes).saturating_sub(in_capsules)
    }

    /// Box cost: lower folds earlier (the guide's collapse schedule: grain, generic, dominance).
    fn cost(&self, address: &str, grain_target: f64) -> f64 {
        let grain = ((1.0 + self.held(address) as f64).log2() - grain_target).powi(2)
            / 65f64.log2().powi(2);
        let generic = self
            .tree()
            .module(address)
            .is_some_and(|m| GENERIC.contains(&m.class_name.as_str()));
        let share = self.share(address);
        let dominance = if share <= 0.6 {
            0.0
        } else {
            ((share - 0.6) / 0.4).min(1.0)
        };
        let cost = grain + 0.15 * f64::from(u8::from(generic)) + 1.5 * dominance;
        (cost * 1e6).round() / 1e6
    }
}

fn parent_of(address: &str) -> String {
    address
        .rsplit_once('.')
        .map_or_else(|| "self".to_owned(), |(parent, _)| parent.to_owned())
}

/// The most condensed legal plan and its node count.
fn max_plan(facts: &Facts<'_, '_>) -> (Plan, usize) {
    let mut best: Option<(Plan, usize)> = None;
    for (limit, ceiling) in LEVELS {
        let frontier = facts.frontier(limit);
        let capsules = facts.capsules(&frontier, limit);
        let in_capsules: FxHashSet<&String> = capsules.iter().flatten().collect();
        let boxes: Vec<String> = frontier
            .iter()
            .filter(|b| !in_capsules.contains(b))
            .cloned()
            .collect();
        let loops = facts.loops_beside(&boxes, &capsules);
        let mut plan = Plan {
            boxes,
            capsules,
            op_capsules: facts.outputs.clone(),
            loops,
            ..Plan::default()
        };
        // Op capsules can at best fold the plain operations into pieces of the most a
        // capsule may hide: skip the exact (drawing) count when even that cannot bring the
        // plan within the ceiling. (A loop folds what this does not count: count it.)
        let groups: usize = plan.boxes.iter().map(|b| facts.box_nodes(b)).sum::<usize>()
            + plan.capsules.len()
            + plan.op_capsules.len();
        let plain = facts
            .count_groups(&plan)
            .saturating_sub(groups + facts.output_saving);
        if plan.loops.is_empty() && groups + plain.div_ceil(facts.most_in_capsule(limit)) > ceiling
        {
            continue;
        }
        let runs = facts.op_runs(&plan, limit);
        plan.op_capsules.extend(runs);
        let count = facts.count(&plan);
        let legal = (MIN_NODES..=ceiling).contains(&count);
        if legal && best.as_ref().is_none_or(|(_, c)| count < *c) {
            best = Some((plan, count));
        }
    }
    best.unwrap_or_else(|| {
        // No legal plan: the largest boxes, whatever they hide.
        let boxes = facts.frontier(1.0);
        let loops = facts.loops_beside(&boxes, &[]);
        let plan = Plan {
            boxes,
            op_capsules: facts.outputs.clone(),
            loops,
            ..Plan::default()
        };
        let count = if plan.loops.is_empty() {
            facts
                .count_boxes(&plan.boxes)
                .saturating_sub(facts.output_saving)
        } else {
            facts.count(&plan)
        };
        (plan, count)
    })
}

/// Adds the loop of calls of `address` to `plan` and says so; the nodes it then draws,
/// counted exactly (what a loop saves depends on what runs between its calls).
fn fold_loop(
    facts: &Facts<'_, '_>,
    plan: &mut Plan,
    address: &str,
    pending: &mut Vec<String>,
) -> usize {
    plan.loops.push(address.to_owned());
    let steps = facts
        .loops
        .iter()
        .find(|call_loop| call_loop.address == address)
        .map_or(0, |call_loop| call_loop.calls.len());
    pending.push(format!(
        "loop over @{address}: {} later steps as one node",
        steps.saturating_sub(1)
    ));
    facts.count(plan)
}

/// Level of a stop drawing `visible` nodes: equal steps fold by equal ratios.
fn level(full: usize, visible: usize, max: usize) -> f64 {
    if full <= max {
        return 0.0;
    }
    let t = (full as f64 / visible as f64).ln() / (full as f64 / max as f64).ln();
    (t.clamp(0.0, 1.0) * 1e6).round() / 1e6
}

impl Schedule {
    /// The schedule of `trace` with buffers shown as `buffers` says; the trace is validated.
    pub fn build(trace: &Trace, buffers: BufferVisibility) -> Result<Schedule, TraceError> {
        Ok(Schedule::build_with(&TraceIndex::validate(trace)?, buffers))
    }

    /// [`Schedule::build`] over an existing index (shared with the visible graph drawn
    /// from the chosen stop).
    pub fn build_with(index: &TraceIndex<'_>, buffers: BufferVisibility) -> Schedule {
        let facts = Facts::new(index, buffers);
        let full = facts.full;
        let (max, max_count) = max_plan(&facts);
        let mut stops = vec![Stop {
            level: 0.0,
            nodes: full,
            plan: Plan::default(),
            folds: Vec::new(),
        }];
        if max_count >= full {
            return Schedule { stops };
        }
        // Interior stops: the max plan's modules boxed one at a time, cheapest first.
        let mut events: Vec<String> = max
            .boxes
            .iter()
            .chain(max.capsules.iter().flatten())
            .cloned()
            .collect();
        let grain_target = events
            .iter()
            .map(|a| (1.0 + facts.held(a) as f64).log2())
            .sum::<f64>()
            / events.len().max(1) as f64;
        let costs: HashMap<String, f64> = events
            .iter()
            .map(|a| (a.clone(), facts.cost(a, grain_target)))
            .collect();
        events.sort_by(|a, b| {
            costs[a]
                .total_cmp(&costs[b])
                .then(facts.first_op(a).cmp(&facts.first_op(b)))
        });
        // Every folded stop draws each run of alike outputs as one node.
        let mut plan = Plan {
            op_capsules: facts.outputs.clone(),
            ..Plan::default()
        };
        let mut pending: Vec<String> = facts
            .outputs
            .iter()
            .map(|run| {
                format!(
                    "{} outputs {} ... {} as one node",
                    run.len(),
                    run[0],
                    run[run.len() - 1]
                )
            })
            .collect();
        let mut saved = facts.output_saving;
        let push_stop =
            |stops: &mut Vec<Stop>, saved: usize, plan: &Plan, pending: &mut Vec<String>| {
                let visible = full - saved;
                let previous = stops.last().map_or(usize::MAX, |s| s.nodes);
                if visible < previous && visible > max_count {
                    stops.push(Stop {
                        level: level(full, visible, max_count),
                        nodes: visible,
                        plan: plan.clone(),
                        folds: std::mem::take(pending),
                    });
                }
            };
        // Loops a box of the max plan hides (a Mixtral layer's loop over its experts) fold
        // first, while the modules around them are still open.
        let inner: Vec<&str> = facts
            .loops
            .iter()
            .map(|call_loop| call_loop.address.as_str())
            .filter(|address| !max.loops.iter().any(|looped| looped == address))
            .collect();
        for address in &inner {
            saved = full - fold_loop(&facts, &mut plan, address, &mut pending);
            push_stop(&mut stops, saved, &plan, &mut pending);
        }
        for address in events {
            plan.boxes.push(address.clone());
            pending.push(format!("module box @{address}"));
            if inner.is_empty() {
                // The max plan's modules are not nested: savings add up.
                saved += facts.saving(&address);
            } else {
                // A box may hide a folded loop: count exactly.
                plan.loops
                    .retain(|looped| !facts.loop_enclosing(looped).contains(&address));
                saved = full - facts.count(&plan);
            }
            push_stop(&mut stops, saved, &plan, &mut pending);
            if max.loops.contains(&address) {
                saved = full - fold_loop(&facts, &mut plan, &address, &mut pending);
                push_stop(&mut stops, saved, &plan, &mut pending);
            }
        }
        // Loops of modules not boxed (an RNN's per-step `Linear`s): after every box.
        for address in &max.loops {
            if !plan.loops.contains(address) {
                saved = full - fold_loop(&facts, &mut plan, address, &mut pending);
                push_stop(&mut stops, saved, &plan, &mut pending);
            }
        }
        pending.extend(
            max.capsules
                .iter()
                .map(|s| format!("segment {}", s.join(", "))),
        );
        pending.extend(
            max.op_capsules
                .iter()
                .filter(|s| !facts.outputs.contains(s))
                .map(|s| format!("op segment {} ... {}", s[0], s[s.len() - 1])),
        );
        stops.push(Stop {
            level: 1.0,
            nodes: max_count,
            plan: max,
            folds: pending,
        });
        Schedule { stops }
    }

    /// The full drawing's stop.
    pub fn none(&self) -> &Stop {
        &self.stops[0]
    }

    /// The `"max"` stop.
    pub fn max(&self) -> &Stop {
        self.stops.last().expect("a schedule has at least one stop")
    }

    /// The stop for a level: the last stop whose `level` is at most `level`.
    pub fn at(&self, level: f64) -> &Stop {
        if level >= 1.0 {
            return self.max();
        }
        self.stops
            .iter()
            .rev()
            .find(|stop| stop.level <= level)
            .unwrap_or(self.none())
    }

    /// `"auto"`: the first stop within the readable band, else `"max"`.
    pub fn auto(&self, band: usize) -> &Stop {
        self.stops
            .iter()
            .find(|stop| stop.nodes <= band)
            .unwrap_or(self.max())
    }
}
