//! Styling of backward drawings (`graph="backward"`) and of the backward half of combined
//! drawings (`graph="combined"`; the guide's "The backward pass"): one oval per autograd step with its
//! rows, arrows in the backward colour, dotted `accum` arrows into parameters, one dashed
//! box per backward pass when there are several, and the backward key.

use tl_collapse::backward::{BackwardView, StepNode};
use tl_collapse::{NodeKind, VisibleGraph};
use tl_trace_model::{GradFnRecord, GradSummary, Trace};

use crate::contrast;
use crate::format;
use crate::graph::*;
use crate::options::StyleOptions;
use crate::theme::Theme;

/// Fill of a first-order step, of a higher-order step, and the backward ink.
const STEP_FILL: &str = "#F2F3FF";
const HIGHER_ORDER_FILL: &str = "#FFF4D6";
const BACKWARD_INK: &str = "#9197F6";
/// The backward ink darkened for text on arrows: #9197F6 on white is 2.6:1, this is 6:1.
const BACKWARD_TEXT: &str = "#4A52D9";

fn step<'t>(trace: &'t Trace, node: &StepNode) -> &'t GradFnRecord {
    &trace
        .backward
        .as_ref()
        .expect("a backward view comes from a trace with a backward graph")
        .grad_fns[node.grad_fn]
}

/// The gradient the step passed back in this node's pass (or its first saved one).
fn grad_output(record: &GradFnRecord, pass: Option<u32>) -> Option<&GradSummary> {
    record
        .calls
        .iter()
        .filter(|call| pass.is_none_or(|p| call.pass == p))
        .find_map(|call| call.grad_output.as_ref())
}

/// The drawn steps, arrows and pass boxes, to stand alone or beside a forward drawing.
pub(crate) struct BackwardParts {
    pub nodes: Vec<StyledNode>,
    pub edges: Vec<StyledEdge>,
    pub clusters: Vec<StyledCluster>,
    pub key: Vec<LegendEntry>,
}

fn node_id(record: &GradFnRecord, pass: Option<u32>) -> String {
    match pass {
        Some(pass) => format!("bwd:{}:{pass}", record.label),
        None => format!("bwd:{}", record.label),
    }
}

/// Styles `view`; node indices in the parts start at `first_node` and cluster indices at
/// `first_cluster`, so they can be appended to another drawing.
pub(crate) fn backward_parts(
    trace: &Trace,
    view: &BackwardView,
    options: &StyleOptions,
    theme: &Theme,
    first_node: usize,
    first_cluster: usize,
) -> BackwardParts {
    let any_higher_order = view.nodes.iter().any(|n| step(trace, n).order > 1);
    let nodes: Vec<StyledNode> = view
        .nodes
        .iter()
        .map(|node| {
            step_node(
                trace,
                view,
                node,
                any_higher_order,
                options,
                theme,
                first_cluster,
            )
        })
        .collect();
    BackwardParts {
        clusters: pass_frames(view, theme),
        edges: step_edges(view, &nodes, first_node),
        key: backward_key(trace, view, any_higher_order),
        nodes,
    }
}

/// One dashed frame per backward pass, when there are several.
fn pass_frames(view: &BackwardView, theme: &Theme) -> Vec<StyledCluster> {
    if view.passes > 1 {
        (1..=view.passes)
            .map(|pass| StyledCluster {
                id: format!("cluster_backward_pass_{pass}"),
                parent: None,
                title: format!("backward pass {pass}"),
                subtitle: String::new(),
                penwidth: 1.5,
                dashed: true,
                fill: theme.page.clone(),
                border: BACKWARD_INK.to_owned(),
                font_color: theme.font_color.clone(),
                margin: FRAME_MARGIN,
            })
            .collect()
    } else {
        Vec::new()
    }
}

