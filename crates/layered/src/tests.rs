use proptest::prelude::*;

use crate::labels::centred;
use crate::*;

fn node(frame: Option<usize>) -> Node {
    Node {
        size: Size {
            breadth: 120.0,
            depth: 40.0,
        },
        frame,
        outline: Outline::Ellipse,
    }
}

fn edge(tail: usize, head: usize) -> Edge {
    Edge {
        tail,
        head,
        constraint: true,
        label: None,
        floating_label: None,
        head_label: None,
        tail_label: None,
        arrow_length: 7.0,
        visible: true,
    }
}

fn frame(parent: Option<usize>) -> Frame {
    Frame {
        parent,
        margin: 12.0,
        caption: Size {
            breadth: 60.0,
            depth: 20.0,
        },
    }
}

fn graph(nodes: Vec<Node>, edges: Vec<Edge>, frames: Vec<Frame>) -> Graph {
    Graph {
        nodes,
        edges,
        frames,
        sinks: Vec::new(),
        node_gap: 18.0,
        layer_gap: 36.0,
        caption_side: CaptionSide::End,
    }
}

fn node_rect(graph: &Graph, layout: &Layout, n: usize) -> Rect {
    centred(layout.nodes[n], graph.nodes[n].size)
}

fn overlap(a: &Rect, b: &Rect) -> bool {
    let eps = 1e-6;
    a.min.x < b.max.x - eps
        && b.min.x < a.max.x - eps
        && a.min.y < b.max.y - eps
        && b.min.y < a.max.y - eps
}

fn inside(inner: &Rect, outer: &Rect) -> bool {
    let eps = 1e-6;
    inner.min.x >= outer.min.x - eps
        && inner.min.y >= outer.min.y - eps
        && inner.max.x <= outer.max.x + eps
        && inner.max.y <= outer.max.y + eps
}

/// The invariants every layout keeps.
fn check(graph: &Graph, layout: &Layout) {
    let tree = FrameTree::new(&graph.frames);
    let used: Vec<bool> = (0..graph.frames.len())
        .map(|f| graph.nodes.iter().any(|n| tree.chain(n.frame).contains(&f)))
        .collect();
    for a in 0..graph.nodes.len() {
        let ra = node_rect(graph, layout, a);
        for b in a + 1..graph.nodes.len() {
            assert!(
                !overlap(&ra, &node_rect(graph, layout, b)),
                "nodes {a} and {b} overlap: layers {} {}, at {:?} {:?}",
                layout.layers[a],
                layout.layers[b],
                layout.nodes[a],
                layout.nodes[b]
            );
        }
        for f in (0..graph.frames.len()).filter(|&f| used[f]) {
            let rf = &layout.frames[f];
            if tree.chain(graph.nodes[a].frame).contains(&f) {
                assert!(inside(&ra, rf), "node {a} sticks out of frame {f}");
            } else {
                assert!(!overlap(&ra, rf), "node {a} overlaps frame {f}");
            }
        }
    }
    for f in (0..graph.frames.len()).filter(|&f| used[f]) {
        for g in (f + 1..graph.frames.len()).filter(|&g| used[g]) {
            let (rf, rg) = (&layout.frames[f], &layout.frames[g]);
            if tree.chain(Some(g)).contains(&f) {
                assert!(inside(rg, rf), "frame {g} sticks out of frame {f}");
            } else if tree.chain(Some(f)).contains(&g) {
                assert!(inside(rf, rg), "frame {f} sticks out of frame {g}");
            } else {
                assert!(!overlap(rf, rg), "frames {f} and {g} overlap");
            }
        }
    }
    for (e, route) in layout.edges.iter().enumerate() {
        assert_eq!(
            route.points.len() % 3,
            1,
            "arrow {e} is not cubic Bézier points"
        );
        assert!(route
            .points
            .iter()
            .all(|p| p.x.is_finite() && p.y.is_finite()));
    }
}

