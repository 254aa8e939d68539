//! The value types of the drawing options and their parsers (the command line's and the
//! keywords' text), and how a loosely typed value becomes each ([`OptionValue`]).

use std::sync::Arc;

use tl_collapse::{BufferVisibility, NodeKind};
use tl_layout::LayoutEngine;
use tl_style::encoding::ValueSource;
use tl_style::{Direction, LabelField, NodeStyle, StyledNode, ThemeName};
use tl_trace_model::{OpRecord, Trace};

use crate::error::DrawError;
use crate::keywords::KeywordValue;

/// How much to fold (`collapse=`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Collapse {
    /// Every operation drawn.
    #[default]
    None,
    /// A readable size chosen automatically.
    Auto,
    /// Everything that can be condensed.
    Max,
    /// A stop on the schedule, 0.0 (none) to 1.0 (max).
    Level(f64),
}

impl Collapse {
    /// Parses `none`, `auto`, `max` or a number in [0, 1].
    pub fn parse(text: &str) -> Result<Collapse, DrawError> {
        match text {
            "none" => Ok(Collapse::None),
            "auto" => Ok(Collapse::Auto),
            "max" => Ok(Collapse::Max),
            _ => match text.parse::<f64>() {
                Ok(level) if (0.0..=1.0).contains(&level) => Ok(Collapse::Level(level)),
                Ok(_) => Err(DrawError::invalid(
                    "collapse_level_invalid",
                    format!("collapse float level must be in [0.0, 1.0]; received {text}"),
                )),
                Err(_) => Err(DrawError::invalid(
                    "collapse_mode_invalid",
                    format!("collapse must be 'none', 'auto', 'max', or a float in [0.0, 1.0]; received {text:?}"),
                )),
            },
        }
    }
}

/// Which graph to draw (`graph=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GraphKind {
    /// The forward pass.
    #[default]
    Forward,
    /// The backward pass.
    Backward,
    /// Both.
    Combined,
}

impl GraphKind {
    /// The keyword's value for this graph: `forward`, `backward` or `combined`.
    pub fn name(self) -> &'static str {
        match self {
            GraphKind::Forward => "forward",
            GraphKind::Backward => "backward",
            GraphKind::Combined => "combined",
        }
    }

    /// Parses `forward`, `backward` or `combined`.
    pub fn parse(text: &str) -> Result<GraphKind, DrawError> {
        match text {
            "forward" => Ok(GraphKind::Forward),
            "backward" => Ok(GraphKind::Backward),
            "combined" => Ok(GraphKind::Combined),
            _ => Err(DrawError::invalid(
                "visualization_graph_invalid",
                format!(
                    "graph must be one of 'forward', 'backward', or 'combined'; received {text:?}"
                ),
            )),
        }
    }
}

/// A ready-made view (`view=`): a bundle of options answering one question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum View {
    /// What is broken? Every buffer and argument, dtypes, non-finite values marked.
    Debug,
    /// Where does time go? Coloured by time, the slowest called out.
    Speed,
    /// What is big in bytes? Coloured by output bytes.
    Memory,
    /// Where are the FLOPs? Coloured by FLOPs.
    Compute,
    /// How is attention wired? The first attention block, roles marked.
    Transformer,
    /// How do the passes unfold? Coloured by pass.
    Sequence,
    /// What did the edits change? The edits' marks and census.
    Interventions,
}

/// Every view with its name, in the guide's order.
const VIEW_NAMES: [(&str, View); 7] = [
    ("debug", View::Debug),
    ("speed", View::Speed),
    ("memory", View::Memory),
    ("compute", View::Compute),
    ("transformer", View::Transformer),
    ("sequence", View::Sequence),
    ("interventions", View::Interventions),
];

impl View {
    /// Every view, in the guide's order.
    pub const ALL: [View; 7] = [
        View::Debug,
        View::Speed,
        View::Memory,
        View::Compute,
        View::Transformer,
        View::Sequence,
        View::Interventions,
    ];

    /// The view's name (`speed`).
    pub fn name(self) -> &'static str {
        VIEW_NAMES
            .iter()
            .find(|(_, view)| *view == self)
            .map_or("debug", |(name, _)| name)
    }
}

impl std::str::FromStr for View {
    type Err = DrawError;

    /// Parses a view name, refusing others with `visualization_view_invalid`.
    fn from_str(text: &str) -> Result<View, DrawError> {
        VIEW_NAMES
            .iter()
            .find(|(name, _)| *name == text)
            .map(|(_, view)| *view)
            .ok_or_else(|| {
                let names: Vec<&str> = VIEW_NAMES.iter().map(|(name, _)| *name).collect();
                DrawError::invalid(
                    "visualization_view_invalid",
                    format!(
                        "view must be one of {}; received {text:?}",
                        names.join(", ")
                    ),
                )
            })
    }
}

