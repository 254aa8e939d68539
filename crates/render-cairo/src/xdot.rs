//! The layout engine's `json` output: the bounding box and, per graph, cluster, node and
//! edge, the xdot drawing operations (drawing-spec stack notes). Written here because the
//! `xdot` crate is GPL-3.0.

use serde::Deserialize;

/// A point in layout coordinates (points, y up).
pub type Point = [f64; 2];

/// One colour stop of a gradient.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Stop {
    /// Position, 0 to 1.
    pub frac: f64,
    /// Colour, `#rrggbb[aa]`.
    pub color: String,
}

/// A pen or fill colour: plain, linear or radial gradient.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ColorSpec {
    /// `none`, `linear` or `radial`.
    pub grad: String,
    /// The colour when `grad` is `none`.
    #[serde(default)]
    pub color: Option<String>,
    /// Gradient start: `[x, y]` (linear) or `[x, y, r]` (radial).
    #[serde(default)]
    pub p0: Option<Vec<f64>>,
    /// Gradient end.
    #[serde(default)]
    pub p1: Option<Vec<f64>>,
    /// Gradient stops.
    #[serde(default)]
    pub stops: Vec<Stop>,
}

/// One xdot drawing operation. In JSON, `B` is the filled b-spline and `b` the unfilled
/// one (the reverse of xdot text).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "op")]
pub enum Op {
    /// Filled ellipse: `rect` is centre x, centre y, half width, half height.
    #[serde(rename = "E")]
    FilledEllipse {
        /// Centre and half-axes.
        rect: [f64; 4],
    },
    /// Outlined ellipse.
    #[serde(rename = "e")]
    Ellipse {
        /// Centre and half-axes.
        rect: [f64; 4],
    },
    /// Filled polygon.
    #[serde(rename = "P")]
    FilledPolygon {
        /// Corners.
        points: Vec<Point>,
    },
    /// Outlined polygon.
    #[serde(rename = "p")]
    Polygon {
        /// Corners.
        points: Vec<Point>,
    },
    /// Polyline.
    #[serde(rename = "L")]
    Polyline {
        /// Points.
        points: Vec<Point>,
    },
    /// Filled cubic b-spline: first point, then control-point triples.
    #[serde(rename = "B")]
    FilledBspline {
        /// Points.
        points: Vec<Point>,
    },
    /// Unfilled cubic b-spline.
    #[serde(rename = "b")]
    Bspline {
        /// Points.
        points: Vec<Point>,
    },
    /// Fill colour.
    #[serde(rename = "C")]
    FillColor(ColorSpec),
    /// Pen colour (lines and text).
    #[serde(rename = "c")]
    PenColor(ColorSpec),
    /// Line style: `solid`, `dashed`, `dotted`, `bold`, `invis`, `setlinewidth(n)`.
    #[serde(rename = "S")]
    Style {
        /// The style.
        style: String,
    },
    /// Font size and name.
    #[serde(rename = "F")]
    Font {
        /// Size in points.
        size: f64,
        /// Font name (`Helvetica`, `Times-Roman`).
        face: String,
    },
    /// Font flags: 1 bold, 2 italic, 4 underline, 8 superscript, 16 subscript, 32 strike.
    #[serde(rename = "t")]
    FontFlags {
        /// The flags.
        fontchar: u32,
    },
    /// Text at a baseline point, aligned `l`, `c` or `r`, fitted to `width`.
    #[serde(rename = "T")]
    Text {
        /// Baseline anchor.
        pt: Point,
        /// Alignment.
        align: String,
        /// Width the layout reserved.
        width: f64,
        /// The text.
        text: String,
    },
    /// An image (its rectangle comes from the xdot text output; see the stack notes).
    #[serde(rename = "I")]
    Image {},
}

/// A laid-out node or cluster.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Object {
    /// Node id or cluster name.
    pub name: String,
    /// Shape and fill operations.
    #[serde(rename = "_draw_", default)]
    pub draw: Vec<Op>,
    /// Label operations.
    #[serde(rename = "_ldraw_", default)]
    pub label: Vec<Op>,
    /// Index of the object (clusters first, then nodes).
    #[serde(rename = "_gvid")]
    pub gvid: usize,
    /// Cluster members (object indices), present on clusters only.
    #[serde(default)]
    pub nodes: Vec<usize>,
    /// Sub-clusters (object indices), present on clusters only.
    #[serde(default)]
    pub subgraphs: Vec<usize>,
}

/// A laid-out edge.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct EdgeGeometry {
    /// Object index of the tail node.
    pub tail: usize,
    /// Object index of the head node.
    pub head: usize,
    /// The spline.
    #[serde(rename = "_draw_", default)]
    pub draw: Vec<Op>,
    /// Arrow head.
    #[serde(rename = "_hdraw_", default)]
    pub head_arrow: Vec<Op>,
    /// Arrow tail.
    #[serde(rename = "_tdraw_", default)]
    pub tail_arrow: Vec<Op>,
    /// Middle label.
    #[serde(rename = "_ldraw_", default)]
    pub label: Vec<Op>,
    /// Head label.
    #[serde(rename = "_hldraw_", default)]
    pub head_label: Vec<Op>,
    /// Tail label.
    #[serde(rename = "_tldraw_", default)]
    pub tail_label: Vec<Op>,
}

/// The whole laid-out graph.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Layout {
    /// Bounding box `llx,lly,urx,ury` in points.
    pub bb: String,
    /// Background.
    #[serde(rename = "_draw_", default)]
    pub draw: Vec<Op>,
    /// The graph label (header).
    #[serde(rename = "_ldraw_", default)]
    pub label: Vec<Op>,
    /// Number of clusters (they come first in `objects`).
    #[serde(rename = "_subgraph_cnt", default)]
    pub subgraph_count: usize,
    /// Clusters, then nodes.
    #[serde(default)]
    pub objects: Vec<Object>,
    /// Edges.
    #[serde(default)]
    pub edges: Vec<EdgeGeometry>,
}

impl Layout {
    /// Parses the `json` output of graphviz-pure or `dot -Tjson`.
    pub fn parse(json: &str) -> Result<Layout, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// The bounding box as `(llx, lly, urx, ury)`.
    pub fn bounding_box(&self) -> Option<(f64, f64, f64, f64)> {
        let parts: Vec<f64> = self
            .bb
            .split(',')
            .map(|p| p.trim().parse().ok())
            .collect::<Option<_>>()?;
        match parts.as_slice() {
            [llx, lly, urx, ury] => Some((*llx, *lly, *urx, *ury)),
            _ => None,
        }
    }

    /// Whether an object index is a cluster.
    pub fn is_cluster(&self, index: usize) -> bool {
        index < self.subgraph_count
    }
}
