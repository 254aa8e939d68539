//! Ready-made views (`view=`; the guide's "Ready-made views"): each answers one question with a
//! bundle of settings, caption lines printed under the header, and rows or marks on chosen
//! nodes. A view only fills in options the caller did not set (any keyword passed wins),
//! and refuses, naming a remedy, when the trace lacks what its question needs.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use tl_collapse::{BufferVisibility, NodeKind, TraceIndex};
use tl_style::encoding::ValueSource;
use tl_style::{NodeStyle, Row, StyledNode};
use tl_trace_model::{Finiteness, ModuleRecord, OpKind, OpRecord, Trace};

use crate::error::DrawError;
use crate::options::{Collapse, DrawOptions, NodeContext, NodeSpecFn, View};

/// How to get a trace with recorded edits: TorchLens edits only a trace captured ready for
/// them (on a plain `tl.trace(model, x)`, `edited.do(...)` is refused).
pub(crate) const EDIT_REMEDY: &str = "trace the model with capture=CaptureOptions(intervention_ready=True) (from torchlens.options import CaptureOptions), edit a fork of it (trace.fork(), then .do(...)) and draw the fork";

/// Above this many operations the uncollapsed `debug` view refuses (layout cost).
const DEBUG_OP_CEILING: u64 = 2000;
/// The slowest nodes the `speed` view calls out.
const SPEED_CALLOUTS: usize = 5;
/// Module name endings of attention projections, and the role each names.
const ATTENTION_ROLES: [(&str, &str); 7] = [
    ("q_proj", "query projection"),
    ("k_proj", "key projection"),
    ("v_proj", "value projection"),
    ("out_proj", "output projection"),
    ("o_proj", "output projection"),
    ("qkv", "fused q/k/v projection"),
    ("c_attn", "fused q/k/v projection"),
];
/// Op types that compute attention.
const ATTENTION_OPS: [&str; 3] = [
    "scaleddotproductattention",
    "sdpa",
    "multiheadattentionforward",
];

/// A view resolved against a trace: the options to draw with, the caption, and the rows or
/// marks it adds to nodes.
pub(crate) struct Resolved {
    pub options: DrawOptions,
    pub caption: Vec<String>,
    pub node_rows: Option<NodeSpecFn>,
}

fn refuse(code: &'static str, message: String) -> DrawError {
    DrawError::invalid(code, message)
}

/// Fills in a view's setting where the caller set nothing.
fn fill<T>(option: &mut Option<T>, value: impl Into<T>) {
    if option.is_none() {
        *option = Some(value.into());
    }
}

/// Ops (kind `op`) of the trace carrying a value of `source`.
fn coverage(trace: &Trace, value: impl Fn(&OpRecord) -> bool) -> (usize, usize) {
    let ops: Vec<&OpRecord> = trace
        .ops
        .iter()
        .filter(|op| op.kind == OpKind::Op)
        .collect();
    (ops.iter().filter(|op| value(op)).count(), ops.len())
}

/// Resolves `view` for `trace` with `options`: the options with the view's settings filled
/// in where the caller set nothing, its caption and its rows.
pub(crate) fn resolve(
    index: &TraceIndex<'_>,
    view: View,
    options: &DrawOptions,
) -> Result<Resolved, DrawError> {
    let trace = index.trace;
    let mut resolved = Resolved {
        options: options.clone(),
        caption: Vec::new(),
        node_rows: None,
    };
    match view {
        View::Debug => debug(trace, &mut resolved)?,
        View::Speed | View::Memory | View::Compute => measured(index, view, &mut resolved)?,
        View::Transformer => transformer(trace, &mut resolved)?,
        View::Sequence => sequence(trace, &mut resolved)?,
        View::Interventions => interventions(trace, &mut resolved)?,
    }
    Ok(resolved)
}

