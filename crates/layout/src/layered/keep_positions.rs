//! What graphviz-pure's keep-positions path (`neato -n2`) makes of a graph whose every node,
//! arrow, label and frame the layered engine placed, computed here without laying the graph
//! out again.
//!
//! That path copies the whole graph, sizes every node's label a second time and reads every
//! position back from its text: a fifth of a large drawing's time. For the graphs tl-draw
//! writes it only takes the given positions, grows the bounding box around them, moves the
//! drawing to the origin and places the graph's own caption above it. This module does the
//! same steps with the same arithmetic (positions in inches and back, the same order of
//! subtractions), so the written text is byte-identical; a graph with anything else the
//! path would act on (an aspect ratio, more dimensions, a background drawing, a node's
//! floating label, an unplaced label) is left to the path itself ([`applies`]).
//! Invariant: every format written either way is the same text
//! (`tests/tests/workspace/real_models.rs` compares both on the real models).

use graphviz_pure_core::{
    BezierSegment, BoundingBox, ClusterReg, Graph, GraphKind, LabelPlace, Point, Spline,
    SubgraphData,
};
use graphviz_pure_layout::common::init::{graph_label, pad};
use graphviz_pure_layout::common::types::{TextLabel, LABEL_AT_LEFT, LABEL_AT_RIGHT, LABEL_AT_TOP};

const POINTS_PER_INCH: f64 = 72.0;

/// Where the layered engine put everything, in Graphviz's page coordinates, each value
/// rounded as the `pos`, `lp` and `bb` attributes write it.
pub(crate) struct Placement {
    /// Per node: its centre.
    pub nodes: Vec<Point>,
    /// Per arrow, in the graph's arrow order.
    pub edges: Vec<PlacedEdge>,
    /// Per frame: its subgraph, its box and its caption's centre.
    pub frames: Vec<(usize, BoundingBox, Point)>,
}

/// One arrow: its Bézier points, its arrowhead's tip, and each label it has: its centre and
/// its measured size (label, floating label, head label, tail label).
pub(crate) struct PlacedEdge {
    pub points: Vec<Point>,
    pub tip: Point,
    pub labels: [Option<(Point, Point)>; 4],
}

/// A coordinate as the attributes write it (two decimals) and graphviz-pure reads it back.
pub(crate) fn rounded(value: f64) -> f64 {
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == 0.0 {
        0.0
    } else {
        rounded
    }
}

/// Whether [`write()`] gives what the keep-positions path would for `graph` and `placement`:
/// a two-dimensional drawing without aspect ratio, background or node floating labels, at
/// least one node, and every label of every arrow placed.
pub(crate) fn applies(graph: &Graph, placement: &Placement) -> bool {
    let attr = |key: &str| graph.graph_attrs.get(key).is_some_and(|v| !v.is_empty());
    let plain_graph = graph.kind == GraphKind::Directed
        && ![
            "ratio",
            "dim",
            "dimen",
            "_background",
            "_draw_",
            "notranslate",
            "lp",
        ]
        .iter()
        .any(|key| attr(key));
    let no_node_xlabel = graph
        .nodes
        .iter()
        .all(|node| node.attrs.get("xlabel").is_none_or(|v| v.is_empty()));
    let measured_labels_placed = graph
        .edges
        .iter()
        .zip(&placement.edges)
        .all(|(edge, placed)| {
            ["label", "xlabel", "headlabel", "taillabel"]
                .iter()
                .zip(&placed.labels)
                .all(|(key, label)| {
                    edge.attrs.get(*key).is_none_or(|v| v.is_empty()) || label.is_some()
                })
        });
    plain_graph
        && no_node_xlabel
        && measured_labels_placed
        && !graph.nodes.is_empty()
        && placement.nodes.len() == graph.nodes.len()
        && placement.edges.len() == graph.edges.len()
}

