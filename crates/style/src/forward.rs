//! Styling of the forward drawing: node rows, shapes, fills and borders, arrow labels,
//! module clusters, the header and the key (drawing-spec sections 2 and 4.3-4.11).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use tl_collapse::rolled::{self, PassLabels};
use tl_collapse::{
    BufferVisibility, FoldEllipsis, ModuleBox, NodeKind, Segment, StubSide, TraceIndex,
    VisibleGraph,
};
use tl_trace_model::{ArmKind, ConditionKind, OpKind, OpRecord, PictureSource, ScalarValue, Trace};

use crate::args::argument_row;
use crate::contrast;
use crate::encoding;
use crate::format;
use crate::graph::*;
use crate::options::{LabelField, NodeStyle, StyleOptions};
use crate::theme::Theme;

/// Op types whose operands can be swapped: their arrows carry no `arg k` labels.
const COMMUTATIVE: [&str; 4] = ["add", "mul", "eq", "ne"];

/// From this many drawn parents on, argument labels move to the arrow's middle.
const MIDPOINT_LABEL_PARENTS: usize = 4;

/// Lookups over one trace: the drawing's shared [`TraceIndex`], plus what only styling needs.
struct Index<'i, 't> {
    shared: &'i TraceIndex<'t>,
    buffer_versions: HashMap<&'t str, u32>,
    /// Deepest module depth below the root, minus one (drawing-spec 2.10).
    deepest: u32,
}

impl<'i, 't> Index<'i, 't> {
    fn new(shared: &'i TraceIndex<'t>) -> Index<'i, 't> {
        let trace = shared.trace;
        let mut buffer_versions = HashMap::default();
        for op in &trace.ops {
            if let Some(buffer) = &op.buffer {
                let count = buffer_versions.entry(buffer.address.as_str()).or_insert(0);
                *count = (*count).max(buffer.version);
            }
        }
        Index {
            shared,
            buffer_versions,
            deepest: trace
                .modules
                .iter()
                .map(|m| m.depth)
                .max()
                .unwrap_or(0)
                .saturating_sub(1),
        }
    }

    fn trace(&self) -> &'t Trace {
        self.shared.trace
    }

    // The trace is validated: every label it names resolves.
    fn op_index(&self, label: &str) -> usize {
        self.shared.op(label).expect("validated op label")
    }

    fn call(&self, label: &str) -> usize {
        self.shared.call(label).expect("validated call label")
    }

    fn module(&self, address: &str) -> usize {
        self.shared
            .module(address)
            .expect("validated module address")
    }

    fn param(&self, address: &str) -> usize {
        self.shared
            .param(address)
            .expect("validated parameter address")
    }

    fn op(&self, label: &str) -> &'t OpRecord {
        &self.trace().ops[self.op_index(label)]
    }

    fn module_of_call(&self, call: usize) -> &'t tl_trace_model::ModuleRecord {
        &self.trace().modules[self.module(&self.trace().module_calls[call].address)]
    }

    /// `@features.0`, or `@rec:2` when the module ran more than once.
    fn call_address(&self, call: usize) -> String {
        let record = &self.trace().module_calls[call];
        if self.module_of_call(call).num_calls > 1 {
            format!("@{}:{}", record.address, record.call_index)
        } else {
            format!("@{}", record.address)
        }
    }

    /// Trainable and frozen parameter elements used by these parameter addresses.
    fn param_split<'a>(&self, addresses: impl Iterator<Item = &'a String>) -> (u64, u64) {
        addresses.fold((0, 0), |(trainable, frozen), address| {
            let param = &self.trace().params[self.param(address)];
            if param.trainable {
                (trainable + param.numel, frozen)
            } else {
                (trainable, frozen + param.numel)
            }
        })
    }
}

/// What kind of fill a node gets, before theming.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Role {
    Plain,
    Input,
    Output,
    Condition,
    Trainable,
    Frozen,
    Mixed,
}

impl Role {
    fn from_params(trainable: u64, frozen: u64) -> Role {
        match (trainable > 0, frozen > 0) {
            (false, false) => Role::Plain,
            (true, false) => Role::Trainable,
            (false, true) => Role::Frozen,
            (true, true) => Role::Mixed,
        }
    }