/// How a picture captured as the input is drawn (`batch_render=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum BatchRender {
    /// A thumbnail of the picture above the input node's rows.
    #[default]
    Auto,
    /// The plain input node.
    ShapeOnly,
}

impl BatchRender {
    /// Parses `auto` or `shape_only`.
    pub fn parse(text: &str) -> Result<BatchRender, DrawError> {
        match text {
            "auto" => Ok(BatchRender::Auto),
            "shape_only" => Ok(BatchRender::ShapeOnly),
            _ => Err(DrawError::invalid(
                "batch_render_invalid",
                format!("batch_render must be 'auto' or 'shape_only'; received {text:?}"),
            )),
        }
    }
}

/// Parses `never`, `meaningful` or `always`.
pub fn parse_show_buffers(text: &str) -> Result<BufferVisibility, DrawError> {
    match text {
        "never" => Ok(BufferVisibility::Never),
        "meaningful" => Ok(BufferVisibility::Meaningful),
        "always" => Ok(BufferVisibility::Always),
        _ => Err(DrawError::invalid(
            "buffer_visibility_invalid",
            format!("show_buffers must be 'never', 'meaningful', or 'always'; received {text:?}"),
        )),
    }
}

/// Parses a flow direction.
pub fn parse_direction(text: &str) -> Result<Direction, DrawError> {
    Direction::parse(text).ok_or_else(|| {
        DrawError::invalid(
            "visualization_direction_invalid",
            format!("direction must be one of 'bottomup', 'topdown', 'leftright', or 'rightleft'; got {text:?}"),
        )
    })
}

/// Parses `default` or `profiling`.
pub fn parse_node_style(text: &str) -> Result<NodeStyle, DrawError> {
    NodeStyle::parse(text).ok_or_else(|| {
        DrawError::invalid(
            "visualization_node_style_invalid",
            format!("node_style must be one of 'default' or 'profiling'; received {text:?}"),
        )
    })
}

/// Parses one `node_label_fields` entry.
pub fn parse_label_field(text: &str) -> Result<LabelField, DrawError> {
    LabelField::parse(text).ok_or_else(|| {
        DrawError::invalid(
            "node_label_field_invalid",
            format!(
                "Unsupported node label field: {text:?}; choose from {}",
                LabelField::NAMES.join(", ")
            ),
        )
    })
}

/// What a node restyling hook sees of the node it restyles.
#[derive(Debug, Clone, Copy)]
pub struct NodeContext<'a> {
    /// The trace drawn.
    pub trace: &'a Trace,
    /// What the node stands for (an op, a module box, a capsule, ...).
    pub kind: &'a NodeKind,
    /// The op record, for nodes that draw one operation (ops, rolled layers: first pass).
    pub op: Option<&'a OpRecord>,
}

/// The signature of a node restyling hook.
pub type NodeRestyle = dyn Fn(&NodeContext<'_>, &mut StyledNode) + Send + Sync;

/// A node restyling hook, shared (cloning options shares the hook).
#[derive(Clone)]
pub struct NodeSpecFn(pub Arc<NodeRestyle>);

impl std::fmt::Debug for NodeSpecFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NodeSpecFn")
    }
}

