//! What a layout written as Graphviz JSON drew: its nodes' and frames' boxes and its arrows'
//! paths, read from the drawing operations (`_draw_`, `_hdraw_`) where there are any.
//!
//! Why the operations: Graphviz writes positions (`pos`, `bb`) with five significant digits,
//! so beyond 100,000 pt (Mamba's full-detail drawing is 237,000 pt tall, a 100,000-operation
//! one millions) a written centre is up to 5 pt from the drawn one, and a node's box measured
//! from it can take in an arrow that passes beside the node. The operations carry every
//! point to a hundredth of a point at any size. A node or frame that draws nothing, and an
//! arrow without a spline operation, are read from `pos`, `width`, `height` and `bb`.

use serde_json::Value;

use super::{Arrow, Point, Rect, POINTS, STEPS};

/// The numbers of a Graphviz attribute (`"1,2 3,4"`).
pub(super) fn numbers(text: &str) -> Vec<f64> {
    text.split([',', ' '])
        .filter_map(|part| part.trim().parse().ok())
        .collect()
}

/// A bounding box attribute (`bb`: `"x0,y0,x1,y1"`).
pub(super) fn rect_of_bb(text: &str) -> Option<Rect> {
    match numbers(text)[..] {
        [x0, y0, x1, y1] => Some(Rect { x0, y0, x1, y1 }),
        _ => None,
    }
}

/// The points of an operation's `points` list.
fn points_of(op: &Value) -> impl Iterator<Item = Point> + '_ {
    op.get("points")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|point| {
            let point = point.as_array()?;
            Some((point.first()?.as_f64()?, point.get(1)?.as_f64()?))
        })
}

/// The box around the shapes an operation list draws (ellipses, polygons, polylines and
/// B-splines; not its text, images or styles); `None` when it draws no shape.
fn drawn_box(ops: Option<&Value>) -> Option<Rect> {
    let mut extent: Option<Rect> = None;
    let mut take = |x0: f64, y0: f64, x1: f64, y1: f64| {
        let seen = extent.get_or_insert(Rect { x0, y0, x1, y1 });
        *seen = Rect {
            x0: seen.x0.min(x0),
            y0: seen.y0.min(y0),
            x1: seen.x1.max(x1),
            y1: seen.y1.max(y1),
        };
    };
    for op in ops.and_then(Value::as_array).into_iter().flatten() {
        match op.get("op").and_then(Value::as_str) {
            Some("E" | "e") => {
                let rect = op.get("rect").and_then(Value::as_array);
                let value = |k: usize| rect.and_then(|r| r.get(k)).and_then(Value::as_f64);
                if let (Some(x), Some(y), Some(rx), Some(ry)) =
                    (value(0), value(1), value(2), value(3))
                {
                    take(x - rx, y - ry, x + rx, y + ry);
                }
            }
            Some("P" | "p" | "L" | "B" | "b") => {
                for (x, y) in points_of(op) {
                    take(x, y, x, y);
                }
            }
            _ => {}
        }
    }
    extent
}

/// A node's box: what it draws, else its written centre and size; `None` for an object
/// that is not a node.
pub(super) fn node_box(object: &Value) -> Option<Rect> {
    let pos = object.get("pos").and_then(Value::as_str)?;
    let size = |key: &str| {
        object
            .get(key)
            .and_then(Value::as_str)
            .and_then(|text| text.parse::<f64>().ok())
    };
    let (width, height) = (size("width")?, size("height")?);
    if let Some(drawn) = drawn_box(object.get("_draw_")) {
        return Some(drawn);
    }
    let [x, y] = numbers(pos)[..] else {
        return None;
    };
    let (half_w, half_h) = (width * POINTS / 2.0, height * POINTS / 2.0);
    Some(Rect {
        x0: x - half_w,
        y0: y - half_h,
        x1: x + half_w,
        y1: y + half_h,
    })
}

/// A frame's box: its outline as drawn, else its written `bb`.
pub(super) fn frame_box(object: &Value) -> Option<Rect> {
    drawn_box(object.get("_draw_")).or_else(|| rect_of_bb(object.get("bb")?.as_str()?))
}