/// `debug`: what is broken?
fn debug(trace: &Trace, resolved: &mut Resolved) -> Result<(), DrawError> {
    let filled = &mut resolved.options;
    if trace.summary.num_ops > DEBUG_OP_CEILING && filled.collapse.is_none() {
        return Err(refuse(
            "lens_above_detail_budget",
            format!(
                "the 'debug' view draws every operation and this trace has {} ops (ceiling {DEBUG_OP_CEILING}); focus the drawing (module=) or pass an explicit collapse= at your own risk",
                trace.summary.num_ops
            ),
        ));
    }
    let caption = &mut resolved.caption;
    caption.push("view: debug -- what is broken?".to_owned());
    fill(&mut filled.collapse, Collapse::None);
    fill(&mut filled.show_buffers, BufferVisibility::Always);
    fill(&mut filled.show_redundant_args, true);
    fill(&mut filled.show_legend, true);
    let (checked, total) = coverage(trace, |op| op.finiteness.is_some());
    let broken = trace
        .ops
        .iter()
        .filter(|op| op.finiteness.is_some_and(|f| f != Finiteness::Finite))
        .count();
    caption.push(match (checked, broken) {
        (0, _) => "non-finite status: NOT CHECKED -- no saved values".to_owned(),
        (_, 0) => format!("non-finite status: all finite ({checked} of {total} ops checked)"),
        _ => format!(
            "non-finite status: {broken} ops with NaN or infinite values ({checked} of {total} ops checked)"
        ),
    });
    caption.push("every buffer and argument drawn; a dtype row on each operation".to_owned());
    resolved.node_rows = Some(hook(debug_rows));
    Ok(())
}

/// `speed`, `memory`, `compute`: where does time, memory or compute go?
fn measured(index: &TraceIndex<'_>, view: View, resolved: &mut Resolved) -> Result<(), DrawError> {
    let trace = index.trace;
    let (source, question, unit_line) = match view {
        View::Speed => (
            ValueSource::Time,
            "where does time go?",
            "wall-clock time per op call of an instrumented capture: compare ops, never quote as production latency",
        ),
        View::Memory => (
            ValueSource::Bytes,
            "what is big in bytes?",
            "output-storage bytes, not live, allocator or peak memory",
        ),
        _ => (
            ValueSource::Flops,
            "where are the FLOPs?",
            "forward FLOPs (2 FLOPs per multiply-accumulate)",
        ),
    };
    let name = view.name();
    let (encoded, total) = coverage(trace, |op| source.value(index, op).is_some());
    if encoded == 0 {
        return Err(refuse(
            "lens_headline_evidence_missing",
            format!(
                "the '{name}' view needs {} and this trace has none: 0 of {total} ops carry it; re-capture with a plain TorchLens trace of the model (timings, sizes and FLOPs are recorded on every eager capture), or drop view=",
                source.name()
            ),
        ));
    }
    let (filled, caption) = (&mut resolved.options, &mut resolved.caption);
    caption.push(format!("view: {name} -- {question}"));
    caption.push(format!(
        "{}: encoded {encoded} of {total} ops",
        source.name()
    ));
    caption.push(unit_line.to_owned());
    fill(&mut filled.node_style, NodeStyle::Profiling);
    fill(&mut filled.show_legend, true);
    fill(&mut filled.color_by, source);
    if view == View::Memory {
        let saved = trace.ops.iter().any(|op| op.saved_for_backward.is_some());
        if saved {
            fill(&mut filled.show_saved_for_backward, true);
        } else {
            caption.push(
                "show_saved_for_backward degraded: no autograd-memory evidence on this capture"
                    .to_owned(),
            );
        }
    }
    if view == View::Speed {
        resolved.node_rows = Some(speed_callouts(trace));
    }
    Ok(())
}

