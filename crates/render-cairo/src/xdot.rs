//! The layout engine's `json` output: the bounding box and, per graph, cluster, node and
//! edge, the xdot drawing operations (the layout engine's `-Tjson` output). Written here because the
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
}

/// An operation list. Image operations come out of the `json` output as empty objects
/// (`{}`); they carry nothing and are skipped (see [`image_placements`]).
fn op_list<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<Op>, D::Error> {
    let ops: Vec<MaybeOp> = Vec::deserialize(deserializer)?;
    Ok(ops
        .into_iter()
        .filter_map(|op| match op {
            MaybeOp::Op(op) => Some(op),
            MaybeOp::Image(Empty {}) => None,
        })
        .collect())
}

/// An element of an operation list: an operation, or the empty object an image comes out as.
/// Anything else (an operation this painter does not know) is an error.
#[derive(Deserialize)]
#[serde(untagged)]
enum MaybeOp {
    Op(Op),
    Image(Empty),
}

/// `{}`, and nothing else.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

/// A laid-out node or cluster.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Object {
    /// Node id or cluster name.
    pub name: String,
    /// Shape and fill operations.
    #[serde(rename = "_draw_", default, deserialize_with = "op_list")]
    pub draw: Vec<Op>,
    /// Label operations.
    #[serde(rename = "_ldraw_", default, deserialize_with = "op_list")]
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
    #[serde(rename = "_draw_", default, deserialize_with = "op_list")]
    pub draw: Vec<Op>,
    /// Arrow head.
    #[serde(rename = "_hdraw_", default, deserialize_with = "op_list")]
    pub head_arrow: Vec<Op>,
    /// Arrow tail.
    #[serde(rename = "_tdraw_", default, deserialize_with = "op_list")]
    pub tail_arrow: Vec<Op>,
    /// Middle label.
    #[serde(rename = "_ldraw_", default, deserialize_with = "op_list")]
    pub label: Vec<Op>,
    /// Head label.
    #[serde(rename = "_hldraw_", default, deserialize_with = "op_list")]
    pub head_label: Vec<Op>,
    /// Tail label.
    #[serde(rename = "_tldraw_", default, deserialize_with = "op_list")]
    pub tail_label: Vec<Op>,
}

impl EdgeGeometry {
    /// The edge's operation lists in Graphviz's paint order: spline, arrow head and tail,
    /// then the labels.
    pub fn op_lists(&self) -> [&[Op]; 6] {
        [
            &self.draw,
            &self.head_arrow,
            &self.tail_arrow,
            &self.label,
            &self.head_label,
            &self.tail_label,
        ]
    }
}

/// The whole laid-out graph.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Layout {
    /// Bounding box `llx,lly,urx,ury` in points.
    pub bb: String,
    /// Background.
    #[serde(rename = "_draw_", default, deserialize_with = "op_list")]
    pub draw: Vec<Op>,
    /// The graph label (header).
    #[serde(rename = "_ldraw_", default, deserialize_with = "op_list")]
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

/// Where the layout placed a node picture: the file and its rectangle (lower-left corner,
/// width, height, in layout points).
#[derive(Debug, Clone, PartialEq)]
pub struct ImagePlacement {
    /// The picture file the DOT named.
    pub file: String,
    /// `[x, y, width, height]`, `(x, y)` the lower-left corner.
    pub rect: [f64; 4],
}

/// The pictures of an `xdot` text render. The `json` output cannot carry them (its image
/// operations come out empty), so they are read from the `_ldraw_` attributes of the `xdot`
/// render of the same laid-out graph.
pub fn image_placements(xdot: &str) -> Vec<ImagePlacement> {
    let mut placements = Vec::new();
    let mut rest = xdot;
    while let Some(start) = rest.find("_ldraw_=\"") {
        rest = &rest[start + "_ldraw_=\"".len()..];
        let (value, after) = dot_string(rest);
        rest = after;
        placements.extend(images_in(&value));
    }
    placements
}

