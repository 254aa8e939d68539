//! The rows of an operation node: name, shape, value, parameters, address, condition, profiling, the fields asked for.

use super::*;

/// The name drawn on a node: the key users type to read the record back.
pub(super) fn display_name(op: &OpRecord) -> String {
    if op.num_passes > 1 {
        op.label.clone()
    } else {
        op.layer_label.clone()
    }
}

pub(super) fn shape_row(op: &OpRecord) -> Option<String> {
    let shape = op.shape.as_ref()?;
    let shape_text = if shape.is_empty() {
        "scalar".to_owned()
    } else {
        format::shape(shape)
    };
    Some(match op.bytes {
        Some(bytes) => format!("{shape_text}, {}", format::bytes(bytes)),
        None => shape_text,
    })
}

pub(super) fn value_row(op: &OpRecord) -> Option<String> {
    match (op.shape.as_deref(), op.value) {
        (Some([]), Some(ScalarValue::Bool(value))) => {
            Some(format!("= {}", if value { "True" } else { "False" }))
        }
        (Some([]), Some(ScalarValue::Number(value))) => {
            Some(format!("= {}", format::scalar(value)))
        }
        _ => None,
    }
}

pub(super) fn params_row(index: &Index<'_, '_>, op: &OpRecord) -> Option<String> {
    if op.params.is_empty() {
        return None;
    }
    let items: Vec<String> = op
        .params
        .iter()
        .map(|address| {
            let param = &index.trace().params[index.param(address.as_str())];
            let shape = format::shape(&param.shape);
            let shape = if param.trainable {
                shape
            } else {
                format!("[{}]", &shape[1..shape.len() - 1])
            };
            format!("{} {shape}", param.name)
        })
        .collect();
    Some(format!("params: {}", items.join(" \u{b7} ")))
}

pub(super) fn saved_row(op: &OpRecord) -> Option<String> {
    let saved = op
        .saved_for_backward
        .as_ref()
        .filter(|saved| saved.count > 0)?;
    let noun = if saved.count == 1 {
        "tensor"
    } else {
        "tensors"
    };
    Some(match saved.bytes {
        Some(bytes) => format!(
            "saved for backward: {} {noun}, {}",
            saved.count,
            format::bytes(bytes)
        ),
        None => format!("saved for backward: {} {noun}", saved.count),
    })
}

pub(super) fn profiling_rows(op: &OpRecord) -> Vec<Row> {
    // Inputs, outputs and buffers have no measured time: no `t=0.00 ns` row for them.
    let mut rows: Vec<Row> = op
        .duration_s
        .map(|seconds| Row::plain(format!("t={}", format::milliseconds(seconds))))
        .into_iter()
        .collect();
    if let Some(bytes) = op.bytes {
        rows.push(Row::plain(format!(
            "out={}",
            format::bytes(bytes).replace(' ', "")
        )));
    }
    match op.call_sites.first() {
        Some(site) => {
            let file = site.file.rsplit('/').next().unwrap_or(&site.file);
            rows.push(Row::plain(format!("call={file}:{}", site.line)));
            rows.push(Row::plain(format!(
                "fn={}",
                site.qualname.as_deref().unwrap_or(&site.function)
            )));
        }
        None => rows.push(Row::plain(format!("fn={}", op.func_name))),
    }
    rows
}

/// The word a condition row starts with (`IF: TRUE`): the guide's `IF`, extended to every
/// kind of test (docs/decisions.md); a kind this version does not know reads as a plain
/// condition, never as its raw name.
pub fn condition_word(kind: &ConditionKind) -> &'static str {
    match kind {
        ConditionKind::IfTest => "IF",
        ConditionKind::ElifTest => "ELIF",
        ConditionKind::IfExp => "IF (inline)",
        ConditionKind::While => "WHILE",
        ConditionKind::Assert => "ASSERT",
        ConditionKind::BoolCast => "BOOL",
        ConditionKind::ComprehensionFilter => "FILTER",
        ConditionKind::MatchGuard => "CASE GUARD",
        ConditionKind::Other(_) => "CONDITION",
    }
}