/// One autograd step: its name and marks, order, passes, forward layer, gradient shape, and
/// the opt-in module, parameter and value rows.
fn step_node(
    trace: &Trace,
    view: &BackwardView,
    node: &StepNode,
    any_higher_order: bool,
    options: &StyleOptions,
    theme: &Theme,
    first_cluster: usize,
) -> StyledNode {
    let record = step(trace, node);
    let mut title = String::new();
    if record.forward_layer.is_none() {
        title.push_str("[i] ");
    }
    title.push_str(&record.label);
    if record.is_custom {
        title.push_str(" [custom]");
    }
    let mut rows = vec![Row::bold(title)];
    if any_higher_order {
        rows.push(Row::plain(format!("order {}", record.order)));
    }
    if view.passes > 1 {
        let passes: Vec<u32> = match node.pass {
            Some(pass) => vec![pass],
            None => record.calls.iter().map(|c| c.pass).collect(),
        };
        rows.push(Row::plain(format!(
            "bwd {}",
            format::compact_ranges(&passes)
        )));
    }
    if let Some(layer) = &record.forward_layer {
        rows.push(Row::plain(format!("@{layer}")));
    }
    let grad = grad_output(record, node.pass);
    if let Some(grad) = grad {
        rows.push(Row::plain(format!("grad {}", format::shape(&grad.shape))));
    }
    if options.show_module_paths {
        if let Some(module) = &record.module {
            rows.push(Row::plain(format!("module {module}")));
        }
        if let Some(param) = &record.param {
            rows.push(Row::plain(format!("param {param}")));
        }
    }
    if options.show_grad_values {
        if let Some(grad) = grad {
            let value = |v: Option<f64>| v.map_or("?".to_owned(), |v| format::significant(v, 3));
            rows.push(Row::plain(format!(
                "norm={} max|g|={}",
                value(grad.norm),
                value(grad.max_abs)
            )));
        }
    }
    let fill = if record.order > 1 {
        HIGHER_ORDER_FILL
    } else {
        STEP_FILL
    };
    StyledNode {
        penwidth: Some(1.8),
        cluster: node.pass.map(|pass| first_cluster + pass as usize - 1),
        ..StyledNode::new(
            node_id(record, node.pass),
            rows,
            Shape::Oval,
            Fill::Solid(fill.to_owned()),
            BACKWARD_INK.to_owned(),
            contrast::text_on(fill, theme),
        )
    }
}

/// The arrows between steps (dotted `accum` into a leaf).
fn step_edges(view: &BackwardView, nodes: &[StyledNode], first_node: usize) -> Vec<StyledEdge> {
    view.edges
        .iter()
        .map(|edge| {
            let target = &nodes[edge.to];
            StyledEdge {
                from: first_node + edge.from,
                to: first_node + edge.to,
                dashed: false,
                head_label: Vec::new(),
                tail_label: Vec::new(),
                label_floats: false,
                label: if edge.accumulates {
                    vec![EdgeText {
                        text: "accum".to_owned(),
                        size: EdgeTextSize::Word,
                    }]
                } else {
                    Vec::new()
                },
                look: Some(EdgeLook {
                    color: BACKWARD_INK.to_owned(),
                    font_color: BACKWARD_TEXT.to_owned(),
                    dotted: edge.accumulates,
                    constraint: true,
                    tooltip: edge.accumulates.then(|| {
                        format!(
                            "accum -> {}",
                            target.rows[0].text.trim_start_matches("[i] ")
                        )
                    }),
                }),
            }
        })
        .collect()
}

/// The backward drawing's key: what each fill and mark used means.
fn backward_key(trace: &Trace, view: &BackwardView, any_higher_order: bool) -> Vec<LegendEntry> {
    let mut key = vec![LegendEntry {
        ring: false,
        swatch: Some(Fill::Solid(STEP_FILL.to_owned())),
        text: "backward op (grad_fn)".to_owned(),
    }];
    let records: Vec<&GradFnRecord> = view.nodes.iter().map(|n| step(trace, n)).collect();
    if any_higher_order {
        key.push(LegendEntry {
            ring: false,
            swatch: Some(Fill::Solid(HIGHER_ORDER_FILL.to_owned())),
            text: "order 2+: grad-of-grad (double backprop)".to_owned(),
        });
    }
    let marks = [
        (
            records.iter().any(|r| r.forward_layer.is_none()),
            None,
            "[i] = intervening grad_fn (no forward op)",
        ),
        (
            records.iter().any(|r| r.is_custom),
            None,
            "[custom] = custom autograd function",
        ),
        (
            view.edges.iter().any(|e| e.accumulates),
            Some(Fill::Solid(BACKWARD_INK.to_owned())),
            "accum = gradient accumulation into a leaf (dotted edge)",
        ),
        (view.passes > 1, None, "bwd N = backward pass N"),
        (any_higher_order, None, "order N = derivative order"),
    ];
    for (used, swatch, text) in marks {
        if used {
            key.push(LegendEntry {
                ring: false,
                swatch,
                text: text.to_owned(),
            });
        }
    }
    key
}