/// The dummy points the proper graph of `g` adds to its nodes.
fn dummies(g: &Graph) -> usize {
    let frames = FrameTree::new(&g.frames);
    let layering = layers::assign(g, &frames);
    let proper = proper::build(g, &layering, &frames);
    proper.vertices.len() - g.nodes.len()
}

#[test]
fn a_chain_runs_down_the_layers_in_a_straight_line() {
    let g = graph(
        (0..4).map(|_| node(None)).collect(),
        vec![edge(0, 1), edge(1, 2), edge(2, 3)],
        Vec::new(),
    );
    let layout = lay_out(&g).unwrap();
    check(&g, &layout);
    assert_eq!(layout.layers, vec![0, 1, 2, 3]);
    let x = layout.nodes[0].x;
    assert!(layout.nodes.iter().all(|p| (p.x - x).abs() < 1e-6));
    assert!(layout.nodes.windows(2).all(|w| w[1].y > w[0].y));
}

#[test]
fn an_input_sits_just_before_its_first_reader_and_sinks_share_the_last_layer() {
    // 0 -> 1 -> 2 -> 3, and 4 (an input) read by 3; 5 an output of 1.
    let mut g = graph(
        (0..6).map(|_| node(None)).collect(),
        vec![edge(0, 1), edge(1, 2), edge(2, 3), edge(4, 3), edge(1, 5)],
        Vec::new(),
    );
    g.sinks = vec![3, 5];
    let layout = lay_out(&g).unwrap();
    check(&g, &layout);
    assert_eq!(layout.layers[4], 2);
    assert_eq!(layout.layers[5], 3);
}

#[test]
fn a_returned_cache_does_not_hold_its_writer_back() {
    // The chain 0 -> ... -> 5; a key made from 6 (read early) is cached by 7, which 5 reads
    // and 8 returns (read by nothing). The cache sits just before 5, and 8 just after it.
    let mut g = graph(
        (0..9).map(|_| node(None)).collect(),
        vec![
            edge(0, 1),
            edge(1, 2),
            edge(2, 3),
            edge(3, 4),
            edge(4, 5),
            edge(0, 6),
            edge(6, 7),
            edge(7, 5),
            edge(7, 8),
        ],
        Vec::new(),
    );
    g.sinks = vec![5];
    let layout = lay_out(&g).unwrap();
    check(&g, &layout);
    assert_eq!(
        layout.layers[7],
        layout.layers[5] - 1,
        "{:?}",
        layout.layers
    );
    assert_eq!(
        layout.layers[8],
        layout.layers[7] + 1,
        "{:?}",
        layout.layers
    );
}

#[test]
fn what_one_block_hands_the_next_stays_in_its_block() {
    // Blocks 0 and 2, each holding an attention frame (1 and 3), in a chain:
    // 0 -> 1 (attention 1) -> 2 -> 3 (block 0) -> 4 -> 5 (attention 3) -> 6 (block 2).
    // Attention 1's node 7 (T5's position bias) is read only by attention 3's node 5, and
    // attention 3 hands it on to 8, which nothing reads (the last block's bias). Neither
    // stretches its block into the other's layers: the blocks stay one above the other.
    let frames = vec![frame(None), frame(Some(0)), frame(None), frame(Some(2))];
    let at = [1, 1, 0, 0, 3, 3, 2, 1, 3].map(Some);
    let mut edges: Vec<Edge> = (0..6).map(|i| edge(i, i + 1)).collect();
    edges.extend([edge(0, 7), edge(7, 5), edge(7, 8)]);
    let g = graph(at.into_iter().map(node).collect(), edges, frames);
    let layout = lay_out(&g).unwrap();
    check(&g, &layout);
    let (first, second) = (layout.frames[0], layout.frames[2]);
    assert!(
        first.max.y < second.min.y,
        "block 0 {first:?} reaches into block 2 {second:?}; layers {:?}",
        layout.layers
    );
}

