//! What opening a box or closing a frame of a drawing leads to: the plan of the next
//! drawing (the interactive page's clicks), and the plan a drawing shows, read off its
//! nodes. Plans are compared in one canonical order, so two ways to the same drawing meet.

use crate::{NodeKind, Plan, TraceIndex, VisibleGraph};

/// What clicking a drawn thing does: which plan it leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Move {
    /// Open the box (module box, capsule, fold or op capsule) drawn as this node.
    Open(usize),
    /// Close the frame of this cluster into one box.
    Close(usize),
}

/// The plan a click on a drawing of `plan` leads to, or `None` when the thing clicked
/// cannot be opened (an operation) or closed.
pub fn after(
    index: &TraceIndex<'_>,
    plan: &Plan,
    visible: &VisibleGraph,
    step: &Move,
) -> Option<Plan> {
    if let Move::Open(node) = step {
        // Most things of a full-detail drawing are operations: no plan to copy for those.
        let kind = &visible.nodes.get(*node)?.kind;
        if matches!(
            kind,
            NodeKind::Op(_) | NodeKind::Stub(..) | NodeKind::Layer(_)
        ) {
            return None;
        }
    }
    let mut next = plan.clone();
    match step {
        Move::Open(node) => match &visible.nodes[*node].kind {
            NodeKind::ModuleBox(module_box) => {
                if let Some(fold) = module_box
                    .fold_members
                    .and_then(|_| next.folds.iter().position(|f| f[0] == module_box.address))
                {
                    let members = next.folds.remove(fold);
                    next.boxes.extend(members);
                } else {
                    let before = next.boxes.len();
                    next.boxes.retain(|b| *b != module_box.address);
                    if next.boxes.len() == before {
                        return None;
                    }
                    next.boxes
                        .extend(children_with_ops(index, &module_box.address));
                }
            }
            NodeKind::Capsule(capsule) => {
                let at = next.capsules.iter().position(|s| *s == capsule.members)?;
                let members = next.capsules.remove(at);
                next.boxes.extend(members);
            }
            NodeKind::FoldEllipsis(ellipsis) => {
                let at = next
                    .folds
                    .iter()
                    .position(|f| f.get(1..) == Some(&ellipsis.members[..]))?;
                let members = next.folds.remove(at);
                next.boxes.extend(members);
            }
            NodeKind::LoopEllipsis(ellipsis) => {
                let before = next.loops.len();
                next.loops.retain(|address| *address != ellipsis.address);
                if next.loops.len() == before {
                    return None;
                }
            }
            NodeKind::OpCapsule(ops) => {
                let labels: Vec<&str> = ops
                    .iter()
                    .map(|&op| index.trace.ops[op].label.as_str())
                    .collect();
                let at = next.op_capsules.iter().position(|s| *s == labels)?;
                next.op_capsules.remove(at);
            }
            NodeKind::Op(_) | NodeKind::Stub(..) | NodeKind::Layer(_) => return None,
        },
        Move::Close(cluster) => {
            let call = visible.clusters.get(*cluster)?.call;
            let address = index.trace.module_calls[call].address.clone();
            let inside = |member: &String| {
                *member == address
                    || member
                        .strip_prefix(address.as_str())
                        .is_some_and(|rest| rest.starts_with('.'))
            };
            next.boxes.retain(|b| !inside(b));
            next.capsules.retain(|s| !s.iter().any(inside));
            next.folds.retain(|f| !f.iter().any(inside));
            next.loops
                .retain(|looped| *looped == address || !inside(looped));
            next.op_capsules.retain(|labels| {
                !labels.iter().all(|label| {
                    index
                        .op(label)
                        .is_some_and(|op| index.tree.path(op).contains(&address.as_str()))
                })
            });
            next.boxes.push(address);
        }
    }
    Some(canonical(next))
}

/// The child modules of `address` that ran something, in registration order: what opening
/// its box shows, each as a box of its own.
fn children_with_ops(index: &TraceIndex<'_>, address: &str) -> Vec<String> {
    let Some(record) = index.tree.module(address) else {
        return Vec::new();
    };
    record
        .children
        .iter()
        .filter(|child| index.tree.op_count(child) > 0)
        .cloned()
        .collect()
}