/// The header of a backward drawing.
fn backward_header(trace: &Trace, view: &BackwardView) -> Vec<Row> {
    let steps = trace.backward.as_ref().map_or(0, |b| b.grad_fns.len());
    vec![
        Row::bold(format!("{} backward graph", trace.model.class_name)),
        Row::plain(format!("{steps} autograd steps (grad_fns)")),
        Row::plain(format!(
            "{} backward pass{}",
            view.passes,
            if view.passes == 1 { "" } else { "es" }
        )),
    ]
}

/// The styled backward drawing (`graph="backward"`); the key only with `show_legend=True`.
pub fn style_backward(
    trace: &Trace,
    view: &BackwardView,
    options: &StyleOptions,
    theme: &Theme,
) -> StyledGraph {
    let parts = backward_parts(trace, view, options, theme, 0, 0);
    StyledGraph {
        name: format!("{}_backward", trace.model.class_name),
        comment: "Backward graph: one node per autograd step".to_owned(),
        style: GraphStyle::of(options.direction, theme),
        header: backward_header(trace, view),
        nodes: parts.nodes,
        edges: parts.edges,
        clusters: parts.clusters,
        sink: Vec::new(),
        legend: (options.show_legend == Some(true)).then(|| Legend::keyed(parts.key, theme)),
    }
}

/// The styled combined drawing (`graph="combined"`): the forward drawing, every autograd
/// step, a dashed link from each forward operation to the step that differentiates it, and
/// gradient arrows between forward operations whose gradients were both saved.
pub fn style_combined(
    index: &tl_collapse::TraceIndex<'_>,
    visible: &VisibleGraph,
    view: &BackwardView,
    options: &StyleOptions,
    theme: &Theme,
) -> StyledGraph {
    let trace = index.trace;
    let mut graph = crate::forward::style_forward(index, visible, None, options, theme);
    let first_node = graph.nodes.len();
    let parts = backward_parts(
        trace,
        view,
        options,
        theme,
        first_node,
        graph.clusters.len(),
    );
    let link = |from: usize, to: usize, tooltip: Option<String>| StyledEdge {
        from,
        to,
        dashed: true,
        head_label: Vec::new(),
        tail_label: Vec::new(),
        label: Vec::new(),
        label_floats: false,
        look: Some(EdgeLook {
            color: BACKWARD_INK.to_owned(),
            font_color: BACKWARD_TEXT.to_owned(),
            dotted: false,
            constraint: false,
            tooltip,
        }),
    };
    let mut links = Vec::new();
    for (position, node) in visible.nodes.iter().enumerate() {
        let NodeKind::Op(op) = node.kind else {
            continue;
        };
        let layer = &trace.ops[op].layer_label;
        for (offset, step_node) in view.nodes.iter().enumerate() {
            if step(trace, step_node).forward_layer.as_ref() == Some(layer) {
                links.push(link(position, first_node + offset, None));
            }
        }
    }
    // Gradients flow back along forward arrows whose two ends saved theirs.
    for edge in &visible.edges {
        let saved = |node: usize| matches!(visible.nodes[node].kind, NodeKind::Op(op) if trace.ops[op].grad.is_some());
        if saved(edge.from) && saved(edge.to) {
            let mut gradient = link(edge.to, edge.from, Some("gradient".to_owned()));
            gradient.dashed = false;
            links.push(gradient);
        }
    }
    graph.nodes.extend(parts.nodes);
    graph.edges.extend(parts.edges);
    graph.edges.extend(links);
    graph.clusters.extend(parts.clusters);
    let steps = trace.backward.as_ref().map_or(0, |b| b.grad_fns.len());
    graph.header.push(Row::plain(format!(
        "backward: {steps} autograd steps, {} pass{}",
        view.passes,
        if view.passes == 1 { "" } else { "es" }
    )));
    if let Some(legend) = &mut graph.legend {
        legend.entries.extend(parts.key);
    }
    graph
}