/// The encoder 0 -> ... -> 6 and a decoder's first block: its self-attention (frame 0:
/// input 8 read by 9 and 10, 9 read by 10) hands 10 to the cross-attention 7, which also
/// reads the encoder's output 6; 7 feeds the output 11. `extra` adds nodes and arrows.
fn decoder(extra_nodes: usize, extra_edges: &[(usize, usize)]) -> (Graph, Layout) {
    let at = [None, None, None, None, None, None, None, None]
        .into_iter()
        .chain([Some(0); 3])
        .chain([None])
        .chain((0..extra_nodes).map(|_| Some(0)));
    let mut edges: Vec<Edge> = (0..7).map(|i| edge(i, i + 1)).collect();
    edges.extend([
        edge(8, 9),
        edge(8, 10),
        edge(9, 10),
        edge(10, 7),
        edge(7, 11),
    ]);
    edges.extend(extra_edges.iter().map(|&(tail, head)| edge(tail, head)));
    let mut g = graph(at.map(node).collect(), edges, vec![frame(None)]);
    g.sinks = vec![11];
    let layout = lay_out(&g).unwrap();
    check(&g, &layout);
    (g, layout)
}

#[test]
fn a_run_that_reads_more_than_it_feeds_moves_on_to_its_reader() {
    // Node by node, 10 (two in, one out) holds 8 and 9 on the first layers, and the arrow
    // 10 -> 7 spans the encoder; moved together, the run (its whole frame) sits before 7.
    let (_, layout) = decoder(0, &[]);
    let layers = &layout.layers;
    assert_eq!(layers[10], layers[7] - 1, "{layers:?}");
    assert_eq!((layers[8], layers[9]), (layers[10] - 2, layers[10] - 1));
}

#[test]
fn a_run_moves_on_only_with_its_whole_frame() {
    // Node 12, in the same frame, feeds the encoder's second node and stays on the first
    // layer: moving the run on would stretch the frame, so it stays.
    let (g, layout) = decoder(1, &[(12, 1)]);
    let layers = &layout.layers;
    assert_eq!((layers[8], layers[9], layers[10]), (0, 1, 2), "{layers:?}");
    let (frame, fourth) = (layout.frames[0], node_rect(&g, &layout, 3));
    assert!(frame.max.y < fourth.min.y, "{frame:?} reaches {fourth:?}");
}

#[test]
fn an_arrow_from_a_hub_does_not_hold_its_reader_back() {
    // The chain 0 -> ... -> 9; hub 10 is read by 2, 4, 6, 8, 9 and by 11, which also reads
    // a constant (12) and is read by 9, the output: 11 sits just before 9, the constant
    // with it.
    let mut edges: Vec<Edge> = (0..9).map(|i| edge(i, i + 1)).collect();
    edges.extend([2, 4, 6, 8, 9, 11].map(|reader| edge(10, reader)));
    edges.extend([edge(12, 11), edge(11, 9)]);
    let mut g = graph((0..13).map(|_| node(None)).collect(), edges, Vec::new());
    g.sinks = vec![9];
    let layout = lay_out(&g).unwrap();
    check(&g, &layout);
    assert_eq!(
        layout.layers[11],
        layout.layers[9] - 1,
        "{:?}",
        layout.layers
    );
    assert_eq!(
        layout.layers[12],
        layout.layers[11] - 1,
        "{:?}",
        layout.layers
    );
}

#[test]
fn a_hub_read_by_every_block_costs_one_trunk() {
    // A chain of 40 nodes; node 40 is read by every fourth of them.
    let mut nodes: Vec<Node> = (0..41).map(|_| node(None)).collect();
    nodes[40].frame = None;
    let mut edges: Vec<Edge> = (0..39).map(|i| edge(i, i + 1)).collect();
    edges.extend((2..40).step_by(4).map(|i| edge(40, i)));
    let g = graph(nodes, edges, Vec::new());
    // One point a layer between the hub and its last reader, however many readers.
    assert!(dummies(&g) <= 40, "{} dummies", dummies(&g));
    check(&g, &lay_out(&g).unwrap());
}

