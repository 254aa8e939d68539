//! Colour and size by value (`color_by=`, `size_by=`, `size_scale=`; the guide's "Colour and size by any value").
//!
//! A [`ValueSource`] reads one number per drawn operation: a built-in (`time`, `bytes`,
//! `flops`, `magnitude`, `grad_norm`, and `dims` for size), any numeric field of the op
//! records, or a closure. Values are normalised min-max over the drawn nodes. Colour uses
//! viridis, dark for high values on a light page (bright for high values on a dark one);
//! nodes with no value stay unfilled; inputs and outputs keep their role colour as a ring.
//! Size makes the smallest value the drawing's typical node size and the largest twice its
//! area; sizes are minimums, so text never shrinks. Boxes, capsules and folds are not
//! encoded.

use tl_collapse::{NodeKind, TraceIndex, VisibleGraph};
use tl_trace_model::{OpKind, Trace};

use crate::contrast;
use crate::graph::{ColorBar, Fill, Legend, LegendEntry, StyledNode};
use crate::theme::Theme;

mod source;

use source::{field_value, normalise, source_invalid};
pub use source::{Channel, DerivedValue, ValueFn, ValueSource};

/// How size values map to area (`size_scale=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SizeScale {
    /// Area grows with the square root of the value (values must be >= 0).
    #[default]
    Sqrt,
    /// Area grows linearly with the value.
    Linear,
}

impl SizeScale {
    /// Parses `sqrt` or `linear`.
    pub fn parse(text: &str) -> Result<SizeScale, EncodingError> {
        match normalise(text).as_str() {
            "sqrt" => Ok(SizeScale::Sqrt),
            "linear" => Ok(SizeScale::Linear),
            _ => Err(EncodingError::ScaleInvalid(text.to_owned())),
        }
    }
}

/// The colour and size channels of a drawing.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Encoding {
    /// `color_by=`.
    pub color_by: Option<ValueSource>,
    /// `size_by=`.
    pub size_by: Option<ValueSource>,
    /// `size_scale=` (only with `size_by`).
    pub size_scale: Option<SizeScale>,
    /// Boxes, capsules and folds take the largest value of the operations they hold (a
    /// bundle diff colours each box by its most changed operation); otherwise they stay
    /// unencoded.
    pub groups: bool,
    /// The colour scale starts at zero (differences: zero means identical) instead of the
    /// smallest drawn value.
    pub from_zero: bool,
}

impl Encoding {
    /// True when neither channel is set.
    pub fn is_empty(&self) -> bool {
        self.color_by.is_none() && self.size_by.is_none()
    }
}

/// Why an encoding request cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodingError {
    /// Not a built-in and no op record has a field of that name.
    #[error("{channel} source '{source_name}' is not a known record field, scalar builtin, or callable; use time, bytes, flops, magnitude or grad_norm{dims}, a TorchLens layer field (func_duration, activation_memory, flops_forward, num_params, param_memory, num_parents, ...), a numeric op field such as step_index, or a closure from Rust")]
    SourceInvalid {
        /// `color_by` or `size_by`.
        channel: &'static str,
        /// The name asked for.
        source_name: String,
        /// `, dims` for size.
        dims: &'static str,
    },
    /// The field exists but is not a number.
    #[error("{channel} source '{source_name}' is not numeric in op {op} ({found}); pick a numeric field (bools, strings and shapes have no scale)")]
    ValueInvalid {
        /// `color_by` or `size_by`.
        channel: &'static str,
        /// The name asked for.
        source_name: String,
        /// The first op where it is not a number.
        op: String,
        /// What it is there.
        found: String,
    },
    /// `sqrt` scale over negative values.
    #[error("size_by source '{0}' has negative values, which size_scale='sqrt' cannot map; pass size_scale='linear'")]
    NegativeForSqrt(String),
    /// `size_scale=` without `size_by=`.
    #[error("size_scale= only applies with size_by=; add size_by= (e.g. size_by='bytes') or drop size_scale")]
    ScaleRequiresSizeBy,
    /// Unknown `size_scale=`.
    #[error("size_scale '{0}' is not one of sqrt, linear")]
    ScaleInvalid(String),
    /// `size_by` on a rolled layer whose passes disagree.
    #[error("size_by source '{source_name}' varies across the passes of rolled layer {layer}; draw unrolled (rolled=False) or size by a value every pass shares")]
    RolledVarying {
        /// The name asked for.
        source_name: String,
        /// The rolled layer.
        layer: String,
    },
}

