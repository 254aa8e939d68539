//! The nodes: operations, module boxes, capsules, folds, stubs and rolled layers.

use super::*;

pub(super) fn op_node(
    index: &Index<'_, '_>,
    visible: &VisibleGraph,
    op_index: usize,
    options: &StyleOptions,
    theme: &Theme,
    used: &mut Used,
) -> StyledNode {
    let op = &index.trace().ops[op_index];
    let rectangle = is_module_rectangle(index, visible, op_index, options.buffers);
    let address = address_row(index, op, rectangle);
    let mut rows = match &options.node_label_fields {
        Some(fields) => field_rows(index, op, address.clone(), fields),
        None => Vec::new(),
    };
    if rows.is_empty() {
        rows = default_op_rows(index, op, address, options);
    }
    if options.node_style == NodeStyle::Profiling {
        rows.extend(profiling_rows(op));
    }
    // Node content: the user's `annotate(data=...)` entries, then decoded class names.
    rows.extend(
        op.annotations
            .iter()
            .map(|(key, value)| Row::plain(format!("{key}: {}", crate::args::value_text(value)))),
    );
    rows.extend(op.decoded_labels.iter().enumerate().map(|(rank, decoded)| {
        Row::plain(format!(
            "{}. {} {:.0}%",
            rank + 1,
            decoded.label,
            decoded.score * 100.0
        ))
    }));
    let content_box = !op.decoded_labels.is_empty();
    // A node carrying a picture is a rounded box with the picture in its own cell.
    let picture = op
        .picture
        .as_ref()
        .filter(|picture| options.show_input_photo || picture.source != PictureSource::InputPhoto)
        .and_then(|picture| {
            Some(NodePicture::new(
                picture.png_bytes().ok()?,
                picture.width,
                picture.height,
            ))
        });
    let shape = match op.kind {
        OpKind::Buffer => Shape::Cylinder,
        _ if rectangle || picture.is_some() || content_box => Shape::Box,
        _ => Shape::Oval,
    };
    // An op reading buffer versions the drawing hides gets a double border.
    let mut hidden_buffers: Vec<&str> = Vec::new();
    if op.kind == OpKind::Op && options.buffers != BufferVisibility::Always {
        for parent in &op.parents {
            let parent_index = index.op_index(parent.as_str());
            if let (true, Some(buffer)) = (
                visible.hidden[parent_index],
                &index.trace().ops[parent_index].buffer,
            ) {
                if !hidden_buffers.contains(&buffer.address.as_str()) {
                    hidden_buffers.push(&buffer.address);
                }
            }
        }
    }
    let role = op_role(index, op);
    used.role(role);
    match shape {
        Shape::Cylinder => used.cylinders = true,
        Shape::Box => used.rectangles = true,
        _ => used.ovals |= role != Role::Input && role != Role::Output,
    }
    used.double_borders |= !hidden_buffers.is_empty();
    used.dashed |= !op.has_input_ancestor;
    let fill = role.fill(theme);
    let font_color = text_on_fill(&fill, theme);
    StyledNode {
        dashed: !op.has_input_ancestor,
        rounded: picture.is_some() || content_box,
        picture,
        peripheries: (!hidden_buffers.is_empty()).then_some(2),
        tooltip: (!hidden_buffers.is_empty())
            .then(|| format!("Hidden buffers: {}", hidden_buffers.join(", "))),
        ..StyledNode::new(
            op_node_id(op),
            rows,
            shape,
            fill,
            theme.node_border.clone(),
            font_color,
        )
    }
}

/// `4 ops + 6 buffers` for the ops a group node holds.
pub(super) fn contents_text(trace: &Trace, held: &[usize]) -> Option<String> {
    let buffers = held
        .iter()
        .filter(|&&i| trace.ops[i].kind == OpKind::Buffer)
        .count();
    let ops = held.len() - buffers;
    let mut parts = Vec::new();
    if ops > 0 {
        parts.push(format!("{ops} {}", if ops == 1 { "op" } else { "ops" }));
    }
    if buffers > 0 {
        parts.push(format!(
            "{buffers} {}",
            if buffers == 1 { "buffer" } else { "buffers" }
        ));
    }
    (!parts.is_empty()).then(|| parts.join(" + "))
}

