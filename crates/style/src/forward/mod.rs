//! Styling of the forward drawing: node rows, shapes, fills and borders, arrow labels,
//! module clusters, the header and the key (the guide's "Reading a node", "Fills and the key",
//! "Branches", "Choosing what each node shows" and "Profiling rows").

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use tl_collapse::rolled::{self, PassLabels};
use tl_collapse::{
    BufferVisibility, Capsule, FoldEllipsis, LoopEllipsis, ModuleBox, NodeKind, StubSide,
    TraceIndex, VisibleGraph,
};
use tl_trace_model::{ArmKind, ConditionKind, OpKind, OpRecord, PictureSource, ScalarValue, Trace};

use crate::args::argument_row;
use crate::contrast;
use crate::encoding;
use crate::format;
use crate::graph::*;
use crate::options::{LabelField, NodeStyle, StyleOptions};
use crate::theme::Theme;

mod clusters;
mod edges;
mod header;
mod legend;
mod nodes;
mod rows;

use clusters::*;
use edges::*;
use header::*;
pub use header::{header, params_line};
use legend::*;
use nodes::*;
pub use rows::condition_word;
use rows::*;

/// Op types whose operands can be swapped: their arrows carry no `arg k` labels.
const COMMUTATIVE: [&str; 4] = ["add", "mul", "eq", "ne"];

/// From this many drawn parents on, argument labels move to the arrow's middle.
const MIDPOINT_LABEL_PARENTS: usize = 4;

/// Lookups over one trace: the drawing's shared [`TraceIndex`], plus what only styling needs.
struct Index<'i, 't> {
    shared: &'i TraceIndex<'t>,
    buffer_versions: HashMap<&'t str, u32>,
    /// Deepest module depth below the root, minus one (the guide's module frames ("Module depth")).
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
            NodeKind::Capsule(capsule) => capsule_node(&index, capsule, theme, &mut used),
            NodeKind::FoldEllipsis(ellipsis) => ellipsis_node(&index, ellipsis, theme),
            NodeKind::LoopEllipsis(ellipsis) => loop_ellipsis_node(&index, ellipsis, theme),
            NodeKind::Stub(op, side) => {
                stub_node(&index, *op, *side, pass_labels.is_some(), theme, &mut used)
            }
            NodeKind::Layer(passes) => {
                layer_node(&index, visible, passes, options, theme, &mut used)
            }
            NodeKind::OpCapsule(ops) => op_capsule_node(&index, ops, theme, &mut used),
        })
        .collect();
    for (styled, node) in nodes.iter_mut().zip(&visible.nodes) {
        styled.cluster = node.cluster;
    }
    let drawn_parents = parents_per_pass(visible);
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
    let without_input = clusters_without_input(&index, visible, &nodes);
    let clusters = visible
        .clusters
        .iter()
        .zip(without_input)
        .map(|(cluster, dashed)| {
            styled_cluster(
                &index,
                cluster.call,
                cluster.parent,
                dashed,
                theme,
                pass_labels.is_some(),
            )
        })
        .collect();
    // One output is pinned to the far end: the one made last (a model's logits, made after
    // the key/value cache its blocks return, issue 29), where TorchLens pins the last one
    // returned (a cache value, drawn above the logits at the end of a long arrow). Pinning
    // every output (GPT-2's cache tensors are made inside each block) forces each one's
    // arrow past every later block's frame, which made layout ~40x slower on GPT-2 small;
    // the others sit beside what made them.
    let made_at = |op: usize| shared.parents(op).iter().copied().max().unwrap_or(op);
    let sink = visible
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(position, node)| match node.kind {
            NodeKind::Op(op) if trace.ops[op].kind == OpKind::Output => {
                Some((made_at(op), position))
            }
            _ => None,
        })
        .max()
        .map(|(_, position)| position)
        .into_iter()
        .collect();
    let key = encoding::apply(shared, visible, &mut nodes, &options.encoding, theme);
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

/// How many drawn nodes feed each node: for a rolled layer, the most any one of its passes
/// reads from (a layer fed by one node in its first pass and another in the rest reads one
/// tensor a pass, and its arrows are not argument-labelled, as TorchLens draws it).
fn parents_per_pass(visible: &VisibleGraph) -> Vec<usize> {
    let mut parents = vec![0usize; visible.nodes.len()];
    let mut of_pass: std::collections::HashMap<usize, Vec<usize>> =
        std::collections::HashMap::new();
    for edge in &visible.edges {
        match visible.nodes[edge.to].kind {
            NodeKind::Layer(_) => {
                for &(_, pass) in &edge.pairs {
                    let feeding = of_pass.entry(pass).or_default();
                    if !feeding.contains(&edge.from) {
                        feeding.push(edge.from);
                        let node = edge.to;
                        parents[node] = parents[node].max(feeding.len());
                    }
                }
            }
            _ => parents[edge.to] += 1,
        }
    }
    parents
}
