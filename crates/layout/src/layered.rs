//! The layered engine (`tl-layered`) behind the same DOT-in, text-out door as graphviz-pure.
//!
//! graphviz-pure parses the DOT and sizes every node, caption and label exactly as its `dot`
//! would; `tl-layered` places them; the positions go back on the graph as Graphviz's own
//! attributes (`pos` on nodes and arrows, `bb` and `lp` on frames, `lp`/`xlp`/`head_lp`/
//! `tail_lp` on labels), and graphviz-pure's keep-positions path (`neato -n2`) writes the
//! formats. So SVG, JSON, xdot and plain, and everything drawn from them, read the same way
//! whichever engine placed the nodes.

use std::borrow::Cow;

use graphviz_pure_core::charset::{self, Decoded};
use graphviz_pure_core::{AttrMap, AttrSym, Graph};
use graphviz_pure_geom::NodeSizeEnv;
use tl_layered::{CaptionSide, Edge, Frame, Node, Point, Size};

use crate::engine::TextFormat;
use crate::error::LayoutError;

const POINTS_PER_INCH: f64 = 72.0;

/// Lays `dot` out with the layered engine and writes each format.
pub(crate) fn lay_out(dot: &str, formats: &[TextFormat]) -> Result<Vec<String>, LayoutError> {
    let failed = |detail: String| LayoutError::Failed {
        engine: "layered",
        detail,
    };
    let (result, _diagnostics) = graphviz_pure_core::diag::capture(|| {
        let mut graph = graphviz_pure_render::decoded::parse_dot(&Decoded::from_text(dot))
            .map_err(|e| e.to_string())?;
        place(&mut graph)?;
        graphviz_pure_layout::layout_graph(&mut graph, graphviz_pure_layout::LayoutEngine::Nop2)
            .map_err(|e| e.to_string())?;
        crate::progress::mark(crate::progress::Step::Writing);
        formats
            .iter()
            .map(|format| {
                let format = graphviz_pure_render::OutputFormat::parse(format.name())
                    .map_err(|e| e.to_string())?;
                let text = graphviz_pure_render::render_graph(&graph, format)
                    .map_err(|e| e.to_string())?;
                Ok(match charset::to_text(&text) {
                    Cow::Borrowed(_) => text,
                    Cow::Owned(owned) => owned,
                })
            })
            .collect::<Result<Vec<String>, String>>()
    });
    result.map_err(failed)
}

/// How the flow runs on the page.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    TopToBottom,
    BottomToTop,
    LeftToRight,
    RightToLeft,
}

impl Direction {
    fn of(graph: &Graph) -> Direction {
        match graph.graph_attrs.get("rankdir").map(String::as_str) {
            Some("BT") => Direction::BottomToTop,
            Some("LR") => Direction::LeftToRight,
            Some("RL") => Direction::RightToLeft,
            _ => Direction::TopToBottom,
        }
    }

    fn across(self) -> bool {
        matches!(self, Direction::LeftToRight | Direction::RightToLeft)
    }

