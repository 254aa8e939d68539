//! Property tests over generated module trees and graphs: the collapse schedule is
//! monotone (a larger level never shows more), folded sets are nested, every operation is
//! accounted for exactly once, every arrow is drawn or internal to one node (in unrolled and
//! rolled drawings of every stop), and `auto` stays within the readable band whenever a
//! stop fits it.

use proptest::prelude::*;
use tl_collapse::rolled::rolled_graph;
use tl_collapse::schedule::{readable_band, Schedule};
use tl_collapse::{visible_graph, BufferVisibility, NodeKind, VisibilityOptions, VisibleGraph};
use tl_trace_model::builder::TraceBuilder;
use tl_trace_model::*;

/// A generated module: leaf modules run a chain of ops; containers run their children in
/// order, may add a residual connection around them, and may never be called themselves
/// (like a `ModuleList`).
#[derive(Debug, Clone)]
enum Spec {
    Leaf(usize),
    Container {
        children: Vec<Spec>,
        residual: bool,
        called: bool,
    },
}

fn spec() -> impl Strategy<Value = Spec> {
    let leaf = (1usize..4).prop_map(Spec::Leaf);
    leaf.prop_recursive(3, 40, 5, |inner| {
        (
            prop::collection::vec(inner, 1..5),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(children, residual, called)| Spec::Container {
                children,
                residual,
                called,
            })
    })
}

struct Builder {
    builder: TraceBuilder,
}

impl Builder {
    fn op(
        &mut self,
        kind: OpKind,
        layer_type: &str,
        parents: &[String],
        stack: &[String],
    ) -> String {
        let mut record = self.builder.record(kind, layer_type).with_parents(parents);
        record.shape = Some(vec![2, 4]);
        record.bytes = Some(32);
        record.modules = stack.to_vec();
        self.builder.push_op(record)
    }

    /// Runs `spec` as module `address` on `x`; returns the new `x`.
    fn run(
        &mut self,
        spec: &Spec,
        address: &str,
        parent: &str,
        stack: &[String],
        x: String,
    ) -> String {
        let (class, called) = match spec {
            Spec::Leaf(_) => ("Leaf", true),
            Spec::Container { called, .. } => ("Container", *called),
        };
        self.builder
            .module(address, class, parent, u32::from(called));
        let mut inner = stack.to_vec();
        if called {
            inner.push(self.builder.call(address, stack.last().map(String::as_str)));
        }
        let mut own_ops = Vec::new();
        let out = match spec {
            Spec::Leaf(n) => {
                let mut x = x;
                for i in 0..*n {
                    x = self.op(
                        OpKind::Op,
                        if i % 2 == 0 { "linear" } else { "relu" },
                        &[x],
                        &inner,
                    );
                    own_ops.push(x.clone());
                }
                x
            }
            Spec::Container {
                children, residual, ..
            } => {
                let input = x.clone();
                let mut x = x;
                for (i, child) in children.iter().enumerate() {
                    x = self.run(child, &format!("{address}.{i}"), address, &inner, x);
                }
                if *residual {
                    x = self.op(OpKind::Op, "add", &[x, input], &inner);
                    own_ops.push(x.clone());
                }
                x
            }
        };
        if called {
            self.builder.mark_output(inner.last().unwrap(), &out);
            // A module whose own work is this single op.
            if own_ops.len() == 1 && own_ops[0] == out {
                self.builder.mark_atomic(&out);
            }
        }
        out
    }
}

fn build(children: &[Spec]) -> Trace {
    let mut builder = Builder {
        builder: TraceBuilder::new("Generated"),
    };
    let mut x = builder.op(OpKind::Input, "input", &[], &[]);
    for (i, child) in children.iter().enumerate() {
        x = builder.run(child, &format!("m{i}"), "self", &[], x);
    }
    builder.op(OpKind::Output, "output", &[x], &[]);
    let trace = builder.builder.finish();
    trace.validate().expect("generated traces are valid");
    trace
}

fn accounted(trace: &Trace, options: &VisibilityOptions) -> Result<usize, TestCaseError> {
    accounted_in(trace, visible_graph(trace, options).unwrap())
}