/// An arrow: its tail's and head's ids and its path as straight pieces.
pub(super) fn arrow(edge: &Value) -> Option<Arrow> {
    let tail = edge.get("tail")?.as_i64()?;
    let head = edge.get("head")?.as_i64()?;
    let (written, written_tip) = written_path(edge.get("pos")?.as_str()?);
    let splines: Vec<Vec<Point>> = edge
        .get("_draw_")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|op| matches!(op.get("op").and_then(Value::as_str), Some("B" | "b")))
        .map(|op| points_of(op).collect())
        .collect();
    let splines = if splines.iter().any(|controls| !controls.is_empty()) {
        splines
    } else {
        vec![written]
    };
    let mut path = Vec::new();
    for controls in &splines {
        sample(controls, &mut path);
    }
    // The arrowhead's tip: of the head's drawn points, the one farthest from where the
    // spline ends (it points away from it); the written tip when the head draws none.
    let tip = written_tip.map(|written_tip| {
        let end = path.last().copied().unwrap_or(written_tip);
        let distance = |p: &Point| (p.0 - end.0).hypot(p.1 - end.1);
        edge.get("_hdraw_")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .flat_map(points_of)
            .max_by(|a, b| distance(a).total_cmp(&distance(b)))
            .unwrap_or(written_tip)
    });
    path.extend(tip);
    Some((tail, head, path))
}

/// The B-spline control points of a written `pos` and its arrowhead's tip (`e,x,y`).
fn written_path(pos: &str) -> (Vec<Point>, Option<Point>) {
    let mut controls = Vec::new();
    let mut tip = None;
    for token in pos.split_whitespace() {
        let values = numbers(token.trim_start_matches("e,").trim_start_matches("s,"));
        if values.len() != 2 {
            continue;
        }
        if token.starts_with("e,") {
            tip = Some((values[0], values[1]));
        } else if !token.starts_with("s,") {
            controls.push((values[0], values[1]));
        }
    }
    (controls, tip)
}

/// A cubic B-spline's control points sampled as [`STEPS`] straight pieces per piece, onto
/// `path`.
fn sample(controls: &[Point], path: &mut Vec<Point>) {
    if let Some(&first) = controls.first() {
        path.push(first);
    }
    for piece in controls.windows(4).step_by(3) {
        for step in 1..=STEPS {
            let t = step as f64 / STEPS as f64;
            let u = 1.0 - t;
            let (w0, w1, w2, w3) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
            path.push((
                w0 * piece[0].0 + w1 * piece[1].0 + w2 * piece[2].0 + w3 * piece[3].0,
                w0 * piece[0].1 + w1 * piece[1].1 + w2 * piece[2].1 + w3 * piece[3].1,
            ));
        }
    }
}

/// The boxes of the texts an operation list draws (`T` operations, at the size of the last
/// `F`): from the baseline a quarter of the size down to four fifths up.
pub(super) fn text_boxes(ops: Option<&Value>, out: &mut Vec<Rect>) {
    let mut size = 14.0;
    for op in ops.and_then(Value::as_array).into_iter().flatten() {
        match op.get("op").and_then(Value::as_str) {
            Some("F") => size = op.get("size").and_then(Value::as_f64).unwrap_or(size),
            Some("T") => {
                let at = op.get("pt").and_then(Value::as_array);
                let (Some(x), Some(y)) = (
                    at.and_then(|p| p.first()).and_then(Value::as_f64),
                    at.and_then(|p| p.get(1)).and_then(Value::as_f64),
                ) else {
                    continue;
                };
                let width = op.get("width").and_then(Value::as_f64).unwrap_or(0.0);
                let left = match op.get("align").and_then(Value::as_str) {
                    Some("c") => x - width / 2.0,
                    Some("r") => x - width,
                    _ => x,
                };
                out.push(Rect {
                    x0: left,
                    y0: y - 0.25 * size,
                    x1: left + width,
                    y1: y + 0.8 * size,
                });
            }
            _ => {}
        }
    }
}
