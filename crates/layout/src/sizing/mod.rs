//! Sizes every node of a graph, as graphviz-pure's `size_graph_nodes` does, and measures
//! every arrow's and frame's label, once for the layout and the writers: the writers take
//! them (`GraphJobs::use_measured_nodes`, `use_measured_labels`) rather than parse and
//! measure every label again after the layout.
//!
//! The layered engine sizes the nodes itself before placing them ([`size_nodes`]), on up to
//! [`MOST_THREADS`] threads: each label parses and measures on its own, so the nodes, the
//! arrows and the subgraphs split into runs, each thread measures a run of each, and the
//! results come back in order. graphviz-pure's `dot` sizes every node twice inside its
//! layout (once for all nodes, once more as it sets each one up) and measures each arrow's
//! and frame's label; tl-draw's patch of it takes what was measured instead
//! ([`lay_out_with_dot`]), which the writers then take as well: each label is parsed and
//! measured once, where it used to be two or three times. Most graphs have their nodes
//! measured beside `dot`'s ranking and ordering, which read no size (a second thread takes
//! runs of nodes from the start; the layout's thread measures the labels, ranks and orders,
//! then takes the runs left: [`MEASURE_BESIDE`]); the others are measured before the
//! layout, split into runs in the same way as for the layered engine.
//!
//! A thread starts as a layout does ([`begin`]: the graph's character set, image path and a
//! fresh record of measured text), so each label measures as it would on the layout's
//! thread. What a sizing thread records of the fonts it looked up goes with it; graphviz-
//! pure's own keep-positions path, which does measure again, measures afresh what it finds
//! no record of (the same sizes: a font's size is its own). Warnings are dropped, as the
//! layout's own are.
//!
//! Invariant: the geometries and labels are the ones `dot` and the writers would measure on
//! the layout's thread, in order (`tests/tests/workspace/real_models.rs` compares every
//! format of every real model the layered engine lays out with graphviz-pure's
//! keep-positions path, which measures again; `measured_nodes.rs` compares `dot`'s with
//! graphviz-pure's own facade, which measures two or three times, on real models and on
//! labels naming their arrow's ends and their frame, in every direction).

mod compact;

use std::ops::Range;

use graphviz_pure_core::{Graph, GraphKind};
use graphviz_pure_geom::node_size::{
    edge_label_geometry_of, graph_label_geometry_in, node_geometry, EdgeLabelGeometry, NodeSizeEnv,
};

/// What a graph measures: its nodes' geometries, in node order, and its edges' and clusters'
/// labels, for the layout and the writer's model. Each node geometry is boxed: the model
/// moves each one in as a pointer, so no buffer of whole geometries (86 MB on a
/// 100,000-node drawing) is held beside the model's nodes while it is built.
pub(crate) use graphviz_pure_layout::{Geometries, Measured};

/// Sets up what a layout of `graph` starts with, before its nodes are sized: a new record
/// of measured text (so the renderer replays this graph's sizes, not an earlier graph's),
/// the graph's character set and image path.
pub(crate) fn begin(graph: &Graph) {
    graphviz_pure_core::font::textfont_layout_begin();
    graphviz_pure_core::charset::begin_layout(
        graph.root_name(),
        graph.graph_attrs.get("charset").map(String::as_str),
    );
    graphviz_pure_core::usershape::begin_layout(
        graph.graph_attrs.get("imagepath").map(String::as_str),
        graph.node_attr_declared("shapefile"),
        graphviz_pure_core::cnum::drawing_dpi(&graph.graph_attrs),
    );
}