/// Every op drawn or held exactly once, every underlying arrow internal to one node or
/// carried by exactly one edge, no stubs; returns the node count.
fn accounted_in(trace: &Trace, graph: VisibleGraph) -> Result<usize, TestCaseError> {
    let index: std::collections::HashMap<&str, usize> = trace
        .ops
        .iter()
        .enumerate()
        .map(|(i, op)| (op.label.as_str(), i))
        .collect();
    // Every op drawn or held exactly once; one hidden with the buffers is held by a box
    // around it or not drawn at all.
    let mut seen = vec![0usize; trace.ops.len()];
    for node in &graph.nodes {
        for op in node.kind.ops() {
            seen[op] += 1;
        }
    }
    prop_assert!(
        seen.iter()
            .zip(&graph.hidden)
            .all(|(&n, &hidden)| n == 1 || (hidden && n == 0)),
        "ops drawn {seen:?}"
    );
    // Every underlying arrow between drawn ops is internal to one node or carried by
    // exactly one edge.
    for (child, op) in trace.ops.iter().enumerate() {
        for parent in &op.parents {
            let parent = index[parent.as_str()];
            let (Some(from), Some(to)) = (graph.node_of_op[parent], graph.node_of_op[child]) else {
                continue;
            };
            let carriers = graph
                .edges
                .iter()
                .filter(|e| e.pairs.contains(&(parent, child)))
                .count();
            prop_assert_eq!(carriers, usize::from(from != to));
        }
    }
    prop_assert!(graph
        .nodes
        .iter()
        .all(|n| !matches!(n.kind, NodeKind::Stub(..))));
    Ok(graph.nodes.len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn schedules_are_monotone_nested_and_accounted(children in prop::collection::vec(spec(), 1..5)) {
        let trace = build(&children);
        let schedule = Schedule::build(&trace, BufferVisibility::Meaningful).unwrap();
        let steps = &schedule.stops;
        for pair in steps.windows(2) {
            prop_assert!(pair[0].nodes > pair[1].nodes, "a larger level never shows more");
            prop_assert!(pair[0].level < pair[1].level);
            let later: Vec<&String> = pair[1].plan.boxes.iter().chain(pair[1].plan.capsules.iter().flatten()).collect();
            for address in &pair[0].plan.boxes {
                prop_assert!(later.contains(&address), "folded sets are nested: {address} unfolded");
            }
        }
        for step in steps {
            let options = VisibilityOptions { plan: Some(step.plan.clone()), ..VisibilityOptions::default() };
            prop_assert_eq!(accounted(&trace, &options)?, step.nodes);
        }
        for level in [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0] {
            prop_assert!(schedule.at(level).nodes >= schedule.at((level + 0.1_f64).min(1.0)).nodes);
        }
        let band = readable_band(&trace);
        if steps.iter().any(|s| s.nodes <= band) {
            prop_assert!(schedule.auto(band).nodes <= band);
        }
    }

    #[test]
    fn rolled_drawings_of_every_stop_account_for_every_op(children in prop::collection::vec(spec(), 1..5)) {
        let trace = build(&children);
        let schedule = Schedule::build(&trace, BufferVisibility::Meaningful).unwrap();
        for step in &schedule.stops {
            let options = VisibilityOptions { plan: Some(step.plan.clone()), ..VisibilityOptions::default() };
            let (graph, labels) = rolled_graph(&trace, &options).unwrap();
            prop_assert_eq!(labels.len(), graph.edges.len());
            // Single-pass traces roll to their unrolled drawing.
            prop_assert_eq!(accounted_in(&trace, graph)?, step.nodes);
        }
    }

    #[test]
    fn depth_cuts_account_for_every_op(children in prop::collection::vec(spec(), 1..5), depth in 0u32..4) {
        let trace = build(&children);
        accounted(&trace, &VisibilityOptions { depth, ..VisibilityOptions::default() })?;
    }
}

/// The same promises on every committed fixture and real architecture, not only on the
/// synthetic traces above: every stop's drawing accounts for every op and arrow, draws the
/// count the schedule prints, and the stops fold monotonically with nested boxes.
#[test]
fn every_committed_trace_keeps_the_schedule_promises() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut paths: Vec<std::path::PathBuf> = [fixtures.clone(), fixtures.join("real")]
        .iter()
        .flat_map(|folder| std::fs::read_dir(folder).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    paths.sort();
    let mut checked = 0;
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let Ok(trace) = Trace::from_json(&text) else {
            continue; // a bundle
        };
        let schedule = Schedule::build(&trace, BufferVisibility::Meaningful).unwrap();
        for pair in schedule.stops.windows(2) {
            assert!(
                pair[0].nodes > pair[1].nodes && pair[0].level < pair[1].level,
                "{path:?}"
            );
            let later: Vec<&String> = pair[1]
                .plan
                .boxes
                .iter()
                .chain(pair[1].plan.capsules.iter().flatten())
                .collect();
            for address in &pair[0].plan.boxes {
                assert!(later.contains(&address), "{path:?}: {address} unfolded");
            }
        }
        for step in &schedule.stops {
            let options = VisibilityOptions {
                plan: Some(step.plan.clone()),
                ..VisibilityOptions::default()
            };
            let drawn = accounted(&trace, &options).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            assert_eq!(drawn, step.nodes, "{path:?} at t={}", step.level);
        }
        checked += 1;
    }
    assert!(checked >= 26, "checked {checked} traces");
}
