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
            NodeKind::ModuleBox(module_box) => {
                format!("[{}]", trace.module_calls[module_box.call].label)
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
    let graph = visible_graph(&trace, &VisibilityOptions::default());
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
    let graph = visible_graph(&trace, &options);
    assert_eq!(graph.nodes.len(), trace.ops.len());
    // Now the batch norm module holds several nodes and becomes a cluster.
    assert!(cluster_calls(&trace, &graph).contains(&"features.0.bn:1".to_owned()));
}

#[test]
fn never_and_meaningful_differ_on_custom_buffers() {
    let trace = fixture("custom_buffer");
    let meaningful = visible_graph(&trace, &VisibilityOptions::default());
    assert!(drawn_names(&trace, &meaningful).contains(&"buffer_1".to_owned()));
    let never = visible_graph(
        &trace,
        &VisibilityOptions {
            buffers: BufferVisibility::Never,
            ..VisibilityOptions::default()
        },
    );
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
    );
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
fn depth_two_keeps_a_blocks_own_op_beside_its_box() {
    let trace = fixture("convnet");
    let graph = visible_graph(
        &trace,
        &VisibilityOptions {
            depth: 2,
            ..VisibilityOptions::default()
        },
    );
    let names = drawn_names(&trace, &graph);
    assert_eq!(
        names[1..5],
        ["[features.0:1]", "relu_1_4", "[features.1:1]", "relu_2_8"]
    );
    let NodeKind::ModuleBox(first) = &graph.nodes[1].kind else {
        panic!("a box")
    };
    assert_eq!(first.surfaced.len(), 1, "relu_1_4 is drawn beside the box");
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
    );
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
    );
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
            );
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
