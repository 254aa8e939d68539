//! Draw options: every keyword of the user guide, with the parsers the command line uses.
//!
//! [`DrawOptions::check_supported`] refuses, with a clear error, values and combinations
//! that cannot be drawn (an unknown theme, `module=` on a backward graph, ...); nothing is
//! silently ignored.

use std::collections::BTreeSet;
use std::sync::Arc;

use tl_collapse::{BufferVisibility, NodeKind};
use tl_layout::guard::{DEFAULT_MAX_LAYOUT_COST, DEFAULT_MAX_NODES};
use tl_layout::LayoutEngine;
use tl_style::encoding::{Channel, Encoding, EncodingError, SizeScale, ValueSource};
use tl_style::{Direction, LabelField, NodeStyle, StyledNode, Theme};
use tl_trace_model::{OpRecord, Trace};

use crate::error::DrawError;

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

/// The ready-made views (`view=`).
pub const VIEWS: [&str; 7] = [
    "debug",
    "speed",
    "memory",
    "compute",
    "transformer",
    "sequence",
    "interventions",
];

/// Themes the guide names.
pub const THEMES: [&str; 5] = ["torchlens", "paper", "dark", "colorblind", "high_contrast"];

/// How a picture captured as the input is drawn (`batch_render=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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

/// Checks a theme name against the themes the guide names.
pub fn parse_theme(text: &str) -> Result<String, DrawError> {
    if THEMES.contains(&text) {
        Ok(text.to_owned())
    } else {
        Err(DrawError::invalid(
            "visualization_theme_invalid",
            format!(
                "Unsupported visualization theme {text:?}; choose one of {}",
                THEMES.join(", ")
            ),
        ))
    }
}

/// Checks a view name.
pub fn parse_view(text: &str) -> Result<String, DrawError> {
    if VIEWS.contains(&text) {
        Ok(text.to_owned())
    } else {
        Err(DrawError::invalid(
            "visualization_view_invalid",
            format!(
                "view must be one of {}; received {text:?}",
                VIEWS.join(", ")
            ),
        ))
    }
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

/// Every drawing option of the guide. Build with [`DrawOptions::default`] and the setters
/// (a view's settings give way to every option set through a setter).
#[derive(Debug, Clone, PartialEq)]
pub struct DrawOptions {
    /// Output format when it should not follow the path's extension.
    pub file_format: Option<String>,
    /// Dots per inch of raster output.
    pub dpi: Option<f64>,
    /// A ready-made view.
    pub view: Option<String>,
    /// Which graph.
    pub graph: GraphKind,
    /// Module levels drawn open (1000: all; 0: never box).
    pub depth: u32,
    /// How much to fold.
    pub collapse: Collapse,
    /// Fold runs of identical modules: `None` lets the collapse mode decide.
    pub fold_repeats: Option<bool>,
    /// Draw only the inside of this module.
    pub module: Option<String>,
    /// One node per layer instead of per pass.
    pub rolled: bool,
    /// Flow direction; `None` is the graph's default (forward: bottom-up, backward: top-down,
    /// combined: left to right).
    pub direction: Option<Direction>,
    /// Extra rows.
    pub node_style: NodeStyle,
    /// Rows to show instead of the default ones.
    pub node_label_fields: Option<Vec<LabelField>>,
    /// Colour theme.
    pub theme: String,
    /// Buffer visibility.
    pub show_buffers: BufferVisibility,
    /// Key: `None` automatic, `Some(true)` always, `Some(false)` never.
    pub show_legend: Option<bool>,
    /// Colour nodes by this value (a name is resolved when drawing: a built-in, else a
    /// record field).
    pub color_by: Option<ValueSource>,
    /// Scale nodes by this value.
    pub size_by: Option<ValueSource>,
    /// How values map to area: `sqrt` (default) or `linear`.
    pub size_scale: Option<String>,
    /// Shade everything downstream of an edit.
    pub show_cone: bool,
    /// Add the saved-for-backward row.
    pub show_saved_for_backward: bool,
    /// Show arguments the shapes already imply.
    pub show_redundant_args: bool,
    /// Write each tensor's shape on its arrow.
    pub show_edge_shapes: bool,
    /// Backward drawings: module and parameter rows.
    pub show_module_paths: bool,
    /// Backward drawings: gradient norm and largest value.
    pub show_grad_values: bool,
    /// Which program lays the graph out.
    pub layout_engine: LayoutEngine,
    /// Pictures captured as the input: thumbnail or plain node.
    pub batch_render: BatchRender,
    /// Refuse to lay out more drawn nodes than this (layout time and memory grow quickly
    /// beyond a few thousand nodes); `force` lifts it.
    pub max_nodes: usize,
    /// Refuse to lay out a drawing whose estimated layout cost (drawn plus virtual nodes,
    /// [`tl_layout::guard::layout_cost`]) is higher than this; `force` lifts it.
    pub max_layout_cost: usize,
    /// Lay out however many nodes there are.
    pub force: bool,
    /// Restyles nodes after the built-in rules (the guide's `node_spec_fn`).
    pub node_spec: Option<NodeSpecFn>,
    /// Options set through the setters: a view's bundled settings never override these.
    explicit: BTreeSet<&'static str>,
    /// A difference scale (bundle diffs): boxes take the largest value of what they hold,
    /// and the colours start at zero.
    pub(crate) difference_scale: bool,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            file_format: None,
            dpi: None,
            view: None,
            graph: GraphKind::Forward,
            depth: 1000,
            collapse: Collapse::None,
            fold_repeats: None,
            module: None,
            rolled: false,
            direction: None,
            node_style: NodeStyle::Default,
            node_label_fields: None,
            theme: "torchlens".to_owned(),
            show_buffers: BufferVisibility::Meaningful,
            show_legend: None,
            color_by: None,
            size_by: None,
            size_scale: None,
            show_cone: false,
            show_saved_for_backward: false,
            show_redundant_args: false,
            show_edge_shapes: false,
            show_module_paths: false,
            show_grad_values: false,
            layout_engine: LayoutEngine::Embedded,
            batch_render: BatchRender::Auto,
            max_nodes: DEFAULT_MAX_NODES,
            max_layout_cost: DEFAULT_MAX_LAYOUT_COST,
            force: false,
            node_spec: None,
            explicit: BTreeSet::new(),
            difference_scale: false,
        }
    }
}

macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident: $ty:ty => $field:ident;)*) => {
        impl DrawOptions {
            $(
                $(#[$doc])*
                pub fn $name(mut self, value: $ty) -> Self {
                    self.$field = value.into();
                    self.explicit.insert(stringify!($field));
                    self
                }
            )*
        }
    };
}

setters! {
    /// Sets `depth=`.
    depth: u32 => depth;
    /// Sets `collapse=`.
    collapse: Collapse => collapse;
    /// Sets `fold_repeats=`.
    fold_repeats: Option<bool> => fold_repeats;
    /// Sets `rolled=`.
    rolled: bool => rolled;
    /// Sets `graph=`.
    graph: GraphKind => graph;
    /// Sets `direction=`.
    direction: Direction => direction;
    /// Sets `node_style=`.
    node_style: NodeStyle => node_style;
    /// Sets `node_label_fields=`.
    node_label_fields: Vec<LabelField> => node_label_fields;
    /// Sets `show_buffers=`.
    show_buffers: BufferVisibility => show_buffers;
    /// Sets `show_legend=`.
    show_legend: Option<bool> => show_legend;
    /// Sets `show_cone=`.
    show_cone: bool => show_cone;
    /// Sets `show_saved_for_backward=`.
    show_saved_for_backward: bool => show_saved_for_backward;
    /// Sets `show_redundant_args=`.
    show_redundant_args: bool => show_redundant_args;
    /// Sets `show_edge_shapes=`.
    show_edge_shapes: bool => show_edge_shapes;
    /// Sets `show_module_paths=`.
    show_module_paths: bool => show_module_paths;
    /// Sets `show_grad_values=`.
    show_grad_values: bool => show_grad_values;
    /// Sets the layout engine.
    layout_engine: LayoutEngine => layout_engine;
    /// Sets `dpi=` (raster output only).
    dpi: f64 => dpi;
    /// Sets `batch_render=`.
    batch_render: BatchRender => batch_render;
    /// Sets the ceiling on drawn nodes.
    max_nodes: usize => max_nodes;
    /// Sets the ceiling on the estimated layout cost.
    max_layout_cost: usize => max_layout_cost;
    /// Lays out whatever the size.
    force: bool => force;
}

impl DrawOptions {
    /// Sets `theme=` (checked when drawing).
    pub fn theme(mut self, name: &str) -> Self {
        self.theme = name.to_owned();
        self.explicit.insert("theme");
        self
    }

    /// Sets `view=` (checked when drawing).
    pub fn view(mut self, name: &str) -> Self {
        self.view = Some(name.to_owned());
        self.explicit.insert("view");
        self
    }

    /// Sets `module=`.
    pub fn module(mut self, address: &str) -> Self {
        self.module = Some(address.to_owned());
        self.explicit.insert("module");
        self
    }

    /// Sets `file_format=`.
    pub fn file_format(mut self, format: &str) -> Self {
        self.file_format = Some(format.to_ascii_lowercase());
        self
    }

    /// Sets `color_by=` to a built-in (`time`, `bytes`, `flops`, `magnitude`, `grad_norm`)
    /// or a numeric record field, by name.
    pub fn color_by(mut self, source: &str) -> Self {
        self.color_by = Some(ValueSource::Field(source.to_owned()));
        self.explicit.insert("color_by");
        self
    }

    /// Sets `size_by=` to a built-in (the `color_by` ones and `dims`) or a numeric record
    /// field, by name.
    pub fn size_by(mut self, source: &str) -> Self {
        self.size_by = Some(ValueSource::Field(source.to_owned()));
        self.explicit.insert("size_by");
        self
    }

    /// Sets `color_by=` to any source, e.g. a closure:
    /// `ValueSource::custom("attention", |op| op.magnitude.map(|m| m * 2.0))`.
    pub fn color_by_source(mut self, source: ValueSource) -> Self {
        self.color_by = Some(source);
        self.explicit.insert("color_by");
        self
    }