#[test]
fn a_node_with_few_long_arrows_gives_each_its_own_chain() {
    // The chain 0 -> ... -> 6; node 7 (read at layer 1) is also read by 4 and 6: two long
    // arrows, each with its own chain (3 and 5 dummies), free to run beside its own head,
    // where one shared trunk would have been 5 dummies.
    let mut edges: Vec<Edge> = (0..6).map(|i| edge(i, i + 1)).collect();
    edges.extend([edge(7, 1), edge(7, 4), edge(7, 6)]);
    let g = graph((0..8).map(|_| node(None)).collect(), edges, Vec::new());
    let layout = lay_out(&g).unwrap();
    check(&g, &layout);
    assert_eq!(layout.layers[7], 0, "{:?}", layout.layers);
    assert_eq!(dummies(&g), 3 + 5);
}

#[test]
fn a_residual_runs_inside_the_block_it_enters() {
    // Input 0 outside block frame 0; the block holds attention frame 1 (nodes 1 -> 2 -> 3)
    // and the residual add 4, which reads 3 and 0. The skip 0 -> 4 enters the block at its
    // first layer and runs inside it beside the attention frame, as dot draws a residual,
    // not around the block's side.
    let frames = vec![frame(None), frame(Some(0))];
    let at = [None, Some(1), Some(1), Some(1), Some(0)];
    let mut edges: Vec<Edge> = (0..4).map(|i| edge(i, i + 1)).collect();
    edges.push(edge(0, 4));
    let g = graph(at.into_iter().map(node).collect(), edges, frames);
    let tree = FrameTree::new(&g.frames);
    let layering = layers::assign(&g, &tree);
    let proper = proper::build(&g, &layering, &tree);
    let skip: Vec<Option<usize>> = proper.vertices[g.nodes.len()..]
        .iter()
        .map(|v| v.frame)
        .collect();
    assert_eq!(skip, vec![Some(0); 3], "{:?}", layering.layer);
    let layout = lay_out(&g).unwrap();
    check(&g, &layout);
    let block = layout.frames[0];
    let route = &layout.edges[4];
    for p in route
        .points
        .iter()
        .filter(|p| p.y > block.min.y && p.y < block.max.y)
    {
        assert!(
            block.min.x < p.x && p.x < block.max.x,
            "the skip leaves the block at {p:?}: {block:?}"
        );
    }
}

#[test]
fn arrows_between_boxes_one_above_another_run_straight_from_apart() {
    // A box (0) read by two boxes side by side (1, 2): each arrow leaves the reader's way,
    // from a point of its own on the tail's far side, and runs straight into its head, as
    // the boxes overlap across the flow; from the middle both would bend.
    let wide = Node {
        size: Size {
            breadth: 200.0,
            depth: 40.0,
        },
        frame: None,
        outline: Outline::Box,
    };
    let g = graph(vec![wide; 3], vec![edge(0, 1), edge(0, 2)], Vec::new());
    let layout = lay_out(&g).unwrap();
    check(&g, &layout);
    let tail = layout.nodes[0];
    let starts: Vec<Point> = layout.edges.iter().map(|route| route.points[0]).collect();
    for (e, route) in layout.edges.iter().enumerate() {
        assert!(
            route
                .points
                .iter()
                .all(|p| (p.x - starts[e].x).abs() < 1e-6),
            "arrow {e} bends: {:?}",
            route.points
        );
        assert!(
            (starts[e].y - (tail.y + 20.0)).abs() < 1e-6,
            "{:?}",
            starts[e]
        );
        // Within the side less its corners (30% of its half here).
        assert!(
            (starts[e].x - tail.x).abs() <= 70.0 + 1e-6,
            "{:?}",
            starts[e]
        );
    }
    assert!((starts[0].x - starts[1].x).abs() >= 20.0, "{starts:?}");
}