    /// A box of `width` by `height` points on the page, as breadth and depth.
    fn size(self, width: f64, height: f64) -> Size {
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

/// Places every node, frame, arrow and label of `graph`, as Graphviz attributes.
fn place(graph: &mut Graph) -> Result<(), String> {
    let direction = Direction::of(graph);
    graphviz_pure_geom::size_graph_nodes(graph).map_err(|e| e.to_string())?;
    crate::progress::mark(crate::progress::Step::Placing);
    let frames = Frames::of(graph);
    let input = engine_input(graph, direction, &frames)?;
    let layout = tl_layered::lay_out(&input).map_err(|e| e.to_string())?;
    let page = Page::new(direction, &layout.bounds);
    for (index, node) in graph.nodes.iter_mut().enumerate() {
        let at = page.map(layout.nodes[index]);
        node.attrs
            .insert("pos".to_owned(), format!("{},{}!", num(at.x), num(at.y)));
    }
    for (index, route) in layout.edges.iter().enumerate() {
        let edge = &mut graph.edges[index];
        let mut pos = String::with_capacity(route.points.len() * 16);
        pos.push('e');
        for p in std::iter::once(&route.tip).chain(&route.points) {
            let p = page.map(*p);
            pos.push(if pos.len() == 1 { ',' } else { ' ' });
            push_num(&mut pos, p.x);
            pos.push(',');
            push_num(&mut pos, p.y);
        }
        edge.attrs.insert("pos".to_owned(), pos);
        let labels = [
            ("lp", route.label),
            ("xlp", route.floating_label),
            ("head_lp", route.head_label),
            ("tail_lp", route.tail_label),
        ];
        for (key, at) in labels {
            if let Some(at) = at {
                let at = page.map(at);
                edge.attrs
                    .insert(key.to_owned(), format!("{},{}", num(at.x), num(at.y)));
            }
        }
    }
    for (frame, &subgraph) in frames.subgraphs.iter().enumerate() {
        let rect = page.rect(&layout.frames[frame]);
        let caption = input.frames[frame].caption;
        let caption = if direction.across() {
            Size {
                breadth: caption.depth,
                depth: caption.breadth,
            }
        } else {
            caption
        };
        let attrs = &mut graph.subgraphs[subgraph].graph_attrs;
        attrs.insert(
            "bb".to_owned(),
            format!(
                "{},{},{},{}",
                num(rect.0.x),
                num(rect.0.y),
                num(rect.1.x),
                num(rect.1.y)
            ),
        );
        // Captions sit at the frame's top left, as the guide draws them.
        attrs.insert(
            "lp".to_owned(),
            format!(
                "{},{}",
                num(rect.0.x + caption.breadth / 2.0),
                num(rect.1.y - caption.depth / 2.0)
            ),
        );
    }
    declare(graph);
    Ok(())
}

/// Graphviz reads a position only when its attribute is declared on the graph.
fn declare(graph: &mut Graph) {
    let Some(dicts) = graph.dicts.first_mut() else {
        return;
    };
    let mut next = dicts
        .graph
        .values()
        .chain(dicts.node.values())
        .chain(dicts.edge.values())
        .map(|s| s.id + 1)
        .max()
        .unwrap_or(0);
    let mut add = |map: &mut std::collections::BTreeMap<String, AttrSym>, key: &str| {
        map.entry(key.to_owned()).or_insert_with(|| {
            next += 1;
            AttrSym {
                print: true,
                id: next - 1,
                ..AttrSym::default()
            }
        });
    };
    add(&mut dicts.node, "pos");
    for key in ["pos", "lp", "xlp", "head_lp", "tail_lp"] {
        add(&mut dicts.edge, key);
    }
    for key in ["bb", "lp"] {
        add(&mut dicts.graph, key);
    }
}

/// The clusters of a parsed graph, as the engine's frames.
struct Frames {
    /// Per frame: its subgraph.
    subgraphs: Vec<usize>,
    /// Per frame: its parent frame.
    parents: Vec<Option<usize>>,
    /// Per node: its innermost frame.
    homes: Vec<Option<usize>>,
}

impl Frames {
    fn of(graph: &Graph) -> Frames {
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

fn engine_input(
    graph: &Graph,
    direction: Direction,
    frames: &Frames,
) -> Result<tl_layered::Graph, String> {
    let env = NodeSizeEnv::from_graph(graph);
    let nodes = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(index, node)| Node {
            size: direction.size(node.width * POINTS_PER_INCH, node.height * POINTS_PER_INCH),
            frame: frames.homes[index],
        })
        .collect();
    let edges = graph
        .edges
        .iter()
        .map(|edge| {
            let tail = &graph.nodes[edge.tail.0 as usize];
            let head = &graph.nodes[edge.head.0 as usize];
            let attrs = &edge.attrs;
            let labels =
                graphviz_pure_geom::edge_label_geometry(attrs, &tail.name, &head.name, true, &env);
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
            Edge {
                tail: edge.tail.0 as usize,
                head: edge.head.0 as usize,
                constraint: attrs.get("constraint").is_none_or(|v| v != "false"),
                label: size(&labels.label),
                floating_label: size(&labels.xlabel),
                head_label: size(&labels.head_label),
                tail_label: size(&labels.tail_label),
                arrow_length: 10.0 * arrow,
                visible: !attrs.get("style").is_some_and(|s| s.contains("invis")),
            }
        })
        .collect();
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
    Ok(tl_layered::Graph {
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
    })
}

/// From the engine's coordinates (y down the layers) to Graphviz's (y up, origin at the
/// bottom left), turned for the graph's direction.
struct Page {
    direction: Direction,
    min: Point,
    max: Point,
}

impl Page {
    fn new(direction: Direction, bounds: &tl_layered::Rect) -> Page {
        Page {
            direction,
            min: bounds.min,
            max: bounds.max,
        }
    }

    fn map(&self, p: Point) -> Point {
        match self.direction {
            Direction::TopToBottom => Point {
                x: p.x - self.min.x,
                y: self.max.y - p.y,
            },
            Direction::BottomToTop => Point {
                x: p.x - self.min.x,
                y: p.y - self.min.y,
            },
            Direction::LeftToRight => Point {
                x: p.y - self.min.y,
                y: self.max.x - p.x,
            },
            Direction::RightToLeft => Point {
                x: self.max.y - p.y,
                y: self.max.x - p.x,
            },
        }
    }

    /// A rectangle's least and greatest corners on the page.
    fn rect(&self, rect: &tl_layered::Rect) -> (Point, Point) {
        let (a, b) = (self.map(rect.min), self.map(rect.max));
        (
            Point {
                x: a.x.min(b.x),
                y: a.y.min(b.y),
            },
            Point {
                x: a.x.max(b.x),
                y: a.y.max(b.y),
            },
        )
    }
}

/// A coordinate as Graphviz writes one: two decimals, no trailing zeros.
fn num(value: f64) -> String {
    let mut text = String::new();
    push_num(&mut text, value);
    text
}

/// [`num`] appended to `out`.
fn push_num(out: &mut String, value: f64) {
    use std::fmt::Write;
    let rounded = (value * 100.0).round() / 100.0;
    let start = out.len();
    let _ = write!(out, "{rounded:.2}");
    while out.ends_with('0') {
        out.pop();
    }
    if out.ends_with('.') {
        out.pop();
    }
    if &out[start..] == "-0" {
        out.truncate(start);
        out.push('0');
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{lay_out, LayoutEngine, TextFormat};

    const DOT: &str = r#"digraph G {
        graph [label="header" labeljust=l labelloc=t ordering=out rankdir=BT]
        node [shape=box]
        input -> a
        subgraph cluster_block {
            label="@block" labelloc=b margin=20
            a -> b
            b -> c [label="x2"]
            subgraph cluster_inner { label="@inner" margin=12  c -> d }
        }
        input -> d
        d -> output [xlabel="arg 1"]
        { rank=sink output }
    }"#;

    fn laid_out(dot: &str) -> serde_json::Value {
        let json = lay_out(dot, &[TextFormat::Json], LayoutEngine::Layered)
            .unwrap()
            .take(TextFormat::Json);
        serde_json::from_str(&json).unwrap()
    }

    #[test]
    fn the_layered_engine_writes_graphviz_json_with_frames_labels_and_no_crossed_node() {
        let json = laid_out(DOT);
        let objects = json["objects"].as_array().unwrap();
        let clusters: Vec<&serde_json::Value> = objects
            .iter()
            .filter(|o| o["name"].as_str().is_some_and(|n| n.starts_with("cluster")))
            .collect();
        assert_eq!(clusters.len(), 2);
        assert!(clusters.iter().all(|c| c["bb"].is_string()));
        let edges = json["edges"].as_array().unwrap();
        assert!(
            edges.iter().any(|e| e["lp"].is_string()),
            "the label is placed"
        );
        assert!(
            edges.iter().any(|e| e["xlp"].is_string()),
            "the floating label is placed"
        );
        let text = serde_json::to_string(&json).unwrap();
        let quality = crate::quality::measure(&text).unwrap();
        assert_eq!(quality.arrows_through_nodes, 0, "{quality:?}");
        assert_eq!(quality.frames_overlapping, 0, "{quality:?}");
        // Bottom to top: the output, pinned to the last layer, is above the input.
        let y = |name: &str| -> f64 {
            let node = objects.iter().find(|o| o["name"] == name).unwrap();
            let pos = node["pos"].as_str().unwrap();
            pos.split(',').nth(1).unwrap().parse().unwrap()
        };
        assert!(y("output") > y("d") && y("d") > y("input"));
    }

    #[test]
    fn every_direction_lays_out_and_the_same_dot_gives_the_same_text() {
        for direction in ["TB", "LR", "RL"] {
            let dot = DOT.replace("rankdir=BT", &format!("rankdir={direction}"));
            let first = lay_out(&dot, &[TextFormat::Svg], LayoutEngine::Layered)
                .unwrap()
                .take(TextFormat::Svg);
            crate::forget_recent_layouts();
            let again = lay_out(&dot, &[TextFormat::Svg], LayoutEngine::Layered)
                .unwrap()
                .take(TextFormat::Svg);
            assert!(first.contains("@inner"), "{direction}");
            assert_eq!(first, again, "{direction}");
        }
    }

    #[test]
    fn coordinates_are_written_as_graphviz_writes_them() {
        assert_eq!(super::num(12.0), "12");
        assert_eq!(super::num(12.345), "12.35");
        assert_eq!(super::num(-0.001), "0");
        assert_eq!(super::num(3.10), "3.1");
    }

    #[test]
    fn malformed_dot_is_a_coded_failure_of_the_layered_engine() {
        let error = lay_out("digraph {", &[TextFormat::Svg], LayoutEngine::Layered).unwrap_err();
        assert_eq!(error.code(), "graphviz_render_failed");
        assert!(error.to_string().contains("layered"), "{error}");
    }
}
