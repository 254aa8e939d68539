//! Where a node's value comes from: the built-ins, TorchLens's names of its layer fields,
//! any numeric field of the op records, or a closure; how each reads an op and how the key
//! writes its values.

use std::fmt;
use std::sync::Arc;

use tl_collapse::TraceIndex;
use tl_trace_model::OpRecord;

use super::EncodingError;
use crate::format;

/// A closure giving an op's value (the Rust API's `color_by=<callable>`).
pub type ValueFn = Arc<dyn Fn(&OpRecord) -> Option<f64> + Send + Sync>;

/// Which channel a source feeds (for error messages and `dims`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// `color_by=`.
    Color,
    /// `size_by=`.
    Size,
}

impl Channel {
    pub(super) fn option(self) -> &'static str {
        match self {
            Channel::Color => "color_by",
            Channel::Size => "size_by",
        }
    }
}

/// How a [`ValueSource::Derived`] reads an op.
pub type DerivedValue = fn(&OpRecord) -> Option<f64>;

/// Where a node's value comes from.
#[derive(Clone)]
pub enum ValueSource {
    /// Wall time of the op (`duration_s`).
    Time,
    /// Output bytes.
    Bytes,
    /// Forward FLOPs.
    Flops,
    /// Mean absolute value of the saved output.
    Magnitude,
    /// L2 norm of the saved gradient.
    GradNorm,
    /// Elements of the output excluding the batch dimension (size only).
    Dims,
    /// Parameter elements the op uses (TorchLens's `num_params`).
    Params,
    /// Bytes of the parameters the op uses (TorchLens's `param_memory`).
    ParamBytes,
    /// A count or size the op record holds under another name: TorchLens's layer fields
    /// (`num_parents`, `autograd_memory`, ...), named as TorchLens names them.
    Derived {
        /// TorchLens's name, shown in the key.
        name: &'static str,
        /// The value of an op.
        value: DerivedValue,
    },
    /// A numeric field of the op records, by its JSON name (`step_index`).
    Field(String),
    /// A closure, with the name the key shows.
    Custom {
        /// Name shown in the key.
        name: String,
        /// The value of an op, `None` when it has none.
        value: ValueFn,
    },
}

/// A source by name (`"time"`, a record field): resolved when drawing.
impl From<&str> for ValueSource {
    fn from(name: &str) -> ValueSource {
        ValueSource::Field(name.to_owned())
    }
}

impl fmt::Debug for ValueSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl PartialEq for ValueSource {
    fn eq(&self, other: &ValueSource) -> bool {
        match (self, other) {
            (ValueSource::Custom { value: a, .. }, ValueSource::Custom { value: b, .. }) => {
                Arc::ptr_eq(a, b)
            }
            _ => self.name() == other.name(),
        }
    }
}

/// TorchLens's names of layer fields the op records hold under other names, and how to
/// read them (the names of `Time`, `Bytes`, `Flops`, `Params` and `ParamBytes` are in
/// [`ValueSource::parse`]); `docs/guides/drawing.md` lists them all in one table.
const DERIVED: &[(&str, DerivedValue)] = &[
    ("num_parents", |op| Some(op.parents.len() as f64)),
    ("num_children", |op| Some(op.children.len() as f64)),
    ("num_param_tensors", |op| Some(op.params.len() as f64)),
    ("num_autograd_tensors", |op| {
        Some(
            op.saved_for_backward
                .as_ref()
                .map_or(0.0, |saved| f64::from(saved.count)),
        )
    }),
    ("autograd_memory", |op| {
        op.saved_for_backward
            .as_ref()
            .and_then(|saved| saved.bytes)
            .map(|bytes| bytes as f64)
    }),
];

pub(super) fn normalise(name: &str) -> String {
    name.trim().to_lowercase().replace(['-', ' '], "_")
}

impl ValueSource {
    /// Parses a built-in name or a field name (checked against a trace by [`check`](super::check)).
    pub fn parse(text: &str, channel: Channel) -> Result<ValueSource, EncodingError> {
        let name = normalise(text);
        Ok(match name.as_str() {
            "time" | "func_duration" | "duration_s" => ValueSource::Time,
            "bytes" | "activation_memory" | "tensor_fsize" => ValueSource::Bytes,
            "flops" | "flops_forward" => ValueSource::Flops,
            "magnitude" => ValueSource::Magnitude,
            "grad_norm" => ValueSource::GradNorm,
            "num_params" => ValueSource::Params,
            "param_memory" => ValueSource::ParamBytes,
            "dims" if channel == Channel::Size => ValueSource::Dims,
            "dims" | "" => return Err(source_invalid(text, channel)),
            field => match DERIVED.iter().find(|(derived, _)| *derived == field) {
                Some(&(name, value)) => ValueSource::Derived { name, value },
                None => ValueSource::Field(field.to_owned()),
            },
        })
    }

