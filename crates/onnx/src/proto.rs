//! The part of `onnx.proto` a drawing needs, decoded from the wire (field numbers as in
//! ONNX's `onnx.proto`, IR version 10). Weights are never read: an initializer keeps its
//! name, type and dimensions.

use crate::wire::{Wire, FIXED32, VARINT};
use crate::OnnxError;

/// `ModelProto`.
#[derive(Debug, Default)]
pub struct Model {
    pub ir_version: i64,
    pub producer_name: String,
    pub producer_version: String,
    /// `(domain, version)`; the default domain is `""`.
    pub opsets: Vec<(String, i64)>,
    pub graph: Graph,
    pub metadata: Vec<(String, String)>,
}

/// `GraphProto`.
#[derive(Debug, Default)]
pub struct Graph {
    pub name: String,
    pub nodes: Vec<Node>,
    pub initializers: Vec<Tensor>,
    pub inputs: Vec<ValueInfo>,
    pub outputs: Vec<ValueInfo>,
    pub value_info: Vec<ValueInfo>,
}

/// `NodeProto`.
#[derive(Debug, Default)]
pub struct Node {
    pub name: String,
    pub op_type: String,
    pub domain: String,
    pub inputs: Vec<String>,
    pub outputs: Vec<String>,
    pub attributes: Vec<Attribute>,
    pub metadata: Vec<(String, String)>,
}

/// `AttributeProto`: the values a drawing shows (numbers, text) and subgraphs.
#[derive(Debug, Default)]
pub struct Attribute {
    pub name: String,
    pub int: Option<i64>,
    pub float: Option<f32>,
    pub text: Option<String>,
    pub ints: Vec<i64>,
    pub graphs: Vec<Graph>,
}

/// `ValueInfoProto` of a tensor: name, element type and shape (`None` for a symbolic or
/// unknown dimension).
#[derive(Debug, Default)]
pub struct ValueInfo {
    pub name: String,
    pub elem_type: Option<i32>,
    pub shape: Option<Vec<Option<u64>>>,
}

/// `TensorProto` without its data.
#[derive(Debug, Default)]
pub struct Tensor {
    pub name: String,
    pub dims: Vec<i64>,
    pub data_type: i32,
}

type Field<'w, 's> = (&'w mut Wire<'s>, u64, u8);

/// The most dimensions a tensor may have (ONNX runtimes allow far fewer).
const MAX_DIMS: usize = 64;
/// The most integers an attribute may list (pads, perms, axes: a few each).
const MAX_ATTRIBUTE_INTS: usize = 1 << 16;

/// Reads the fields of one message with `each`, skipping the ones it leaves.
fn message<T: Default>(
    wire: &mut Wire<'_>,
    each: impl Fn(&mut T, Field<'_, '_>) -> Result<bool, OnnxError>,
) -> Result<T, OnnxError> {
    let mut value = T::default();
    while !wire.done() {
        let (field, kind) = wire.key()?;
        if !each(&mut value, (wire, field, kind))? {
            wire.skip_field(kind)?;
        }
    }
    Ok(value)
}

/// An embedded message read with [`message`].
fn embedded<T: Default>(
    wire: &mut Wire<'_>,
    kind: u8,
    each: impl Fn(&mut T, Field<'_, '_>) -> Result<bool, OnnxError>,
) -> Result<T, OnnxError> {
    let saved = wire.enter(kind)?;
    let value = message(wire, each)?;
    wire.leave(saved)?;
    Ok(value)
}

/// The whole model.
pub(crate) fn model(wire: &mut Wire<'_>) -> Result<Model, OnnxError> {
    message(wire, |model: &mut Model, (wire, field, kind)| {
        match (field, kind) {
            (1, VARINT) => model.ir_version = wire.varint()? as i64,
            (2, _) => model.producer_name = wire.text(kind)?,
            (3, _) => model.producer_version = wire.text(kind)?,
            (7, _) => model.graph = graph(wire, kind)?,
            (8, _) => model.opsets.push(embedded(wire, kind, opset)?),
            (14, _) => model.metadata.push(embedded(wire, kind, entry)?),
            _ => return Ok(false),
        }
        Ok(true)
    })
}

fn opset(value: &mut (String, i64), (wire, field, kind): Field<'_, '_>) -> Result<bool, OnnxError> {
    match (field, kind) {
        (1, _) => value.0 = wire.text(kind)?,
        (2, VARINT) => value.1 = wire.varint()? as i64,
        _ => return Ok(false),
    }
    Ok(true)
}

fn entry(
    value: &mut (String, String),
    (wire, field, kind): Field<'_, '_>,
) -> Result<bool, OnnxError> {
    match field {
        1 => value.0 = wire.text(kind)?,
        2 => value.1 = wire.text(kind)?,
        _ => return Ok(false),
    }
    Ok(true)
}