/// The body of a DOT double-quoted string (line continuations removed, `\"` unescaped) and
/// what follows its closing quote.
fn dot_string(text: &str) -> (String, &str) {
    let mut value = String::new();
    let mut chars = text.char_indices();
    while let Some((i, ch)) = chars.next() {
        match ch {
            '"' => return (value, &text[i + 1..]),
            '\\' => match chars.next() {
                Some((_, '\n')) => {}
                Some((_, '"')) => value.push('"'),
                Some((_, other)) => {
                    value.push('\\');
                    value.push(other);
                }
                None => value.push('\\'),
            },
            _ => value.push(ch),
        }
    }
    (value, "")
}

/// Walks an xdot operation stream and returns its image operations.
fn images_in(ops: &str) -> Vec<ImagePlacement> {
    let mut images = Vec::new();
    let mut cursor = Cursor { text: ops, at: 0 };
    while let Some(op) = cursor.word() {
        let numbers = |cursor: &mut Cursor<'_>, n: usize| -> Option<Vec<f64>> {
            (0..n).map(|_| cursor.word()?.parse().ok()).collect()
        };
        let ok = match op {
            "E" | "e" => numbers(&mut cursor, 4).is_some(),
            "P" | "p" | "L" | "B" | "b" => cursor
                .word()
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| numbers(&mut cursor, 2 * n))
                .is_some(),
            "T" => numbers(&mut cursor, 4).is_some() && cursor.string().is_some(),
            "t" => numbers(&mut cursor, 1).is_some(),
            "F" => numbers(&mut cursor, 1).is_some() && cursor.string().is_some(),
            "C" | "c" | "S" => cursor.string().is_some(),
            "I" => match (numbers(&mut cursor, 4), cursor.string()) {
                (Some(rect), Some(file)) => {
                    images.push(ImagePlacement {
                        file,
                        rect: [rect[0], rect[1], rect[2], rect[3]],
                    });
                    true
                }
                _ => false,
            },
            _ => false,
        };
        if !ok {
            break;
        }
    }
    images
}

/// Reads xdot tokens: words, and `n -<n bytes>` strings.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn word(&mut self) -> Option<&'a str> {
        let rest = &self.text[self.at..];
        let start = rest.len() - rest.trim_start().len();
        let rest = &rest[start..];
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        self.at += start + end;
        Some(&rest[..end])
    }

    fn string(&mut self) -> Option<String> {
        let length: usize = self.word()?.parse().ok()?;
        let rest = &self.text[self.at..];
        let dash = rest.find('-')?;
        let start = self.at + dash + 1;
        let text = self.text.get(start..start + length)?;
        self.at = start + length;
        Some(text.replace("\\\\", "\\"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_found_among_other_operations() {
        let xdot = "a [_draw_=\"c 7 -#000000 \", _ldraw_=\"I 13 30.8 90 60 20 -/tmp/photo_thumb.png F 14 11 -Times-Roman c 7 -#000000 t 1 T 35.04 13.2 -1 45.91 7 -input_1 \"];";
        let images = image_placements(xdot);
        assert_eq!(
            images,
            [ImagePlacement {
                file: "/tmp/photo_thumb.png".to_owned(),
                rect: [13.0, 30.8, 90.0, 60.0]
            }]
        );
    }

    #[test]
    fn image_operations_are_skipped_and_unknown_ones_refused() {
        let layout = |ops: &str| {
            Layout::parse(&format!(
                r#"{{"bb": "0,0,10,10", "_draw_": [{ops}], "objects": [], "edges": []}}"#
            ))
        };
        let parsed = layout(r##"{"op": "c", "grad": "none", "color": "#000000"}, {}"##).unwrap();
        assert_eq!(parsed.draw.len(), 1);
        assert!(layout(r#"{"op": "Z", "points": []}"#).is_err());
        assert!(layout(r#"{"op": "L"}"#).is_err());
    }

    #[test]
    fn texts_that_look_like_operations_are_skipped() {
        let xdot = "_ldraw_=\"T 1 2 0 10 9 -I 1 2 3 4 \"";
        assert!(image_placements(xdot).is_empty());
    }
}