impl EncodingError {
    /// Stable code.
    pub fn code(&self) -> &'static str {
        match self {
            EncodingError::SourceInvalid { .. } => "encoding_source_invalid",
            EncodingError::ValueInvalid { .. } | EncodingError::NegativeForSqrt(_) => {
                "encoding_value_invalid"
            }
            EncodingError::ScaleRequiresSizeBy => "scale_requires_size_by",
            EncodingError::ScaleInvalid(_) => "size_scale_invalid",
            EncodingError::RolledVarying { .. } => "size_by_rolled_varying",
        }
    }
}

/// Checks an encoding against the trace and the drawn graph: fields exist and are numeric,
/// `size_scale` comes with `size_by`, `sqrt` sees no negative values, and `size_by` does
/// not vary across the passes of a rolled layer.
pub fn check(
    index: &TraceIndex<'_>,
    visible: &VisibleGraph,
    encoding: &Encoding,
) -> Result<(), EncodingError> {
    let trace = index.trace;
    if encoding.size_scale.is_some() && encoding.size_by.is_none() {
        return Err(EncodingError::ScaleRequiresSizeBy);
    }
    let channels = [
        (Channel::Color, &encoding.color_by),
        (Channel::Size, &encoding.size_by),
    ];
    for (channel, source) in channels {
        let Some(ValueSource::Field(name)) = source else {
            continue;
        };
        // The drawn ops decide (a field only some layers carry is fine if they are drawn).
        let mut present = false;
        let drawn = visible.nodes.iter().flat_map(|node| node.kind.ops());
        for op in drawn.map(|i| &trace.ops[i]) {
            match field_value(op, name) {
                None | Some(serde_json::Value::Null) => {}
                Some(serde_json::Value::Number(_)) => present = true,
                Some(other) => {
                    return Err(EncodingError::ValueInvalid {
                        channel: channel.option(),
                        source_name: name.clone(),
                        op: op.label.clone(),
                        found: other.to_string(),
                    })
                }
            }
        }
        if !present {
            return Err(source_invalid(name, channel));
        }
    }
    if let Some(source) = &encoding.size_by {
        for node in &visible.nodes {
            if let NodeKind::Layer(passes) = &node.kind {
                if layer_value(index, passes, source) == LayerValue::Varies {
                    return Err(EncodingError::RolledVarying {
                        source_name: source.name(),
                        layer: trace.ops[passes[0]].layer_label.clone(),
                    });
                }
            }
        }
        if encoding.size_scale.unwrap_or_default() == SizeScale::Sqrt {
            let negative = visible
                .nodes
                .iter()
                .filter_map(|node| node_value(index, &node.kind, source, false))
                .any(|v| v < 0.0);
            if negative {
                return Err(EncodingError::NegativeForSqrt(source.name()));
            }
        }
    }
    Ok(())
}

#[derive(Debug, PartialEq)]
enum LayerValue {
    Value(f64),
    Missing,
    Varies,
}

/// A rolled layer's value: the one value all its passes share.
fn layer_value(index: &TraceIndex<'_>, passes: &[usize], source: &ValueSource) -> LayerValue {
    let values: Vec<Option<f64>> = passes
        .iter()
        .map(|&p| source.value(index, &index.trace.ops[p]))
        .collect();
    match values[..] {
        [] | [None, ..] if values.iter().all(Option::is_none) => LayerValue::Missing,
        [Some(first), ..] if values.iter().all(|v| *v == Some(first)) => LayerValue::Value(first),
        _ => LayerValue::Varies,
    }
}