fn graph(wire: &mut Wire<'_>, kind: u8) -> Result<Graph, OnnxError> {
    embedded(wire, kind, |graph: &mut Graph, (wire, field, kind)| {
        match field {
            1 => graph.nodes.push(node(wire, kind)?),
            2 => graph.name = wire.text(kind)?,
            5 => graph.initializers.push(embedded(wire, kind, tensor)?),
            11 => graph.inputs.push(value_info(wire, kind)?),
            12 => graph.outputs.push(value_info(wire, kind)?),
            13 => graph.value_info.push(value_info(wire, kind)?),
            _ => return Ok(false),
        }
        Ok(true)
    })
}

fn node(wire: &mut Wire<'_>, kind: u8) -> Result<Node, OnnxError> {
    embedded(wire, kind, |node: &mut Node, (wire, field, kind)| {
        match field {
            1 => node.inputs.push(wire.text(kind)?),
            2 => node.outputs.push(wire.text(kind)?),
            3 => node.name = wire.text(kind)?,
            4 => node.op_type = wire.text(kind)?,
            5 => node.attributes.push(attribute(wire, kind)?),
            7 => node.domain = wire.text(kind)?,
            9 => {
                let (key, value) = embedded(wire, kind, scope_entry)?;
                if !value.is_empty() {
                    node.metadata.push((key, value));
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    })
}

/// The node metadata a drawing reads: the exporter's module scopes and classes. The value
/// of any other entry (stack traces, FX source) is skipped unread.
pub const SCOPE_KEYS: [&str; 2] = [
    "pkg.torch.onnx.name_scopes",
    "pkg.torch.onnx.class_hierarchy",
];

fn scope_entry(
    value: &mut (String, String),
    (wire, field, kind): Field<'_, '_>,
) -> Result<bool, OnnxError> {
    match field {
        1 => value.0 = wire.text(kind)?,
        2 if SCOPE_KEYS.contains(&value.0.as_str()) => value.1 = wire.text(kind)?,
        _ => return Ok(false),
    }
    Ok(true)
}

fn attribute(wire: &mut Wire<'_>, kind: u8) -> Result<Attribute, OnnxError> {
    embedded(
        wire,
        kind,
        |attribute: &mut Attribute, (wire, field, kind)| {
            match (field, kind) {
                (1, _) => attribute.name = wire.text(kind)?,
                (2, FIXED32) => attribute.float = Some(wire.float(kind)?),
                (3, VARINT) => attribute.int = Some(wire.varint()? as i64),
                (4, _) => attribute.text = Some(wire.text(kind)?),
                (6, _) => attribute.graphs.push(graph(wire, kind)?),
                // Packed floats are not shown (only their count would be): skipped.
                (8, _) => wire.ints(kind, &mut attribute.ints, MAX_ATTRIBUTE_INTS)?,
                (11, _) => attribute.graphs.push(graph(wire, kind)?),
                _ => return Ok(false),
            }
            Ok(true)
        },
    )
}

fn value_info(wire: &mut Wire<'_>, kind: u8) -> Result<ValueInfo, OnnxError> {
    embedded(wire, kind, |info: &mut ValueInfo, (wire, field, kind)| {
        match field {
            1 => info.name = wire.text(kind)?,
            // TypeProto: only tensor_type (1) has a shape to show.
            2 => {
                let (elem_type, shape) =
                    embedded(wire, kind, |value: &mut TensorType, (wire, field, kind)| {
                        if field != 1 {
                            return Ok(false);
                        }
                        *value = embedded(wire, kind, tensor_type)?;
                        Ok(true)
                    })?;
                info.elem_type = elem_type;
                info.shape = shape;
            }
            _ => return Ok(false),
        }
        Ok(true)
    })
}

/// `TypeProto.Tensor`: element type and shape.
type TensorType = (Option<i32>, Option<Vec<Option<u64>>>);

fn tensor_type(
    value: &mut TensorType,
    (wire, field, kind): Field<'_, '_>,
) -> Result<bool, OnnxError> {
    match (field, kind) {
        (1, VARINT) => value.0 = Some(wire.varint()? as i32),
        (2, _) => {
            let dims = embedded(
                wire,
                kind,
                |dims: &mut Vec<Option<u64>>, (wire, field, kind)| {
                    if field != 1 {
                        return Ok(false);
                    }
                    let dim =
                        embedded(wire, kind, |dim: &mut Option<u64>, (wire, field, kind)| {
                            if (field, kind) != (1, VARINT) {
                                return Ok(false);
                            }
                            *dim = u64::try_from(wire.varint()? as i64).ok();
                            Ok(true)
                        })?;
                    dims.push(dim);
                    Ok(true)
                },
            )?;
            value.1 = Some(dims);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn tensor(tensor: &mut Tensor, (wire, field, kind): Field<'_, '_>) -> Result<bool, OnnxError> {
    match (field, kind) {
        (1, _) => wire.ints(kind, &mut tensor.dims, MAX_DIMS)?,
        (2, VARINT) => tensor.data_type = wire.varint()? as i32,
        (8, _) => tensor.name = wire.text(kind)?,
        _ => return Ok(false),
    }
    Ok(true)
}
