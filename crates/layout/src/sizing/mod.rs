//! Sizes every node of a graph, as graphviz-pure's `size_graph_nodes` does, once for the
//! layout and the writers: the writers take the nodes' geometries
//! (`GraphJobs::use_measured_nodes`) rather than parse and measure every label again after
//! the layout.
//!
//! The layered engine sizes the nodes itself before placing them ([`size_nodes`]), on up to
//! [`MOST_THREADS`] threads: each label parses and measures on its own, so the nodes split
//! into runs, each measured on a thread of its own, and the geometries come back in node
//! order. graphviz-pure's `dot` sizes every node twice inside its layout (once for all
//! nodes, once more as it sets each one up); tl-draw's patch of it takes geometries
//! measured before the layout instead ([`lay_out_with_dot`], split into runs in the
//! same way), which the writers then take as well: each label is parsed
//! and measured once, where it used to be three times.
//!
//! A thread starts as a layout does ([`begin`]: the graph's character set, image path and a
//! fresh record of measured text), so each label measures as it would on the layout's
//! thread. What a sizing thread records of the fonts it looked up goes with it; graphviz-
//! pure's own keep-positions path, which does measure again, measures afresh what it finds
//! no record of (the same sizes: a font's size is its own). Warnings are dropped, as the
//! layout's own are.
//!
//! Invariant: the geometries are the ones `dot` and the writers would measure on the
//! layout's thread, in node order (`tests/tests/workspace/real_models.rs` compares every
//! format of every real model the layered engine lays out with graphviz-pure's
//! keep-positions path, which measures again; `measured_nodes.rs` compares `dot`'s with
//! graphviz-pure's own facade, which measures three times).

mod compact;

use graphviz_pure_core::{Graph, NodeData};
use graphviz_pure_geom::node_size::{node_geometry, NodeGeometry, NodeSizeEnv};

/// The nodes' measured geometries, in node order, for the writer's model. Boxed: the model
/// moves each one in as a pointer, so no buffer of whole geometries (86 MB on a
/// 100,000-node drawing) is held beside the model's nodes while it is built.
pub(crate) type Measured = Vec<Box<NodeGeometry>>;

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

/// Lays out `graph` with graphviz-pure's `dot`, its nodes measured first as the layered
/// engine's are (on up to [`MOST_THREADS`] threads), and returns the layout's result
/// with the geometries for the writers, or `None` where they could not be had (a failure:
/// the writers then measure, and fail, as they would have). `dot` reads the geometries
/// instead of sizing every node twice itself (graphviz-pure's `size_graph_nodes`, then its
/// `dot_init_node`), so each label is parsed and measured once for the layout and the
/// writers together. `graph` is a parsed graph the layout has not begun on.
pub(crate) fn lay_out_with_dot(
    graph: &mut Graph,
) -> (graphviz_pure_core::Result<()>, Option<Measured>) {
    begin(graph);
    match measured(graph) {
        Ok(measured) => {
            let (laid_out, measured) =
                graphviz_pure_layout::layout_dot_with_measured_nodes(graph, measured);
            let measured = (measured.len() == graph.nodes.len()).then_some(measured);
            (laid_out, measured)
        }
        Err(_) => (
            graphviz_pure_layout::layout_graph(graph, graphviz_pure_layout::LayoutEngine::Dot),
            None,
        ),
    }
}

/// The threads the machine runs at once, asked once: the answer reads the process's
/// affinity and control-group files, which a page of many small layouts would read for each.
fn available_threads() -> usize {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// The most threads sizing takes.
const MOST_THREADS: usize = 4;

/// Each thread takes at least this many nodes: a TorchLens node measures in about 12 us, so
/// 32 are about 0.4 ms, several times a thread's start; fewer are measured on the calling
/// thread.
const NODES_PER_THREAD: usize = 32;

/// Sizes every node of `graph`, sets its width and height, and returns the geometries it
/// measured, in node order, each compacted (they stay alive through placing and writing)
/// and boxed (the writer's model takes each without a copy).
pub(crate) fn size_nodes(graph: &mut Graph) -> Result<Measured, String> {
    let measured = measured(graph)?;
    for (node, geometry) in graph.nodes.iter_mut().zip(&measured) {
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

/// The geometries of `graph`'s nodes, measured on `threads` threads.
fn measured_on(graph: &Graph, threads: usize) -> Result<Measured, String> {
    let env = NodeSizeEnv::from_graph(graph);
    if threads <= 1 {
        return measure(&graph.nodes, &env);
    }
    let run = graph.nodes.len().div_ceil(threads);
    let mut runs = graph.nodes.chunks(run);
    let first = runs.next().unwrap_or_default();
    std::thread::scope(|scope| {
        let others: Vec<_> = runs
            .map(|nodes| {
                let env = &env;
                let thread = std::thread::Builder::new().spawn_scoped(scope, move || {
                    graphviz_pure_core::diag::capture(|| {
                        begin(graph);
                        measure(nodes, env)
                    })
                    .0
                });
                (nodes, thread.ok())
            })
            .collect();
        let first = measure(first, &env);
        // Every thread is joined before an error is passed on: one left running would be
        // joined by the scope, which panics if that thread did.
        let others: Vec<Result<Measured, String>> = others
            .into_iter()
            .map(|(nodes, thread)| match thread {
                Some(thread) => thread
                    .join()
                    .unwrap_or_else(|_| Err("a node-sizing thread stopped".to_owned())),
                // A run whose thread the system would not start is measured here.
                None => measure(nodes, &env),
            })
            .collect();
        let mut measured = Vec::with_capacity(graph.nodes.len());
        for part in std::iter::once(first).chain(others) {
            measured.extend(part?);
        }
        Ok(measured)
    })
}

fn measure(nodes: &[NodeData], env: &NodeSizeEnv<'_>) -> Result<Measured, String> {
    let mut measured = Vec::with_capacity(nodes.len());
    for node in nodes {
        let mut geometry = node_geometry(node, env).map_err(|e| e.to_string())?;
        compact::compact(&mut geometry);
        measured.push(Box::new(geometry));
    }
    Ok(measured)
}

#[cfg(test)]
mod tests {
    use super::measured_on;

    /// Plain, HTML and record labels in several fonts, with text beyond ASCII, in a UTF-8
    /// graph and a Latin-1 one.
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
        dot.push('}');
        dot
    }

    #[test]
    fn nodes_measure_the_same_on_several_threads_as_on_one() {
        for charset in ["utf8", "latin1"] {
            let graph = crate::engine::parsed_afresh(dot(charset).into()).expect("parses");
            super::begin(&graph);
            let one = measured_on(&graph, 1).expect("sizes");
            let three = measured_on(&graph, 3).expect("sizes");
            assert_eq!(one.len(), 120);
            assert!(one == three, "{charset}: the threads measured differently");
        }
    }
}