/// Lays out `graph` with graphviz-pure's `dot`, its nodes measured beside its ranking and
/// ordering where graphviz-pure allows it (`nodes_measurable_beside`), else first as the
/// layered engine's are (on up to [`MOST_THREADS`] threads), and returns the layout's
/// result with the geometries for the writers, or `None` where they could not be had (a
/// failure: the writers then measure, and fail, as they would have). `dot` reads the
/// geometries instead of sizing every node twice itself (graphviz-pure's
/// `size_graph_nodes`, then its `dot_init_node`), so each label is parsed and measured once
/// for the layout and the writers together. `graph` is a parsed graph the layout has not
/// begun on.
pub(crate) fn lay_out_with_dot(
    graph: &mut Graph,
) -> (graphviz_pure_core::Result<()>, Option<Measured>) {
    begin(graph);
    let laid_out = if graphviz_pure_layout::nodes_measurable_beside(graph) {
        let (laid_out, measured) =
            graphviz_pure_layout::layout_dot_measuring_nodes_beside(graph, MEASURE_BESIDE);
        measured.map(|measured| (laid_out, measured))
    } else {
        measured(graph)
            .ok()
            .map(|measured| graphviz_pure_layout::layout_dot_with_measured(graph, measured))
    };
    match laid_out {
        Some((laid_out, measured)) => {
            let measured = (measured.nodes.len() == graph.nodes.len()).then_some(measured);
            (laid_out, measured)
        }
        // What could not be measured fails or warns as the layout's own measuring does.
        None => (
            graphviz_pure_layout::layout_graph(graph, graphviz_pure_layout::LayoutEngine::Dot),
            None,
        ),
    }
}

/// How `dot` measures a graph beside its layout: each thread set up as a layout's, the
/// nodes and the labels measured as [`measured`] measures them.
const MEASURE_BESIDE: graphviz_pure_layout::MeasureNodes = graphviz_pure_layout::MeasureNodes {
    begin,
    nodes: measure_nodes,
    labels: measure_labels,
};

