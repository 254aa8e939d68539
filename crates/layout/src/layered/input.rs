//! What the layered engine is given: the frames of a parsed graph, node and label sizes as
//! graphviz-pure measured them, and the direction of the flow.

use graphviz_pure_core::{AttrMap, Graph};
use graphviz_pure_geom::NodeSizeEnv;
use tl_layered::{CaptionSide, Edge, Frame, Node, Outline, Size};

use super::POINTS_PER_INCH;

/// How the flow runs on the page.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    TopToBottom,
    BottomToTop,
    LeftToRight,
    RightToLeft,
}

impl Direction {
    pub(super) fn of(graph: &Graph) -> Direction {
        match graph.graph_attrs.get("rankdir").map(String::as_str) {
            Some("BT") => Direction::BottomToTop,
            Some("LR") => Direction::LeftToRight,
            Some("RL") => Direction::RightToLeft,
            _ => Direction::TopToBottom,
        }
    }

    pub(super) fn across(self) -> bool {
        matches!(self, Direction::LeftToRight | Direction::RightToLeft)
    }

    /// A box of `width` by `height` points on the page, as breadth and depth.
    pub(super) fn size(self, width: f64, height: f64) -> Size {
        if self.across() {
            Size {
                breadth: height,
                depth: width,
            }
        } else {
            Size {
                breadth: width,
                depth: height,
            }
        }
    }
}

/// The clusters of a parsed graph, as the engine's frames.
pub(super) struct Frames {
    /// Per frame: its subgraph.
    pub(super) subgraphs: Vec<usize>,
    /// Per frame: its parent frame.
    pub(super) parents: Vec<Option<usize>>,
    /// Per node: its innermost frame.
    pub(super) homes: Vec<Option<usize>>,
}

impl Frames {
    pub(super) fn of(graph: &Graph) -> Frames {
        let count = graph.subgraphs.len();
        let mut parent_subgraph: Vec<Option<usize>> = vec![None; count];
        for (index, subgraph) in graph.subgraphs.iter().enumerate() {
            for child in &subgraph.subgraphs {
                if let Some(slot) = parent_subgraph.get_mut(child.0 as usize) {
                    *slot = Some(index);
                }
            }
        }
        let mut frame_of = vec![None; count];
        let mut subgraphs = Vec::new();
        for (index, subgraph) in graph.subgraphs.iter().enumerate() {
            if subgraph.is_cluster {
                frame_of[index] = Some(subgraphs.len());
                subgraphs.push(index);
            }
        }
        // A cluster's frame parent: the nearest cluster above it.
        let parents = subgraphs
            .iter()
            .map(|&index| {
                let mut at = parent_subgraph[index];
                let mut steps = 0;
                while let Some(up) = at {
                    if frame_of[up].is_some() || steps > count {
                        return frame_of[up];
                    }
                    at = parent_subgraph[up];
                    steps += 1;
                }
                None
            })
            .collect::<Vec<_>>();
        let depth = |frame: usize| {
            let mut depth = 0;
            let mut at = parents[frame];
            while let Some(up) = at {
                depth += 1;
                at = if depth > count { None } else { parents[up] };
            }
            depth
        };
        let depths: Vec<usize> = (0..subgraphs.len()).map(depth).collect();
        let mut homes: Vec<Option<usize>> = vec![None; graph.nodes.len()];
        for (frame, &index) in subgraphs.iter().enumerate() {
            for node in &graph.subgraphs[index].nodes {
                let slot = &mut homes[node.0 as usize];
                if slot.is_none_or(|home| depths[home] < depths[frame]) {
                    *slot = Some(frame);
                }
            }
        }
        Frames {
            subgraphs,
            parents,
            homes,
        }
    }
}

fn inches(attrs: &AttrMap, key: &str, default: f64) -> f64 {
    attrs
        .get(key)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v >= 0.0)
        .unwrap_or(default)
        * POINTS_PER_INCH
}

/// Each arrow's measured label sizes (label, floating label, head label, tail label).
pub(super) type LabelSizes = [Option<graphviz_pure_core::Point>; 4];