/// `transformer`: how is attention wired?
fn transformer(trace: &Trace, resolved: &mut Resolved) -> Result<(), DrawError> {
    let block = attention_block(trace).ok_or_else(|| {
        refuse(
            "lens_attention_subject_absent",
            "no attention structure detected in this trace (no attention module or \
             scaled dot-product op); the transformer view never draws an ordinary graph \
             under a domain name: drop view= for the plain drawing"
                .to_owned(),
        )
    })?;
    let filled = &mut resolved.options;
    resolved
        .caption
        .push("view: transformer -- how is attention wired?".to_owned());
    let focus = filled.module.clone().unwrap_or(block.address.clone());
    resolved.caption.push(block.caption(&focus));
    fill(&mut filled.module, &focus);
    resolved.node_rows = Some(hook(attention_rows));
    Ok(())
}

/// `sequence`: how do the passes unfold?
fn sequence(trace: &Trace, resolved: &mut Resolved) -> Result<(), DrawError> {
    if trace.ops.iter().all(|op| op.num_passes <= 1) {
        return Err(refuse(
            "lens_single_pass_no_sequence",
            "this trace has a single pass; nothing to sequence: drop view= for the plain drawing, or trace a model that loops".to_owned(),
        ));
    }
    resolved.caption.extend([
        "view: sequence -- how do the passes unfold?".to_owned(),
        "pass_index encodes linearly: darker is a later pass".to_owned(),
    ]);
    let filled = &mut resolved.options;
    fill(&mut filled.rolled, false);
    fill(&mut filled.collapse, Collapse::None);
    fill(&mut filled.color_by, "pass_index");
    fill(&mut filled.show_legend, true);
    Ok(())
}

/// `interventions`: what did the edits change?
fn interventions(trace: &Trace, resolved: &mut Resolved) -> Result<(), DrawError> {
    if trace.edits.as_ref().is_none_or(|e| e.edits.is_empty()) {
        return Err(refuse(
            "surgery_evidence_missing",
            format!("the 'interventions' view needs recorded edits and this trace has none; {EDIT_REMEDY}, or drop view="),
        ));
    }
    resolved
        .caption
        .push("view: interventions -- what did the edits change?".to_owned());
    resolved
        .caption
        .extend(tl_style::edits::interventions_caption(trace));
    fill(&mut resolved.options.show_legend, true);
    Ok(())
}