/// The value a drawn node is encoded by: operations and rolled layers only.
fn node_value(
    index: &TraceIndex<'_>,
    kind: &NodeKind,
    source: &ValueSource,
    groups: bool,
) -> Option<f64> {
    match kind {
        NodeKind::Op(op) => source.value(index, &index.trace.ops[*op]),
        NodeKind::Layer(passes) => match layer_value(index, passes, source) {
            LayerValue::Value(v) => Some(v),
            _ => None,
        },
        NodeKind::Stub(..) => None,
        group if groups => group
            .ops()
            .iter()
            .filter_map(|&op| source.value(index, &index.trace.ops[op]))
            .reduce(f64::max),
        _ => None,
    }
}

/// Per drawn node, its value's place in `[0, 1]` (min-max over the drawn values), with the
/// range; `None` when fewer than two distinct values are drawn.
pub(crate) struct Scaled {
    /// Per node: the fraction, `None` for nodes without a value.
    pub fractions: Vec<Option<f64>>,
    /// Smallest and largest drawn value.
    pub low: f64,
    pub high: f64,
    /// Rolled layers left unencoded because their passes disagree.
    pub varying_layers: usize,
}

pub(crate) fn scale(
    index: &TraceIndex<'_>,
    visible: &VisibleGraph,
    source: &ValueSource,
    transform: fn(f64) -> f64,
    groups: bool,
    from_zero: bool,
) -> Option<Scaled> {
    let values: Vec<Option<f64>> = visible
        .nodes
        .iter()
        .map(|node| node_value(index, &node.kind, source, groups))
        .collect();
    let drawn = values.iter().flatten().copied();
    let low = drawn.clone().fold(f64::INFINITY, f64::min);
    let low = if from_zero && low >= 0.0 { 0.0 } else { low };
    let high = drawn.fold(f64::NEG_INFINITY, f64::max);
    // Fewer than two distinct values (or none at all): nothing to scale.
    if low.partial_cmp(&high) != Some(std::cmp::Ordering::Less) {
        return None;
    }
    let (t_low, t_high) = (transform(low), transform(high));
    let varying_layers = visible
        .nodes
        .iter()
        .filter(|node| match &node.kind {
            NodeKind::Layer(passes) => layer_value(index, passes, source) == LayerValue::Varies,
            _ => false,
        })
        .count();
    Some(Scaled {
        fractions: values
            .iter()
            .map(|v| v.map(|v| ((transform(v) - t_low) / (t_high - t_low)).clamp(0.0, 1.0)))
            .collect(),
        low,
        high,
        varying_layers,
    })
}

/// Viridis at `fraction`, dark for high values on a light page, bright on a dark page.
pub(crate) fn ramp(fraction: f64, dark_page: bool) -> String {
    let at = if dark_page { fraction } else { 1.0 - fraction };
    format!(
        "#{:X}",
        colorous::VIRIDIS.eval_continuous(at.clamp(0.0, 1.0))
    )
}

/// Swatches of the key's colour bar, low to high.
pub(crate) const BAR_SWATCHES: usize = 8;

/// A key line naming a channel's range: `time: 0.098 ms ... 1.46 ms` (colour),
/// `size: output bytes, 15 KB ... 60 KB` (size).
fn range_label(what: String, source: &ValueSource, scaled: &Scaled) -> String {
    format!(
        "{what} {} ... {}",
        source.format(scaled.low),
        source.format(scaled.high)
    )
}

/// Only ops are encoded: inputs and outputs keep their role as a ring.
pub(crate) fn is_io(trace: &Trace, kind: &NodeKind) -> bool {
    matches!(kind, NodeKind::Op(op) if matches!(trace.ops[*op].kind, OpKind::Input | OpKind::Output))
}

/// What an encoding adds to the key.
#[derive(Debug, Default)]
pub(crate) struct EncodingKey {
    bar: Option<ColorBar>,
    lines: Vec<String>,
}