pub(super) fn box_node(
    index: &Index<'_, '_>,
    visible: &VisibleGraph,
    module_box: &ModuleBox,
    options: &StyleOptions,
    theme: &Theme,
    used: &mut Used,
) -> StyledNode {
    let trace = index.trace();
    let module = &trace.modules[index.module(module_box.address.as_str())];
    let held = &module_box.ops;
    let surfaced_params = module_box
        .surfaced
        .iter()
        .flat_map(|&i| trace.ops[i].params.iter());
    let (surfaced_trainable, surfaced_frozen) = index.param_split(surfaced_params);
    let trainable = module
        .num_params_trainable
        .saturating_sub(surfaced_trainable);
    let frozen = module.num_params_frozen.saturating_sub(surfaced_frozen);
    let params_line = match (trainable, frozen) {
        (0, 0) => "0 parameters".to_owned(),
        (t, 0) => format!("{} params (all trainable)", format::compact_count(t)),
        (0, f) => format!("{} params (all frozen)", format::compact_count(f)),
        (t, f) => format!(
            "{} params ({} trainable, {} frozen)",
            format::compact_count(t + f),
            format::compact_count(t),
            format::compact_count(f)
        ),
    };
    let title = match module_box.call {
        Some(call) => index.call_address(call),
        // A rolled box stands for every call of its module.
        None if module.num_calls > 1 => format!("@{} (x{})", module_box.address, module.num_calls),
        None => format!("@{}", module_box.address),
    };
    // The box's output: its call's last output, or the last op feeding the outside.
    let output = match module_box.call {
        Some(call) => trace.module_calls[call]
            .output_ops
            .last()
            .map(|label| index.op(label)),
        None => held.iter().rev().map(|&i| &trace.ops[i]).find(|op| {
            op.children
                .iter()
                .any(|c| !held.contains(&index.op_index(c.as_str())))
        }),
    };
    let contents = contents_text(trace, held);
    let mut rows = vec![Row::bold(title), Row::plain(module.class_name.clone())];
    rows.extend(output.and_then(shape_row).map(Row::plain));
    rows.extend(contents.map(Row::plain));
    rows.push(Row::plain(params_line));
    if options.node_style == NodeStyle::Profiling {
        let held_ops = || held.iter().map(|&i| &trace.ops[i]);
        let times: Vec<f64> = held_ops().filter_map(|op| op.duration_s).collect();
        let bytes: u64 = held_ops().filter_map(|op| op.bytes).sum();
        if !times.is_empty() {
            rows.push(Row::plain(format!(
                "t={}",
                format::milliseconds(times.iter().sum())
            )));
        }
        rows.push(Row::plain(format!(
            "out={}",
            format::bytes(bytes).replace(' ', "")
        )));
    }
    let dashed = !held
        .iter()
        .any(|&i| trace.ops[i].has_input_ancestor && !visible.hidden[i]);
    let role = Role::from_params(trainable, frozen);
    used.role(role);
    used.boxes = true;
    used.dashed |= dashed;
    let fill = role.fill(theme);
    let id = match module_box.call {
        Some(call) => format!("box:{}", trace.module_calls[call].label),
        None => format!("box:{}", module_box.address),
    };
    let font_color = text_on_fill(&fill, theme);
    StyledNode {
        dashed,
        ..StyledNode::new(
            id,
            rows,
            Shape::Box3d,
            fill,
            theme.node_border.clone(),
            font_color,
        )
    }
}

/// `blocks.0-5` when the members count up by one under one stem, else `blocks.{a, c, d}`.
pub(super) fn member_range(members: &[String]) -> String {
    let split = |address: &str| -> (String, String) {
        match address.rsplit_once('.') {
            Some((prefix, leaf)) => (format!("{prefix}."), leaf.to_owned()),
            None => (String::new(), address.to_owned()),
        }
    };
    let (prefix, first) = split(&members[0]);
    let (_, last) = split(&members[members.len() - 1]);
    let leaf_number = |leaf: &str| {
        let digits: String = leaf
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect();
        let stem = &leaf[..leaf.len() - digits.len()];
        digits
            .chars()
            .rev()
            .collect::<String>()
            .parse::<u64>()
            .ok()
            .map(|n| (stem.to_owned(), n))
    };
    let numbered: Option<Vec<(String, u64)>> =
        members.iter().map(|m| leaf_number(&split(m).1)).collect();
    let counts_up = numbered.is_some_and(|numbered| {
        numbered
            .windows(2)
            .all(|w| w[0].0 == w[1].0 && w[1].1 == w[0].1 + 1)
    }) && members.iter().all(|m| split(m).0 == prefix);
    if counts_up {
        format!("{prefix}{first}-{last}")
    } else {
        let leaves: Vec<String> = members.iter().map(|m| split(m).1).collect();
        format!("{prefix}{{{}}}", leaves.join(", "))
    }
}

