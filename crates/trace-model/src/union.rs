//! The union of several traces of one model (the guide's bundle union drawings): one trace
//! holding every operation any member ran, with which members ran each; and several traces
//! as a bundle without differences ([`union_bundle`]).
//!
//! Two members' records are the same node when they have the same label, layer type and
//! module (TorchLens labels layers by order, so `linear_1_3` can be another module's linear
//! in a member that took another branch: such a record joins as `linear_1_3@<member>`).
//! A joined record takes the parents every member gave it. Backward steps join the same way
//! (label, step type and the forward layer they differentiate).

use std::collections::{HashMap, HashSet};

use crate::{ArgSlot, Bundle, BundleMember, OpRecord, Trace, TraceError};

/// A merged trace and, per op label and per backward step label, the members that ran it.
#[derive(Debug)]
pub struct Union {
    /// Every operation any member ran, validated.
    pub trace: Trace,
    /// Per op label of [`Union::trace`], the members that ran it.
    pub ran_op: HashMap<String, Vec<String>>,
    /// Per backward step label, the members that ran it.
    pub ran_step: HashMap<String, Vec<String>>,
}

/// Why members did not join.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum UnionError {
    /// No member was named.
    #[error("name at least one member")]
    NoMembers,
    /// The joined trace did not validate.
    #[error("the members' traces do not join into one graph ({0}); draw them one by one, or compare them with graph=\"diff\"")]
    Invalid(TraceError),
}

impl UnionError {
    /// The stable code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            UnionError::NoMembers => "bundle_member_unknown",
            UnionError::Invalid(_) => "bundle_union_invalid",
        }
    }
}

/// Several traces of one model as a bundle without differences (union drawings only), the
/// first the baseline; repeated names get `_2`, `_3`, ...
pub fn union_bundle(traces: Vec<(String, Trace)>) -> Bundle {
    let mut members: Vec<BundleMember> = Vec::new();
    for (stem, trace) in traces {
        let mut name = stem.clone();
        let mut copy = 2;
        while members.iter().any(|m| m.name == name) {
            name = format!("{stem}_{copy}");
            copy += 1;
        }
        members.push(BundleMember { name, trace });
    }
    Bundle {
        format: crate::BUNDLE_FORMAT.to_owned(),
        version: crate::FORMAT_VERSION,
        baseline: members.first().map(|m| m.name.clone()).unwrap_or_default(),
        members,
        deltas: Vec::new(),
    }
}

/// What makes two members' records one node.
fn op_key(op: &OpRecord) -> (&str, Option<&str>, crate::OpKind) {
    let module = op
        .modules
        .last()
        .map(|call| call.rsplit_once(':').map_or(call.as_str(), |(a, _)| a));
    (op.layer_type.as_str(), module, op.kind)
}

/// The union of `members` (the first one's records and order first).
pub fn union(members: &[&BundleMember]) -> Result<Union, UnionError> {
    let first = members.first().ok_or(UnionError::NoMembers)?;
    let mut merged = first.trace.clone();
    let mut ran_op: HashMap<String, Vec<String>> = merged
        .ops
        .iter()
        .map(|op| (op.label.clone(), vec![first.name.clone()]))
        .collect();
    let mut ran_step: HashMap<String, Vec<String>> = merged
        .backward
        .iter()
        .flat_map(|b| &b.grad_fns)
        .map(|g| (g.label.clone(), vec![first.name.clone()]))
        .collect();
    for member in &members[1..] {
        let rename = join_ops(&mut merged, &member.trace, &member.name, &mut ran_op);
        join_modules(&mut merged, &member.trace);
        join_conditionals(&mut merged, &member.trace, &rename);
        join_backward(
            &mut merged,
            &member.trace,
            &member.name,
            &rename,
            &mut ran_step,
        );
    }
    drop_alternative_slots(&mut merged);
    rebuild_links(&mut merged);
    merged.summary = merged.computed_summary();
    merged.validate().map_err(UnionError::Invalid)?;
    Ok(Union {
        trace: merged,
        ran_op,
        ran_step,
    })
}