    fn fill(self, theme: &Theme) -> Fill {
        let roles = &theme.roles;
        match self {
            Role::Plain => Fill::Solid(theme.node_fill.clone()),
            Role::Input => Fill::Solid(roles.input.clone()),
            Role::Output => Fill::Solid(roles.output.clone()),
            Role::Condition => Fill::Solid(roles.boolean.clone()),
            Role::Trainable => Fill::Solid(roles.params_trainable.clone()),
            Role::Frozen => Fill::Solid(roles.params_frozen.clone()),
            Role::Mixed => {
                Fill::Gradient(roles.params_trainable.clone(), roles.params_frozen.clone())
            }
        }
    }

    fn legend_text(self) -> &'static str {
        match self {
            Role::Plain => "operation",
            Role::Input => "model input",
            Role::Output => "model output",
            Role::Condition => "condition of an if (IF: TRUE / IF: FALSE)",
            Role::Trainable => "uses trainable parameters",
            Role::Frozen => "uses frozen parameters [in square brackets]",
            Role::Mixed => "uses trainable and frozen parameters",
        }
    }
}

/// Builds the styled forward drawing of what `visible` shows.
pub fn style_forward(
    shared: &TraceIndex<'_>,
    visible: &VisibleGraph,
    pass_labels: Option<&[PassLabels]>,
    options: &StyleOptions,
    theme: &Theme,
) -> StyledGraph {
    let trace = shared.trace;
    let index = Index::new(shared);
    let mut used = Used::default();
    let mut nodes: Vec<StyledNode> = visible
        .nodes
        .iter()
        .map(|node| match &node.kind {
            NodeKind::Op(op) => op_node(&index, visible, *op, options, theme, &mut used),
            NodeKind::ModuleBox(module_box) => {
                box_node(&index, visible, module_box, options, theme, &mut used)
            }
            NodeKind::Segment(segment) => segment_node(&index, segment, theme, &mut used),
            NodeKind::FoldEllipsis(ellipsis) => ellipsis_node(&index, ellipsis, theme),
            NodeKind::Stub(op, side) => {
                stub_node(&index, *op, *side, pass_labels.is_some(), theme, &mut used)
            }
            NodeKind::Layer(passes) => {
                layer_node(&index, visible, passes, options, theme, &mut used)
            }
            NodeKind::OpSegment(ops) => op_segment_node(&index, ops, theme, &mut used),
        })
        .collect();
    for (styled, node) in nodes.iter_mut().zip(&visible.nodes) {
        styled.cluster = node.cluster;
    }
    let mut drawn_parents = vec![0usize; visible.nodes.len()];
    for edge in &visible.edges {
        drawn_parents[edge.to] += 1;
    }
    let edges = visible
        .edges
        .iter()
        .enumerate()
        .map(|(position, edge)| {
            styled_edge(
                &index,
                visible,
                edge,
                drawn_parents[edge.to],
                pass_labels.map(|labels| &labels[position]),
                options.show_edge_shapes,
            )
        })
        .collect();
    let clusters = visible
        .clusters
        .iter()
        .enumerate()
        .map(|(position, cluster)| {
            styled_cluster(
                &index,
                visible,
                position,
                cluster.call,
                cluster.parent,
                &nodes,
                theme,
                pass_labels.is_some(),
            )
        })
        .collect();
    // Only the last output is pinned to the far end, as TorchLens does: pinning every output
    // (GPT-2's key/value cache tensors are outputs made inside each block) forces each one's
    // arrow past every later block's frame, which made layout ~40x slower on GPT-2 small.
    let sink = visible
        .nodes
        .iter()
        .rposition(
            |node| matches!(node.kind, NodeKind::Op(op) if trace.ops[op].kind == OpKind::Output),
        )
        .into_iter()
        .collect();
    let key = encoding::apply(trace, visible, &mut nodes, &options.encoding, theme);
    crate::edits::mark_nodes(trace, visible, &mut nodes, options.interventions, theme);
    // A focused drawing shows its reading key unless told not to; an encoded drawing shows
    // its scales, and only them unless the key is asked for.
    let legend_on = options
        .show_legend
        .unwrap_or(options.focus.is_some() || !options.encoding.is_empty());
    let legend = legend_on.then(|| {
        let mut legend = used.legend(theme);
        if options.encoding.color_by.is_some() {
            // Fills belong to the scale: the input and output keep their colour as a ring,
            // and the key shows the same rings (the guide), also when it was not asked for.
            let rings = [&theme.roles.input, &theme.roles.output];
            let asked = options.show_legend == Some(true);
            legend.entries.retain_mut(|entry| match &entry.swatch {
                Some(Fill::Solid(color)) if rings.contains(&color) => {
                    entry.ring = true;
                    true
                }
                Some(_) => false,
                None => asked,
            });
        } else if options.show_legend.is_none() && !options.encoding.is_empty() {
            // size_by= alone changes no fill: its key is the size line only.
            legend.entries.clear();
        }
        key.add_to(&mut legend);
        legend.entries.extend(crate::edits::key_entries(
            trace,
            options.interventions,
            theme,
        ));
        legend
    });
    StyledGraph {
        name: trace.model.class_name.clone(),
        comment: "Computational graph for the feedforward sweep".to_owned(),
        style: GraphStyle::of(options.direction, theme),
        header: match &options.focus {
            Some(address) => focus_header(trace, visible, address),
            None => header(trace, visible),
        }
        .into_iter()
        .chain(crate::edits::header_line(trace))
        .chain(advisory_rows(trace))
        .collect(),
        nodes,
        edges,
        clusters,
        sink,
        legend,
    }
}

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
    vec![
        Row::bold(trace.model.class_name.clone()),
        Row::plain(ops_line),
        Row::plain(params_line(
            summary.num_params_trainable,
            summary.num_params_frozen,
        )),
    ]
}

