//! Draw options: every keyword of the user guide, declared once below. Each entry makes
//! the [`DrawOptions`] field and setter, its resolved value in [`Settings`], and its row of
//! [`OPTIONS`]: the keyword the Python binding passes ([`DrawOptions::set_keyword`]), the
//! command-line flag (`tl-draw draw --<name>`, built by the facade's CLI from the same row)
//! and its help. Adding an option is one entry here plus its effect where it is drawn.
//!
//! [`Settings::check_supported`] refuses, with a clear error, values and combinations that
//! cannot be drawn (an unknown theme, `module=` on a backward graph, ...); nothing is
//! silently ignored.

#[macro_use]
mod declare;
mod values;
mod write;

use std::sync::Arc;

use tl_collapse::BufferVisibility;
use tl_layout::guard::{DEFAULT_MAX_LAYOUT_COST, DEFAULT_MAX_NODES};
use tl_layout::LayoutEngine;
use tl_style::encoding::{Channel, Encoding, EncodingError, SizeScale, ValueSource};
use tl_style::{Direction, LabelField, NodeStyle, StyledNode, Theme, ThemeName};

use crate::error::DrawError;
use crate::keywords::KeywordValue;
pub use values::*;
pub use write::{check_dpi, WriteOptions, WRITE_KEYWORDS, WRITE_OPTIONS};

/// How a command-line flag reads its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagShape {
    /// A switch: `--rolled` is `True`.
    Switch,
    /// `true` or `false`.
    Bool,
    /// Text.
    Text,
    /// A whole number.
    Int,
    /// A number.
    Float,
    /// A comma-separated list.
    List,
}

/// One option as bindings and the command line see it: a drawing option of [`OPTIONS`], or
/// a write-time setting of [`WRITE_OPTIONS`] (`O = WriteOptions`).
#[derive(Debug, Clone, Copy)]
pub struct OptionSpec<O: 'static = DrawOptions> {
    /// The keyword (`collapse`); the flag is the same with `-` for `_`.
    pub name: &'static str,
    /// What the option takes, for messages: `"a whole number of at least 0"`.
    pub wanted: &'static str,
    /// How the flag reads its value.
    pub flag: FlagShape,
    /// The value's name in the flag's help (`FORMAT`), when not the flag's own.
    pub value_name: Option<&'static str>,
    /// The flag's help: what the option does and what it takes.
    pub help: &'static str,
    /// Sets the option on options from a loosely typed value.
    pub set: fn(O, &KeywordValue) -> Result<O, DrawError>,
}

