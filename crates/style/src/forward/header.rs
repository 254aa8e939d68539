//! The header block above the drawing: the model, its counts, a focus, capture advisories.

use super::*;

/// The header block: model name, whole-network operation count and output size (with the
/// operations hidden with the buffers disclosed), parameter count.
pub fn header(trace: &Trace, visible: &VisibleGraph) -> Vec<Row> {
    let summary = &trace.summary;
    let hidden_ops = trace
        .ops
        .iter()
        .zip(&visible.hidden)
        .filter(|(op, &hidden)| hidden && op.kind == OpKind::Op)
        .count();
    let noun = if summary.num_ops == 1 {
        "operation"
    } else {
        "operations"
    };
    let hidden_note = match hidden_ops {
        0 => String::new(),
        n => format!("; {n} hidden with the buffers"),
    };
    let ops_line = format!(
        "{} {noun} ({} of outputs{hidden_note})",
        format::compact_count(summary.num_ops),
        format::bytes(summary.total_output_bytes)
    );
    let mut rows = vec![Row::bold(trace.model.class_name.clone())];
    rows.extend(
        trace
            .model
            .source
            .iter()
            .map(|source| Row::plain(source.clone())),
    );
    rows.push(Row::plain(ops_line));
    rows.push(Row::plain(params_line(
        summary.num_params_trainable,
        summary.num_params_frozen,
    )));
    rows
}

/// TorchLens's capture advisories, in bold as it draws them:
/// `capture advisory: scalar_escape x1 (first at models.py:49)`.
pub(super) fn advisory_rows(trace: &Trace) -> impl Iterator<Item = Row> + '_ {
    trace.advisories.iter().map(|advisory| {
        Row::bold(format!(
            "capture advisory: {} x{} (first at {})",
            advisory.kind,
            advisory.count,
            advisory.first_at.as_deref().unwrap_or("unknown location")
        ))
    })
}

/// `1.61K parameters, all trainable`, `108 parameters (4 trainable, 104 frozen)`.
pub fn params_line(trainable: u64, frozen: u64) -> String {
    let total = trainable + frozen;
    let params = format::compact_count(total);
    let noun = if total == 1 {
        "parameter"
    } else {
        "parameters"
    };
    match (trainable, frozen) {
        (0, 0) => "no parameters".to_owned(),
        (_, 0) => format!("{params} {noun}, all trainable"),
        (0, _) => format!("{params} {noun}, all frozen"),
        (trainable, frozen) => format!(
            "{params} {noun} ({} trainable, {} frozen)",
            format::compact_count(trainable),
            format::compact_count(frozen)
        ),
    }
}

/// The header of a module focus: the path to the module, its class, and that module's own
/// operation count, output size and parameters.
pub(super) fn focus_header(trace: &Trace, visible: &VisibleGraph, address: &str) -> Vec<Row> {
    let module = trace.modules.iter().find(|m| m.address == address);
    let inside: Vec<&OpRecord> = visible
        .nodes
        .iter()
        .filter(|node| !matches!(node.kind, NodeKind::Stub(..)))
        .flat_map(|node| node.kind.ops())
        .map(|i| &trace.ops[i])
        .collect();
    let ops = inside.iter().filter(|op| op.kind == OpKind::Op).count() as u64;
    let bytes: u64 = inside.iter().filter_map(|op| op.bytes).sum();
    let noun = if ops == 1 { "operation" } else { "operations" };
    let mut rows = vec![Row::bold(format!("{} > {address}", trace.model.class_name))];
    if let Some(module) = module {
        rows.push(Row::plain(module.class_name.clone()));
    }
    rows.push(Row::plain(format!(
        "{} {noun} ({} of outputs)",
        format::compact_count(ops),
        format::bytes(bytes)
    )));
    if let Some(module) = module {
        rows.push(Row::plain(params_line(
            module.num_params_trainable,
            module.num_params_frozen,
        )));
    }
    rows
}
