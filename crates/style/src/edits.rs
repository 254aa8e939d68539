//! Edits on a forked trace (the guide's "What an edit changed"): the header line
//! `1 edit: Δ zero_ablate on linear_1_1`, the edited nodes marked in the theme's
//! intervention colour with the edit's name, `view="interventions"` marks (edited ops,
//! ops whose value changed against the clean run, boxes taking the marks of what they
//! hold), the census text written beside the image, and the cone of `show_cone=True`.

use std::collections::BTreeSet;

use tl_collapse::{NodeKind, VisibleGraph};
use tl_trace_model::{OpRecord, Trace};

use crate::contrast;
use crate::format;
use crate::graph::{Fill, LegendEntry, Row, StyledNode};
use crate::theme::Theme;

/// How an op was touched by the edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Mark {
    /// Its value differs from the clean run's (interventions view only).
    Changed,
    /// An edit targeted it but no firing was recorded there.
    EditedInferred,
    /// An edit fired at it.
    Edited,
}

/// The op's display name: its label without the pass for single-pass layers.
fn name(op: &OpRecord) -> &str {
    if op.num_passes <= 1 {
        &op.layer_label
    } else {
        &op.label
    }
}

/// Edits that fired at, or targeted, the op.
fn edits_at<'t>(trace: &'t Trace, op: &'t OpRecord) -> Vec<&'t str> {
    let mut helpers: Vec<&str> = op.edits.iter().map(|fire| fire.helper.as_str()).collect();
    for edit in trace.edits.iter().flat_map(|set| &set.edits) {
        if edit.sites.contains(&op.label) && !helpers.contains(&edit.helper.as_str()) {
            helpers.push(&edit.helper);
        }
    }
    helpers
}

fn mark_of(trace: &Trace, op: &OpRecord, interventions: bool) -> Option<Mark> {
    if !op.edits.is_empty() {
        return Some(Mark::Edited);
    }
    if !edits_at(trace, op).is_empty() {
        return Some(Mark::EditedInferred);
    }
    let changed = op.clean_max_abs_change.is_some_and(|change| change > 0.0);
    (interventions && changed).then_some(Mark::Changed)
}

/// `1 edit: Δ zero_ablate on linear_1_1` (several edits joined by `; `).
pub(crate) fn header_line(trace: &Trace) -> Option<Row> {
    let edits = &trace.edits.as_ref()?.edits;
    if edits.is_empty() {
        return None;
    }
    let described: Vec<String> = edits
        .iter()
        .map(|edit| {
            let sites: Vec<&str> = edit
                .sites
                .iter()
                .filter_map(|site| trace.ops.iter().find(|op| &op.label == site))
                .map(name)
                .collect();
            let on = if sites.is_empty() {
                edit.target.clone()
            } else {
                sites.join(", ")
            };
            format!("Δ {} on {on}", edit.helper)
        })
        .collect();
    let count = edits.len();
    Some(Row::plain(format!(
        "{count} edit{}: {}",
        if count == 1 { "" } else { "s" },
        described.join("; ")
    )))
}

/// Marks the drawn nodes: edited ops (and, with `interventions`, changed ops) in the
/// theme's intervention colour; a group node takes the strongest mark of what it holds.
pub(crate) fn mark_nodes(
    trace: &Trace,
    visible: &VisibleGraph,
    nodes: &mut [StyledNode],
    interventions: bool,
    theme: &Theme,
) {
    if trace.edits.as_ref().is_none_or(|set| set.edits.is_empty()) {
        return;
    }
    let edit_color = &theme.roles.intervention;
    let changed_color = contrast::mix(edit_color, &theme.page, 0.45);
    for (node, drawn) in nodes.iter_mut().zip(&visible.nodes) {
        let ops: Vec<usize> = match &drawn.kind {
            NodeKind::Stub(..) => continue,
            kind => kind.ops(),
        };
        let strongest = ops
            .iter()
            .filter_map(|&op| mark_of(trace, &trace.ops[op], interventions).map(|m| (m, op)))
            .max();
        let Some((mark, op)) = strongest else {
            continue;
        };
        let record = &trace.ops[op];
        match mark {
            Mark::Edited | Mark::EditedInferred => {
                node.border = edit_color.clone();
                node.penwidth = Some(3.0);
                node.dashed |= mark == Mark::EditedInferred;
                let helpers = edits_at(trace, record).join(", ");
                let row = match (&drawn.kind, mark) {
                    (NodeKind::Op(_) | NodeKind::Layer(_), Mark::Edited) => {
                        format!("edited: {helpers}")
                    }
                    (NodeKind::Op(_) | NodeKind::Layer(_), _) => {
                        format!("edited: {helpers} (inferred site)")
                    }
                    _ => format!("holds edited {}: {helpers}", name(record)),
                };
                node.rows.push(Row::bold(row));
            }
            Mark::Changed => {
                node.border = changed_color.clone();
                node.penwidth = Some(2.0);
            }
        }
        if interventions {
            let largest = ops
                .iter()
                .filter_map(|&op| trace.ops[op].clean_max_abs_change)
                .fold(0.0_f64, f64::max);
            if largest > 0.0 {
                node.rows.push(Row::plain(format!(
                    "max |Δ| = {}",
                    format::significant(largest, 3)
                )));
            }
        }
    }
}