pub(super) fn capsule_node(
    index: &Index<'_, '_>,
    blocks: &Capsule,
    theme: &Theme,
    used: &mut Used,
) -> StyledNode {
    let trace = index.trace();
    let params: u64 = blocks
        .members
        .iter()
        .map(|m| trace.modules[index.module(m.as_str())].num_params)
        .sum();
    let mut text = format!(
        "{} -- {} blocks",
        member_range(&blocks.members),
        blocks.members.len()
    );
    if let Some(contents) = contents_text(trace, &blocks.ops) {
        text.push_str(&format!(", {contents}"));
    }
    text.push_str(&format!(", {} params", format::compact_count(params)));
    capsule(
        format!("segment:{}", blocks.members.join(",")),
        text,
        blocks.members.join(", "),
        theme,
        used,
    )
}

/// `conv2d_1_1 ... maxpool2d_1_4 -- 4 ops -- spans @conv1, @bn1, @relu, +1 more`.
pub(super) fn op_capsule_node(
    index: &Index<'_, '_>,
    ops: &[usize],
    theme: &Theme,
    used: &mut Used,
) -> StyledNode {
    let trace = index.trace();
    if ops.iter().all(|&op| trace.ops[op].kind == OpKind::Output) {
        return output_group_node(trace, ops, theme, used);
    }
    let (first, last) = (&trace.ops[ops[0]], &trace.ops[ops[ops.len() - 1]]);
    let modules: Vec<String> = ops
        .iter()
        .filter_map(|&op| trace.ops[op].modules.last())
        .map(|call| format!("@{}", trace.module_calls[index.call(call.as_str())].address))
        .collect();
    let mut text = format!(
        "{} ... {} -- {} ops",
        display_name(first),
        display_name(last),
        ops.len()
    );
    if !modules.is_empty() {
        let spans = first_few(modules.iter().map(String::as_str));
        text.push_str(&format!(" -- spans {spans}"));
    }
    let members = ops
        .iter()
        .map(|&op| display_name(&trace.ops[op]))
        .collect::<Vec<_>>()
        .join(", ");
    capsule(
        format!("opsegment:{}", first.label),
        text,
        members,
        theme,
        used,
    )
}