/// TorchLens's capture advisories, in bold as it draws them:
/// `capture advisory: scalar_escape x1 (first at models.py:49)`.
fn advisory_rows(trace: &Trace) -> impl Iterator<Item = Row> + '_ {
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
fn focus_header(trace: &Trace, visible: &VisibleGraph, address: &str) -> Vec<Row> {
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

/// The fills, shapes and marks a drawing uses, for its key.
#[derive(Default)]
struct Used {
    roles: Vec<Role>,
    ovals: bool,
    rectangles: bool,
    double_borders: bool,
    cylinders: bool,
    boxes: bool,
    segments: bool,
    folds: bool,
    input_stubs: bool,
    output_stubs: bool,
    dashed: bool,
}

impl Used {
    fn role(&mut self, role: Role) {
        if !self.roles.contains(&role) {
            self.roles.push(role);
        }
    }

    fn legend(&self, theme: &Theme) -> Legend {
        let mut entries = Vec::new();
        let order = [
            Role::Input,
            Role::Output,
            Role::Condition,
            Role::Trainable,
            Role::Frozen,
            Role::Mixed,
        ];
        for role in order.into_iter().filter(|role| self.roles.contains(role)) {
            entries.push(LegendEntry {
                ring: false,
                swatch: Some(role.fill(theme)),
                text: role.legend_text().to_owned(),
            });
        }
        let shapes = [
            (self.ovals, "ellipse: an operation"),
            (self.rectangles, "rectangle: a module call's whole work"),
            (
                self.double_borders,
                "double border: also reads hidden buffers",
            ),
            (self.cylinders, "cylinder: a buffer version"),
            (self.boxes, "3-D box: a whole module"),
            (
                self.segments,
                "dashed rounded box: a run of consecutive blocks",
            ),
            (self.folds, "... +N more: further identical modules"),
            (self.dashed, "dashed: computed without any model input"),
        ];
        for (_, text) in shapes.into_iter().filter(|(used, _)| *used) {
            entries.push(LegendEntry {
                ring: false,
                swatch: None,
                text: text.to_owned(),
            });
        }
        let stubs = [
            (
                self.input_stubs,
                &theme.roles.input,
                "from ...: an operation outside that feeds this module",
            ),
            (
                self.output_stubs,
                &theme.roles.output,
                "to ...: an operation outside that reads from it",
            ),
        ];
        for (_, color, text) in stubs.into_iter().filter(|(used, _, _)| *used) {
            entries.push(LegendEntry {
                ring: false,
                swatch: Some(Fill::Solid(color.clone())),
                text: text.to_owned(),
            });
        }
        Legend::keyed(entries, theme)
    }
}

/// Readable text for a fill (a gradient is read by its first colour).
fn text_on_fill(fill: &Fill, theme: &Theme) -> String {
    match fill {
        Fill::Solid(color) | Fill::Gradient(color, _) => contrast::text_on(color, theme),
    }
}

/// Graphviz id of an op node: its label with `:` spelled `pass` (`relu_1_2pass1`).
fn op_node_id(op: &OpRecord) -> String {
    op.label.replace(':', "pass")
}

/// The name drawn on a node: the key users type to read the record back.
fn display_name(op: &OpRecord) -> String {
    if op.num_passes > 1 {
        op.label.clone()
    } else {
        op.layer_label.clone()
    }
}

fn shape_row(op: &OpRecord) -> Option<String> {
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

fn value_row(op: &OpRecord) -> Option<String> {
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

fn params_row(index: &Index<'_, '_>, op: &OpRecord) -> Option<String> {
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

fn saved_row(op: &OpRecord) -> Option<String> {
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

fn profiling_rows(op: &OpRecord) -> Vec<Row> {
    // Inputs, outputs and buffers have no measured time: no `t=0.00 ns` row for them.
    let mut rows: Vec<Row> = op
        .duration_s
        .map(|seconds| Row::plain(format!("t={}", format::duration_two_decimals(seconds))))
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

/// Is this op drawn as a module-output rectangle (drawing-spec 2.5)?
fn is_module_rectangle(
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

fn address_row(index: &Index<'_, '_>, op: &OpRecord, rectangle: bool) -> Option<String> {
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

fn op_role(index: &Index<'_, '_>, op: &OpRecord) -> Role {
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

fn default_op_rows(
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

fn field_rows(
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

fn op_node(
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
fn contents_text(trace: &Trace, held: &[usize]) -> Option<String> {
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

fn box_node(
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
                format::duration_two_decimals(times.iter().sum())
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
fn member_range(members: &[String]) -> String {
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

fn segment_node(
    index: &Index<'_, '_>,
    segment: &Segment,
    theme: &Theme,
    used: &mut Used,
) -> StyledNode {
    let trace = index.trace();
    let params: u64 = segment
        .members
        .iter()
        .map(|m| trace.modules[index.module(m.as_str())].num_params)
        .sum();
    let mut text = format!(
        "{} -- {} blocks",
        member_range(&segment.members),
        segment.members.len()
    );
    if let Some(contents) = contents_text(trace, &segment.ops) {
        text.push_str(&format!(", {contents}"));
    }
    text.push_str(&format!(", {} params", format::compact_count(params)));
    capsule(
        format!("segment:{}", segment.members.join(",")),
        text,
        segment.members.join(", "),
        theme,
        used,
    )
}

/// `conv2d_1_1 ... maxpool2d_1_4 -- 4 ops -- spans @conv1, @bn1, @relu, +1 more`.
fn op_segment_node(
    index: &Index<'_, '_>,
    ops: &[usize],
    theme: &Theme,
    used: &mut Used,
) -> StyledNode {
    let trace = index.trace();
    let (first, last) = (&trace.ops[ops[0]], &trace.ops[ops[ops.len() - 1]]);
    let mut modules: Vec<String> = Vec::new();
    for &op in ops {
        if let Some(call) = trace.ops[op].modules.last() {
            let address = format!("@{}", trace.module_calls[index.call(call.as_str())].address);
            if !modules.contains(&address) {
                modules.push(address);
            }
        }
    }
    let mut text = format!(
        "{} ... {} -- {} ops",
        display_name(first),
        display_name(last),
        ops.len()
    );
    if !modules.is_empty() {
        let shown: Vec<&str> = modules.iter().take(3).map(String::as_str).collect();
        text.push_str(&format!(" -- spans {}", shown.join(", ")));
        if modules.len() > 3 {
            text.push_str(&format!(", +{} more", modules.len() - 3));
        }
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

/// The dashed rounded capsule over a run of blocks or operations.
fn capsule(
    id: String,
    text: String,
    tooltip: String,
    theme: &Theme,
    used: &mut Used,
) -> StyledNode {
    used.segments = true;
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

fn ellipsis_node(index: &Index<'_, '_>, ellipsis: &FoldEllipsis, theme: &Theme) -> StyledNode {
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

/// A stub: the outside op (a rolled drawing's: the outside layer, all its passes) that feeds
/// or reads the focused module.
fn stub_node(
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
fn layer_node(
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

fn rolled_title(op: &OpRecord, passes: usize) -> String {
    if passes > 1 {
        format!("{} (x{passes})", op.layer_label)
    } else {
        op.layer_label.clone()
    }
}

/// `arg 0`, `arg (0, 1)` or `kwarg name` for each slot `parent` filled in `child`.
fn slot_labels(child: &OpRecord, parent: &str) -> Vec<String> {
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

fn arm_label(index: &Index<'_, '_>, parent: &OpRecord, child: &str) -> Option<String> {
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
const EDGE_SHAPES_SHOWN: usize = 3;

/// The shapes of the tensors an arrow carries (`show_edge_shapes=True`): each distinct
/// output shape of its sources, in order, `1x16x8x8, 1x16 (+2 more)` when there are many.
fn edge_shapes(trace: &Trace, edge: &tl_collapse::Edge) -> Option<String> {
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

fn styled_edge(
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
    // Argument positions, when the child is an operation whose operand order matters.
    if let NodeKind::Op(child) = visible.nodes[edge.to].kind {
        let child_op = &trace.ops[child];
        if drawn_parents > 1 && !COMMUTATIVE.contains(&child_op.layer_type.as_str()) {
            let slots: Vec<String> = edge
                .pairs
                .iter()
                .flat_map(|&(parent, _)| slot_labels(child_op, &trace.ops[parent].label))
                .collect();
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
        None if edge.pairs.len() > 1 => label.push(EdgeText {
            text: format!("x{}", edge.pairs.len()),
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

#[allow(clippy::too_many_arguments)] // each is one fact of the cluster; a struct would only rename them
fn styled_cluster(
    index: &Index<'_, '_>,
    visible: &VisibleGraph,
    position: usize,
    call: usize,
    parent: Option<usize>,
    nodes: &[StyledNode],
    theme: &Theme,
    rolled: bool,
) -> StyledCluster {
    let record = &index.trace().module_calls[call];
    let module = index.module_of_call(call);
    let deepest = f64::from(index.deepest);
    let depth = f64::from(module.depth.saturating_sub(1));
    let penwidth = if deepest <= 0.0 {
        5.0
    } else {
        2.0 + 3.0 * (deepest - depth) / deepest
    };
    // Dashed when nothing inside it was computed from a model input.
    let inside = |mut cluster: Option<usize>| {
        while let Some(c) = cluster {
            if c == position {
                return true;
            }
            cluster = visible.clusters[c].parent;
        }
        false
    };
    let dashed = nodes
        .iter()
        .filter(|node| inside(node.cluster))
        .all(|node| node.dashed);
    StyledCluster {
        id: format!("cluster_{}_pass{}", record.address, record.call_index),
        parent,
        title: if rolled && module.num_calls > 1 {
            format!("@{} (x{})", record.address, module.num_calls)
        } else {
            index.call_address(call)
        },
        subtitle: format!("({})", module.class_name),
        penwidth: (penwidth * 100.0).round() / 100.0,
        dashed,
        fill: theme.cluster_fill.clone(),
        border: theme.cluster_border.clone(),
        font_color: theme.font_color.clone(),
        margin: FRAME_MARGIN,
    }
}