impl PartialEq for NodeSpecFn {
    fn eq(&self, other: &NodeSpecFn) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// Why a loosely typed value does not set an option.
#[derive(Debug)]
#[non_exhaustive]
pub enum ValueError {
    /// The value is of another kind than the option takes (a string for a number, ...).
    WrongKind,
    /// The value is of the right kind and not one the option accepts.
    Invalid(DrawError),
}

impl From<DrawError> for ValueError {
    fn from(error: DrawError) -> ValueError {
        ValueError::Invalid(error)
    }
}

impl ValueError {
    /// The error to report for keyword `name`, which takes `wanted`.
    pub fn for_keyword(self, name: &str, wanted: &str, value: &KeywordValue) -> DrawError {
        match self {
            ValueError::WrongKind => crate::keywords::wrong_kind(name, wanted, value),
            ValueError::Invalid(error) => error,
        }
    }
}

/// A type an option holds, made from a loosely typed value (a Python keyword's, or a
/// command-line flag's as [`crate::options::FlagShape`] reads it).
pub trait OptionValue: Sized {
    /// The value, or why it is not one.
    fn from_keyword(value: &KeywordValue) -> Result<Self, ValueError>;
}

fn text(value: &KeywordValue) -> Result<&str, ValueError> {
    match value {
        KeywordValue::Text(text) => Ok(text),
        _ => Err(ValueError::WrongKind),
    }
}

/// Text values parsed by a function of the text.
macro_rules! from_text {
    ($($ty:ty => $parse:expr;)*) => {
        $(
            impl OptionValue for $ty {
                fn from_keyword(value: &KeywordValue) -> Result<Self, ValueError> {
                    Ok($parse(text(value)?)?)
                }
            }
        )*
    };
}

from_text! {
    String => |text: &str| Ok::<_, DrawError>(text.to_owned());
    GraphKind => GraphKind::parse;
    View => str::parse::<View>;
    ThemeName => |text: &str| text
        .parse::<ThemeName>()
        .map_err(|error| DrawError::invalid(error.code(), error.to_string()));
    Direction => parse_direction;
    NodeStyle => parse_node_style;
    BufferVisibility => parse_show_buffers;
    BatchRender => BatchRender::parse;
    LayoutEngine => |text: &str| text.parse::<LayoutEngine>().map_err(DrawError::from);
    ValueSource => |text: &str| Ok::<_, DrawError>(ValueSource::Field(text.to_owned()));
}

impl OptionValue for bool {
    fn from_keyword(value: &KeywordValue) -> Result<Self, ValueError> {
        match value {
            KeywordValue::Bool(flag) => Ok(*flag),
            _ => Err(ValueError::WrongKind),
        }
    }
}

/// Whole numbers of at least 0 (larger than the type holds: its largest).
macro_rules! from_count {
    ($($ty:ty),*) => {
        $(
            impl OptionValue for $ty {
                fn from_keyword(value: &KeywordValue) -> Result<Self, ValueError> {
                    match value {
                        KeywordValue::Int(n) if *n >= 0 => {
                            Ok(<$ty>::try_from(*n as u64).unwrap_or(<$ty>::MAX))
                        }
                        _ => Err(ValueError::WrongKind),
                    }
                }
            }
        )*
    };
}

from_count!(u32, usize);

impl OptionValue for f64 {
    fn from_keyword(value: &KeywordValue) -> Result<Self, ValueError> {
        match value {
            KeywordValue::Int(n) => Ok(*n as f64),
            KeywordValue::Float(x) => Ok(*x),
            _ => Err(ValueError::WrongKind),
        }
    }
}

impl OptionValue for Collapse {
    fn from_keyword(value: &KeywordValue) -> Result<Self, ValueError> {
        Ok(match value {
            KeywordValue::Text(text) => Collapse::parse(text)?,
            KeywordValue::Int(n) => Collapse::parse(&n.to_string())?,
            KeywordValue::Float(level) => Collapse::parse(&level.to_string())?,
            _ => return Err(ValueError::WrongKind),
        })
    }
}

impl OptionValue for Vec<LabelField> {
    fn from_keyword(value: &KeywordValue) -> Result<Self, ValueError> {
        match value {
            KeywordValue::Texts(fields) => Ok(fields
                .iter()
                .map(|field| parse_label_field(field.trim()))
                .collect::<Result<Vec<_>, _>>()?),
            _ => Err(ValueError::WrongKind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapse_values_are_checked_with_the_reference_codes() {
        assert_eq!(Collapse::parse("auto").unwrap(), Collapse::Auto);
        assert_eq!(Collapse::parse("0.25").unwrap(), Collapse::Level(0.25));
        assert_eq!(
            Collapse::parse("1.5").unwrap_err().code(),
            "collapse_level_invalid"
        );
        assert_eq!(
            Collapse::parse("most").unwrap_err().code(),
            "collapse_mode_invalid"
        );
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let error = "neon".parse::<ThemeName>().unwrap_err();
        assert_eq!(error.code(), "visualization_theme_invalid");
        assert!(
            error
                .to_string()
                .contains("colorblind, dark, high_contrast")
                || error.to_string().contains("paper, dark")
        );
        assert_eq!(
            parse_show_buffers("some").unwrap_err().code(),
            "buffer_visibility_invalid"
        );
        assert_eq!(
            parse_direction("up").unwrap_err().code(),
            "visualization_direction_invalid"
        );
        assert_eq!(
            parse_node_style("fancy").unwrap_err().code(),
            "visualization_node_style_invalid"
        );
        assert_eq!(
            parse_label_field("colour").unwrap_err().code(),
            "node_label_field_invalid"
        );
    }
}