draw_options! {
    /// A ready-made view: it fills in the options not set.
    view(View): View,
        takes "a view name such as \"speed\"",
        flag Text, "A ready-made view: debug, speed, memory, compute, transformer, sequence, interventions";
    /// Which graph.
    graph(GraphKind): GraphKind = GraphKind::Forward,
        takes "\"forward\", \"backward\" or \"combined\" (a bundle also: \"diff\")",
        flag Text, "Which graph: forward, backward or combined (default: forward); for bundles also diff (the default for a bundle file)";
    /// Module levels drawn open (1000: all; 0: never box).
    depth(u32): u32 = 1000,
        takes "a whole number of at least 0",
        flag Int, "Modules at this level of the module tree (1: the top-level modules) are drawn as one 3-D box each, with everything inside them; 0 never boxes (default: all open)";
    /// How much to fold.
    collapse(Collapse): Collapse = Collapse::None,
        takes "\"none\", \"auto\", \"max\" or a number from 0.0 to 1.0",
        flag Text, "How much to fold: none, auto, max, or a level from 0.0 to 1.0 (default: none)";
    /// Fold runs of identical modules: unset lets the collapse mode decide.
    fold_repeats(bool): bool,
        takes "True or False",
        flag Bool("BOOL"), "Fold runs of identical modules: true or false (default: the collapse mode decides)";
    /// Draw only the inside of this module.
    module(&str): String,
        takes "a module address such as \"blocks.1\"",
        flag Text, "Draw only the inside of this module (its address, e.g. blocks.1)";
    /// One node per layer instead of per pass.
    rolled(bool): bool = false,
        takes "True or False",
        flag Switch, "One node per layer, loops drawn as loops";
    /// Flow direction; unset is the graph's default (forward: bottom-up, backward:
    /// top-down, combined: left to right).
    direction(Direction): Direction,
        takes "a direction such as \"leftright\"",
        flag Text, "Flow direction: bottomup, topdown, leftright or rightleft";
    /// Extra rows.
    node_style(NodeStyle): NodeStyle = NodeStyle::Default,
        takes "\"default\" or \"profiling\"",
        flag Text, "Node style: default or profiling (adds t=, out=, call=, fn= rows)";
    /// Rows to show instead of the default ones.
    node_label_fields(Vec<LabelField>): Vec<LabelField>,
        takes "a list of field names",
        flag List("FIELDS"), "Rows to show instead of the default ones, comma separated (name, type, shape, dtype, memory, module, params, pass, flops, time)";
    /// Colour theme.
    theme(ThemeName): ThemeName = ThemeName::Torchlens,
        takes "a theme name such as \"dark\"",
        flag Text, "Colour theme: torchlens, paper, dark, colorblind or high_contrast (default: torchlens)";
    /// Buffer visibility.
    show_buffers(BufferVisibility): BufferVisibility = BufferVisibility::Meaningful,
        takes "\"never\", \"meaningful\" or \"always\"",
        flag Text, "Buffers: never, meaningful or always (default: meaningful)";
    /// Draw the key: unset is automatic.
    show_legend(bool): bool,
        takes "True or False",
        flag Bool("BOOL"), "Draw the key: true or false (default: automatic)";
    /// Colour nodes by this value (a name is resolved when drawing: a built-in, else a
    /// record field; or a closure, [`ValueSource::custom`]).
    color_by(impl Into<ValueSource>): ValueSource,
        takes "a value name such as \"time\", or a function",
        flag Text, "Colour nodes by a value: time, bytes, flops, magnitude, grad_norm or a record field";
    /// Scale nodes by this value.
    size_by(impl Into<ValueSource>): ValueSource,
        takes "a value name such as \"bytes\", or a function",
        flag Text, "Scale nodes by a value: the color_by sources and dims";
    /// How values map to area: `sqrt` (the default) or `linear`.
    size_scale(&str): String,
        takes "\"sqrt\" or \"linear\"",
        flag Text, "How size values map to area: sqrt (the default) or linear";
    /// Shade everything downstream of an edit.
    show_cone(bool): bool = false,
        takes "True or False",
        flag Switch, "Shade everything downstream of an edit";
    /// Add the saved-for-backward row.
    show_saved_for_backward(bool): bool = false,
        takes "True or False",
        flag Switch, "Add a row with the tensors each operation kept for the backward pass";
    /// Show arguments the shapes already imply.
    show_redundant_args(bool): bool = false,
        takes "True or False",
        flag Switch, "Show arguments the node's shapes already imply";
    /// Write each tensor's shape on its arrow.
    show_edge_shapes(bool): bool = false,
        takes "True or False",
        flag Switch, "Write each tensor's shape on its arrow";
    /// Backward drawings: module and parameter rows.
    show_module_paths(bool): bool = false,
        takes "True or False",
        flag Switch, "Backward drawings: module and parameter rows";
    /// Backward drawings: gradient norm and largest value.
    show_grad_values(bool): bool = false,
        takes "True or False",
        flag Switch, "Backward drawings: gradient norm and largest absolute value";
    /// Which program lays the graph out.
    layout_engine(LayoutEngine): LayoutEngine = LayoutEngine::Auto,
        takes "\"auto\", \"embedded\", \"layered\" or \"dot\"",
        flag Text, "Layout engine: auto (the default: embedded for drawings it lays out in about a second, layered above), embedded (graphviz-pure, Graphviz's dot algorithm), layered (tl-draw's own, linear time) or dot (the system's Graphviz)";
    /// Pictures captured as the input: thumbnail or plain node.
    batch_render(BatchRender): BatchRender = BatchRender::Auto,
        takes "\"auto\" or \"shape_only\"",
        flag Text, "Pictures captured as the input: auto (a thumbnail) or shape_only (the plain node)";
    /// Refuse to lay out more drawn nodes than this; `force` lifts it.
    max_nodes(usize): usize = DEFAULT_MAX_NODES,
        takes "a whole number of at least 0",
        flag Int, "Refuse drawings with more nodes than this (default 100000; Graphviz's dot algorithm, asked for by name, stops at 5000)";
    /// Refuse to lay out a drawing whose estimated layout cost (drawn plus virtual nodes,
    /// [`tl_layout::guard::layout_cost`]) is higher than this; the hub limit
    /// ([`tl_layout::guard::DEFAULT_MAX_HUB_LOAD`]) moves in proportion; `force` lifts both.
    max_layout_cost(usize): usize = DEFAULT_MAX_LAYOUT_COST,
        takes "a whole number of at least 0",
        flag Int, "Refuse drawings whose layout would place more nodes, drawn and virtual (one per rank an arrow crosses), than this: about 10 s of layout (default 200000; the limit on one node read by many far apart moves with it)";
    /// Lay out however many nodes there are.
    force(bool): bool = false,
        takes "True or False",
        flag Switch, "Lay out however many nodes the drawing has";
}

impl DrawOptions {
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

    /// Sets a difference scale (bundle diffs).
    pub(crate) fn with_difference_scale(mut self) -> Self {
        self.difference_scale = true;
        self
    }

    /// [`Settings::check_supported`] of these options' settings.
    pub fn check_supported(&self) -> Result<Theme, DrawError> {
        self.settings().check_supported()
    }
}

impl Settings {
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

    /// The direction the drawing flows in: `direction=`, else the graph's default
    /// (forward: bottom-up, backward: top-down, combined: left to right).
    pub fn flow(&self) -> Direction {
        self.direction.unwrap_or(match self.graph {
            GraphKind::Forward => Direction::BottomUp,
            GraphKind::Backward => Direction::TopDown,
            GraphKind::Combined => Direction::LeftRight,
        })
    }

    /// Validates values the setters could not (the collapse level) and
    /// combinations that cannot be drawn, with a clear error.
    pub fn check_supported(&self) -> Result<Theme, DrawError> {
        if let Collapse::Level(level) = self.collapse {
            if !(0.0..=1.0).contains(&level) {
                return Err(DrawError::invalid(
                    "collapse_level_invalid",
                    format!("collapse float level must be in [0.0, 1.0]; received {level}"),
                ));
            }
        }
        if self.module.is_some() && self.graph != GraphKind::Forward {
            return Err(DrawError::invalid(
                "module_focus_graph_invalid",
                format!(
                    "module= focuses the forward graph only; graph=\"{}\" cannot be focused: drop module= or draw graph=\"forward\"",
                    self.graph.name()
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
        Ok(Theme::named(self.theme))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
