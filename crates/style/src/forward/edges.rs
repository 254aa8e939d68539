//! The arrows: argument positions, IF/THEN arms, shapes, pass labels.

use super::*;

/// `arg 0`, `arg (0, 1)` or `kwarg name` for each slot `parent` filled in `child`.
pub(super) fn slot_labels(child: &OpRecord, parent: &str) -> Vec<String> {
    child
        .arg_slots
        .iter()
        .filter(|slot| slot.parent == parent)
        .map(|slot| match (&slot.arg, &slot.kwarg) {
            (_, Some(name)) => format!("kwarg {name}"),
            (Some(path), None) if path.len() == 1 => format!("arg {}", path[0]),
            (Some(path), None) => {
                let parts: Vec<String> = path.iter().map(u32::to_string).collect();
                format!("arg ({})", parts.join(", "))
            }
            (None, None) => "arg".to_owned(),
        })
        .collect()
}

pub(super) fn arm_label(index: &Index<'_, '_>, parent: &OpRecord, child: &str) -> Option<String> {
    let arms: Vec<String> = parent
        .arm_entries
        .iter()
        .filter(|entry| entry.child == child)
        .map(|entry| match entry.arm {
            ArmKind::Then => "THEN".to_owned(),
            ArmKind::Else => "ELSE".to_owned(),
            ArmKind::Elif => format!("ELIF {}", entry.elif_index.unwrap_or(1)),
        })
        .collect();
    match arms.len() {
        0 => None,
        1 => arms.into_iter().next(),
        _ => {
            // Several arms on one arrow: name the line of each `if`.
            let lines: Vec<String> = parent
                .arm_entries
                .iter()
                .filter(|entry| entry.child == child)
                .zip(arms)
                .map(|(entry, arm)| {
                    let line = entry
                        .conditional
                        .and_then(|id| index.trace().conditionals.iter().find(|c| c.id == id))
                        .and_then(|c| c.line);
                    match (line, entry.conditional) {
                        (Some(line), _) => format!("{arm}@L{line}"),
                        (None, Some(id)) => format!("{arm}@C{id}"),
                        (None, None) => arm,
                    }
                })
                .collect();
            Some(lines.join(" \u{b7} "))
        }
    }
}

/// Distinct shapes shown on one arrow before the rest is summarised.
pub(super) const EDGE_SHAPES_SHOWN: usize = 3;

/// The shapes of the tensors an arrow carries (`show_edge_shapes=True`): each distinct
/// output shape of its sources, in order, `1x16x8x8, 1x16 (+2 more)` when there are many.
pub(super) fn edge_shapes(trace: &Trace, edge: &tl_collapse::Edge) -> Option<String> {
    let mut shapes: Vec<String> = Vec::new();
    for &(parent, _) in &edge.pairs {
        if let Some(dims) = &trace.ops[parent].shape {
            let text = format::shape(dims);
            if !shapes.contains(&text) {
                shapes.push(text);
            }
        }
    }
    let more = shapes.len().saturating_sub(EDGE_SHAPES_SHOWN);
    shapes.truncate(EDGE_SHAPES_SHOWN);
    let text = shapes.join(", ");
    match more {
        _ if shapes.is_empty() => None,
        0 => Some(text),
        more => Some(format!("{text} (+{more} more)")),
    }
}

pub(super) fn styled_edge(
    index: &Index<'_, '_>,
    visible: &VisibleGraph,
    edge: &tl_collapse::Edge,
    drawn_parents: usize,
    passes: Option<&PassLabels>,
    show_shapes: bool,
) -> StyledEdge {
    let trace = index.trace();
    let mut head_label = Vec::new();
    let mut tail_label = Vec::new();
    let mut label = Vec::new();
    let mut label_floats = false;
    if show_shapes {
        label.extend(edge_shapes(trace, edge).map(|text| EdgeText {
            text,
            size: EdgeTextSize::Note,
        }));
    }
    for &(parent, child) in &edge.pairs {
        let (parent_op, child_op) = (&trace.ops[parent], &trace.ops[child]);
        if trace
            .conditional_branch_edges
            .iter()
            .any(|e| e.parent == parent_op.label && e.child == child_op.label)
        {
            label.push(EdgeText {
                text: "IF".to_owned(),
                size: EdgeTextSize::Emphasis,
            });
        }
        if let Some(arm) = arm_label(index, parent_op, &child_op.label) {
            label.push(EdgeText {
                text: arm,
                size: EdgeTextSize::Emphasis,
            });
        }
    }
    // Tensors passed: one per pair, or per argument slot when an operation reads one tensor
    // in several (`torch.cat((freqs, freqs))`: one arrow, `x2`, both slots).
    let mut passed = edge.pairs.len();
    // Argument positions, when the child is an operation whose operand order matters, or
    // reads one tensor twice.
    // A rolled layer is read as each of its passes is: the slots of every pair, each once.
    let child = match &visible.nodes[edge.to].kind {
        NodeKind::Op(child) => Some(*child),
        NodeKind::Layer(_) => edge.pairs.first().map(|&(_, child)| child),
        _ => None,
    };
    if let Some(child) = child {
        let child_op = &trace.ops[child];
        let mut slots: Vec<String> = Vec::new();
        let mut read_twice = false;
        for &(parent, child) in &edge.pairs {
            let pair_slots = slot_labels(&trace.ops[child], &trace.ops[parent].label);
            read_twice |= pair_slots.len() > 1;
            for slot in pair_slots {
                if !slots.contains(&slot) {
                    slots.push(slot);
                }
            }
        }
        if matches!(visible.nodes[edge.to].kind, NodeKind::Op(_)) {
            passed = passed.max(slots.len());
        }
        if (drawn_parents > 1 && !COMMUTATIVE.contains(&child_op.layer_type.as_str())) || read_twice
        {
            if drawn_parents >= MIDPOINT_LABEL_PARENTS {
                label_floats = !slots.is_empty();
                label.extend(slots.into_iter().map(|text| EdgeText {
                    text,
                    size: EdgeTextSize::Note,
                }));
            } else {
                head_label = slots;
            }
        }
    }
    match passes {
        // Rolled: the passes each end used, when not all of them.
        Some(passes) => {
            let into = passes
                .into
                .as_ref()
                .map(|p| format!("In {}", format::compact_ranges(p)));
            let out = passes
                .out
                .as_ref()
                .map(|p| format!("Out {}", format::compact_ranges(p)));
            if passes.back_edge {
                for text in into.into_iter().chain(out) {
                    label.push(EdgeText {
                        text,
                        size: EdgeTextSize::Note,
                    });
                }
            } else {
                head_label.extend(into);
                tail_label.extend(out);
            }
        }
        None if passed > 1 => label.push(EdgeText {
            text: format!("x{passed}"),
            size: EdgeTextSize::Note,
        }),
        None => {}
    }
    StyledEdge {
        from: edge.from,
        to: edge.to,
        // Dashed when nothing it carries was computed from a model input.
        dashed: edge
            .pairs
            .iter()
            .all(|&(parent, _)| !trace.ops[parent].has_input_ancestor),
        head_label,
        tail_label,
        label,
        label_floats,
        look: None,
    }
}
