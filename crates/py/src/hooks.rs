//! User callables from Python run inside the Rust drawing: `node_spec_fn` restyles nodes,
//! `color_by=` / `size_by=` functions give values. The drawing runs without the GIL; each
//! call takes it back. The first exception a callable raises is kept (with a note naming
//! the node) and raised once the drawing returns; later calls are skipped, so a broken
//! callable fails fast and never crashes the process.

use std::sync::{Arc, Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use tl_draw::{
    Fill, NodeContext, NodeKind, NodePicture, OpRecord, Row, Shape, StyledNode, ValueSource,
};

/// The first exception raised by a user callable during one drawing.
#[derive(Clone, Default)]
pub struct Failures(Arc<Mutex<Option<PyErr>>>);

impl Failures {
    fn failed(&self) -> bool {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
    }

    /// Keeps `error` (raised by `what` on `node`) unless an earlier one is kept already.
    fn keep(&self, py: Python<'_>, error: PyErr, what: &str, node: &str) {
        // PEP 678 notes (Python 3.11+) say where the exception came from without changing it.
        let _ = error.value(py).call_method1(
            "add_note",
            (format!("raised by the {what} callable on node {node}"),),
        );
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        kept.get_or_insert(error);
    }

    /// Raises the kept exception, if any.
    pub fn raise(&self, _py: Python<'_>) -> PyResult<()> {
        match self.0.lock().unwrap_or_else(PoisonError::into_inner).take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

/// A `color_by=` / `size_by=` source calling `function(label, layer_label)`.
pub fn value_source(
    name: String,
    function: Py<PyAny>,
    what: &'static str,
    failures: &Failures,
) -> ValueSource {
    let failures = failures.clone();
    ValueSource::custom(&name, move |op: &OpRecord| {
        if failures.failed() {
            return None;
        }
        Python::attach(|py| {
            let value = function
                .call1(py, (op.label.as_str(), op.layer_label.as_str()))
                .and_then(|value| value.extract::<Option<f64>>(py));
            match value {
                Ok(value) => value,
                Err(error) => {
                    failures.keep(py, error, what, &op.label);
                    None
                }
            }
        })
    })
}

/// A `node_spec_fn` calling `function(node: dict) -> dict | None` and applying the dict.
pub fn node_restyle(
    function: Py<PyAny>,
    failures: &Failures,
) -> impl Fn(&NodeContext<'_>, &mut StyledNode) + Send + Sync + 'static {
    let failures = failures.clone();
    move |context: &NodeContext<'_>, node: &mut StyledNode| {
        if failures.failed() {
            return;
        }
        Python::attach(|py| {
            let outcome = node_dict(py, context, node)
                .and_then(|spec| function.call1(py, (spec,)))
                .and_then(|changes| apply(py, changes.bind(py), node));
            if let Err(error) = outcome {
                failures.keep(py, error, "node_spec_fn", &node_name(context, node));
            }
        });
    }
}

/// What the user's message should call the node: its op label or module address.
fn node_name(context: &NodeContext<'_>, node: &StyledNode) -> String {
    match (context.op, context.kind) {
        (Some(op), _) => op.label.clone(),
        (None, NodeKind::ModuleBox(module_box)) => format!("@{}", module_box.address),
        _ => node.id.clone(),
    }
}

fn kind_name(kind: &NodeKind) -> &'static str {
    match kind {
        NodeKind::Op(_) => "op",
        NodeKind::ModuleBox(_) => "module",
        NodeKind::Capsule(_) | NodeKind::OpCapsule(_) => "capsule",
        NodeKind::FoldEllipsis(_) | NodeKind::LoopEllipsis(_) => "fold",
        NodeKind::Stub(..) => "stub",
        NodeKind::Layer(_) => "layer",
    }
}

fn shape_of(name: &str) -> Option<Shape> {
    Some(match name {
        "oval" | "ellipse" => Shape::Oval,
        "box" | "rect" | "rectangle" | "square" => Shape::Box,
        "box3d" => Shape::Box3d,
        "cylinder" => Shape::Cylinder,
        "plaintext" | "plain" | "none" => Shape::Plaintext,
        _ => return None,
    })
}

/// The node as the Python side sees it: the fields of TorchLens's `NodeSpec`, plus what the
/// node stands for.
fn node_dict<'py>(
    py: Python<'py>,
    context: &NodeContext<'_>,
    node: &StyledNode,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = PyDict::new(py);
    spec.set_item("id", &node.id)?;
    spec.set_item("kind", kind_name(context.kind))?;
    spec.set_item("label", context.op.map(|op| op.label.as_str()))?;
    spec.set_item("layer_label", context.op.map(|op| op.layer_label.as_str()))?;
    let module = match context.kind {
        NodeKind::ModuleBox(module_box) => Some(module_box.address.as_str()),
        _ => None,
    };
    spec.set_item("module", module)?;
    let rows: Vec<&str> = node.rows.iter().map(|row| row.text.as_str()).collect();
    spec.set_item("lines", PyList::new(py, rows)?)?;
    spec.set_item("shape", node.shape.dot_name())?;
    let fill = match &node.fill {
        Fill::Solid(colour) => colour.clone(),
        Fill::Gradient(left, right) => format!("{left}:{right}"),
    };
    spec.set_item("fillcolor", fill)?;
    spec.set_item("fontcolor", &node.font_color)?;
    spec.set_item("color", &node.border)?;
    let style: Vec<&str> = [
        Some("filled"),
        node.dashed.then_some("dashed"),
        node.rounded.then_some("rounded"),
    ]
    .into_iter()
    .flatten()
    .collect();
    spec.set_item("style", style.join(","))?;
    spec.set_item("penwidth", node.penwidth)?;
    spec.set_item("peripheries", node.peripheries.unwrap_or(1))?;
    spec.set_item("tooltip", node.tooltip.as_deref())?;
    spec.set_item("width", node.min_size.map(|(width, _)| width))?;
    spec.set_item("height", node.min_size.map(|(_, height)| height))?;
    Ok(spec)
}

/// Applies the changes the callable returned (`None`: none) to the styled node.
fn apply(py: Python<'_>, changes: &Bound<'_, PyAny>, node: &mut StyledNode) -> PyResult<()> {
    if changes.is_none() {
        return Ok(());
    }
    let changes = changes.cast::<PyDict>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "node_spec_fn must return a dict of node attributes or None; it returned a {}",
            changes
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    for (key, value) in changes.iter() {
        let key: String = key.extract().map_err(|_| {
            crate::errors::raise(py, "node_spec_value_invalid", "node_spec_fn returned a dict whose keys are not all strings; name attributes by strings (\"fillcolor\", \"lines\", ...)")
        })?;
        let text = || typed::<String>(py, &key, &value, "a string");
        match key.as_str() {
            // What the node stands for cannot be changed.
            "id" | "kind" | "label" | "layer_label" | "module" => {}
            "lines" => {
                let lines: Vec<String> = typed(py, &key, &value, "a list of strings")?;
                let first_bold = node.rows.first().is_some_and(|row| row.bold);
                node.rows = lines
                    .into_iter()
                    .enumerate()
                    .map(|(i, text)| if i == 0 && first_bold { Row::bold(text) } else { Row::plain(text) })
                    .collect();
            }
            "shape" => {
                let name = text()?;
                node.shape = shape_of(&name).ok_or_else(|| {
                    crate::errors::raise(
                        py,
                        "node_spec_value_invalid",
                        &format!("node_spec_fn set shape={name:?}; use oval, box, box3d, cylinder or plaintext"),
                    )
                })?;
            }
            "fillcolor" => {
                let fill = text()?;
                node.fill = match fill.split_once(':') {
                    Some((left, right)) => Fill::Gradient(left.to_owned(), right.to_owned()),
                    None => Fill::Solid(fill),
                };
            }
            "fontcolor" => node.font_color = text()?,
            "color" => node.border = text()?,
            "style" => {
                let style = text()?;
                node.dashed = style.contains("dashed");
                node.rounded = style.contains("rounded");
            }
            "penwidth" => {
                let width: Option<f64> = typed(py, &key, &value, "a number or None")?;
                node.penwidth = width.map(|w| number_in(py, &key, w, 0.0, tl_draw::MAX_HOOK_PENWIDTH)).transpose()?;
            }
            "peripheries" => {
                // TorchLens's callbacks set it as a string in extra_attrs ("1").
                let count: u32 = match value.extract::<u32>() {
                    Ok(count) => count,
                    Err(_) => text()?.trim().parse().map_err(|_| {
                        crate::errors::raise(
                            py,
                            "node_spec_value_invalid",
                            "node_spec_fn set peripheries to something that is not a whole number",
                        )
                    })?,
                };
                node.peripheries = (count != 1).then_some(count);
            }
            "tooltip" => node.tooltip = typed(py, &key, &value, "a string or None")?,
            // `spec.image`: the Python side hands over the picture as PNG bytes.
            "image" => {
                let png = value.cast::<PyBytes>().map_err(|_| {
                    crate::errors::raise(py, "node_spec_value_invalid", "node_spec_fn set image= to something that is not a picture file")
                })?;
                let png = png.as_bytes();
                let (width, height) = png_size(png).ok_or_else(|| {
                    crate::errors::raise(py, "node_spec_value_invalid", "node_spec_fn set image= to a file that is not a picture; give the path of a PNG, JPEG or other image file")
                })?;
                node.picture = Some(NodePicture::new(png.to_vec(), width, height));
                // The guide: a node carrying a picture is a box with the picture in its own cell.
                if node.shape == Shape::Oval {
                    node.shape = Shape::Box;
                }
                node.rounded = true;
            }
            "width" | "height" => {
                let size: Option<f64> = typed(py, &key, &value, "a number or None")?;
                let size = size.map(|size| number_in(py, &key, size, 0.0, tl_draw::MAX_HOOK_NODE_INCHES)).transpose()?;
                let (mut width, mut height) = node.min_size.unwrap_or((0.0, 0.0));
                match (key.as_str(), size) {
                    ("width", Some(size)) => width = size,
                    (_, Some(size)) => height = size,
                    _ => {}
                }
                node.min_size = (width > 0.0 || height > 0.0).then_some((width, height));
            }
            other => {
                return Err(crate::errors::raise(
                    py,
                    "node_spec_value_invalid",
                    &format!(
                        "node_spec_fn returned the attribute {other:?}, which tl-draw cannot draw; use lines, shape, fillcolor, fontcolor, color, style, penwidth, peripheries, tooltip, image, width or height"
                    ),
                ))
            }
        }
    }
    Ok(())
}

/// `value` as a `T`, or a `node_spec_value_invalid` error naming the attribute and what it
/// takes (`what`), never a bare `TypeError`.
fn typed<'a, 'py, T: pyo3::FromPyObject<'a, 'py>>(
    py: Python<'py>,
    key: &str,
    value: &'a Bound<'py, PyAny>,
    what: &str,
) -> PyResult<T> {
    value.extract().map_err(|_| {
        let kind = value
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        crate::errors::raise(
            py,
            "node_spec_value_invalid",
            &format!("node_spec_fn set {key}= to a {kind}; it takes {what}"),
        )
    })
}

/// `value` when it is a finite number from `low` to `high`; else a `node_spec_value_invalid`
/// error naming the attribute and the range.
fn number_in(py: Python<'_>, key: &str, value: f64, low: f64, high: f64) -> PyResult<f64> {
    if value.is_finite() && (low..=high).contains(&value) {
        return Ok(value);
    }
    Err(crate::errors::raise(
        py,
        "node_spec_value_invalid",
        &format!("node_spec_fn set {key}={value}; give a finite number from {low} to {high}"),
    ))
}

/// A PNG's width and height from its header, or `None` when `png` is not a PNG.
fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if !png.starts_with(SIGNATURE) || png.get(12..16)? != b"IHDR" {
        return None;
    }
    let word = |at: usize| Some(u32::from_be_bytes(png.get(at..at + 4)?.try_into().ok()?));
    let (width, height) = (word(16)?, word(20)?);
    (width > 0 && height > 0).then_some((width, height))
}
