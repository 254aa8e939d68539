//! The collapse schedule: folding steps ordered cheapest-first, mapped to levels 0.0..=1.0
//! by equal ratios, with `"auto"` and `"max"` (drawing-spec 3.3-3.6).
//!
//! `max` is the most condensed legal plan: modules are boxed from the top of the tree down
//! wherever a box hides at most a dominance limit of the operations (0.60, then 0.75), and
//! runs of consecutive sibling boxes that chain into each other become one dashed capsule
//! under the same limit; a plan is legal when it draws between 3 and 12 nodes (20 at the
//! last level). When no plan is legal, the largest boxes are used whatever they hide. The
//! interior steps box the max plan's modules one at a time, cheapest first (box cost:
//! grain, generic containers, dominance), keeping each step that lowers the node count.

use std::collections::HashMap;

use tl_trace_model::{OpKind, Trace};

use crate::{hidden_ops, visible_graph, BufferVisibility, ModuleTree, Plan, VisibilityOptions};

/// One stop of the schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Level: 0.0 for the full drawing, 1.0 for `"max"`.
    pub t: f64,
    /// Nodes drawn at this stop.
    pub visible: usize,
    /// What is folded.
    pub plan: Plan,
    /// What this stop folds beyond the previous one (`module box @blocks.0`).
    pub events: Vec<String>,
}

/// The stops from the full drawing (first) to `"max"` (last).
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    /// Stops with strictly increasing `t` and strictly decreasing `visible`.
    pub steps: Vec<Step>,
}

/// Dominance limits and node-count ceilings of the max search, in order.
const LEVELS: [(f64, usize); 3] = [(0.60, 12), (0.75, 12), (0.75, 20)];
/// The fewest members of a capsule ("a run of consecutive blocks").
const MIN_SEGMENT: usize = 3;
/// The fewest nodes a condensed drawing keeps.
const MIN_NODES: usize = 3;
/// Containers whose box says little about the model.
const GENERIC: [&str; 4] = ["Sequential", "ModuleList", "ModuleDict", "ParameterList"];

/// Readable size: 25 nodes for traces of more than 100 operations, else 40.
pub fn readable_band(num_ops: u64) -> usize {
    if num_ops > 100 {
        25
    } else {
        40
    }
}

/// Facts the planner reads, computed once.
pub(crate) struct Facts<'t> {
    pub(crate) trace: &'t Trace,
    pub(crate) tree: ModuleTree,
    pub(crate) hidden: Vec<bool>,
    /// Per op: its module path (outermost first).
    pub(crate) paths: Vec<Vec<String>>,
    /// Per module address: index of the first op run inside it.
    pub(crate) first_op: HashMap<String, usize>,
    /// Operations in the trace.
    total_ops: usize,
    buffers: BufferVisibility,
}

