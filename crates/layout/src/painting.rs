//! The laid-out drawing as drawing operations ([`TextFormat::Painting`]): what the painter
//! reads, without writing JSON and reading it back (on GPT-2 small that round trip was about
//! a fifth of a PDF's time), and, where its strings allow, without the xdot text of each
//! object either (graphviz-pure-render's `xdot_drawing`, `vendor/README.md`).
//!
//! Invariant: a [`Painting`] holds exactly what the built-in engines' `json` output holds
//! for painting, in its order (subgraphs in the JSON's preorder, then nodes, edges in graph
//! order; the same operations), so painting either gives the same picture byte for byte
//! (`tests/tests/workspace/painting.rs`).
//!
//! [`TextFormat::Painting`]: crate::TextFormat::Painting

use graphviz_pure_core::charset;
pub use graphviz_pure_core::xdot::{Grad, Op};
use graphviz_pure_core::Graph;
use graphviz_pure_render::{XdotDrawing, XdotObject};

/// The drawing operations of a graph, a cluster or a node.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PaintedObject {
    /// The node's or subgraph's name.
    pub name: String,
    /// Its shape (`_draw_`).
    pub draw: Vec<Op>,
    /// Its label (`_ldraw_`).
    pub label: Vec<Op>,
}

/// The drawing operations of an arrow.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PaintedEdge {
    /// Index of its tail in [`Painting::nodes`].
    pub tail: usize,
    /// Index of its head in [`Painting::nodes`].
    pub head: usize,
    /// The spline (`_draw_`).
    pub draw: Vec<Op>,
    /// The arrowhead (`_hdraw_`).
    pub head_arrow: Vec<Op>,
    /// The arrow's tail end (`_tdraw_`).
    pub tail_arrow: Vec<Op>,
    /// The middle label (`_ldraw_`).
    pub label: Vec<Op>,
    /// The head label (`_hldraw_`).
    pub head_label: Vec<Op>,
    /// The tail label (`_tldraw_`).
    pub tail_label: Vec<Op>,
}

/// A laid-out graph as drawing operations.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Painting {
    /// The bounding box, `llx,lly,urx,ury` in points, as the `json` output's `bb`.
    pub bb: String,
    /// The graph's own background and label.
    pub graph: PaintedObject,
    /// Every subgraph, outer before inner (the `json` output's `_gvid` order).
    pub subgraphs: Vec<PaintedObject>,
    /// Every node, in the graph's order.
    pub nodes: Vec<PaintedObject>,
    /// Every arrow, in the graph's order.
    pub edges: Vec<PaintedEdge>,
}

impl Painting {
    /// The painting of `graph` from what its xdot job drew.
    pub(crate) fn new(graph: &Graph, drawn: XdotDrawing) -> Painting {
        let named = |name: String| PaintedObject {
            name: charset::to_text(&name).into_owned(),
            ..PaintedObject::default()
        };
        let mut painting = Painting {
            bb: drawn.bb,
            graph: named(graph.root_name().to_string()),
            subgraphs: Vec::new(),
            nodes: graph.nodes.iter().map(|n| named(n.name.clone())).collect(),
            edges: graph
                .edges
                .iter()
                .map(|e| PaintedEdge {
                    tail: e.tail.0 as usize,
                    head: e.head.0 as usize,
                    ..PaintedEdge::default()
                })
                .collect(),
        };
        let mut place = vec![None; graph.subgraphs.len()];
        for (at, &subgraph) in drawn.subgraph_order.iter().enumerate() {
            place[subgraph] = Some(at);
        }
        let mut subgraphs: Vec<PaintedObject> = drawn
            .subgraph_order
            .iter()
            .map(|&s| named(graph.subgraph_name(s)))
            .collect();
        for (object, attribute, mut ops) in drawn.sets {
            ops.iter_mut().for_each(as_text);
            let list = match object {
                XdotObject::Graph => object_list(&mut painting.graph, attribute),
                XdotObject::Subgraph(s) => place
                    .get(s)
                    .copied()
                    .flatten()
                    .and_then(|at| subgraphs.get_mut(at))
                    .and_then(|o| object_list(o, attribute)),
                XdotObject::Node(n) => painting
                    .nodes
                    .get_mut(n)
                    .and_then(|o| object_list(o, attribute)),
                XdotObject::Edge(e) => painting
                    .edges
                    .get_mut(e)
                    .and_then(|edge| edge_list(edge, attribute)),
            };
            if let Some(list) = list {
                *list = ops;
            }
        }
        painting.subgraphs = subgraphs;
        painting
    }
}

/// The op's strings as text: the graph holds them decoded, as the writers' output is
/// before [`charset::to_text`] (which changes only strings holding raw input bytes).
fn as_text(op: &mut Op) {
    let string = match op {
        Op::Text(.., s) | Op::Font(_, s) | Op::Style(s) | Op::Color(_, Grad::None(s)) => s,
        Op::Color(_, Grad::Linear(.., stops)) | Op::Color(_, Grad::Radial(.., stops)) => {
            stops
                .iter_mut()
                .for_each(|(_, color)| to_text_in_place(color));
            return;
        }
        _ => return,
    };
    to_text_in_place(string);
}

fn to_text_in_place(string: &mut String) {
    if let std::borrow::Cow::Owned(text) = charset::to_text(string) {
        *string = text;
    }
}

fn object_list<'a>(object: &'a mut PaintedObject, attribute: &str) -> Option<&'a mut Vec<Op>> {
    match attribute {
        "_draw_" => Some(&mut object.draw),
        "_ldraw_" => Some(&mut object.label),
        _ => None,
    }
}

fn edge_list<'a>(edge: &'a mut PaintedEdge, attribute: &str) -> Option<&'a mut Vec<Op>> {
    match attribute {
        "_draw_" => Some(&mut edge.draw),
        "_hdraw_" => Some(&mut edge.head_arrow),
        "_tdraw_" => Some(&mut edge.tail_arrow),
        "_ldraw_" => Some(&mut edge.label),
        "_hldraw_" => Some(&mut edge.head_label),
        "_tldraw_" => Some(&mut edge.tail_label),
        _ => None,
    }
}

impl Painting {
    /// About how many bytes it holds (for the bound on remembered layouts).
    pub(crate) fn approximate_bytes(&self) -> usize {
        fn ops(list: &[Op]) -> usize {
            list.iter()
                .map(|op| {
                    std::mem::size_of::<Op>()
                        + match op {
                            Op::Polygon(_, p) | Op::Bezier(_, p) | Op::Polyline(p) => 16 * p.len(),
                            Op::Text(.., t) | Op::Font(_, t) | Op::Style(t) => t.len(),
                            _ => 0,
                        }
                })
                .sum()
        }
        let object = |o: &PaintedObject| o.name.len() + ops(&o.draw) + ops(&o.label);
        let edge = |e: &PaintedEdge| {
            [
                &e.draw,
                &e.head_arrow,
                &e.tail_arrow,
                &e.label,
                &e.head_label,
                &e.tail_label,
            ]
            .iter()
            .map(|list| ops(list))
            .sum::<usize>()
        };
        object(&self.graph)
            + self.subgraphs.iter().map(object).sum::<usize>()
            + self.nodes.iter().map(object).sum::<usize>()
            + self.edges.iter().map(edge).sum::<usize>()
    }
}