/// Alike outputs drawn as one output node ([`tl_collapse::outputs`]): how many, the shape
/// each has and what they hold together, and the outputs' places in what the model returns.
fn output_group_node(trace: &Trace, ops: &[usize], theme: &Theme, used: &mut Used) -> StyledNode {
    let (first, last) = (&trace.ops[ops[0]], &trace.ops[ops[ops.len() - 1]]);
    used.role(Role::Output);
    let total: u64 = ops.iter().filter_map(|&op| trace.ops[op].bytes).sum();
    let mut rows = vec![Row::bold(format!("{} outputs", ops.len()))];
    // One shape each, or a pair of shapes in turn (a Mamba's convolution and state caches).
    let second = trace.ops[ops[1.min(ops.len() - 1)]].shape.as_ref();
    match (&first.shape, second) {
        (Some(shape), Some(other)) if other != shape => rows.push(Row::plain(format!(
            "{} and {} in turn, {} in all",
            format::shape(shape),
            format::shape(other),
            format::bytes(total)
        ))),
        (Some(shape), _) => rows.push(Row::plain(format!(
            "{} each, {} in all",
            format::shape(shape),
            format::bytes(total)
        ))),
        (None, _) => {}
    }
    if let (Some(from), Some(to)) = (&first.io_role, &last.io_role) {
        rows.push(Row::plain(format!("@{from} ... @{to}")));
    }
    let fill = Role::Output.fill(theme);
    let font_color = text_on_fill(&fill, theme);
    StyledNode {
        tooltip: Some(
            ops.iter()
                .map(|&op| display_name(&trace.ops[op]))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        ..StyledNode::new(
            format!("outputs:{}", first.label),
            rows,
            Shape::Oval,
            fill,
            theme.node_border.clone(),
            font_color,
        )
    }
}

/// The dashed rounded capsule over a run of blocks or operations.
pub(super) fn capsule(
    id: String,
    text: String,
    tooltip: String,
    theme: &Theme,
    used: &mut Used,
) -> StyledNode {
    used.capsules = true;
    StyledNode {
        dashed: true,
        rounded: true,
        tooltip: Some(tooltip),
        ..StyledNode::new(
            id,
            vec![Row::bold(text)],
            Shape::Box,
            Fill::Solid(theme.segment_fill.clone()),
            theme.segment_border.clone(),
            theme.segment_font.clone(),
        )
    }
}

pub(super) fn ellipsis_node(
    index: &Index<'_, '_>,
    ellipsis: &FoldEllipsis,
    theme: &Theme,
) -> StyledNode {
    let trace = index.trace();
    let class = &trace.modules[index.module(ellipsis.members[0].as_str())].class_name;
    let calls: u32 = ellipsis
        .members
        .iter()
        .map(|m| trace.modules[index.module(m.as_str())].num_calls)
        .sum();
    let mut text = format!("... +{} more {class}", ellipsis.members.len());
    if calls as usize > ellipsis.members.len() {
        text.push_str(&format!(" ({calls} calls)"));
    }
    StyledNode {
        tooltip: Some(ellipsis.members.join(", ")),
        ..StyledNode::new(
            format!("fold:{}", ellipsis.members.join(",")),
            vec![Row::plain(text)],
            Shape::Plaintext,
            Fill::Solid(theme.page.clone()),
            theme.page.clone(),
            theme.ellipsis_font.clone(),
        )
    }
}

/// The later steps of a loop of calls: how many, the modules they call and the other
/// operations they run (`... +63 more steps of the loop`, `@cell (LSTMCell): 63 calls`,
/// `and 63 other ops (getitem)`).
pub(super) fn loop_ellipsis_node(
    index: &Index<'_, '_>,
    ellipsis: &LoopEllipsis,
    theme: &Theme,
) -> StyledNode {
    let trace = index.trace();
    let mut rows = vec![Row::plain(format!(
        "... +{} more steps of the loop",
        ellipsis.calls.len()
    ))];
    // A rolled drawing's ellipsis holds only what no node of the first step draws: it may
    // call no module.
    let calls = !ellipsis.called.is_empty();
    if calls {
        rows.push(Row::plain(called_row(index, &ellipsis.called)));
    }
    if !ellipsis.between.is_empty() {
        let types = first_few(
            ellipsis
                .between
                .iter()
                .map(|&op| trace.ops[op].layer_type.as_str()),
        );
        let (and, other) = if calls { ("and ", "other ") } else { ("", "") };
        rows.push(Row::plain(format!(
            "{and}{} {other}ops ({types})",
            ellipsis.between.len()
        )));
    }
    let (first, last) = (ellipsis.calls[0], ellipsis.calls[ellipsis.calls.len() - 1]);
    StyledNode {
        tooltip: Some(format!(
            "steps from {} to {}, {} ops",
            index.call_address(first),
            index.call_address(last),
            ellipsis.ops.len()
        )),
        ..StyledNode::new(
            format!("loop:{}", ellipsis.address),
            rows,
            Shape::Plaintext,
            Fill::Solid(theme.page.clone()),
            theme.page.clone(),
            theme.ellipsis_font.clone(),
        )
    }
}

/// `@inp, @rec (Linear): 19 calls each`, or `@embed x19, @cell x38` when the counts differ.
fn called_row(index: &Index<'_, '_>, called: &[(String, usize)]) -> String {
    let trace = index.trace();
    let shown = &called[..called.len().min(3)];
    let more = match called.len().saturating_sub(3) {
        0 => String::new(),
        n => format!(", +{n} more"),
    };
    let count = called[0].1;
    if called.iter().all(|(_, c)| *c == count) {
        let addresses: Vec<String> = shown.iter().map(|(a, _)| format!("@{a}")).collect();
        let classes = first_few(
            shown
                .iter()
                .map(|(a, _)| trace.modules[index.module(a.as_str())].class_name.as_str()),
        );
        let each = if called.len() > 1 { " each" } else { "" };
        format!(
            "{}{more} ({classes}): {count} calls{each}",
            addresses.join(", ")
        )
    } else {
        let counts: Vec<String> = shown.iter().map(|(a, c)| format!("@{a} x{c}")).collect();
        format!("{}{more}", counts.join(", "))
    }
}

/// The distinct items, first three in order, then `+N more`.
fn first_few<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut distinct: Vec<&str> = Vec::new();
    for item in items {
        if !distinct.contains(&item) {
            distinct.push(item);
        }
    }
    let more = distinct.len().saturating_sub(3);
    distinct.truncate(3);
    let mut text = distinct.join(", ");
    if more > 0 {
        text.push_str(&format!(", +{more} more"));
    }
    text
}