/// Adds `other`'s ops to `merged`; returns how its labels map to merged labels.
fn join_ops(
    merged: &mut Trace,
    other: &Trace,
    member: &str,
    ran: &mut HashMap<String, Vec<String>>,
) -> HashMap<String, String> {
    let mut position: HashMap<String, usize> = merged
        .ops
        .iter()
        .enumerate()
        .map(|(i, op)| (op.label.clone(), i))
        .collect();
    let calls: HashSet<String> = merged
        .module_calls
        .iter()
        .map(|c| c.label.clone())
        .collect();
    for call in &other.module_calls {
        if !calls.contains(&call.label) {
            merged.module_calls.push(call.clone());
        }
    }
    let params: HashSet<String> = merged.params.iter().map(|p| p.address.clone()).collect();
    for param in &other.params {
        if !params.contains(&param.address) {
            merged.params.push(param.clone());
        }
    }
    let mut rename: HashMap<String, String> = HashMap::new();
    let mut added = Vec::new();
    for op in &other.ops {
        let same = position
            .get(&op.label)
            .filter(|&&i| op_key(&merged.ops[i]) == op_key(op))
            .copied();
        let parents: Vec<String> = op
            .parents
            .iter()
            .map(|p| rename.get(p).cloned().unwrap_or_else(|| p.clone()))
            .collect();
        let label = match same {
            Some(i) => {
                // The same node: it takes the parents this member gave it too.
                let record = &mut merged.ops[i];
                for (original, parent) in op.parents.iter().zip(parents) {
                    if !record.parents.contains(&parent) {
                        // The member's own argument slots for it, never a made-up one.
                        record.arg_slots.extend(
                            op.arg_slots
                                .iter()
                                .filter(|slot| slot.parent == *original)
                                .map(|slot| ArgSlot {
                                    parent: parent.clone(),
                                    ..slot.clone()
                                }),
                        );
                        record.parents.push(parent);
                    }
                }
                op.label.clone()
            }
            None => {
                let mut record = op.clone();
                if position.contains_key(&op.label) {
                    // Labels keep their `<layer>:<pass>` form: `linear_1_3@member:1`.
                    record.layer_label = format!("{}@{member}", op.layer_label);
                    record.label = format!("{}:{}", record.layer_label, op.pass_index);
                }
                let label = record.label.clone();
                record.parents = parents;
                for slot in &mut record.arg_slots {
                    if let Some(renamed) = rename.get(&slot.parent) {
                        slot.parent = renamed.clone();
                    }
                }
                position.insert(label.clone(), merged.ops.len());
                added.push(merged.ops.len());
                merged.ops.push(record);
                label
            }
        };
        let members = ran.entry(label.clone()).or_default();
        if !members.iter().any(|m| m == member) {
            members.push(member.to_owned());
        }
        rename.insert(op.label.clone(), label);
    }
    // Arm entries name later ops (their first children): renamed once all are known.
    for &i in &added {
        for entry in &mut merged.ops[i].arm_entries {
            if let Some(renamed) = rename.get(&entry.child) {
                entry.child = renamed.clone();
            }
        }
    }
    rename
}

/// Argument slots that different members filled with different parents (the output's
/// `arg 0` was `relu` in one member and `neg` in another) are alternatives, not separate
/// arguments: their `arg` labels would read as two inputs of one call, so they are
/// dropped. Slots only one parent fills keep their labels.
fn drop_alternative_slots(merged: &mut Trace) {
    /// An argument position: `arg` path or keyword name.
    type Slot = (Option<Vec<u32>>, Option<String>);
    for op in &mut merged.ops {
        let mut fillers: HashMap<Slot, HashSet<&str>> = HashMap::new();
        for slot in &op.arg_slots {
            if slot.arg.is_some() || slot.kwarg.is_some() {
                fillers
                    .entry((slot.arg.clone(), slot.kwarg.clone()))
                    .or_default()
                    .insert(slot.parent.as_str());
            }
        }
        let shared: HashSet<Slot> = fillers
            .into_iter()
            .filter(|(_, parents)| parents.len() > 1)
            .map(|(key, _)| key)
            .collect();
        if !shared.is_empty() {
            op.arg_slots
                .retain(|slot| !shared.contains(&(slot.arg.clone(), slot.kwarg.clone())));
        }
    }
}

/// Adds the modules `other` has and `merged` lacks, and their places in the tree.
fn join_modules(merged: &mut Trace, other: &Trace) {
    let known: HashSet<String> = merged.modules.iter().map(|m| m.address.clone()).collect();
    for module in other.modules.iter().filter(|m| !known.contains(&m.address)) {
        merged.modules.push(module.clone());
    }
    let children_of: HashMap<&str, &Vec<String>> = other
        .modules
        .iter()
        .map(|m| (m.address.as_str(), &m.children))
        .collect();
    for module in &mut merged.modules {
        for child in children_of
            .get(module.address.as_str())
            .into_iter()
            .copied()
            .flatten()
        {
            if !module.children.contains(child) {
                module.children.push(child.clone());
            }
        }
    }
}

