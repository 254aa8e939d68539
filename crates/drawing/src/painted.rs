//! The layout's drawing operations ([`tl_layout::painting`]) as the painter's input
//! ([`tl_render_cairo::xdot::Layout`]): the two crates do not know each other, so the
//! mapping lives here. It is what reading the layout's `json` output gives, without the text
//! (`tests/tests/workspace/painting.rs` paints both and compares the bytes).

use tl_layout::painting::{Grad, Op, PaintedObject, Painting};
use tl_render_cairo::xdot::{self, ColorSpec, EdgeGeometry, Layout, Object, Stop};

/// The painter's layout of `painting`.
pub(crate) fn layout_of(painting: &Painting) -> Layout {
    let subgraph_count = painting.subgraphs.len();
    let object = |(gvid, object): (usize, &PaintedObject)| Object {
        name: object.name.clone(),
        draw: ops(&object.draw),
        label: ops(&object.label),
        gvid,
        nodes: Vec::new(),
        subgraphs: Vec::new(),
    };
    Layout {
        bb: painting.bb.clone(),
        draw: ops(&painting.graph.draw),
        label: ops(&painting.graph.label),
        subgraph_count,
        objects: painting
            .subgraphs
            .iter()
            .chain(&painting.nodes)
            .enumerate()
            .map(object)
            .collect(),
        edges: painting
            .edges
            .iter()
            .map(|edge| EdgeGeometry {
                tail: subgraph_count + edge.tail,
                head: subgraph_count + edge.head,
                draw: ops(&edge.draw),
                head_arrow: ops(&edge.head_arrow),
                tail_arrow: ops(&edge.tail_arrow),
                label: ops(&edge.label),
                head_label: ops(&edge.head_label),
                tail_label: ops(&edge.tail_label),
            })
            .collect(),
    }
}

/// The painter's operations; images are left out, as the `json` output leaves them (the
/// pictures are placed from the xdot text).
fn ops(list: &[Op]) -> Vec<xdot::Op> {
    list.iter().filter_map(op).collect()
}

fn op(op: &Op) -> Option<xdot::Op> {
    let points = |points: &[(f64, f64)]| points.iter().map(|&(x, y)| [x, y]).collect();
    Some(match op {
        Op::Ellipse(true, rect) => xdot::Op::FilledEllipse { rect: *rect },
        Op::Ellipse(false, rect) => xdot::Op::Ellipse { rect: *rect },
        Op::Polygon(true, p) => xdot::Op::FilledPolygon { points: points(p) },
        Op::Polygon(false, p) => xdot::Op::Polygon { points: points(p) },
        // xdot text's `b` is the filled b-spline, `B` the unfilled one; parsed, `true` is filled.
        Op::Bezier(true, p) => xdot::Op::FilledBspline { points: points(p) },
        Op::Bezier(false, p) => xdot::Op::Bspline { points: points(p) },
        Op::Polyline(p) => xdot::Op::Polyline { points: points(p) },
        Op::Text(x, y, justify, width, text) => xdot::Op::Text {
            pt: [*x, *y],
            align: match justify.signum() {
                -1 => "l",
                1 => "r",
                _ => "c",
            }
            .to_owned(),
            width: *width,
            text: text.clone(),
        },
        Op::Color(true, grad) => xdot::Op::FillColor(color(grad)),
        Op::Color(false, grad) => xdot::Op::PenColor(color(grad)),
        Op::Font(size, face) => xdot::Op::Font {
            size: *size,
            face: face.clone(),
        },
        Op::Style(style) => xdot::Op::Style {
            style: style.clone(),
        },
        // The `json` output's `%d` of the flags read as C's `unsigned`.
        Op::FontChar(flags) => xdot::Op::FontFlags {
            fontchar: *flags as u32,
        },
        Op::Image => return None,
    })
}

fn color(grad: &Grad) -> ColorSpec {
    let stops = |stops: &[(f64, String)]| {
        stops
            .iter()
            .map(|(frac, color)| Stop {
                frac: *frac,
                color: color.clone(),
            })
            .collect()
    };
    match grad {
        Grad::None(color) => ColorSpec {
            grad: "none".to_owned(),
            color: Some(color.clone()),
            p0: None,
            p1: None,
            stops: Vec::new(),
        },
        Grad::Linear(x0, y0, x1, y1, list) => ColorSpec {
            grad: "linear".to_owned(),
            color: None,
            p0: Some(vec![*x0, *y0]),
            p1: Some(vec![*x1, *y1]),
            stops: stops(list),
        },
        Grad::Radial(x0, y0, r0, x1, y1, r1, list) => ColorSpec {
            grad: "radial".to_owned(),
            color: None,
            p0: Some(vec![*x0, *y0, *r0]),
            p1: Some(vec![*x1, *y1, *r1]),
            stops: stops(list),
        },
    }
}