/// Writes `placement` on `graph` as the keep-positions path's layout results.
pub(crate) fn write(graph: &mut Graph, placement: Placement) {
    graph.layout.background = graphviz_pure_core::xdot::init_xdot(graph);
    // Positions are read in inches and written back in points (`user_pos`, `coord`).
    let mut inches: Vec<Point> = placement
        .nodes
        .iter()
        .map(|p| Point::new(p.x / POINTS_PER_INCH, p.y / POINTS_PER_INCH))
        .collect();
    let mut clusters = registered_clusters(graph, &placement);
    let mut labels: Vec<EdgeLabels> = placement.edges.iter().map(EdgeLabels::of).collect();
    let (mut splines, mut tips): (Vec<Vec<Point>>, Vec<Point>) = placement
        .edges
        .into_iter()
        .map(|edge| (edge.points, edge.tip))
        .unzip();
    let (root_label, root_flags) = graph_label(&graph.graph_attrs, graph.root_name(), false, true);

    let mut bb = bounding_box(graph, &inches, &splines, &labels, &clusters);
    if bb.ll.x != 0.0 || bb.ll.y != 0.0 {
        let ll = bb.ll;
        let off = Point::new(ll.x / POINTS_PER_INCH, ll.y / POINTS_PER_INCH);
        for p in &mut inches {
            p.x -= off.x;
            p.y -= off.y;
        }
        for (points, tip) in splines.iter_mut().zip(&mut tips) {
            for p in points.iter_mut() {
                p.x -= ll.x;
                p.y -= ll.y;
            }
            tip.x -= ll.x;
            tip.y -= ll.y;
        }
        for label in labels.iter_mut().flat_map(|e| e.0.iter_mut().flatten()) {
            label.x -= ll.x;
            label.y -= ll.y;
        }
        shift(&mut bb, ll);
        for cluster in &mut clusters {
            shift(&mut cluster.bb, ll);
            if let Some(label) = cluster.label.as_mut() {
                label.x -= ll.x;
                label.y -= ll.y;
            }
        }
    }
    let root_label_pos = root_label
        .as_ref()
        .map(|label| place_root_label(&mut bb, label, root_flags));

    graph.layout.odim = 2;
    for (node, p) in graph.nodes.iter_mut().zip(&inches) {
        node.pos = Point::new(POINTS_PER_INCH * p.x, POINTS_PER_INCH * p.y);
        node.layout.xlabel = None;
        node.layout.higher_dims = Vec::new();
    }
    for (index, edge) in graph.edges.iter_mut().enumerate() {
        // `applies` holds the graph directed.
        let (_, head_type) = graphviz_pure_core::arrows::arrow_flags(&edge.attrs, true);
        edge.spline = Spline {
            segments: vec![BezierSegment {
                points: std::mem::take(&mut splines[index]),
                start_arrow: None,
                end_arrow: (head_type != 0).then_some(tips[index]),
                sflag: 0,
                eflag: head_type,
            }],
        };
        let [label, floating, head, tail] = labels[index].0;
        edge.label_pos = label;
        edge.label_unplaced = false;
        edge.layout.xlabel = floating;
        edge.layout.head_label = head.map(|pos| LabelPlace { pos, set: true });
        edge.layout.tail_label = tail.map(|pos| LabelPlace { pos, set: true });
    }
    graph.bb = bb;
    write_clusters(graph, &clusters);
    graph.layout.label_pos = root_label_pos;
    graph.layout.usershapes = graphviz_pure_core::usershape::layout_result();
}

/// An arrow's label centres (label, floating label, head label, tail label) and sizes.
struct EdgeLabels([Option<Point>; 4], [Option<Point>; 4]);

impl EdgeLabels {
    fn of(edge: &PlacedEdge) -> EdgeLabels {
        EdgeLabels(
            edge.labels.map(|l| l.map(|(pos, _)| pos)),
            edge.labels.map(|l| l.map(|(_, size)| size)),
        )
    }
}

/// A frame the keep-positions path registers: a subgraph named as a cluster with a
/// readable `bb`, its place among the top-level ones, and its caption's centre.
struct Cluster {
    subgraph: usize,
    top_level: bool,
    bb: BoundingBox,
    label: Option<Point>,
}

/// The clusters in the path's order (a depth-first walk from the top-level subgraphs, in
/// creation order), each with the box and caption the layered engine gave it.
fn registered_clusters(graph: &Graph, placement: &Placement) -> Vec<Cluster> {
    let mut placed: Vec<Option<(BoundingBox, Point)>> = vec![None; graph.subgraphs.len()];
    for &(subgraph, bb, caption) in &placement.frames {
        placed[subgraph] = Some((bb, caption));
    }
    let mut nested = vec![false; graph.subgraphs.len()];
    for subgraph in &graph.subgraphs {
        for child in &subgraph.subgraphs {
            nested[child.0 as usize] = true;
        }
    }
    let mut clusters = Vec::new();
    let mut stack: Vec<(usize, bool)> = (0..graph.subgraphs.len())
        .rev()
        .filter(|&s| !nested[s])
        .map(|s| (s, true))
        .collect();
    while let Some((index, top_level)) = stack.pop() {
        let subgraph = &graph.subgraphs[index];
        let registered = match placed[index] {
            Some((bb, caption)) if is_cluster(subgraph) => {
                let (label, _) = graph_label(
                    &subgraph.graph_attrs,
                    &graph.subgraph_name(index),
                    subgraph.html_name,
                    false,
                );
                clusters.push(Cluster {
                    subgraph: index,
                    top_level,
                    bb,
                    label: label.map(|_| caption),
                });
                true
            }
            _ => false,
        };
        // Below a registered cluster nothing is top level; below anything else its
        // children take its place.
        let children_top = top_level && !registered;
        for child in subgraph.subgraphs.iter().rev() {
            stack.push((child.0 as usize, children_top));
        }
    }
    clusters
}