/// Adds `other`'s `if` records and the arrows into their conditions.
fn join_conditionals(merged: &mut Trace, other: &Trace, rename: &HashMap<String, String>) {
    for conditional in &other.conditionals {
        if !merged.conditionals.iter().any(|c| c.id == conditional.id) {
            merged.conditionals.push(conditional.clone());
        }
    }
    for edge in &other.conditional_branch_edges {
        let mut edge = edge.clone();
        edge.parent = rename.get(&edge.parent).cloned().unwrap_or(edge.parent);
        edge.child = rename.get(&edge.child).cloned().unwrap_or(edge.child);
        if !merged.conditional_branch_edges.contains(&edge) {
            merged.conditional_branch_edges.push(edge);
        }
    }
}

/// Adds `other`'s autograd steps: the same step when label, type and forward layer agree.
fn join_backward(
    merged: &mut Trace,
    other: &Trace,
    member: &str,
    rename: &HashMap<String, String>,
    ran: &mut HashMap<String, Vec<String>>,
) {
    let Some(theirs) = &other.backward else {
        return;
    };
    // Forward layers follow the op renames (`linear_1_3` -> `linear_1_3@member`).
    let layer_of = |label: &str| {
        label
            .rsplit_once(':')
            .map_or(label, |(layer, _)| layer)
            .to_owned()
    };
    let layer_rename: HashMap<String, String> = rename
        .iter()
        .filter(|(from, to)| from != to)
        .map(|(from, to)| (layer_of(from), layer_of(to)))
        .collect();
    let forward_layer = |layer: &Option<String>| {
        layer
            .as_ref()
            .map(|l| layer_rename.get(l).cloned().unwrap_or_else(|| l.clone()))
    };
    let ours = merged.backward.get_or_insert_with(|| crate::BackwardGraph {
        num_passes: 0,
        grad_fns: Vec::new(),
    });
    ours.num_passes = ours.num_passes.max(theirs.num_passes);
    let mut step_rename: HashMap<String, String> = HashMap::new();
    let mut added = Vec::new();
    for step in &theirs.grad_fns {
        let layer = forward_layer(&step.forward_layer);
        let existing = ours.grad_fns.iter().position(|g| g.label == step.label);
        let same = existing.filter(|&i| {
            ours.grad_fns[i].grad_type == step.grad_type && ours.grad_fns[i].forward_layer == layer
        });
        let label = match (same, existing) {
            (Some(_), _) => step.label.clone(),
            (None, Some(_)) => format!("{}@{member}", step.label),
            (None, None) => step.label.clone(),
        };
        if same.is_none() {
            let mut record = step.clone();
            record.label = label.clone();
            record.forward_layer = layer;
            added.push(record);
        }
        step_rename.insert(step.label.clone(), label.clone());
        let members = ran.entry(label).or_default();
        if !members.iter().any(|m| m == member) {
            members.push(member.to_owned());
        }
    }
    for mut record in added {
        for next in &mut record.next {
            if let Some(renamed) = step_rename.get(next) {
                *next = renamed.clone();
            }
        }
        ours.grad_fns.push(record);
    }
    // A joined step passes gradients wherever any member's did.
    for step in &theirs.grad_fns {
        let label = &step_rename[&step.label];
        let nexts: Vec<String> = step.next.iter().map(|n| step_rename[n].clone()).collect();
        if let Some(record) = ours.grad_fns.iter_mut().find(|g| &g.label == label) {
            for next in nexts {
                if !record.next.contains(&next) {
                    record.next.push(next);
                }
            }
        }
    }
}

/// Children lists are the inverse of parents; each call lists the ops that ran inside it.
fn rebuild_links(trace: &mut Trace) {
    let labels: Vec<String> = trace.ops.iter().map(|op| op.label.clone()).collect();
    let index: HashMap<&str, usize> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| (l.as_str(), i))
        .collect();
    let mut children: Vec<Vec<String>> = vec![Vec::new(); trace.ops.len()];
    for (i, op) in trace.ops.iter().enumerate() {
        for parent in &op.parents {
            if let Some(&p) = index.get(parent.as_str()) {
                if !children[p].contains(&labels[i]) {
                    children[p].push(labels[i].clone());
                }
            }
        }
    }
    for (op, children) in trace.ops.iter_mut().zip(children) {
        op.children = children;
    }
    let mut ops_of: HashMap<String, Vec<String>> = HashMap::new();
    for op in &trace.ops {
        for call in &op.modules {
            ops_of
                .entry(call.clone())
                .or_default()
                .push(op.label.clone());
        }
    }
    for call in &mut trace.module_calls {
        call.ops = ops_of.remove(&call.label).unwrap_or_default();
        call.output_ops
            .retain(|label| index.contains_key(label.as_str()));
    }
}
