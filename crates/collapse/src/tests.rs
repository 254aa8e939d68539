use super::*;

fn fixture(name: &str) -> Trace {
    let path = format!("{}/../../fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
    Trace::load(path).unwrap()
}

fn drawn_names(trace: &Trace, graph: &VisibleGraph) -> Vec<String> {
    graph
        .nodes
        .iter()
        .map(|node| match &node.kind {
            NodeKind::Op(i) => trace.ops[*i].layer_label.clone(),
            NodeKind::ModuleBox(module_box) => match module_box.call {
                Some(call) => format!("[{}]", trace.module_calls[call].label),
                None => format!("[{}]", module_box.address),
            },
            NodeKind::Capsule(capsule) => format!("<{}>", capsule.members.join(",")),
            NodeKind::FoldEllipsis(ellipsis) => format!("... +{}", ellipsis.members.len()),
            NodeKind::LoopEllipsis(ellipsis) => {
                format!(
                    "... +{} calls of {}",
                    ellipsis.calls.len(),
                    ellipsis.address
                )
            }
            NodeKind::Stub(op, _) => format!("stub {}", trace.ops[*op].layer_label),
            NodeKind::OpCapsule(ops) => format!("<{} ops>", ops.len()),
            NodeKind::Layer(passes) => {
                format!("{} x{}", trace.ops[passes[0]].layer_label, passes.len())
            }
        })
        .collect()
}

fn cluster_calls(trace: &Trace, graph: &VisibleGraph) -> Vec<String> {
    graph
        .clusters
        .iter()
        .map(|c| trace.module_calls[c.call].label.clone())
        .collect()
}

#[test]
fn convnet_hides_bookkeeping_buffers_and_the_step_counter() {
    let trace = fixture("convnet");
    let graph = visible_graph(&trace, &VisibilityOptions::default()).unwrap();
    assert_eq!(
        drawn_names(&trace, &graph),
        [
            "input_1",
            "conv2d_1_1",
            "batchnorm_1_3",
            "relu_1_4",
            "conv2d_2_5",
            "batchnorm_2_7",
            "relu_2_8",
            "adaptiveavgpool2d_1_9",
            "flatten_1_10",
            "linear_1_11",
            "softmax_1_12",
            "output_1"
        ]
    );
    assert_eq!(
        graph.hidden.iter().filter(|&&h| h).count(),
        14,
        "12 buffer versions and 2 adds"
    );
    // The batch norms and convolutions are single-node modules: no cluster of their own.
    assert_eq!(
        cluster_calls(&trace, &graph),
        ["features:1", "features.0:1", "features.1:1"]
    );
    assert_eq!(graph.edges.len(), 11);
    assert!(graph.edges.iter().all(|e| e.pairs.len() == 1));
}

#[test]
fn always_draws_every_buffer_version() {
    let trace = fixture("convnet");
    let options = VisibilityOptions {
        buffers: BufferVisibility::Always,
        ..VisibilityOptions::default()
    };
    let graph = visible_graph(&trace, &options).unwrap();
    assert_eq!(graph.nodes.len(), trace.ops.len());
    // Now the batch norm module holds several nodes and becomes a cluster.
    assert!(cluster_calls(&trace, &graph).contains(&"features.0.bn:1".to_owned()));
}

#[test]
fn never_and_meaningful_differ_on_custom_buffers() {
    let trace = fixture("custom_buffer");
    let meaningful = visible_graph(&trace, &VisibilityOptions::default()).unwrap();
    assert!(drawn_names(&trace, &meaningful).contains(&"buffer_1".to_owned()));
    let never = visible_graph(
        &trace,
        &VisibilityOptions {
            buffers: BufferVisibility::Never,
            ..VisibilityOptions::default()
        },
    )
    .unwrap();
    assert!(!drawn_names(&trace, &never).contains(&"buffer_1".to_owned()));
}

#[test]
fn depth_one_boxes_top_level_modules() {
    let trace = fixture("convnet");
    let graph = visible_graph(
        &trace,
        &VisibilityOptions {
            depth: 1,
            ..VisibilityOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        drawn_names(&trace, &graph),
        [
            "input_1",
            "[features:1]",
            "adaptiveavgpool2d_1_9",
            "flatten_1_10",
            "linear_1_11",
            "softmax_1_12",
            "output_1"
        ]
    );
    assert!(graph.clusters.is_empty());
}

#[test]
fn depth_two_boxes_each_block_whole_when_its_own_op_joins_nothing_from_outside() {
    // The guide: `depth=2` draws each ConvBlock as one box, "4 ops + 6 buffers": the
    // block's final relu reads only the batch norm inside the block, so it stays in the box
    // (drawn beside it, it would show nothing the box does not).
    let trace = fixture("convnet");
    let graph = visible_graph(
        &trace,
        &VisibilityOptions {
            depth: 2,
            ..VisibilityOptions::default()
        },
    )
    .unwrap();
    let names = drawn_names(&trace, &graph);
    assert_eq!(
        names[..4],
        [
            "input_1",
            "[features.0:1]",
            "[features.1:1]",
            "adaptiveavgpool2d_1_9"
        ]
    );
    let NodeKind::ModuleBox(first) = &graph.nodes[1].kind else {
        panic!("a box")
    };
    assert!(first.surfaced.is_empty());
    let held = |kind: OpKind| {
        first
            .ops
            .iter()
            .filter(|&&op| trace.ops[op].kind == kind)
            .count()
    };
    assert_eq!((held(OpKind::Op), held(OpKind::Buffer)), (4, 6));
    // Only `@features` stays open, around both boxes.
    assert_eq!(cluster_calls(&trace, &graph), ["features:1"]);
}

#[test]
fn stack_at_depth_one_draws_each_residual_add_beside_its_box() {
    let trace = fixture("stack8");
    let graph = visible_graph(
        &trace,
        &VisibilityOptions {
            depth: 1,
            ..VisibilityOptions::default()
        },
    )
    .unwrap();
    let names = drawn_names(&trace, &graph);
    assert_eq!(names.len(), 20);
    assert_eq!(
        names[..4],
        ["input_1", "linear_1_1", "[blocks.0:1]", "add_1_6"]
    );
    // The embedding feeds the box (through the layer norm) and the add: two arrows.
    let embed = 1;
    let targets: Vec<usize> = graph
        .edges
        .iter()
        .filter(|e| e.from == embed)
        .map(|e| e.to)
        .collect();
    assert_eq!(targets, [2, 3]);
    // No frame of the block around its own box and add, rolled or not: it would repeat the
    // box's title (TorchLens 2.36.1 draws one; issue 29).
    let options = VisibilityOptions {
        depth: 1,
        ..VisibilityOptions::default()
    };
    let (rolled, _) = crate::rolled::rolled_graph(&trace, &options).unwrap();
    for graph in [&graph, &rolled] {
        assert!(graph.clusters.is_empty(), "{:?}", graph.clusters);
        let (box_node, add) = (&graph.nodes[2], &graph.nodes[3]);
        assert_eq!((box_node.cluster, add.cluster), (None, None));
    }
}

#[test]
fn depth_zero_never_boxes() {
    let trace = fixture("stack8");
    let graph = visible_graph(
        &trace,
        &VisibilityOptions {
            depth: 0,
            ..VisibilityOptions::default()
        },
    )
    .unwrap();
    assert_eq!(graph.nodes.len(), 44);
}

#[test]
fn every_op_is_drawn_boxed_or_hidden_exactly_once() {
    for name in ["convnet", "stack8", "gpt2", "resnet18", "recurrent"] {
        let trace = fixture(name);
        for depth in [0, 1, 2, 3] {
            let graph = visible_graph(
                &trace,
                &VisibilityOptions {
                    depth,
                    ..VisibilityOptions::default()
                },
            )
            .unwrap();
            for (i, node) in graph.node_of_op.iter().enumerate() {
                assert!(
                    node.is_some() || graph.hidden[i],
                    "{name}: op {i} is neither drawn, boxed nor hidden"
                );
            }
            for edge in &graph.edges {
                assert_ne!(edge.from, edge.to);
                for &(parent, child) in &edge.pairs {
                    assert_eq!(graph.node_of_op[parent], Some(edge.from));
                    assert_eq!(graph.node_of_op[child], Some(edge.to));
                }
            }
        }
    }
}

use crate::schedule::{readable_band, Schedule};

fn counts(schedule: &Schedule) -> Vec<usize> {
    schedule.stops.iter().map(|s| s.nodes).collect()
}

#[test]
fn stack8_schedule_has_the_guide_numbers() {
    let trace = fixture("stack8");
    let schedule = Schedule::build(&trace, BufferVisibility::Meaningful).unwrap();
    assert_eq!(counts(&schedule), [44, 41, 38, 35, 32, 29, 26, 23, 20, 9]);
    assert_eq!(
        schedule.at(0.25).nodes,
        32,
        "0.25 boxes the first four blocks"
    );
    assert_eq!(
        schedule.at(0.25).plan.boxes,
        ["blocks.0", "blocks.1", "blocks.2", "blocks.3"]
    );
    assert_eq!(schedule.at(0.5).nodes, 20, "0.5 boxes all eight");
    assert_eq!(schedule.at(0.0).nodes, 44);
    let max = schedule.max();
    assert_eq!(
        max.plan.capsules,
        [vec![
            "blocks.0", "blocks.1", "blocks.2", "blocks.3", "blocks.4", "blocks.5"
        ]]
    );
    assert_eq!(max.plan.boxes, ["blocks.6", "blocks.7"]);
    assert_eq!(schedule.auto(readable_band(&trace)).nodes, 38);
    let levels: Vec<f64> = schedule.stops.iter().map(|s| s.level).collect();
    assert!(levels.windows(2).all(|w| w[0] < w[1]), "{levels:?}");
    assert!((schedule.stops[4].level - 0.200668).abs() < 1e-3);
}

#[test]
fn stack40_auto_is_one_blocks_box_with_a_double_arrow() {
    let trace = fixture("stack40");
    let schedule = Schedule::build(&trace, BufferVisibility::Meaningful).unwrap();
    assert_eq!(counts(&schedule), [204, 5]);
    let auto = schedule.auto(readable_band(&trace));
    assert_eq!(auto.plan.boxes, ["blocks"]);
    let graph = visible_graph(
        &trace,
        &VisibilityOptions {
            plan: Some(auto.plan.clone()),
            ..VisibilityOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        drawn_names(&trace, &graph),
        [
            "input_1",
            "linear_1_1",
            "[blocks]",
            "linear_82_202",
            "output_1"
        ]
    );
    let into_blocks = graph.edges.iter().find(|e| e.to == 2).unwrap();
    assert_eq!(
        into_blocks.pairs.len(),
        2,
        "the embedding feeds the first layer norm and the first residual add"
    );
}

#[test]
fn the_readable_band_counts_every_record_as_torchlens_does() {
    // ResNet-18: 69 operations but 151 records (buffer versions, input, output), so the band
    // is 25 and auto draws the 13-node stop with all four layers boxed, as TorchLens 2.36.1
    // does; counting operations alone would give 40 and the 26-node stop.
    let trace = fixture("resnet18");
    assert_eq!(trace.summary.num_ops, 69);
    assert_eq!(readable_band(&trace), 25);
    let schedule = Schedule::build(&trace, BufferVisibility::Meaningful).unwrap();
    let auto = schedule.auto(readable_band(&trace));
    assert_eq!(auto.nodes, 13);
    let mut boxes = auto.plan.boxes.clone();
    boxes.sort();
    assert_eq!(boxes, ["layer1", "layer2", "layer3", "layer4"]);
}

#[test]
fn small_models_stay_whole_at_auto() {
    for name in ["convnet", "branch_true", "recurrent"] {
        let trace = fixture(name);
        let schedule = Schedule::build(&trace, BufferVisibility::Meaningful).unwrap();
        assert_eq!(
            schedule.auto(readable_band(&trace)).nodes,
            schedule.none().nodes,
            "{name}"
        );
    }
}

#[test]
fn repeat_folds_draw_the_first_block_and_an_ellipsis() {
    let trace = fixture("stack8");
    let index = TraceIndex::validate(&trace).unwrap();
    let runs = crate::folds::repeat_runs(&index, BufferVisibility::Meaningful);
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].len(), 8);
    let plan = Plan {
        folds: runs,
        ..Plan::default()
    };
    let graph = visible_graph(
        &trace,
        &VisibilityOptions {
            plan: Some(plan),
            ..VisibilityOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        drawn_names(&trace, &graph),
        [
            "input_1",
            "linear_1_1",
            "[blocks.0:1]",
            "... +7",
            "linear_18_42",
            "output_1"
        ]
    );
}

#[test]
fn focus_draws_the_inside_with_stubs() {
    let trace = fixture("stack8");
    let options = VisibilityOptions {
        focus: Some("blocks.1".to_owned()),
        ..VisibilityOptions::default()
    };
    let graph = visible_graph(&trace, &options).unwrap();
    let names = drawn_names(&trace, &graph);
    assert_eq!(
        names.iter().filter(|n| n.starts_with("stub")).count(),
        3,
        "{names:?}"
    );
    assert!(
        names.contains(&"stub add_1_6".to_owned()),
        "the previous block's add feeds it"
    );
    assert_eq!(names.iter().filter(|n| !n.starts_with("stub")).count(), 5);
    let error = |address: &str| {
        visible_graph(
            &trace,
            &VisibilityOptions {
                focus: Some(address.to_owned()),
                ..VisibilityOptions::default()
            },
        )
        .unwrap_err()
        .code()
    };
    assert_eq!(error("blocks.99"), "module_focus_not_found");
    assert_eq!(error("blocks.1:1"), "module_focus_invalid");
    assert_eq!(error("self"), "module_focus_not_found");
}

#[test]
fn the_index_agrees_with_the_labels_of_every_fixture_shape() {
    let traces = [
        fixture("convnet"),
        fixture("recurrent"),
        fixture("gpt2"),
        tl_trace_model::synthetic::transformer(3),
        // Large enough to be indexed on two threads.
        tl_trace_model::synthetic::transformer_of_size(
            2 * tl_trace_model::parallel::PARALLEL_FROM_OPS,
        ),
    ];
    assert!(traces[4].ops.len() >= tl_trace_model::parallel::PARALLEL_FROM_OPS);
    for trace in &traces {
        let index = TraceIndex::validate(trace).unwrap();
        for (i, op) in trace.ops.iter().enumerate() {
            let labels = |indices: &[usize]| -> Vec<String> {
                indices
                    .iter()
                    .map(|&j| trace.ops[j].label.clone())
                    .collect()
            };
            let mut parents = op.parents.clone();
            parents.dedup();
            assert_eq!(labels(index.parents(i)), parents, "{}", op.label);
            assert_eq!(labels(index.children(i)), op.children, "{}", op.label);
            let stack: Vec<&str> = index
                .stack(i)
                .iter()
                .map(|&c| trace.module_calls[c].label.as_str())
                .collect();
            assert_eq!(stack, op.modules, "{}", op.label);
            // The path: the innermost call's module and its ancestors, root excluded.
            let path = index.tree.path(i);
            let innermost = op.modules.last().map(|l| l.rsplit_once(':').unwrap().0);
            assert_eq!(path.last().copied(), innermost, "{}", op.label);
            for pair in path.windows(2) {
                assert_eq!(
                    index.tree.module(pair[1]).unwrap().parent.as_deref(),
                    Some(pair[0])
                );
            }
        }
    }
}

#[test]
fn module_links_resolved_by_validation_agree_with_the_records() {
    let trace = fixture("gpt2");
    let index = TraceIndex::validate(&trace).unwrap();
    let tree = &index.tree;
    for (id, module) in trace.modules.iter().enumerate() {
        let id = id as ModuleId;
        assert_eq!(tree.id(&module.address), Some(id));
        let children: Vec<&str> = index
            .module_children(id)
            .iter()
            .map(|&child| trace.modules[child].address.as_str())
            .collect();
        assert_eq!(children, module.children, "{}", module.address);
        // The parent shows in the module's path, right before it.
        if module.parent.is_some() && tree.record(id).depth > 1 {
            let op = trace.ops.iter().position(|op| {
                op.modules
                    .iter()
                    .any(|call| call.rsplit_once(':').unwrap().0 == module.address)
            });
            if let Some(op) = op {
                let path = tree.path(op);
                let at = path.iter().position(|&a| a == module.address).unwrap();
                assert_eq!(Some(path[at - 1]), module.parent.as_deref());
            }
        }
    }
    assert_eq!(tree.id("no.such.module"), None);
}

#[test]
fn an_invalid_trace_is_refused_with_its_named_error_not_a_panic() {
    let mut trace = fixture("convnet");
    let module = trace.ops[3].modules.len();
    trace.ops[3].modules.push("no_such_call:1".to_owned());
    let error = visible_graph(&trace, &VisibilityOptions::default()).unwrap_err();
    assert_eq!(error.code(), "trace_reference_dangling");
    assert!(
        error
            .to_string()
            .contains(&format!("ops[3].modules[{module}]")),
        "{error}"
    );
    let rolled = crate::rolled::rolled_graph(&trace, &VisibilityOptions::default());
    assert_eq!(rolled.unwrap_err().code(), "trace_reference_dangling");
    let schedule = Schedule::build(&trace, BufferVisibility::Meaningful);
    assert_eq!(schedule.unwrap_err().code(), "trace_reference_dangling");
}