    /// Sets `size_by=` to any source, e.g. a closure.
    pub fn size_by_source(mut self, source: ValueSource) -> Self {
        self.size_by = Some(source);
        self.explicit.insert("size_by");
        self
    }

    /// Sets the node restyling hook (the guide's `node_spec_fn`): called once per drawn
    /// forward node (operations, boxes, capsules, stubs; not backward steps, which carry no
    /// op record) after the built-in rules and a view's rows, it may change the node's rows,
    /// fill, shape, borders or size.
    pub fn node_spec_fn(
        mut self,
        hook: impl Fn(&NodeContext<'_>, &mut StyledNode) + Send + Sync + 'static,
    ) -> Self {
        self.node_spec = Some(NodeSpecFn(Arc::new(hook)));
        self
    }

    /// Was `option` (a field name) set through a setter?
    pub fn is_explicit(&self, option: &str) -> bool {
        self.explicit.contains(option)
    }

    /// The same options, `option` no longer counted as set by the caller.
    pub(crate) fn forget_explicit(mut self, option: &str) -> Self {
        self.explicit.remove(option);
        self
    }

    /// Sets `size_scale=` (`sqrt` or `linear`).
    pub fn size_scale(mut self, scale: &str) -> Self {
        self.size_scale = Some(scale.to_owned());
        self.explicit.insert("size_scale");
        self
    }

    /// The colour and size channels, names resolved (built-ins first, then fields).
    pub(crate) fn encoding(&self) -> Result<Encoding, DrawError> {
        let encoding_error =
            |error: EncodingError| DrawError::invalid(error.code(), error.to_string());
        let resolve = |source: &Option<ValueSource>, channel: Channel| match source {
            Some(ValueSource::Field(name)) => ValueSource::parse(name, channel).map(Some),
            Some(ValueSource::Dims) if channel == Channel::Color => {
                ValueSource::parse("dims", channel).map(Some)
            }
            other => Ok(other.clone()),
        };
        Ok(Encoding {
            groups: self.difference_scale,
            from_zero: self.difference_scale,
            color_by: resolve(&self.color_by, Channel::Color).map_err(encoding_error)?,
            size_by: resolve(&self.size_by, Channel::Size).map_err(encoding_error)?,
            size_scale: self
                .size_scale
                .as_deref()
                .map(SizeScale::parse)
                .transpose()
                .map_err(encoding_error)?,
        })
    }

    /// Validates values the setters could not (theme, view, collapse level, dpi) and
    /// combinations that cannot be drawn, with a clear error.
    pub fn check_supported(&self) -> Result<Theme, DrawError> {
        parse_theme(&self.theme)?;
        if let Some(view) = &self.view {
            parse_view(view)?;
        }
        if let Collapse::Level(level) = self.collapse {
            if !(0.0..=1.0).contains(&level) {
                return Err(DrawError::invalid(
                    "collapse_level_invalid",
                    format!("collapse float level must be in [0.0, 1.0]; received {level}"),
                ));
            }
        }
        if let Some(dpi) = self.dpi {
            if !(dpi.is_finite() && dpi > 0.0) {
                return Err(DrawError::invalid(
                    "dpi_invalid",
                    format!("dpi must be a positive number; received {dpi}"),
                ));
            }
        }
        if self.module.is_some() && self.graph != GraphKind::Forward {
            return Err(DrawError::invalid(
                "module_focus_graph_invalid",
                format!(
                    "module= focuses the forward graph only; graph={:?} cannot be focused: drop module= or draw graph=\"forward\"",
                    self.graph
                ),
            ));
        }
        // The backward graph has no modules, passes to roll or values to encode.
        let forward_only = [
            (self.collapse != Collapse::None, "collapse="),
            (self.fold_repeats == Some(true), "fold_repeats="),
            (self.rolled, "rolled=True"),
            (
                self.color_by.is_some() || self.size_by.is_some(),
                "color_by=/size_by=",
            ),
            (self.view.is_some(), "view="),
        ];
        if self.graph == GraphKind::Backward {
            if let Some((_, option)) = forward_only.iter().find(|(set, _)| *set) {
                return Err(DrawError::invalid(
                    "backward_option_invalid",
                    format!(
                        "{option} applies to the forward graph; graph=\"backward\" draws every autograd step: drop {option}, or draw graph=\"combined\" to see both"
                    ),
                ));
            }
        }
        Ok(Theme::built_in(&self.theme)
            .expect("every theme parse_theme accepts is built in (tested)"))
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
        let error = parse_theme("neon").unwrap_err();
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

    #[test]
    fn valid_options_pass_the_check() {
        assert!(DrawOptions::default().check_supported().is_ok());
        assert!(DrawOptions::default()
            .rolled(true)
            .collapse(Collapse::Auto)
            .check_supported()
            .is_ok());
    }

    #[test]
    fn focus_is_refused_on_backward_graphs() {
        let error = DrawOptions::default()
            .module("fc1")
            .graph(GraphKind::Backward)
            .check_supported()
            .unwrap_err();
        assert_eq!(error.code(), "module_focus_graph_invalid");
    }
}
