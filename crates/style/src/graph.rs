//! The styled graph: every drawn node, arrow and cluster with its final text rows, shape,
//! colours and line styles. It is what `tl-dot-emit` turns into DOT; text here is plain
//! (unescaped) and colours are Graphviz colour strings.

use std::borrow::Cow;

/// A line of text in a node, header or legend.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The text, unescaped.
    pub text: String,
    /// Drawn in bold.
    pub bold: bool,
}

impl Row {
    /// A plain row.
    pub fn plain(text: impl Into<String>) -> Row {
        Row {
            text: text.into(),
            bold: false,
        }
    }

    /// A bold row.
    pub fn bold(text: impl Into<String>) -> Row {
        Row {
            text: text.into(),
            bold: true,
        }
    }
}

/// Node shapes (Graphviz names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A plain operation, input or output.
    Oval,
    /// An operation that was a module call's whole work.
    Box,
    /// A whole module drawn as one node.
    Box3d,
    /// A buffer version.
    Cylinder,
    /// Text only (the legend).
    Plaintext,
}

impl Shape {
    /// The Graphviz shape name.
    pub fn dot_name(self) -> &'static str {
        match self {
            Shape::Oval => "oval",
            Shape::Box => "box",
            Shape::Box3d => "box3d",
            Shape::Cylinder => "cylinder",
            Shape::Plaintext => "plaintext",
        }
    }
}

/// A fill: one colour, or a left-to-right two-colour gradient.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fill {
    /// One colour.
    Solid(String),
    /// Two colours side by side (`a:b`, `gradangle=0`).
    Gradient(String, String),
}

/// A picture drawn in its own cell above a node's rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodePicture {
    /// The PNG file's bytes.
    pub png: Vec<u8>,
    /// Width in pixels (drawn at one point per pixel).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Where the layout engine reads it: a content-addressed file name
    /// (`tl-picture-<hash>.png`), which the drawing step names relatively
    /// (`tl-draw-pictures/tl-picture-<hash>.png`) and writes to a private folder per render,
    /// or beside a `.dot` output.
    pub file: String,
}

impl NodePicture {
    /// A picture named after its content, so the same picture always gets the same file.
    pub fn new(png: Vec<u8>, width: u32, height: u32) -> NodePicture {
        // FNV-1a: stable across Rust versions and platforms, unlike the std hasher.
        let hash = png.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
        NodePicture {
            png,
            width,
            height,
            file: format!("tl-picture-{hash:016x}.png"),
        }
    }
}

/// A drawn node.
#[derive(Debug, Clone, PartialEq)]
pub struct StyledNode {
    /// Graphviz node id (unique, stable).
    pub id: String,
    /// Text rows, top to bottom.
    pub rows: Vec<Row>,
    /// Shape.
    pub shape: Shape,
    /// Fill.
    pub fill: Fill,
    /// Border colour.
    pub border: String,
    /// Text colour.
    pub font_color: String,
    /// Dashed border (computed without any model input).
    pub dashed: bool,
    /// Rounded corners (nodes carrying a picture).
    pub rounded: bool,
    /// A picture above the rows.
    pub picture: Option<NodePicture>,
    /// Number of borders when not 1.
    pub peripheries: Option<u32>,
    /// Border width when not the default.
    pub penwidth: Option<f64>,
    /// Hover text.
    pub tooltip: Option<String>,
    /// Smallest width and height in inches (`size_by=`); text may make the node larger.
    pub min_size: Option<(f64, f64)>,
    /// Index into [`StyledGraph::clusters`] of the innermost cluster.
    pub cluster: Option<usize>,
}

impl StyledNode {
    /// A node with its identity, rows and colours; solid single border, no picture,
    /// tooltip or size, not in a cluster: the rest is set where it differs.
    pub fn new(
        id: String,
        rows: Vec<Row>,
        shape: Shape,
        fill: Fill,
        border: String,
        font_color: String,
    ) -> StyledNode {
        StyledNode {
            id,
            rows,
            shape,
            fill,
            border,
            font_color,
            dashed: false,
            rounded: false,
            picture: None,
            peripheries: None,
            penwidth: None,
            tooltip: None,
            min_size: None,
            cluster: None,
        }
    }
}

/// How a piece of arrow text is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeTextSize {
    /// Small annotation (8 pt): argument positions, `xN`, pass labels, shapes.
    Note,
    /// A word that names the arrow (12 pt): the backward `accum`.
    Word,
    /// Large, bold and underlined (18 pt): `IF`, `THEN`.
    Emphasis,
}

/// A piece of text on an arrow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeText {
    /// The text.
    pub text: String,
    /// How it is set.
    pub size: EdgeTextSize,
}