fn hook(rows: fn(&NodeContext<'_>, &mut StyledNode)) -> NodeSpecFn {
    NodeSpecFn(Arc::new(rows))
}

/// `debug`: a dtype row on each operation, and non-finite outputs marked.
fn debug_rows(context: &NodeContext<'_>, node: &mut StyledNode) {
    let Some(op) = context.op else { return };
    if let Some(dtype) = &op.dtype {
        node.rows.push(Row::plain(format!("dtype: {dtype}")));
    }
    let mark = match op.finiteness {
        Some(Finiteness::Nan) => Some(("#D55E00", "NaN")),
        Some(Finiteness::PosInf) => Some(("#E69F00", "+inf")),
        Some(Finiteness::NegInf) => Some(("#CC79A7", "-inf")),
        Some(Finiteness::Mixed) => Some(("#D55E00", "NaN and inf")),
        Some(Finiteness::Finite) | None => None,
    };
    if let Some((color, what)) = mark {
        node.border = color.to_owned();
        node.penwidth = Some(3.0);
        node.rows.push(Row::bold(format!("non-finite: {what}")));
    }
}

/// `speed`: `top-1 of 5 (23.4% of total)` on the five slowest drawn operations.
fn speed_callouts(trace: &Trace) -> NodeSpecFn {
    let total: f64 = trace.ops.iter().filter_map(|op| op.duration_s).sum();
    let mut slowest: Vec<(f64, &str)> = trace
        .ops
        .iter()
        .filter_map(|op| op.duration_s.map(|d| (d, op.label.as_str())))
        .collect();
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    let ranked: Vec<(String, f64)> = slowest
        .into_iter()
        .take(SPEED_CALLOUTS)
        .map(|(d, label)| (label.to_owned(), d))
        .collect();
    NodeSpecFn(Arc::new(move |context, node| {
        let Some(op) = context.op else { return };
        if !matches!(context.kind, NodeKind::Op(_)) {
            return;
        }
        if let Some(rank) = ranked.iter().position(|(label, _)| *label == op.label) {
            let share = 100.0 * ranked[rank].1 / total.max(f64::MIN_POSITIVE);
            node.rows.push(Row::bold(format!(
                "top-{} of {SPEED_CALLOUTS} ({share:.1}% of total)",
                rank + 1
            )));
        }
    }))
}

/// `transformer`: the attention role of projections and attention ops.
fn attention_rows(context: &NodeContext<'_>, node: &mut StyledNode) {
    let Some(op) = context.op else { return };
    if ATTENTION_OPS.contains(&op.layer_type.as_str()) {
        node.rows
            .push(Row::plain("attention: scaled dot-product (observed)"));
        return;
    }
    let module = op
        .modules
        .last()
        .and_then(|call| call.rsplit_once(':'))
        .map(|(address, _)| address);
    let leaf = module.and_then(|m| m.rsplit('.').next());
    if let Some((_, role)) = ATTENTION_ROLES
        .iter()
        .find(|(suffix, _)| Some(*suffix) == leaf)
    {
        if op.is_atomic_module {
            node.rows
                .push(Row::plain(format!("attention role: {role}")));
        }
    }
}

/// The block a `transformer` view draws.
struct AttentionBlock {
    address: String,
    /// The block and its siblings of the same class, in module order.
    repeated: Vec<String>,
}

impl AttentionBlock {
    /// The caption line naming what `focus` is among the repeated blocks.
    fn caption(&self, focus: &str) -> String {
        let count = self.repeated.len();
        match self.repeated.iter().position(|address| address == focus) {
            Some(0) => {
                format!("drawing {focus}, the first of {count} repeated blocks holding attention")
            }
            Some(k) => format!(
                "drawing {focus}, block {} of {count} repeated blocks holding attention",
                k + 1
            ),
            None => format!(
                "drawing {focus}; attention is held by {count} repeated blocks, the first {}",
                self.address
            ),
        }
    }
}

/// Module addresses that compute attention or hold something that does: attention
/// modules (by class or projection name), the modules of attention ops, and all their
/// ancestors.
fn attention_holders(trace: &Trace) -> HashSet<&str> {
    let mut sites: Vec<&str> = trace
        .modules
        .iter()
        .filter(|m| {
            m.class_name.contains("Attention")
                || ATTENTION_ROLES
                    .iter()
                    .any(|(suffix, _)| m.address.rsplit('.').next() == Some(*suffix))
        })
        .map(|m| m.address.as_str())
        .collect();
    sites.extend(
        trace
            .ops
            .iter()
            .filter(|op| ATTENTION_OPS.contains(&op.layer_type.as_str()))
            .filter_map(|op| op.modules.last()?.rsplit_once(':').map(|(a, _)| a)),
    );
    let mut holders = HashSet::new();
    for site in sites {
        let mut address = site;
        while holders.insert(address) {
            match address.rsplit_once('.') {
                Some((parent, _)) => address = parent,
                None => break,
            }
        }
    }
    holders
}

/// The first (in flow order) container that is repeated among its siblings (same class,
/// at least two) and holds attention; on ties, the outermost.
fn attention_block(trace: &Trace) -> Option<AttentionBlock> {
    let holders = attention_holders(trace);
    let by_address: HashMap<&str, &ModuleRecord> = trace
        .modules
        .iter()
        .map(|m| (m.address.as_str(), m))
        .collect();
    let mut first_op: HashMap<&str, usize> = HashMap::new();
    for (i, op) in trace.ops.iter().enumerate() {
        for call in &op.modules {
            if let Some((address, _)) = call.rsplit_once(':') {
                first_op.entry(address).or_insert(i);
            }
        }
    }
    trace
        .modules
        .iter()
        .filter(|m| !m.children.is_empty() && holders.contains(m.address.as_str()))
        .filter_map(|module| {
            let parent = by_address.get(module.parent.as_deref()?)?;
            let repeated: Vec<String> = parent
                .children
                .iter()
                .filter_map(|child| by_address.get(child.as_str()))
                .filter(|sibling| sibling.class_name == module.class_name)
                .map(|sibling| sibling.address.clone())
                .collect();
            let first = *first_op.get(module.address.as_str())?;
            (repeated.len() >= 2).then(|| {
                let block = AttentionBlock {
                    address: module.address.clone(),
                    repeated,
                };
                ((first, module.address.matches('.').count()), block)
            })
        })
        .min_by_key(|(order, _)| *order)
        .map(|(_, block)| block)
}

/// Rows the caption adds under the header.
pub(crate) fn caption_rows(caption: &[String]) -> Vec<Row> {
    caption
        .iter()
        .map(|line| Row::plain(line.clone()))
        .collect()
}

/// Applies a restyling hook to every drawn node.
pub(crate) fn restyle(
    trace: &Trace,
    kinds: &[NodeKind],
    nodes: &mut [StyledNode],
    hook: &NodeSpecFn,
) {
    for (kind, node) in kinds.iter().zip(nodes.iter_mut()) {
        let op = match kind {
            NodeKind::Op(op) => Some(&trace.ops[*op]),
            NodeKind::Layer(passes) => passes.first().map(|&p| &trace.ops[p]),
            _ => None,
        };
        (hook.0)(&NodeContext { trace, kind, op }, node);
        keep_drawable(node);
    }
}

/// The most rows a restyled node keeps; the last says how many more there were.
pub const MAX_HOOK_ROWS: usize = 64;
/// The largest border width a restyled node keeps.
pub const MAX_HOOK_PENWIDTH: f64 = 50.0;
/// The most borders a restyled node keeps.
const MAX_PERIPHERIES: u32 = 10;
/// The largest node size a restyled node keeps, in inches (a drawing 2.5 m across).
pub const MAX_HOOK_NODE_INCHES: f64 = 100.0;

/// What a hook set, within what a drawing can show (issue 31: `width=inf` gave `nan`
/// coordinates, a 10 MB row a 3 GB page, 100,000 rows 26 s): each row cut to
/// [`tl_style::format::MAX_SHOWN_CHARS`] characters, at most [`MAX_HOOK_ROWS`] rows, numbers
/// finite and in range (a size or border out of range is dropped, a count capped).
fn keep_drawable(node: &mut StyledNode) {
    if node.rows.len() > MAX_HOOK_ROWS {
        let more = node.rows.len() - (MAX_HOOK_ROWS - 1);
        node.rows.truncate(MAX_HOOK_ROWS - 1);
        node.rows
            .push(tl_style::Row::plain(format!("… {more} more lines")));
    }
    for row in &mut node.rows {
        if let std::borrow::Cow::Owned(cut) = tl_style::format::capped(&row.text) {
            row.text = cut;
        }
    }
    if let Some(tooltip) = &mut node.tooltip {
        if let std::borrow::Cow::Owned(cut) = tl_style::format::capped(tooltip) {
            *tooltip = cut;
        }
    }
    node.penwidth = node
        .penwidth
        .filter(|w| w.is_finite() && (0.0..=MAX_HOOK_PENWIDTH).contains(w));
    node.peripheries = node.peripheries.map(|n| n.min(MAX_PERIPHERIES));
    node.min_size = node.min_size.filter(|(w, h)| {
        [w, h]
            .iter()
            .all(|v| v.is_finite() && (0.0..=MAX_HOOK_NODE_INCHES).contains(*v))
    });
}