/// The engine's graph, and each arrow's label sizes as graphviz-pure measured them
/// (`measured` before, where it holds every arrow's).
pub(super) fn engine_input(
    graph: &Graph,
    direction: Direction,
    frames: &Frames,
    measured: &crate::sizing::Measured,
) -> Result<(tl_layered::Graph, Vec<LabelSizes>), String> {
    let labels_measured = measured.edge_labels.len() == graph.edges.len();
    let no_labels = graphviz_pure_geom::EdgeLabelGeometry::default();
    let env = NodeSizeEnv::from_graph(graph);
    let directed = graph.kind == graphviz_pure_core::GraphKind::Directed;
    let nodes = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(index, node)| Node {
            size: direction.size(node.width * POINTS_PER_INCH, node.height * POINTS_PER_INCH),
            frame: frames.homes[index],
            outline: outline(node),
        })
        .collect();
    let (edges, label_sizes): (Vec<Edge>, Vec<LabelSizes>) = graph
        .edges
        .iter()
        .enumerate()
        .map(|(index, edge)| {
            let tail = &graph.nodes[edge.tail.0 as usize];
            let head = &graph.nodes[edge.head.0 as usize];
            let attrs = &edge.attrs;
            // Measured as the keep-positions path measures them (one record per arrow, which
            // the renderer replays).
            let measured_here;
            let labels = match measured.edge_labels.get(index).filter(|_| labels_measured) {
                Some(labels) => labels.as_deref().unwrap_or(&no_labels),
                None => {
                    measured_here = graphviz_pure_geom::node_size::edge_label_geometry_of(
                        u64::from(edge.id.0),
                        attrs,
                        &tail.name,
                        &head.name,
                        directed,
                        &env,
                    );
                    &measured_here
                }
            };
            let sizes = [
                &labels.label,
                &labels.xlabel,
                &labels.head_label,
                &labels.tail_label,
            ]
            .map(|label| label.as_ref().map(|l| l.dimen));
            let size = |label: &Option<graphviz_pure_geom::LabelGeometry>| {
                label
                    .as_ref()
                    .map(|l| direction.size(l.dimen.x + 4.0, l.dimen.y + 2.0))
            };
            let arrow = attrs
                .get("arrowsize")
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v >= 0.0)
                .unwrap_or(1.0);
            let edge = Edge {
                tail: edge.tail.0 as usize,
                head: edge.head.0 as usize,
                constraint: attrs.get("constraint").is_none_or(|v| v != "false"),
                label: size(&labels.label),
                floating_label: size(&labels.xlabel),
                head_label: size(&labels.head_label),
                tail_label: size(&labels.tail_label),
                arrow_length: 10.0 * arrow,
                visible: !attrs.get("style").is_some_and(|s| s.contains("invis")),
            };
            (edge, sizes)
        })
        .unzip();
    let flip = direction.across();
    let frame_list = frames
        .subgraphs
        .iter()
        .zip(&frames.parents)
        .map(|(&index, &parent)| {
            let subgraph = &graph.subgraphs[index];
            let mut attrs = graph.graph_attrs.clone();
            attrs.extend_from(&subgraph.graph_attrs);
            let caption = graphviz_pure_geom::graph_label_geometry_in(
                &subgraph.name,
                subgraph.html_name,
                &attrs,
                false,
                flip,
                &env,
            )
            .map_or(Size::default(), |label| {
                direction.size(label.label.dimen.x + 16.0, label.label.dimen.y + 8.0)
            });
            let margin = subgraph
                .graph_attrs
                .get("margin")
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v >= 0.0)
                .unwrap_or(8.0);
            Frame {
                parent,
                margin,
                caption,
            }
        })
        .collect();
    let sinks = graph
        .subgraphs
        .iter()
        .filter(|s| s.graph_attrs.get("rank").is_some_and(|r| r == "sink"))
        .flat_map(|s| s.nodes.iter().map(|n| n.0 as usize))
        .collect();
    let input = tl_layered::Graph {
        nodes,
        edges,
        frames: frame_list,
        sinks,
        node_gap: inches(&graph.graph_attrs, "nodesep", 0.25),
        layer_gap: inches(&graph.graph_attrs, "ranksep", 0.5),
        caption_side: if direction == Direction::BottomToTop {
            CaptionSide::End
        } else {
            CaptionSide::Start
        },
    };
    Ok((input, label_sizes))
}

/// A node's outline as the engine sees it (in a flow across the page the engine's breadth
/// and depth are the node's height and width, and an ellipse stays an ellipse).
fn outline(node: &graphviz_pure_core::NodeData) -> Outline {
    match node.attrs.get("shape").map_or("ellipse", String::as_str) {
        "box" | "rect" | "rectangle" | "box3d" | "square" => Outline::Box,
        "ellipse" | "oval" => Outline::Ellipse,
        _ => Outline::Other,
    }
}
