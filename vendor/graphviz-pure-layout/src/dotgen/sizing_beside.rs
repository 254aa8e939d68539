//! tl-draw's patch: a layout's nodes measured on a second thread while `dot` ranks and
//! orders them ([`crate::layout_dot_measuring_nodes_beside`]), then by both threads once
//! the layout reaches x placement, the first step that reads a node's size.
//!
//! The nodes are measured in runs of [`RUN`], taken in turn by whichever thread is free,
//! and put back in node order: each node measures on its own, so the geometries are the
//! ones one thread measuring every node in order would give.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::{Scope, ScopedJoinHandle};

use graphviz_pure_core::Graph;
use graphviz_pure_geom::NodeGeometry;

/// Nodes' geometries in node order, each boxed as [`crate::Measured`] holds them.
pub type Geometries = Vec<Box<NodeGeometry>>;

/// How the caller measures a graph: `begin` sets up a new thread as a layout's thread is
/// set up (its character set, its record of measured text); `nodes` gives the geometries of
/// a run of the graph's nodes, in order; `labels` its edges' and clusters' labels (the
/// [`crate::Measured`] of no node), which `dot` reads before it places the nodes. Each
/// gives what stopped it instead, if anything did.
#[derive(Clone, Copy)]
pub struct MeasureNodes {
    pub begin: fn(&Graph),
    pub nodes: fn(&Graph, Range<usize>) -> Result<Geometries, String>,
    pub labels: fn(&Graph) -> Result<crate::Measured, String>,
}

/// Nodes a thread measures at a time: a TorchLens node measures in about 12 us, so a run is
/// about 0.4 ms, and a graph of a few hundred nodes splits into enough runs to share.
const RUN: usize = 32;

/// The runs measured by one thread, each with its index.
type Runs = Result<Vec<(usize, Geometries)>, String>;

/// The measuring of a graph's nodes under way: started beside the layout, finished by the
/// layout's thread.
pub(crate) struct Measuring<'scope, 'g> {
    graph: &'g Graph,
    measure: MeasureNodes,
    next_run: &'g AtomicUsize,
    beside: Option<ScopedJoinHandle<'scope, Runs>>,
}

impl<'scope, 'g: 'scope> Measuring<'scope, 'g> {
    /// Starts measuring `graph`'s nodes on a thread of `scope`, taking runs from
    /// `next_run` (zero); where no thread starts, [`Measuring::finish`] measures them all.
    pub(crate) fn start(
        scope: &'scope Scope<'scope, '_>,
        graph: &'g Graph,
        measure: MeasureNodes,
        next_run: &'g AtomicUsize,
    ) -> Self {
        let beside = std::thread::Builder::new()
            .name("tl-draw-sizing".to_owned())
            .spawn_scoped(scope, move || {
                // Warnings are dropped, as the layout's own sizing drops them.
                graphviz_pure_core::diag::capture(|| {
                    (measure.begin)(graph);
                    take_runs(graph, measure, next_run)
                })
                .0
            })
            .ok();
        Measuring {
            graph,
            measure,
            next_run,
            beside,
        }
    }

    /// Measures the runs no thread has taken yet, here, waits for the other thread, and
    /// returns every node's geometry in node order, or the first error either met.
    pub(crate) fn finish(&mut self) -> Result<Geometries, String> {
        let here = take_runs(self.graph, self.measure, self.next_run);
        let beside = match self.beside.take() {
            Some(thread) => thread
                .join()
                .unwrap_or_else(|_| Err("a node-sizing thread stopped".to_owned())),
            None => Ok(Vec::new()),
        };
        let mut runs = here?;
        runs.extend(beside?);
        runs.sort_unstable_by_key(|(index, _)| *index);
        let geometries: Geometries = runs.into_iter().flat_map(|(_, run)| run).collect();
        if geometries.len() != self.graph.nodes.len() {
            return Err("the nodes' measuring left some unmeasured".to_owned());
        }
        Ok(geometries)
    }
}

/// Measures runs of `graph`'s nodes, the next one not taken from `next_run` each time,
/// until none is left; after an error, takes no more and leaves none for the other thread.
fn take_runs(graph: &Graph, measure: MeasureNodes, next_run: &AtomicUsize) -> Runs {
    let nodes = graph.nodes.len();
    let runs = nodes.div_ceil(RUN);
    let mut taken = Vec::new();
    loop {
        let index = next_run.fetch_add(1, Ordering::Relaxed);
        if index >= runs {
            return Ok(taken);
        }
        let range = index * RUN..((index + 1) * RUN).min(nodes);
        match (measure.nodes)(graph, range) {
            Ok(run) => taken.push((index, run)),
            Err(error) => {
                next_run.store(runs, Ordering::Relaxed);
                return Err(error);
            }
        }
    }
}