/// A drawn arrow.
#[derive(Debug, Clone, PartialEq)]
pub struct StyledEdge {
    /// Source node index.
    pub from: usize,
    /// Destination node index.
    pub to: usize,
    /// Dashed (its source was computed without any model input).
    pub dashed: bool,
    /// Lines written at the arrow head (argument positions, rolled `In` passes).
    pub head_label: Vec<String>,
    /// Lines written at the arrow tail (rolled `Out` passes).
    pub tail_label: Vec<String>,
    /// Lines written at the middle of the arrow.
    pub label: Vec<EdgeText>,
    /// The middle label is placed after layout beside the arrow (Graphviz `xlabel`) instead
    /// of taking a layout rank of its own. Set for the argument labels of an operation with
    /// many drawn parents: a DenseNet's concatenations gave 573 such labels, and as ranked
    /// labels they made layout 7x slower (4.6 s instead of 0.85 s) for the same reading.
    pub label_floats: bool,
    /// How it is drawn when it differs from a forward arrow (backward and gradient arrows).
    pub look: Option<EdgeLook>,
}

/// The look of a non-forward arrow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeLook {
    /// Line colour.
    pub color: String,
    /// Text colour: a shade of the line's that reads on the page (4.5:1 or more), since a
    /// light line colour is too faint for 10-pt text.
    pub font_color: String,
    /// Dotted line (gradient accumulated into a parameter).
    pub dotted: bool,
    /// Whether the arrow shapes the layout (`constraint=false` links two flows).
    pub constraint: bool,
    /// Hover text.
    pub tooltip: Option<String>,
}

/// An open module call drawn as a box around its nodes.
#[derive(Debug, Clone, PartialEq)]
pub struct StyledCluster {
    /// Graphviz subgraph name (starts with `cluster`).
    pub id: String,
    /// Enclosing cluster.
    pub parent: Option<usize>,
    /// Bold caption line, `@features`.
    pub title: String,
    /// Second caption line, `(Sequential)`.
    pub subtitle: String,
    /// Border width: thick for outer modules, thinner with depth.
    pub penwidth: f64,
    /// Dashed border.
    pub dashed: bool,
    /// Fill colour.
    pub fill: String,
    /// Border colour.
    pub border: String,
    /// Caption colour.
    pub font_color: String,
    /// Space between the frame and what it holds, in points (wider where long arrows run
    /// beside the contents).
    pub margin: u32,
}

/// The usual space between a module frame and what it holds, in points.
pub const FRAME_MARGIN: u32 = 20;

/// One line of the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegendEntry {
    /// The colour sample, if the entry is about a fill.
    pub swatch: Option<Fill>,
    /// The sample is a ring: an outline of the swatch colour around the page fill, as the
    /// input and output are drawn under `color_by=` (their fill belongs to the scale).
    pub ring: bool,
    /// What it means.
    pub text: String,
}

/// The colour bar of a `color_by=` key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColorBar {
    /// `time: 0.098 ms ... 1.46 ms`.
    pub label: String,
    /// Samples of the ramp, lowest value first.
    pub swatches: Vec<String>,
    /// The lowest value, written at the bar's left end (`0.098 ms`).
    pub low: String,
    /// The highest value, written at the bar's right end (`1.46 ms`).
    pub high: String,
}

/// The key of a drawing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Legend {
    /// Title row.
    pub title: String,
    /// The colour bar, with `color_by=`.
    pub bar: Option<ColorBar>,
    /// Entries, in reading order.
    pub entries: Vec<LegendEntry>,
    /// Border colour.
    pub ink: String,
    /// Text colour.
    pub text: String,
    /// Background.
    pub fill: String,
}

/// Graph-wide attributes.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphStyle {
    /// Graphviz `rankdir` (`BT`, `TB`, `LR`, `RL`).
    pub rankdir: &'static str,
    /// Page colour.
    pub page: String,
    /// Font family of every text.
    pub font: String,
    /// Header text colour.
    pub font_color: String,
    /// Arrow colour.
    pub edge_color: String,
    /// Arrow text colour.
    pub edge_font_color: String,
    /// Arrow line width.
    pub edge_penwidth: f64,
}

impl GraphStyle {
    /// The graph-wide attributes of `theme`, flowing as `direction` says.
    pub(crate) fn of(direction: crate::Direction, theme: &crate::Theme) -> GraphStyle {
        GraphStyle {
            rankdir: direction.rankdir(),
            page: theme.page.clone(),
            font: theme.font.clone(),
            font_color: theme.font_color.clone(),
            edge_color: theme.edge_color.clone(),
            edge_font_color: theme.edge_font_color.clone(),
            edge_penwidth: theme.edge_penwidth,
        }
    }
}

impl Legend {
    /// A key titled `Key` in `theme`'s colours.
    pub(crate) fn keyed(entries: Vec<LegendEntry>, theme: &crate::Theme) -> Legend {
        Legend {
            title: "Key".to_owned(),
            bar: None,
            entries,
            ink: theme.node_border.clone(),
            text: theme.font_color.clone(),
            fill: theme.page.clone(),
        }
    }
}