/// `plan` in one order, so that two ways to the same drawing meet.
pub fn canonical(mut plan: Plan) -> Plan {
    plan.boxes.sort();
    plan.boxes.dedup();
    plan.capsules.sort();
    plan.folds.sort();
    plan.op_capsules.sort();
    plan.loops.sort();
    plan
}

/// The plan a drawing shows, read off its nodes (a drawing made by the depth rule has
/// none of its own): what opening and closing start from.
pub fn plan_of(index: &TraceIndex<'_>, visible: &VisibleGraph) -> Plan {
    let mut plan = Plan::default();
    for node in &visible.nodes {
        match &node.kind {
            NodeKind::ModuleBox(module_box) if module_box.fold_members.is_none() => {
                plan.boxes.push(module_box.address.clone());
            }
            NodeKind::ModuleBox(_) => {}
            NodeKind::Capsule(capsule) => plan.capsules.push(capsule.members.clone()),
            NodeKind::FoldEllipsis(ellipsis) => {
                // The fold's first member is drawn as a box beside it: a sibling of the
                // others standing for all of them.
                let parent =
                    |address: &str| index.tree.module(address).and_then(|m| m.parent.clone());
                let siblings = ellipsis.members.first().and_then(|m| parent(m));
                let representative = visible.nodes.iter().find_map(|n| match &n.kind {
                    NodeKind::ModuleBox(b)
                        if b.fold_members == Some(ellipsis.members.len() + 1)
                            && parent(&b.address) == siblings =>
                    {
                        Some(b.address.clone())
                    }
                    _ => None,
                });
                let mut members: Vec<String> = representative.into_iter().collect();
                members.extend(ellipsis.members.iter().cloned());
                plan.folds.push(members);
            }
            NodeKind::LoopEllipsis(ellipsis) => plan.loops.push(ellipsis.address.clone()),
            NodeKind::OpCapsule(ops) => plan.op_capsules.push(
                ops.iter()
                    .map(|&op| index.trace.ops[op].label.clone())
                    .collect(),
            ),
            NodeKind::Op(_) | NodeKind::Stub(..) | NodeKind::Layer(_) => {}
        }
    }
    canonical(plan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tl_trace_model::Trace;

    fn gpt2() -> Trace {
        Trace::load(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/gpt2.json"
        ))
        .unwrap()
    }

    #[test]
    fn opening_a_box_boxes_its_children_and_closing_the_frame_undoes_it() {
        let trace = gpt2();
        let index = TraceIndex::validate(&trace).unwrap();
        let root = trace
            .modules
            .iter()
            .find(|m| m.depth == 1 && !m.children.is_empty())
            .unwrap();
        let plan = Plan {
            boxes: vec![root.address.clone()],
            ..Plan::default()
        };
        let hidden = crate::hidden_ops(&index, Default::default());
        let options = crate::VisibilityOptions {
            plan: Some(plan.clone()),
            ..Default::default()
        };
        let visible = crate::visible_graph_with(&index, hidden.clone(), &options).unwrap();
        let node = visible
            .nodes
            .iter()
            .position(|n| matches!(&n.kind, NodeKind::ModuleBox(b) if b.address == root.address))
            .unwrap();
        let opened = after(&index, &plan, &visible, &Move::Open(node)).unwrap();
        assert!(!opened.boxes.contains(&root.address));
        assert!(!opened.boxes.is_empty());
        assert!(opened
            .boxes
            .iter()
            .all(|b| b.starts_with(&format!("{}.", root.address))));
        let options = crate::VisibilityOptions {
            plan: Some(opened.clone()),
            ..Default::default()
        };
        let visible = crate::visible_graph_with(&index, hidden, &options).unwrap();
        let frame = visible
            .clusters
            .iter()
            .position(|c| trace.module_calls[c.call].address == root.address)
            .unwrap();
        let closed = after(&index, &opened, &visible, &Move::Close(frame)).unwrap();
        assert_eq!(closed, canonical(plan));
        // An operation opens nothing.
        let op = visible
            .nodes
            .iter()
            .position(|n| matches!(n.kind, NodeKind::Op(_)))
            .unwrap();
        assert_eq!(after(&index, &opened, &visible, &Move::Open(op)), None);
    }
}