/// A stub: the outside op (a rolled drawing's: the outside layer, all its passes) that feeds
/// or reads the focused module.
pub(super) fn stub_node(
    index: &Index<'_, '_>,
    op_index: usize,
    side: StubSide,
    rolled: bool,
    theme: &Theme,
    used: &mut Used,
) -> StyledNode {
    let op = &index.trace().ops[op_index];
    let module = op.modules.last().map(|call| {
        let call = index.call(call.as_str());
        let address = if rolled {
            format!("@{}", index.trace().module_calls[call].address)
        } else {
            index.call_address(call)
        };
        format!(" ({address})")
    });
    let name = if rolled {
        op.layer_label.clone()
    } else {
        display_name(op)
    };
    let (word, fill) = match side {
        StubSide::Input => {
            used.input_stubs = true;
            ("from", &theme.roles.input)
        }
        StubSide::Output => {
            used.output_stubs = true;
            ("to", &theme.roles.output)
        }
    };
    StyledNode::new(
        format!("stub:{}", if rolled { &op.layer_label } else { &op.label }),
        vec![Row::plain(format!(
            "{word} {name}{}",
            module.unwrap_or_default()
        ))],
        Shape::Oval,
        Fill::Solid(fill.clone()),
        theme.node_border.clone(),
        contrast::text_on(fill, theme),
    )
}

/// A rolled layer: its first pass's node, retitled and readdressed for all its passes.
pub(super) fn layer_node(
    index: &Index<'_, '_>,
    visible: &VisibleGraph,
    passes: &[usize],
    options: &StyleOptions,
    theme: &Theme,
    used: &mut Used,
) -> StyledNode {
    let trace = index.trace();
    let first = &trace.ops[passes[0]];
    let mut node = op_node(index, visible, passes[0], options, theme, used);
    node.id = first.layer_label.clone();
    let rectangle = passes
        .iter()
        .any(|&p| is_module_rectangle(index, visible, p, options.buffers));
    let groups = rolled::call_groups(index.shared, passes).map(|groups| {
        groups
            .iter()
            .map(|g| format::compact_ranges(g))
            .collect::<Vec<_>>()
            .join(",")
    });
    let module = first.modules.last().map(|call| {
        index.trace().module_calls[index.call(call.as_str())]
            .address
            .clone()
    });
    let (title, address) = match (&groups, rectangle, &module) {
        // The guide: "(x3) after a name says the layer ran three times", also when the
        // address row lists the calls (2.36.1 leaves the suffix off there).
        (Some(groups), true, Some(module)) => (
            rolled_title(first, passes.len()),
            Some(format!("@{module}:{groups}")),
        ),
        (Some(groups), false, _) => (format!("{}:{groups}", first.layer_label), None),
        (None, true, Some(module)) => (
            rolled_title(first, passes.len()),
            Some(format!("@{module}")),
        ),
        _ => (rolled_title(first, passes.len()), None),
    };
    let old_title = display_name(first);
    let old_address = address_row(index, first, rectangle);
    for row in &mut node.rows {
        if row.text == old_title {
            row.text = title.clone();
        } else if old_address.as_ref() == Some(&row.text) {
            if let Some(address) = &address {
                row.text = address.clone();
            }
        }
    }
    // Passes with different shapes: say so under the name.
    let shapes: Vec<Option<&Vec<u64>>> = passes
        .iter()
        .map(|&p| trace.ops[p].shape.as_ref())
        .collect();
    if shapes.windows(2).any(|w| w[0] != w[1]) {
        if let (Some(Some(a)), Some(Some(b))) = (shapes.first(), shapes.last()) {
            let position = node
                .rows
                .iter()
                .position(|r| r.text == title)
                .map_or(1, |p| p + 1);
            node.rows.insert(
                position,
                Row::plain(format!(
                    "shapes {} -> {}",
                    format::shape(a),
                    format::shape(b)
                )),
            );
        }
    }
    node.shape = if first.kind == OpKind::Buffer {
        Shape::Cylinder
    } else if rectangle || node.picture.is_some() {
        Shape::Box
    } else {
        node.shape
    };
    node
}

pub(super) fn rolled_title(op: &OpRecord, passes: usize) -> String {
    if passes > 1 {
        format!("{} (x{passes})", op.layer_label)
    } else {
        op.layer_label.clone()
    }
}