/// A complete styled drawing.
#[derive(Debug, Clone, PartialEq)]
pub struct StyledGraph {
    /// Graph name (the model class).
    pub name: String,
    /// A comment line for the DOT source.
    pub comment: String,
    /// Graph-wide attributes.
    pub style: GraphStyle,
    /// Header lines at the top left.
    pub header: Vec<Row>,
    /// Nodes.
    pub nodes: Vec<StyledNode>,
    /// Arrows.
    pub edges: Vec<StyledEdge>,
    /// Clusters, each after its parent.
    pub clusters: Vec<StyledCluster>,
    /// Nodes pinned to the far end of the flow: the last output (only it, as in TorchLens).
    pub sink: Vec<usize>,
    /// The key, when shown.
    pub legend: Option<Legend>,
}

/// `id` spelled so that Graphviz hands it back unchanged as the SVG's `<title>` (which
/// the page and the cone shading read): `%`, `&`, `\\` and control characters are
/// percent-encoded (`%26`). Graphviz keeps a name's backslashes doubled and writes `&lt;`
/// through as an entity, so `&lt;` and `<`, or `a\\b` and `a\\\\b`, would come back alike.
/// Ids of real traces hold none of these and stay as they are.
pub fn graphviz_safe_id(id: &str) -> Cow<'_, str> {
    let unsafe_char = |ch: char| {
        matches!(ch, '%' | '&' | '\\') || ch.is_control() || crate::format::is_hidden_control(ch)
    };
    if !id.contains(unsafe_char) {
        return Cow::Borrowed(id);
    }
    let mut safe = String::with_capacity(id.len() + 8);
    for ch in id.chars() {
        if unsafe_char(ch) {
            let mut bytes = [0; 4];
            for byte in ch.encode_utf8(&mut bytes).bytes() {
                safe.push_str(&format!("%{byte:02X}"));
            }
        } else {
            safe.push(ch);
        }
    }
    Cow::Owned(safe)
}

/// Makes the ids of `graph` what Graphviz and the page can read back: every node and
/// frame id made safe ([`graphviz_safe_id`]), node ids made unique ([`make_ids_unique`]).
pub fn settle_ids(graph: &mut StyledGraph) {
    for cluster in &mut graph.clusters {
        if let Cow::Owned(id) = graphviz_safe_id(&cluster.id) {
            cluster.id = id;
        }
    }
    make_ids_unique(&mut graph.nodes);
}

/// Makes every node id safe for Graphviz ([`graphviz_safe_id`]) and unique: a node whose id an earlier node already has gets the first
/// free `~2`, `~3`, ... suffix. Ids come from trace labels (`linear_1_1:1` is drawn as
/// `linear_1_1pass1`), so a hostile trace could name two records alike, which would merge
/// two nodes into one in the DOT; ids of real traces never change. Deterministic: the
/// suffixes follow node order.
pub fn make_ids_unique(nodes: &mut [StyledNode]) {
    for node in nodes.iter_mut() {
        if let Cow::Owned(id) = graphviz_safe_id(&node.id) {
            node.id = id;
        }
    }
    // Real traces never clash: check with borrowed ids, copy them only when some do.
    let mut seen = std::collections::HashSet::with_capacity(nodes.len());
    if nodes.iter().all(|n| seen.insert(n.id.as_str())) {
        return;
    }
    drop(seen);
    let taken: std::collections::HashSet<String> = nodes.iter().map(|n| n.id.clone()).collect();
    let mut used: std::collections::HashSet<String> = std::collections::HashSet::new();
    for node in nodes.iter_mut() {
        if used.insert(node.id.clone()) {
            continue;
        }
        let id = (2..)
            .map(|k| format!("{}~{k}", node.id))
            .find(|id| !taken.contains(id) && !used.contains(id))
            .expect("an unbounded suffix range has a free id");
        used.insert(id.clone());
        node.id = id;
    }
}

#[cfg(test)]
mod unique_id_tests {
    use super::*;

    fn node(id: &str) -> StyledNode {
        StyledNode::new(
            id.to_owned(),
            Vec::new(),
            Shape::Box,
            Fill::Solid("white".to_owned()),
            "black".to_owned(),
            "black".to_owned(),
        )
    }

    #[test]
    fn clashing_ids_get_free_suffixes_and_unique_ones_stay() {
        let mut nodes = vec![node("a"), node("b"), node("a"), node("a~2"), node("a")];
        make_ids_unique(&mut nodes);
        let ids: Vec<&str> = nodes.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "a~3", "a~2", "a~4"]);
        let mut plain = vec![node("x"), node("y")];
        make_ids_unique(&mut plain);
        assert_eq!(plain[1].id, "y");
    }
}