/// The threads the machine runs at once, asked once: the answer reads the process's
/// affinity and control-group files, which a page of many small layouts would read for each.
fn available_threads() -> usize {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// The most threads sizing takes.
const MOST_THREADS: usize = 4;

/// The most arrows and subgraphs whose labels are measured ahead. Measured labels stay alive
/// until the writers take them, a parsed HTML label about 2 KB (tl-draw's arrow labels are
/// small tables); past this the layout and the writers measure them as they go, as they
/// did before, so that the largest drawings hold no more at their highest point (the
/// 100,000-operation drawing's 37,000 labelled arrows and 18,700 frames would add a tenth).
const MOST_LABELLED: usize = 20_000;

/// Each thread takes at least this many nodes: a TorchLens node measures in about 12 us, so
/// 32 are about 0.4 ms, several times a thread's start; fewer are measured on the calling
/// thread.
const NODES_PER_THREAD: usize = 32;

/// Sizes every node of `graph`, sets its width and height, and returns the geometries it
/// measured, in node order, each compacted (they stay alive through placing and writing)
/// and boxed (the writer's model takes each without a copy), with the arrows' and frames'
/// labels (none past [`MOST_LABELLED`]).
pub(crate) fn size_nodes(graph: &mut Graph) -> Result<Measured, String> {
    let measured = measured(graph)?;
    for (node, geometry) in graph.nodes.iter_mut().zip(&measured.nodes) {
        node.width = geometry.width;
        node.height = geometry.height;
    }
    Ok(measured)
}

fn measured(graph: &Graph) -> Result<Measured, String> {
    let threads =
        (graph.nodes.len() / NODES_PER_THREAD).clamp(1, available_threads().min(MOST_THREADS));
    measured_on(graph, threads)
}

/// What `graph` measures, on `threads` threads: each takes a run of the nodes, of the
/// edges and of the subgraphs.
fn measured_on(graph: &Graph, threads: usize) -> Result<Measured, String> {
    let env = NodeSizeEnv::from_graph(graph);
    let shares: Vec<Share> = (0..threads.max(1))
        .map(|index| Share::of(graph, index, threads.max(1)))
        .collect();
    let (first, others) = shares.split_first().expect("one share at least");
    if others.is_empty() {
        return measure(graph, first, &env);
    }
    std::thread::scope(|scope| {
        let others: Vec<_> = others
            .iter()
            .map(|share| {
                let env = &env;
                let thread = std::thread::Builder::new().spawn_scoped(scope, move || {
                    graphviz_pure_core::diag::capture(|| {
                        begin(graph);
                        measure(graph, share, env)
                    })
                    .0
                });
                (share, thread.ok())
            })
            .collect();
        let first = measure(graph, first, &env);
        // Every thread is joined before an error is passed on: one left running would be
        // joined by the scope, which panics if that thread did.
        let others: Vec<Result<Measured, String>> = others
            .into_iter()
            .map(|(share, thread)| match thread {
                Some(thread) => thread
                    .join()
                    .unwrap_or_else(|_| Err("a node-sizing thread stopped".to_owned())),
                // A share whose thread the system would not start is measured here.
                None => measure(graph, share, &env),
            })
            .collect();
        let mut measured = Measured {
            nodes: Vec::with_capacity(graph.nodes.len()),
            edge_labels: Vec::with_capacity(graph.edges.len()),
            cluster_labels: Vec::with_capacity(graph.subgraphs.len()),
        };
        for part in std::iter::once(first).chain(others) {
            let part = part?;
            measured.nodes.extend(part.nodes);
            measured.edge_labels.extend(part.edge_labels);
            measured.cluster_labels.extend(part.cluster_labels);
        }
        Ok(measured)
    })
}

/// One thread's part of the measuring: runs of the nodes, edges and subgraphs, in order.
struct Share {
    nodes: Range<usize>,
    edges: Range<usize>,
    subgraphs: Range<usize>,
}

impl Share {
    /// Every label of `graph` and none of its nodes: what `dot` reads before it places the
    /// nodes (none past [`MOST_LABELLED`]).
    fn labels_of(graph: &Graph) -> Share {
        Share {
            nodes: 0..0,
            ..Share::of(graph, 0, 1)
        }
    }

    /// The `index`th of `count` shares of `graph`; with no labels in a drawing of more than
    /// [`MOST_LABELLED`] arrows and subgraphs.
    fn of(graph: &Graph, index: usize, count: usize) -> Share {
        let run = |len: usize| {
            let size = len.div_ceil(count);
            (index * size).min(len)..((index + 1) * size).min(len)
        };
        let labels = graph.edges.len() + graph.subgraphs.len() <= MOST_LABELLED;
        Share {
            nodes: run(graph.nodes.len()),
            edges: run(if labels { graph.edges.len() } else { 0 }),
            subgraphs: run(if labels { graph.subgraphs.len() } else { 0 }),
        }
    }
}

/// Every label of `graph` and none of its nodes, on this thread: how `dot` measures the
/// labels while it measures the nodes beside (`graphviz_pure_layout::MeasureNodes`).
fn measure_labels(graph: &Graph) -> Result<Measured, String> {
    measure(
        graph,
        &Share::labels_of(graph),
        &NodeSizeEnv::from_graph(graph),
    )
}

/// The geometries of `graph`'s nodes `nodes`, in order, as `dot` sizes them: how `dot`
/// measures the nodes beside its layout (`graphviz_pure_layout::MeasureNodes`).
fn measure_nodes(graph: &Graph, nodes: Range<usize>) -> Result<Geometries, String> {
    node_geometries(graph, nodes, &NodeSizeEnv::from_graph(graph))
}

/// The geometries of `graph`'s nodes `nodes`, in order, each compacted and boxed.
fn node_geometries(
    graph: &Graph,
    nodes: Range<usize>,
    env: &NodeSizeEnv<'_>,
) -> Result<Geometries, String> {
    let mut geometries = Vec::with_capacity(nodes.len());
    for node in &graph.nodes[nodes] {
        let mut geometry = node_geometry(node, env).map_err(|e| e.to_string())?;
        compact::compact(&mut geometry);
        geometries.push(Box::new(geometry));
    }
    Ok(geometries)
}

/// Measures `share` of `graph`: its nodes as `dot` sizes them, its edges' labels as
/// `common_init_edge` measures them, and its clusters' labels as `do_graph_label` does
/// when the drawing is not flipped (the writers' way too); other subgraphs are left to
/// whoever needs them.
fn measure(graph: &Graph, share: &Share, env: &NodeSizeEnv<'_>) -> Result<Measured, String> {
    let nodes = node_geometries(graph, share.nodes.clone(), env)?;
    let directed = graph.kind == GraphKind::Directed;
    let edge_labels = graph.edges[share.edges.clone()]
        .iter()
        .map(|edge| {
            let labels = edge_label_geometry_of(
                u64::from(edge.id.0),
                &edge.attrs,
                &graph.nodes[edge.tail.0 as usize].name,
                &graph.nodes[edge.head.0 as usize].name,
                directed,
                env,
            );
            (labels != EdgeLabelGeometry::default()).then(|| {
                let mut labels = Box::new(labels);
                let EdgeLabelGeometry {
                    label,
                    xlabel,
                    head_label,
                    tail_label,
                    ..
                } = &mut *labels;
                for label in [label, xlabel, head_label, tail_label]
                    .into_iter()
                    .flatten()
                {
                    compact::compact_label(label);
                }
                labels
            })
        })
        .collect();
    let cluster_labels = share
        .subgraphs
        .clone()
        .map(|index| {
            let subgraph = &graph.subgraphs[index];
            subgraph.is_cluster.then(|| {
                graph_label_geometry_in(
                    &graph.subgraph_name(index),
                    subgraph.html_name,
                    &subgraph.graph_attrs,
                    false,
                    false,
                    env,
                )
                .map(|mut caption| {
                    compact::compact_label(&mut caption.label);
                    Box::new(caption)
                })
            })
        })
        .collect();
    Ok(Measured {
        nodes,
        edge_labels,
        cluster_labels,
    })
}

#[cfg(test)]
mod tests {
    use super::measured_on;

    /// Plain, HTML and record labels in several fonts, with text beyond ASCII, in a UTF-8
    /// graph and a Latin-1 one; arrows with and without labels of every kind; frames with an
    /// HTML caption, a plain one and none, and a subgraph that is not a frame.
    fn dot(charset: &str) -> String {
        let mut dot = format!("digraph G {{ graph [charset={charset}] node [shape=box]\n");
        for index in 0..120 {
            dot.push_str(&match index % 4 {
                0 => format!("n{index} [label=\"plain {index} \u{e9}t\u{e9}\"]\n"),
                1 => format!(
                    "n{index} [label=<<TABLE BORDER=\"0\"><TR><TD><B>op_{index}</B></TD></TR>\
                     <TR><TD>(1, {index}), 2.0 KB</TD></TR></TABLE>> fontname=Helvetica]\n"
                ),
                2 => format!("n{index} [shape=record label=\"{{a|b {index}}}\" fontsize=9]\n"),
                _ => format!("n{index} [shape=oval label=\"@block.{index}\\nsecond line\"]\n"),
            });
        }
        for index in 1..120 {
            dot.push_str(&match index % 5 {
                0 => format!(
                    "n{} -> n{index} [label=\"arg {index} \u{e9}\"]\n",
                    index - 1
                ),
                1 => format!("n{} -> n{index} [xlabel=<<B>x{index}</B>>]\n", index - 1),
                2 => format!(
                    "n{} -> n{index} [headlabel=\"h\" taillabel=\"t\\E\"]\n",
                    index - 1
                ),
                _ => format!("n{} -> n{index}\n", index - 1),
            });
        }
        for index in 0..12 {
            let caption = match index % 3 {
                0 => format!("label=<<B>@block.{index}</B><BR/>(Block)>"),
                1 => format!("label=\"frame {index}\" fontsize=10 labeljust=l"),
                _ => String::new(),
            };
            let kind = if index == 11 { "plain" } else { "cluster" };
            dot.push_str(&format!(
                "subgraph {kind}_{index} {{ {caption} n{} n{} }}\n",
                index * 10,
                index * 10 + 1
            ));
        }
        dot.push('}');
        dot
    }

    /// Past [`super::MOST_LABELLED`] arrows and subgraphs no label is measured ahead (the
    /// layout and the writers measure them), and every node still is.
    #[test]
    fn the_labels_of_a_large_drawing_are_left_to_the_layout_and_the_writers() {
        let mut dot = String::from("digraph G { a -> b [label=x]\n");
        for _ in 0..super::MOST_LABELLED {
            dot.push_str("a -> b\n");
        }
        dot.push('}');
        let graph = crate::engine::parsed_afresh(dot.into()).expect("parses");
        super::begin(&graph);
        let measured = measured_on(&graph, 2).expect("sizes");
        assert_eq!(measured.nodes.len(), 2);
        assert!(measured.edge_labels.is_empty() && measured.cluster_labels.is_empty());
        let small = crate::engine::parsed_afresh("digraph { a -> b [label=x] }".into()).unwrap();
        let measured = measured_on(&small, 2).expect("sizes");
        assert_eq!(measured.edge_labels.len(), 1);
    }

    /// `dot` measures a large enough graph's nodes beside its layout, and hands back the
    /// geometries and labels one thread measures before it; a node that cannot be measured
    /// hands nothing back, for the layout to be made again, measured first.
    #[test]
    fn nodes_measured_beside_the_layout_are_those_measured_before_it() {
        for charset in ["utf8", "latin1"] {
            let mut graph = crate::engine::parsed_afresh(dot(charset).into()).expect("parses");
            assert!(graphviz_pure_layout::nodes_measurable_beside(&graph));
            super::begin(&graph);
            let before = measured_on(&graph, 1).expect("sizes");
            let (laid_out, beside) = laid_out_beside(&mut graph);
            laid_out.expect("lays out");
            assert!(
                beside == Some(before),
                "{charset}: measured otherwise beside the layout"
            );
        }
        let mut dot = String::from("digraph G {\n");
        for index in 1..100 {
            dot.push_str(&format!("n{} -> n{index}\n", index - 1));
        }
        dot.push_str("n5 [shape=polygon sides=100 peripheries=2000000000]\n}");
        let mut graph = crate::engine::parsed_afresh(dot.into()).expect("parses");
        super::begin(&graph);
        let (laid_out, beside) = laid_out_beside(&mut graph);
        assert!(laid_out.is_err() && beside.is_none());
    }

    fn laid_out_beside(
        graph: &mut graphviz_pure_core::Graph,
    ) -> (graphviz_pure_core::Result<()>, Option<super::Measured>) {
        graphviz_pure_layout::layout_dot_measuring_nodes_beside(graph, super::MEASURE_BESIDE)
    }

    /// Ports or compass points named by an arrow, an exterior label, or a layout `dot` does
    /// not make whole keep the nodes measured before the layout; so do graphs too small to
    /// repay a thread.
    #[test]
    fn graphs_whose_layout_reads_sizes_early_are_measured_first() {
        let chain = |extra: &str, nodes: usize| {
            let mut dot = format!("digraph G {{ {extra}\n");
            for index in 1..nodes {
                dot.push_str(&format!("n{} -> n{index}\n", index - 1));
            }
            dot.push('}');
            crate::engine::parsed_afresh(dot.into()).expect("parses")
        };
        assert!(graphviz_pure_layout::nodes_measurable_beside(&chain(
            "", 64
        )));
        for graph in [
            chain("", 63),
            chain("n0:p -> n9", 64),
            chain("n0 -> n9:s", 64),
            chain("n0 -> n9 [tailport=e]", 64),
            chain("edge [headport=p]", 64),
            chain("n3 [xlabel=x]", 64),
            chain("pack=true", 64),
            chain("layout=neato", 64),
        ] {
            assert!(!graphviz_pure_layout::nodes_measurable_beside(&graph));
        }
    }

    #[test]
    fn graphs_measure_the_same_on_several_threads_as_on_one() {
        for charset in ["utf8", "latin1"] {
            let graph = crate::engine::parsed_afresh(dot(charset).into()).expect("parses");
            super::begin(&graph);
            let one = measured_on(&graph, 1).expect("sizes");
            let three = measured_on(&graph, 3).expect("sizes");
            assert_eq!(one.nodes.len(), 120);
            assert_eq!(one.edge_labels.len(), 119);
            assert_eq!(one.edge_labels.iter().flatten().count(), 71, "{charset}");
            assert_eq!(one.cluster_labels.len(), 12);
            assert_eq!(one.cluster_labels.iter().flatten().count(), 11, "{charset}");
            assert_eq!(one.cluster_labels.iter().flatten().flatten().count(), 8);
            assert!(one == three, "{charset}: the threads measured differently");
        }
    }
}
