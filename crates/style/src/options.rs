//! The style-level drawing options and the names users spell them with.

use tl_collapse::BufferVisibility;

/// Which way the graph flows (`direction=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Inputs at the bottom (forward default).
    BottomUp,
    /// Inputs at the top (backward default).
    TopDown,
    /// Inputs at the left (combined default).
    LeftRight,
    /// Inputs at the right.
    RightLeft,
}

impl Direction {
    /// Every accepted spelling.
    pub const NAMES: [&'static str; 4] = ["bottomup", "topdown", "leftright", "rightleft"];

    /// Parses `bottomup`, `topdown`, `leftright` or `rightleft`.
    pub fn parse(name: &str) -> Option<Direction> {
        match name {
            "bottomup" => Some(Direction::BottomUp),
            "topdown" => Some(Direction::TopDown),
            "leftright" => Some(Direction::LeftRight),
            "rightleft" => Some(Direction::RightLeft),
            _ => None,
        }
    }

    /// Graphviz `rankdir`.
    pub fn rankdir(self) -> &'static str {
        match self {
            Direction::BottomUp => "BT",
            Direction::TopDown => "TB",
            Direction::LeftRight => "LR",
            Direction::RightLeft => "RL",
        }
    }
}

/// Extra rows a node style adds (`node_style=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NodeStyle {
    /// The rows of the guide.
    #[default]
    Default,
    /// Plus `t=`, `out=`, `call=`, `fn=` rows.
    Profiling,
}

impl NodeStyle {
    /// Every accepted spelling.
    pub const NAMES: [&'static str; 2] = ["default", "profiling"];

    /// Parses `default` or `profiling`.
    pub fn parse(name: &str) -> Option<NodeStyle> {
        match name {
            "default" => Some(NodeStyle::Default),
            "profiling" => Some(NodeStyle::Profiling),
            _ => None,
        }
    }
}

/// A row `node_label_fields=` can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelField {
    /// The node's name.
    Name,
    /// The function that ran (`linear`; `none` for inputs and outputs).
    Type,
    /// Output shape only.
    Shape,
    /// Output element type.
    Dtype,
    /// Output size.
    Memory,
    /// `@module` address (`@root` outside every module).
    Module,
    /// Parameter row.
    Params,
    /// Pass of the layer.
    Pass,
    /// Forward FLOPs.
    Flops,
    /// Wall time.
    Time,
}

impl LabelField {
    /// Every accepted spelling, aliases included.
    pub const NAMES: [&'static str; 14] = [
        "name",
        "label",
        "type",
        "op",
        "operation",
        "shape",
        "dtype",
        "memory",
        "bytes",
        "module",
        "params",
        "pass",
        "flops",
        "time",
    ];

    /// Parses a field name or alias.
    pub fn parse(name: &str) -> Option<LabelField> {
        Some(match name {
            "name" | "label" => LabelField::Name,
            "type" | "op" | "operation" => LabelField::Type,
            "shape" => LabelField::Shape,
            "dtype" => LabelField::Dtype,
            "memory" | "bytes" => LabelField::Memory,
            "module" => LabelField::Module,
            "params" => LabelField::Params,
            "pass" => LabelField::Pass,
            "flops" => LabelField::Flops,
            "time" => LabelField::Time,
            _ => return None,
        })
    }
}

/// Everything the styling of a forward drawing depends on besides the trace.
#[derive(Debug, Clone, PartialEq)]
pub struct StyleOptions {
    /// Flow direction.
    pub direction: Direction,
    /// Rows to show instead of the default ones.
    pub node_label_fields: Option<Vec<LabelField>>,
    /// Add the saved-for-backward row.
    pub show_saved_for_backward: bool,
    /// Show arguments the node's shapes already imply.
    pub show_redundant_args: bool,
    /// Extra rows.
    pub node_style: NodeStyle,
    /// `None`: automatic (no key yet on plain forward drawings); `Some(true)`: always.
    pub show_legend: Option<bool>,
    /// Buffer visibility (it changes node shapes and borders).
    pub buffers: BufferVisibility,
    /// Draw the input photo's thumbnail (`batch_render="shape_only"` turns it off; the
    /// guide: it "draws the plain node instead"). Annotation pictures and feature-map grids
    /// are always drawn: they are what the user asked to see.
    pub show_input_photo: bool,
    /// The focused module (`module=`), for the header and the reading key.
    pub focus: Option<String>,
    /// Write each tensor's shape on its arrow (`show_edge_shapes=`).
    pub show_edge_shapes: bool,
    /// Colour and size by value (`color_by=`, `size_by=`).
    pub encoding: crate::encoding::Encoding,
    /// Backward drawings: `module ...` and `param ...` rows.
    pub show_module_paths: bool,
    /// Backward drawings: the norm and largest absolute value of each saved gradient.
    pub show_grad_values: bool,
    /// `view="interventions"` marks: also every op whose value changed, with its change.
    pub interventions: bool,
}

impl Default for StyleOptions {
    fn default() -> Self {
        StyleOptions {
            direction: Direction::BottomUp,
            node_label_fields: None,
            show_saved_for_backward: false,
            show_redundant_args: false,
            node_style: NodeStyle::Default,
            show_legend: None,
            buffers: BufferVisibility::Meaningful,
            show_input_photo: true,
            focus: None,
            show_edge_shapes: false,
            encoding: crate::encoding::Encoding::default(),
            show_module_paths: false,
            show_grad_values: false,
            interventions: false,
        }
    }
}