/// The key lines of the edit marks.
pub(crate) fn key_entries(trace: &Trace, interventions: bool, theme: &Theme) -> Vec<LegendEntry> {
    if trace.edits.as_ref().is_none_or(|set| set.edits.is_empty()) {
        return Vec::new();
    }
    let edit_color = theme.roles.intervention.clone();
    let mut entries = vec![LegendEntry {
        ring: false,
        swatch: Some(Fill::Solid(edit_color.clone())),
        text: "purple outline: an edited op, or a box or fold holding one (a dashed op: site inferred, not recorded)".to_owned(),
    }];
    let clean = trace
        .edits
        .as_ref()
        .is_some_and(|set| set.clean_parent_available);
    if interventions && clean {
        entries.push(LegendEntry {
            ring: false,
            swatch: Some(Fill::Solid(contrast::mix(&edit_color, &theme.page, 0.45))),
            text: "light purple outline: its value differs from the clean run".to_owned(),
        });
        entries.push(LegendEntry {
            ring: false,
            swatch: None,
            text: "max |Δ|: largest absolute change against the clean run".to_owned(),
        });
    }
    entries
}

/// Ops downstream of an edit (the sites included): everything whose value the edits could
/// have changed.
pub fn cone(index: &tl_collapse::TraceIndex<'_>) -> BTreeSet<usize> {
    let trace = index.trace;
    let mut reached = BTreeSet::new();
    let mut stack: Vec<usize> = trace
        .ops
        .iter()
        .enumerate()
        .filter(|(_, op)| !edits_at(trace, op).is_empty())
        .map(|(i, _)| i)
        .collect();
    while let Some(op) = stack.pop() {
        if reached.insert(op) {
            stack.extend(index.children(op));
        }
    }
    reached
}

/// The caption of `view="interventions"`.
pub fn interventions_caption(trace: &Trace) -> Vec<String> {
    let mut lines = Vec::new();
    let Some(set) = &trace.edits else {
        return lines;
    };
    for edit in &set.edits {
        let sites: Vec<&str> = edit
            .sites
            .iter()
            .map(|site| {
                trace
                    .ops
                    .iter()
                    .find(|op| &op.label == site)
                    .map_or(site.as_str(), name)
            })
            .collect();
        lines.push(format!(
            "{} on {} ({} at {})",
            edit.helper,
            edit.target,
            if edit.recorded {
                "recorded"
            } else {
                "inferred"
            },
            sites.join(", ")
        ));
    }
    if set.clean_parent_available {
        let changed: Vec<&OpRecord> = trace
            .ops
            .iter()
            .filter(|op| op.clean_max_abs_change.is_some_and(|c| c > 0.0))
            .collect();
        // The first op with the largest change (the edit site before what it fed).
        let largest = changed
            .iter()
            .fold(None::<&&OpRecord>, |best, op| match best {
                Some(b) if b.clean_max_abs_change >= op.clean_max_abs_change => Some(b),
                _ => Some(op),
            });
        lines.push(match largest {
            Some(op) => format!(
                "{} ops differ from the clean run (largest |Δ| = {} at {})",
                changed.len(),
                format::significant(op.clean_max_abs_change.unwrap_or(0.0), 3),
                name(op)
            ),
            None => "no op differs from the clean run".to_owned(),
        });
    } else {
        lines.push(
            "the clean trace was not available when this trace was exported: only the edits are marked"
                .to_owned(),
        );
    }
    lines
}

/// The full record of the edits, one fact per line (`<path>.census.txt`).
pub fn census(trace: &Trace) -> String {
    let mut lines = vec![format!(
        "interventions census of {}",
        trace.model.class_name
    )];
    if let Some(set) = &trace.edits {
        for (k, edit) in set.edits.iter().enumerate() {
            lines.push(format!(
                "edit {}: {} on {}; sites {}; {}",
                k + 1,
                edit.helper,
                edit.target,
                edit.sites.join(", "),
                if edit.recorded {
                    "firing recorded"
                } else {
                    "site inferred (no firing recorded)"
                }
            ));
        }
        lines.push(format!(
            "clean run: {}",
            if set.clean_parent_available {
                "available; |Δ| is the largest absolute change of each output"
            } else {
                "not available; changes unknown"
            }
        ));
    }
    for op in &trace.ops {
        let mut facts = Vec::new();
        let helpers = edits_at(trace, op);
        if !helpers.is_empty() {
            facts.push(format!("edited ({})", helpers.join(", ")));
        }
        if let Some(change) = op.clean_max_abs_change {
            facts.push(format!("max |Δ| = {}", format::significant(change, 3)));
        }
        if !facts.is_empty() {
            lines.push(format!("{}: {}", op.label, facts.join(", ")));
        }
    }
    lines.join("\n") + "\n"
}