/// Is this op drawn as a module-output rectangle (the guide's address row ("Reading a node"))?
pub(super) fn is_module_rectangle(
    index: &Index<'_, '_>,
    visible: &VisibleGraph,
    op_index: usize,
    buffers: BufferVisibility,
) -> bool {
    let op = &index.trace().ops[op_index];
    if op.kind != OpKind::Op {
        return false;
    }
    if op.is_atomic_module || index.shared.is_leaf_output(op_index) {
        return true;
    }
    if buffers == BufferVisibility::Always {
        return false;
    }
    // The only drawn operation of a leaf module it exits, fed only from outside it.
    let Some(innermost) = op.modules.last() else {
        return false;
    };
    let call = index.call(innermost.as_str());
    if !index.module_of_call(call).children.is_empty() || !op.output_of_calls.contains(innermost) {
        return false;
    }
    let inside: HashSet<&str> = index.trace().module_calls[call]
        .ops
        .iter()
        .map(String::as_str)
        .collect();
    let drawn_inside = inside
        .iter()
        .map(|label| index.op_index(label))
        .filter(|&i| !visible.hidden[i] && index.trace().ops[i].kind == OpKind::Op)
        .count();
    drawn_inside == 1
        && op.parents.iter().all(|parent| {
            !inside.contains(parent.as_str()) || visible.hidden[index.op_index(parent.as_str())]
        })
}

pub(super) fn address_row(index: &Index<'_, '_>, op: &OpRecord, rectangle: bool) -> Option<String> {
    match op.kind {
        OpKind::Input | OpKind::Output => op.io_role.as_ref().map(|role| format!("@{role}")),
        OpKind::Buffer => op.buffer.as_ref().map(|buffer| {
            if index
                .buffer_versions
                .get(buffer.address.as_str())
                .copied()
                .unwrap_or(1)
                > 1
            {
                format!("@{}:{}", buffer.address, buffer.version)
            } else {
                format!("@{}", buffer.address)
            }
        }),
        OpKind::Op if rectangle => op
            .modules
            .last()
            .map(|call| index.call_address(index.call(call.as_str()))),
        OpKind::Op => None,
    }
}

pub(super) fn op_role(index: &Index<'_, '_>, op: &OpRecord) -> Role {
    match op.kind {
        OpKind::Input => Role::Input,
        OpKind::Output => Role::Output,
        _ if op.condition.is_some() => Role::Condition,
        _ => {
            let (trainable, frozen) = index.param_split(op.params.iter());
            Role::from_params(trainable, frozen)
        }
    }
}

pub(super) fn default_op_rows(
    index: &Index<'_, '_>,
    op: &OpRecord,
    address: Option<String>,
    options: &StyleOptions,
) -> Vec<Row> {
    let mut rows = Vec::new();
    if let Some(condition) = &op.condition {
        // The guide's `IF: TRUE`, extended to every kind of test (docs/decisions.md); a kind
        // this version does not know reads as a plain condition, never as its raw name.
        let kind = condition_word(&condition.kind);
        rows.push(Row::bold(format!(
            "{kind}: {}",
            if condition.value { "TRUE" } else { "FALSE" }
        )));
    }
    rows.push(Row::bold(display_name(op)));
    rows.extend(shape_row(op).map(Row::plain));
    rows.extend(value_row(op).map(Row::plain));
    if options.show_saved_for_backward {
        rows.extend(saved_row(op).map(Row::plain));
    }
    let single_parent_shape = match op.parents.as_slice() {
        [parent] => index.op(parent).shape.as_deref(),
        _ => None,
    };
    rows.extend(argument_row(op, single_parent_shape, options.show_redundant_args).map(Row::plain));
    rows.extend(params_row(index, op).map(Row::plain));
    rows.extend(address.map(Row::plain));
    rows
}

pub(super) fn field_rows(
    index: &Index<'_, '_>,
    op: &OpRecord,
    address: Option<String>,
    fields: &[LabelField],
) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for field in fields {
        let text = match field {
            LabelField::Name => Some(display_name(op)),
            LabelField::Type => Some(op.func_name.clone()),
            LabelField::Shape => op.shape.as_deref().map(format::shape),
            LabelField::Dtype => op.dtype.clone(),
            LabelField::Memory => op.bytes.map(format::bytes),
            LabelField::Module => {
                Some(address.clone().unwrap_or_else(|| match op.modules.last() {
                    Some(call) => index.call_address(index.call(call.as_str())),
                    None => "@root".to_owned(),
                }))
            }
            LabelField::Params => params_row(index, op),
            LabelField::Pass => Some(format!("pass {} of {}", op.pass_index, op.num_passes)),
            LabelField::Flops => Some(format::flops(op.flops.unwrap_or(0))),
            LabelField::Time => op.duration_s.map(format::duration),
        };
        if let Some(text) = text {
            // The first row is the node's title, bold like every name.
            rows.push(if rows.is_empty() {
                Row::bold(text)
            } else {
                Row::plain(text)
            });
        }
    }
    rows
}