impl<'t> Facts<'t> {
    pub(crate) fn new(trace: &'t Trace, buffers: BufferVisibility) -> Facts<'t> {
        let tree = ModuleTree::new(trace);
        let paths: Vec<Vec<String>> = trace.ops.iter().map(|op| tree.path_of(op)).collect();
        let mut first_op = HashMap::new();
        for (i, path) in paths.iter().enumerate() {
            for address in path {
                first_op.entry(address.clone()).or_insert(i);
            }
        }
        Facts {
            trace,
            tree,
            hidden: hidden_ops(trace, buffers),
            paths,
            first_op,
            total_ops: trace
                .ops
                .iter()
                .filter(|op| op.kind == OpKind::Op)
                .count()
                .max(1),
            buffers,
        }
    }

    fn share(&self, address: &str) -> f64 {
        self.tree.op_count(address) as f64 / self.total_ops as f64
    }

    /// Children of `address` that ran, in flow order.
    pub(crate) fn children_in_flow(&self, address: &str) -> Vec<String> {
        let mut children: Vec<String> = self
            .tree
            .module(address)
            .map(|m| m.children.clone())
            .unwrap_or_default()
            .into_iter()
            .filter(|child| self.first_op.contains_key(child))
            .collect();
        children.sort_by_key(|child| self.first_op[child]);
        children
    }

    /// Drawn nodes a box of `address` would hold (its own single op stays outside).
    fn held(&self, address: &str) -> usize {
        self.trace
            .ops
            .iter()
            .enumerate()
            .filter(|(i, op)| {
                let path = &self.paths[*i];
                let trimmed = if op.is_atomic_module && !path.is_empty() {
                    &path[..path.len() - 1]
                } else {
                    &path[..]
                };
                !self.hidden[*i] && trimmed.iter().any(|a| a == address)
            })
            .count()
    }

    /// Can `address` be boxed: not the root, more than one op, not a wrapper of a single
    /// child holding the very same ops, and its box holds more than one node.
    fn boxable(&self, address: &str) -> bool {
        let count = self.tree.op_count(address);
        let Some(module) = self.tree.module(address) else {
            return false;
        };
        let wrapper =
            module.children.len() == 1 && self.tree.op_count(&module.children[0]) == count;
        module.parent.is_some() && count > 1 && !wrapper && self.held(address) > 1
    }

    /// Boxes from the top down wherever a box hides at most `limit` of the operations.
    fn frontier(&self, limit: f64) -> Vec<String> {
        let mut boxes = Vec::new();
        let mut stack: Vec<String> = self.children_in_flow("self").into_iter().rev().collect();
        while let Some(address) = stack.pop() {
            if self.boxable(&address) && self.share(&address) <= limit {
                boxes.push(address);
            } else {
                stack.extend(self.children_in_flow(&address).into_iter().rev());
            }
        }
        boxes
    }

    /// Do these consecutive sibling modules form one chain: one outside op feeding the
    /// first, one op of the last feeding the outside, each member feeding only the next?
    pub(crate) fn is_chain(&self, members: &[String]) -> bool {
        let member_of = |i: usize| members.iter().position(|m| self.paths[i].contains(m));
        let index: HashMap<&str, usize> = self
            .trace
            .ops
            .iter()
            .enumerate()
            .map(|(i, op)| (op.label.as_str(), i))
            .collect();
        let mut sources = Vec::new();
        let mut exits = Vec::new();
        for (i, op) in self.trace.ops.iter().enumerate() {
            let Some(member) = member_of(i) else { continue };
            for parent in op
                .parents
                .iter()
                .map(|p| index[p.as_str()])
                .filter(|&p| !self.hidden[p])
            {
                match member_of(parent) {
                    None if member != 0 => return false,
                    None if !sources.contains(&parent) => sources.push(parent),
                    Some(from) if from != member && from + 1 != member => return false,
                    _ => {}
                }
            }
            for child in op
                .children
                .iter()
                .map(|c| index[c.as_str()])
                .filter(|&c| !self.hidden[c])
            {
                if member_of(child).is_none() {
                    if member != members.len() - 1 {
                        return false;
                    }
                    if !exits.contains(&i) {
                        exits.push(i);
                    }
                }
            }
        }
        sources.len() == 1 && exits.len() == 1
    }

    /// One capsule per parent: its longest chain of at least [`MIN_SEGMENT`] consecutive
    /// sibling boxes hiding at most `limit` of the operations.
    fn segments(&self, boxes: &[String], limit: f64) -> Vec<Vec<String>> {
        let mut segments = Vec::new();
        let mut parents: Vec<String> = boxes.iter().map(|b| parent_of(b)).collect();
        parents.dedup();
        for parent in parents {
            let siblings = self.children_in_flow(&parent);
            let mut best: Option<(usize, usize)> = None;
            for start in 0..siblings.len() {
                let mut hidden_ops = 0;
                for end in start..siblings.len() {
                    if !boxes.contains(&siblings[end]) {
                        break;
                    }
                    hidden_ops += self.tree.op_count(&siblings[end]);
                    if hidden_ops as f64 / self.total_ops as f64 > limit {
                        break;
                    }
                    let long_enough = end + 1 - start >= MIN_SEGMENT;
                    let longer = best.is_none_or(|(s, e)| end - start > e - s);
                    if long_enough && longer && self.is_chain(&siblings[start..=end]) {
                        best = Some((start, end));
                    }
                }
            }
            if let Some((start, end)) = best {
                segments.push(siblings[start..=end].to_vec());
            }
        }
        segments
    }

    pub(crate) fn count(&self, plan: &Plan) -> usize {
        let options = VisibilityOptions {
            buffers: self.buffers,
            plan: Some(plan.clone()),
            ..VisibilityOptions::default()
        };
        visible_graph(self.trace, &options)
            .expect("plans without focus always draw")
            .nodes
            .len()
    }

    /// Box cost: lower folds earlier (drawing-spec 3.4: grain, generic, dominance).
    fn cost(&self, address: &str, grain_target: f64) -> f64 {
        let grain = ((1.0 + self.held(address) as f64).log2() - grain_target).powi(2)
            / 65f64.log2().powi(2);
        let generic = self
            .tree
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
fn max_plan(facts: &Facts<'_>) -> (Plan, usize) {
    let mut best: Option<(Plan, usize)> = None;
    for (limit, ceiling) in LEVELS {
        let frontier = facts.frontier(limit);
        let segments = facts.segments(&frontier, limit);
        let plan = Plan {
            boxes: frontier
                .into_iter()
                .filter(|b| !segments.iter().any(|s| s.contains(b)))
                .collect(),
            segments,
            folds: Vec::new(),
        };
        let count = facts.count(&plan);
        let legal = (MIN_NODES..=ceiling).contains(&count);
        if legal && best.as_ref().is_none_or(|(_, c)| count < *c) {
            best = Some((plan, count));
        }
    }
    best.unwrap_or_else(|| {
        // No legal plan: the largest boxes, whatever they hide.
        let plan = Plan {
            boxes: facts.frontier(1.0),
            ..Plan::default()
        };
        let count = facts.count(&plan);
        (plan, count)
    })
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
    /// The schedule of `trace` with buffers shown as `buffers` says.
    pub fn build(trace: &Trace, buffers: BufferVisibility) -> Schedule {
        let facts = Facts::new(trace, buffers);
        let full = facts.count(&Plan::default());
        let (max, max_count) = max_plan(&facts);
        let mut steps = vec![Step {
            t: 0.0,
            visible: full,
            plan: Plan::default(),
            events: Vec::new(),
        }];
        if max_count >= full {
            return Schedule { steps };
        }
        // Interior steps: the max plan's modules boxed one at a time, cheapest first.
        let mut events: Vec<String> = max
            .boxes
            .iter()
            .chain(max.segments.iter().flatten())
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
                .then(facts.first_op[a].cmp(&facts.first_op[b]))
        });
        let mut plan = Plan::default();
        let mut pending = Vec::new();
        for address in events {
            plan.boxes.push(address.clone());
            pending.push(format!("module box @{address}"));
            let visible = facts.count(&plan);
            let previous = steps.last().map_or(usize::MAX, |s| s.visible);
            if visible < previous && visible > max_count {
                steps.push(Step {
                    t: level(full, visible, max_count),
                    visible,
                    plan: plan.clone(),
                    events: std::mem::take(&mut pending),
                });
            }
        }
        pending.extend(
            max.segments
                .iter()
                .map(|s| format!("segment {}", s.join(", "))),
        );
        steps.push(Step {
            t: 1.0,
            visible: max_count,
            plan: max,
            events: pending,
        });
        Schedule { steps }
    }

    /// The full drawing's stop.
    pub fn none(&self) -> &Step {
        &self.steps[0]
    }

    /// The `"max"` stop.
    pub fn max(&self) -> &Step {
        self.steps.last().expect("a schedule has at least one stop")
    }

    /// The stop for a level: the last stop whose `t` is at most `level`.
    pub fn at(&self, level: f64) -> &Step {
        if level >= 1.0 {
            return self.max();
        }
        self.steps
            .iter()
            .rev()
            .find(|step| step.t <= level)
            .unwrap_or(self.none())
    }

    /// `"auto"`: the first stop within the readable band, else `"max"`.
    pub fn auto(&self, band: usize) -> &Step {
        self.steps
            .iter()
            .find(|step| step.visible <= band)
            .unwrap_or(self.max())
    }
}