#[test]
fn arrows_into_one_node_end_apart_and_their_head_labels_do_not_overlap() {
    // A residual add (3) reads the block's chain (0 -> 1 -> 2) and its input (0), and an op
    // (5) reads three: each arrow ends at a point of its own on the head's outline, and its
    // "arg k" head label sits apart from the others.
    let mut edges = vec![edge(0, 1), edge(1, 2), edge(2, 3), edge(0, 3), edge(3, 4)];
    edges.extend([edge(4, 5), edge(3, 5), edge(2, 5)]);
    let label = Size {
        breadth: 40.0,
        depth: 22.0,
    };
    for e in [2, 3, 5, 6, 7] {
        edges[e].head_label = Some(label);
    }
    let g = graph((0..6).map(|_| node(None)).collect(), edges, Vec::new());
    let layout = lay_out(&g).unwrap();
    check(&g, &layout);
    let rect = |e: usize| centred(layout.edges[e].head_label.unwrap(), label);
    for (head, group) in [(3, &[2, 3][..]), (5, &[5, 6, 7][..])] {
        // Each arrow ends on the head's outline (an ellipse), at a point of its own.
        let (centre, size) = (layout.nodes[head], g.nodes[head].size);
        for &e in group {
            let tip = layout.edges[e].tip;
            let (dx, dy) = (
                (tip.x - centre.x) / (size.breadth / 2.0),
                (tip.y - centre.y) / (size.depth / 2.0),
            );
            assert!(
                (dx * dx + dy * dy - 1.0).abs() < 1e-6,
                "arrow {e} ends at {tip:?}"
            );
        }
        for (i, &a) in group.iter().enumerate() {
            for &b in &group[i + 1..] {
                let (ta, tb) = (layout.edges[a].tip, layout.edges[b].tip);
                assert!(
                    (ta.x - tb.x).abs() >= 6.0,
                    "arrows {a} and {b} end together"
                );
            }
        }
        for (i, &a) in group.iter().enumerate() {
            for &b in &group[i + 1..] {
                assert!(
                    !overlap(&rect(a), &rect(b)),
                    "labels of arrows {a} and {b} overlap: {:?} {:?}",
                    rect(a),
                    rect(b)
                );
            }
        }
    }
}

#[test]
fn the_median_pull_sides_with_the_heavier_half() {
    // Two neighbours at 0 and one at 90: the median stays at 0 where the mean goes to 30;
    // weights count, and between two middle places the point keeps the nearer.
    let median = crate::place::weighted_median;
    assert_eq!(
        median(&mut [(90.0, 1.0), (0.0, 1.0), (0.0, 1.0)], 50.0),
        0.0
    );
    assert_eq!(
        median(&mut [(90.0, 8.0), (0.0, 1.0), (0.0, 2.0)], 50.0),
        90.0
    );
    assert_eq!(median(&mut [(0.0, 1.0), (90.0, 1.0)], 50.0), 50.0);
    assert_eq!(median(&mut [(0.0, 1.0), (40.0, 1.0)], 50.0), 40.0);
}

#[test]
fn arrows_collected_by_one_node_share_one_converging_trunk() {
    // A chain of 40 nodes; node 40, after the chain, collects every fourth of them.
    let nodes: Vec<Node> = (0..41).map(|_| node(None)).collect();
    let mut edges: Vec<Edge> = (0..39).map(|i| edge(i, i + 1)).collect();
    edges.push(edge(39, 40));
    edges.extend((2..38).step_by(4).map(|i| edge(i, 40)));
    let g = graph(nodes, edges, Vec::new());
    assert!(dummies(&g) <= 40, "{} dummies", dummies(&g));
    check(&g, &lay_out(&g).unwrap());
}

#[test]
fn frames_side_by_side_never_overlap_and_nested_frames_hold_their_nodes() {
    // Two branches from 0, each in its own frame (1 holds frame 2), joined at 7.
    let nodes = vec![
        node(None),
        node(Some(0)),
        node(Some(0)),
        node(Some(2)),
        node(Some(1)),
        node(Some(1)),
        node(Some(2)),
        node(None),
    ];
    let edges = vec![
        edge(0, 1),
        edge(1, 2),
        edge(0, 4),
        edge(4, 5),
        edge(5, 3),
        edge(3, 6),
        edge(2, 7),
        edge(6, 7),
    ];
    let frames = vec![frame(None), frame(None), frame(Some(1))];
    let g = graph(nodes, edges, frames);
    check(&g, &lay_out(&g).unwrap());
}