    /// A closure source named `name` in the key.
    pub fn custom(
        name: &str,
        value: impl Fn(&OpRecord) -> Option<f64> + Send + Sync + 'static,
    ) -> ValueSource {
        ValueSource::Custom {
            name: name.to_owned(),
            value: Arc::new(value),
        }
    }

    /// The name the key and errors use.
    pub fn name(&self) -> String {
        match self {
            ValueSource::Time => "time".to_owned(),
            ValueSource::Bytes => "bytes".to_owned(),
            ValueSource::Flops => "flops".to_owned(),
            ValueSource::Magnitude => "magnitude".to_owned(),
            ValueSource::GradNorm => "grad_norm".to_owned(),
            ValueSource::Dims => "dims".to_owned(),
            ValueSource::Params => "num_params".to_owned(),
            ValueSource::ParamBytes => "param_memory".to_owned(),
            ValueSource::Derived { name, .. } => (*name).to_owned(),
            ValueSource::Field(name) | ValueSource::Custom { name, .. } => name.clone(),
        }
    }

    /// What the size line calls the quantity (`output bytes`).
    pub(super) fn quantity(&self) -> String {
        match self {
            ValueSource::Bytes => "output bytes".to_owned(),
            ValueSource::GradNorm => "gradient norm".to_owned(),
            ValueSource::Dims => "output elements".to_owned(),
            other => other.name(),
        }
    }

    /// The op's value, `None` when it has none (a field that is not a number included:
    /// [`check`](super::check) refuses those up front).
    pub fn value(&self, index: &TraceIndex<'_>, op: &OpRecord) -> Option<f64> {
        match self {
            ValueSource::Params | ValueSource::ParamBytes if op.params.is_empty() => None,
            ValueSource::Params | ValueSource::ParamBytes => {
                let bytes = matches!(self, ValueSource::ParamBytes);
                let total = op.params.iter().try_fold(0u64, |total, address| {
                    let param = &index.trace.params[index.param(address)?];
                    Some(total + if bytes { param.bytes } else { param.numel })
                });
                total.map(|total| total as f64)
            }
            ValueSource::Derived { value, .. } => value(op),
            ValueSource::Time => op.duration_s,
            ValueSource::Bytes => op.bytes.map(|b| b as f64),
            ValueSource::Flops => op.flops.map(|f| f as f64),
            ValueSource::Magnitude => op.magnitude,
            ValueSource::GradNorm => op.grad.as_ref().and_then(|g| g.norm),
            ValueSource::Dims => op
                .shape
                .as_ref()
                .map(|dims| dims.iter().skip(1).product::<u64>().max(1) as f64),
            ValueSource::Field(name) => field_value(op, name).and_then(|v| v.as_f64()),
            ValueSource::Custom { value, .. } => value(op).filter(|v| v.is_finite()),
        }
    }

    /// A value as the key writes it: `0.098 ms`, `15 KB`, `1.20 MFLOPs`, `0.5012`.
    pub fn format(&self, value: f64) -> String {
        match self {
            ValueSource::Time => format::milliseconds(value),
            ValueSource::Bytes => format::bytes(value.round() as u64).replace(".0 ", " "),
            ValueSource::Flops => format::flops(value.round() as u64),
            ValueSource::Dims | ValueSource::Params => format::compact_count(value.round() as u64),
            ValueSource::ParamBytes
            | ValueSource::Derived {
                name: "autograd_memory",
                ..
            } => format::bytes(value.round() as u64).replace(".0 ", " "),
            ValueSource::Derived { .. } => format!("{value:.0}"),
            ValueSource::Field(_) if value.fract() == 0.0 && value.abs() < 1e15 => {
                format!("{value:.0}")
            }
            _ => format::significant(value, 4),
        }
    }
}

pub(super) fn source_invalid(text: &str, channel: Channel) -> EncodingError {
    EncodingError::SourceInvalid {
        channel: channel.option(),
        source_name: text.to_owned(),
        dims: if channel == Channel::Size {
            ", dims"
        } else {
            ""
        },
    }
}

/// The JSON value of field `name` of an op, as the trace file writes it.
pub(super) fn field_value(op: &OpRecord, name: &str) -> Option<serde_json::Value> {
    match serde_json::to_value(op) {
        Ok(serde_json::Value::Object(mut fields)) => fields.remove(name),
        _ => None,
    }
}