impl EncodingKey {
    /// Puts the colour bar and the size and note lines into `legend`.
    pub(crate) fn add_to(self, legend: &mut Legend) {
        legend.bar = self.bar;
        legend
            .entries
            .extend(self.lines.into_iter().map(|text| LegendEntry {
                ring: false,
                swatch: None,
                text,
            }));
    }
}

/// The default Graphviz node (0.75 x 0.5 inches): the typical size when no node has text
/// wider than that.
const DEFAULT_NODE: (f64, f64) = (0.75, 0.5);
/// Inches per character and per row of node text (14 pt Helvetica, rough but monotone).
const CHAR_WIDTH: f64 = 0.1;
const ROW_HEIGHT: f64 = 0.22;

/// A node's size from its text, before layout: what `size_by` compares against.
fn natural_size(node: &StyledNode) -> (f64, f64) {
    let widest = node
        .rows
        .iter()
        .map(|row| row.text.chars().count())
        .max()
        .unwrap_or(0);
    (
        (widest as f64 * CHAR_WIDTH + 0.3).max(DEFAULT_NODE.0),
        (node.rows.len() as f64 * ROW_HEIGHT + 0.2).max(DEFAULT_NODE.1),
    )
}

fn median(mut values: Vec<f64>) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied()
}

/// Colours and sizes the drawn nodes by value; returns what the key shows.
pub(crate) fn apply(
    index: &TraceIndex<'_>,
    visible: &VisibleGraph,
    nodes: &mut [StyledNode],
    encoding: &Encoding,
    theme: &Theme,
) -> EncodingKey {
    let trace = index.trace;
    let mut key = EncodingKey::default();
    let dark_page =
        contrast::ratio(&theme.page, "#000000") < contrast::ratio(&theme.page, "#FFFFFF");
    if let Some(source) = &encoding.color_by {
        let scaled = scale(
            index,
            visible,
            source,
            |v| v,
            encoding.groups,
            encoding.from_zero,
        );
        for (position, node) in nodes.iter_mut().enumerate() {
            let kind = &visible.nodes[position].kind;
            let encodable = match kind {
                NodeKind::Op(_) | NodeKind::Layer(_) => true,
                NodeKind::Stub(..) => false,
                _ => encoding.groups,
            };
            if !encodable {
                continue;
            }
            // The fill belongs to the scale: no value, no fill; inputs and outputs keep
            // their role colour as a ring.
            if is_io(trace, kind) {
                let (Fill::Solid(role) | Fill::Gradient(role, _)) = &node.fill;
                node.border = role.clone();
                node.peripheries = Some(2);
                node.penwidth = Some(2.0);
            }
            let fraction = scaled.as_ref().and_then(|s| s.fractions[position]);
            let fill = fraction.map_or_else(|| theme.page.clone(), |f| ramp(f, dark_page));
            node.font_color = contrast::text_on(&fill, theme);
            node.fill = Fill::Solid(fill);
        }
        match &scaled {
            Some(scaled) => {
                key.bar = Some(ColorBar {
                    label: range_label(format!("{}:", source.name()), source, scaled),
                    swatches: (0..BAR_SWATCHES)
                        .map(|k| ramp(k as f64 / (BAR_SWATCHES - 1) as f64, dark_page))
                        .collect(),
                    low: source.format(scaled.low),
                    high: source.format(scaled.high),
                });
                if scaled.varying_layers > 0 {
                    key.lines.push(format!(
                        "{}: {} rolled layers vary across passes -- unencoded",
                        source.name(),
                        scaled.varying_layers
                    ));
                }
            }
            None => key.lines.push(format!(
                "{}: constant value -- unencoded (degenerate domain)",
                source.name()
            )),
        }
    }
    if let Some(source) = &encoding.size_by {
        let transform: fn(f64) -> f64 = match encoding.size_scale.unwrap_or_default() {
            SizeScale::Sqrt => |v| v.max(0.0).sqrt(),
            SizeScale::Linear => |v| v,
        };
        match scale(index, visible, source, transform, false, false) {
            Some(scaled) => {
                let typical = |axis: fn((f64, f64)) -> f64| {
                    median(
                        nodes
                            .iter()
                            .zip(&scaled.fractions)
                            .filter(|(_, f)| f.is_some())
                            .map(|(node, _)| axis(natural_size(node)))
                            .collect(),
                    )
                };
                let (width, height) = (
                    typical(|s| s.0).unwrap_or(DEFAULT_NODE.0),
                    typical(|s| s.1).unwrap_or(DEFAULT_NODE.1),
                );
                for (node, fraction) in nodes.iter_mut().zip(&scaled.fractions) {
                    if let Some(f) = fraction {
                        // Twice the area at the top of the scale, the aspect kept.
                        let grow = (1.0 + f).sqrt();
                        let round = |x: f64| (x * 1000.0).round() / 1000.0;
                        node.min_size = Some((round(width * grow), round(height * grow)));
                    }
                }
                key.lines.push(range_label(
                    format!("size: {},", source.quantity()),
                    source,
                    &scaled,
                ));
            }
            None => key.lines.push(format!(
                "size: {} constant -- unencoded (degenerate domain)",
                source.quantity()
            )),
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_formats_follow_the_quantity() {
        assert_eq!(ValueSource::Time.format(0.000_098), "0.098 ms");
        assert_eq!(ValueSource::Time.format(0.001_46), "1.46 ms");
        assert_eq!(ValueSource::Bytes.format(15.0 * 1024.0), "15 KB");
        assert_eq!(ValueSource::Field("step_index".into()).format(12.0), "12");
    }

    #[test]
    fn names_are_normalised_and_dims_is_for_size_only() {
        assert_eq!(
            ValueSource::parse("Grad-Norm", Channel::Color).unwrap(),
            ValueSource::GradNorm
        );
        assert_eq!(
            ValueSource::parse("dims", Channel::Color)
                .unwrap_err()
                .code(),
            "encoding_source_invalid"
        );
        assert_eq!(
            ValueSource::parse("dims", Channel::Size).unwrap(),
            ValueSource::Dims
        );
        assert_eq!(
            SizeScale::parse("cubic").unwrap_err().code(),
            "size_scale_invalid"
        );
    }

    #[test]
    fn torchlens_layer_fields_read_what_the_records_hold() {
        let json = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/convnet.json"
        ))
        .unwrap();
        let trace = Trace::from_json(&json).unwrap();
        let index = TraceIndex::validate(&trace).unwrap();
        let parse = |name| ValueSource::parse(name, Channel::Color).unwrap();
        assert_eq!(parse("func_duration"), ValueSource::Time);
        assert_eq!(parse("tensor_fsize"), ValueSource::Bytes);
        assert_eq!(parse("activation_memory"), ValueSource::Bytes);
        assert_eq!(parse("flops_forward"), ValueSource::Flops);
        let fc = trace
            .ops
            .iter()
            .find(|op| op.params.len() == 2 && op.label.starts_with("linear"))
            .unwrap();
        // ConvNet's fc: Linear(16, 10), 170 parameters of float32.
        assert_eq!(parse("num_params").value(&index, fc), Some(170.0));
        assert_eq!(parse("param_memory").value(&index, fc), Some(680.0));
        assert_eq!(parse("num_param_tensors").value(&index, fc), Some(2.0));
        assert_eq!(
            parse("num_parents").value(&index, fc),
            Some(fc.parents.len() as f64)
        );
        let relu = trace
            .ops
            .iter()
            .find(|op| op.params.is_empty() && op.kind == OpKind::Op)
            .unwrap();
        assert_eq!(parse("num_params").value(&index, relu), None);
        assert_eq!(parse("param_memory").format(680.0), "680 B");
        assert_eq!(parse("num_params").name(), "num_params");
    }

    #[test]
    fn viridis_is_dark_for_high_values_on_a_light_page() {
        assert_eq!(ramp(0.0, false), "#FDE725");
        assert_eq!(ramp(1.0, false), "#440154");
        assert_eq!(ramp(1.0, true), "#FDE725");
    }
}