#[test]
fn a_frames_side_runs_through_the_layer_gap_when_it_fits() {
    // 0 -> 1 -> 2, node 1 alone in a frame: margin 12, a caption 20 deep after its nodes.
    let g = graph(
        vec![node(None), node(Some(0)), node(None)],
        vec![edge(0, 1), edge(1, 2)],
        vec![frame(None)],
    );
    let layout = lay_out(&g).unwrap();
    check(&g, &layout);
    let y: Vec<f64> = layout.nodes.iter().map(|p| p.y).collect();
    // Entering: the margin and the clearance (12 + 8) fit in the 36-point gap.
    assert!((y[1] - y[0] - (40.0 + 36.0)).abs() < 1e-6, "{y:?}");
    // Leaving: margin, caption and clearance (12 + 20 + 8) need more than the gap.
    assert!((y[2] - y[1] - (40.0 + 40.0)).abs() < 1e-6, "{y:?}");
    let frame = &layout.frames[0];
    assert!(frame.min.y - (y[0] + 20.0) >= 8.0 - 1e-6, "{frame:?} {y:?}");
    assert!((y[2] - 20.0) - frame.max.y >= 8.0 - 1e-6, "{frame:?} {y:?}");
}

#[test]
fn a_cycle_is_broken_and_labels_get_room() {
    let mut edges = vec![edge(0, 1), edge(1, 2), edge(2, 0)];
    edges[1].label = Some(Size {
        breadth: 40.0,
        depth: 14.0,
    });
    let g = graph((0..3).map(|_| node(None)).collect(), edges, Vec::new());
    let layout = lay_out(&g).unwrap();
    check(&g, &layout);
    assert!(layout.edges[1].label.is_some());
    assert_eq!(layout.layers[2] - layout.layers[1], 2);
}

#[test]
fn bad_graphs_are_refused_not_panicked_on() {
    let g = graph(vec![node(Some(3))], Vec::new(), Vec::new());
    assert_eq!(lay_out(&g), Err(Invalid::NodeFrame { node: 0 }));
    let mut looped = graph(
        vec![node(None)],
        Vec::new(),
        vec![frame(Some(1)), frame(Some(0))],
    );
    assert!(matches!(lay_out(&looped), Err(Invalid::FrameParent { .. })));
    looped.frames.clear();
    looped.node_gap = f64::NAN;
    assert_eq!(lay_out(&looped), Err(Invalid::Measure));
    let g = graph(vec![node(None)], vec![edge(0, 5)], Vec::new());
    assert_eq!(lay_out(&g), Err(Invalid::EdgeEnd { edge: 0 }));
}

/// A random graph: nodes in a frame forest, arrows forward in node order (some back).
fn arbitrary_graph() -> impl Strategy<Value = Graph> {
    (2usize..40, 0usize..8).prop_flat_map(|(nodes, frames)| {
        let parents = proptest::collection::vec(proptest::option::of(0usize..8), frames);
        let homes = proptest::collection::vec(proptest::option::of(0usize..8), nodes);
        let edges = proptest::collection::vec((0..nodes, 0..nodes, any::<bool>()), 0..nodes * 2);
        (parents, homes, edges).prop_map(move |(parents, homes, edges)| {
            // A frame's parent comes before it, so the frames form a forest.
            let frames: Vec<Frame> = parents
                .iter()
                .enumerate()
                .map(|(f, p)| frame(p.filter(|&p| p < f)))
                .collect();
            let nodes: Vec<Node> = homes
                .iter()
                .map(|h| node(h.filter(|&h| h < frames.len())))
                .collect();
            let edges: Vec<Edge> = edges
                .into_iter()
                .map(|(a, b, labelled)| {
                    let mut e = edge(a, b);
                    if labelled {
                        e.label = Some(Size {
                            breadth: 30.0,
                            depth: 12.0,
                        });
                    }
                    e
                })
                .collect();
            graph(nodes, edges, frames)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn every_layout_keeps_nodes_and_frames_apart(g in arbitrary_graph()) {
        let layout = lay_out(&g).unwrap();
        check(&g, &layout);
    }
}