fn is_cluster(subgraph: &SubgraphData) -> bool {
    graphviz_pure_core::has_cluster_prefix(&subgraph.name)
        || graphviz_pure_core::cnum::mapbool(
            subgraph.graph_attrs.get("cluster").map(String::as_str),
        )
}

/// `compute_bb`: every node's box, every arrow's points and placed labels, the top-level
/// clusters' boxes.
fn bounding_box(
    graph: &Graph,
    inches: &[Point],
    splines: &[Vec<Point>],
    edges: &[EdgeLabels],
    clusters: &[Cluster],
) -> BoundingBox {
    let far = f64::from(i32::MAX);
    let mut bb = BoundingBox::new(far, far, -far, -far);
    let mut take = |ll: Point, ur: Point| {
        bb.ll.x = bb.ll.x.min(ll.x);
        bb.ll.y = bb.ll.y.min(ll.y);
        bb.ur.x = bb.ur.x.max(ur.x);
        bb.ur.y = bb.ur.y.max(ur.y);
    };
    for (node, p) in graph.nodes.iter().zip(inches) {
        let centre = Point::new(POINTS_PER_INCH * p.x, POINTS_PER_INCH * p.y);
        let width = node.width * POINTS_PER_INCH;
        let half = Point::new(
            (width / 2.0 + width / 2.0) / 2.0,
            node.height * POINTS_PER_INCH / 2.0,
        );
        take(
            Point::new(centre.x - half.x, centre.y - half.y),
            Point::new(centre.x + half.x, centre.y + half.y),
        );
    }
    for (points, labels) in splines.iter().zip(edges) {
        for &p in points {
            take(p, p);
        }
        for (pos, size) in labels.0.iter().zip(&labels.1) {
            if let (Some(pos), Some(size)) = (pos, size) {
                take(
                    Point::new(pos.x - size.x / 2.0, pos.y - size.y / 2.0),
                    Point::new(pos.x + size.x / 2.0, pos.y + size.y / 2.0),
                );
            }
        }
    }
    for cluster in clusters.iter().filter(|c| c.top_level) {
        take(cluster.bb.ll, cluster.bb.ur);
    }
    bb
}

fn shift(bb: &mut BoundingBox, by: Point) {
    bb.ur.x -= by.x;
    bb.ur.y -= by.y;
    bb.ll.x -= by.x;
    bb.ll.y -= by.y;
}

/// `gv_postprocess`'s root label: room for it at the top or bottom of `bb` (which widens
/// to fit it), then its centre there, by its justification.
fn place_root_label(bb: &mut BoundingBox, label: &TextLabel, flags: u8) -> Point {
    let dimen = pad(label.dimen);
    if flags & LABEL_AT_TOP != 0 {
        bb.ur.y += dimen.y;
    } else {
        bb.ll.y -= dimen.y;
    }
    if dimen.x > bb.ur.x - bb.ll.x {
        let diff = (dimen.x - (bb.ur.x - bb.ll.x)) / 2.0;
        bb.ll.x -= diff;
        bb.ur.x += diff;
    }
    let x = if flags & LABEL_AT_RIGHT != 0 {
        bb.ur.x - dimen.x / 2.0
    } else if flags & LABEL_AT_LEFT != 0 {
        bb.ll.x + dimen.x / 2.0
    } else {
        (bb.ll.x + bb.ur.x) / 2.0
    };
    let y = if flags & LABEL_AT_TOP != 0 {
        bb.ur.y - dimen.y / 2.0
    } else {
        bb.ll.y + dimen.y / 2.0
    };
    Point::new(x, y)
}

/// The clusters' boxes and captions as `write_back` leaves them: a subgraph with a `bb`
/// attribute keeps it, a registered cluster gets its placed box.
fn write_clusters(graph: &mut Graph, clusters: &[Cluster]) {
    for subgraph in &mut graph.subgraphs {
        if let Some(bb) = subgraph.graph_attrs.get("bb") {
            let values: Vec<f64> = bb
                .split(',')
                .filter_map(|t| t.trim().parse().ok())
                .collect();
            if let [llx, lly, urx, ury] = values[..] {
                subgraph.bb = BoundingBox::new(llx, lly, urx, ury);
            }
        }
    }
    let mut registered = vec![false; graph.subgraphs.len()];
    for cluster in clusters {
        let subgraph = &mut graph.subgraphs[cluster.subgraph];
        subgraph.bb = cluster.bb;
        subgraph.layout.reg = ClusterReg::Registered;
        registered[cluster.subgraph] = true;
        if let Some(label) = cluster.label {
            subgraph.layout.label_pos = Some(label);
        }
    }
    for (index, subgraph) in graph.subgraphs.iter_mut().enumerate() {
        if !registered[index] && subgraph.bb != BoundingBox::default() {
            subgraph.layout.reg = ClusterReg::Unregistered;
        }
    }
}
