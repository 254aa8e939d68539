//! The layered engine (`tl-layered`) behind the same DOT-in, text-out door as graphviz-pure.
//!
//! graphviz-pure parses the DOT and sizes every node, caption and label exactly as its `dot`
//! would (`input.rs`); `tl-layered` places them; the positions go back on the graph as
//! Graphviz's own attributes (`pos` on nodes and arrows, `bb` and `lp` on frames, `lp`/`xlp`/
//! `head_lp`/`tail_lp` on labels, `page.rs`) and as the layout results that graphviz-pure's
//! keep-positions path (`neato -n2`) would derive from them (`keep_positions.rs`, which
//! falls back to that path for graphs it does not cover); graphviz-pure's writers then
//! write the formats. So SVG, JSON, xdot and plain, and everything drawn from them, read the
//! same way whichever engine placed the nodes.

use std::borrow::Cow;

use graphviz_pure_core::{AttrSym, Graph};
use tl_layered::Size;

use self::input::{engine_input, Direction, Frames};
use self::keep_positions::{rounded, PlacedEdge, Placement};
use self::page::{num, push_num, Page};
use crate::engine::{TextFormat, Written};
use crate::error::LayoutError;
use crate::sizing::{self, Measured};

mod input;
mod keep_positions;
mod page;

const POINTS_PER_INCH: f64 = 72.0;

/// Who writes the layered engine's positions onto graphviz-pure's graph.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Writer {
    /// `keep_positions`, falling back to graphviz-pure's path for what it does not cover.
    Own,
    /// graphviz-pure's keep-positions path (`neato -n2`), always: the reference.
    Graphviz,
}

/// Lays `dot` out with the layered engine and writes each format.
pub(crate) fn lay_out(
    dot: &str,
    formats: &[TextFormat],
    writer: Writer,
) -> Result<Vec<Written>, LayoutError> {
    let drawn_only = formats
        .iter()
        .all(|&format| matches!(format, TextFormat::Svg | TextFormat::Painting));
    placed(Cow::Borrowed(dot), writer, drawn_only, |graph, measured| {
        crate::engine::write_formats(graph, formats, measured).map_err(|e| e.to_string())
    })
}

/// Lays `dot` out with the layered engine and hands its SVG to `chunks` as it is written,
/// in graphviz-pure's decoded form ([`crate::engine::lay_out_svg_into`] makes it text).
pub(crate) fn svg_into(dot: Cow<'_, str>, chunks: &mut dyn FnMut(&str)) -> Result<(), LayoutError> {
    placed(dot, Writer::Own, true, |graph, measured| {
        crate::engine::writers_job(graph, measured)
            .render_svg_into(chunks)
            .map_err(|e| e.to_string())
    })
}

/// Parses, sizes and places `dot` (an owned one is let go once parsed), has `writer` write
/// the positions on the graph, and gives `write` the laid-out graph, with the node
/// geometries when the writers can take them (graphviz-pure's keep-positions path sizes the
/// nodes again, so its writers measure again). `drawn_only`: only SVG or the painting will be
/// written, which read no position attributes when `keep_positions` writes the results
/// (the text formats print them).
fn placed<T>(
    dot: Cow<'_, str>,
    writer: Writer,
    drawn_only: bool,
    write: impl FnOnce(&Graph, Option<Measured>) -> Result<T, String>,
) -> Result<T, LayoutError> {
    let (result, _diagnostics) = graphviz_pure_core::diag::capture(|| {
        let mut graph = crate::engine::parsed_afresh(dot).map_err(|e| e.to_string())?;
        sizing::begin(&graph);
        let measured = sizing::size_nodes(&mut graph)?;
        let placement = place(&mut graph, &measured)?;
        let own = writer == Writer::Own && keep_positions::applies(&graph, &placement);
        if !(own && drawn_only) {
            write_position_attributes(&mut graph, &placement);
        }
        let measured = if own {
            keep_positions::write(&mut graph, placement);
            Some(measured)
        } else {
            drop(measured);
            keep_positions_by_graphviz(&mut graph)?;
            None
        };
        crate::progress::mark(crate::progress::Step::Writing);
        write(&graph, measured)
    });
    result.map_err(|detail| LayoutError::Failed {
        engine: "layered",
        detail,
    })
}

/// graphviz-pure's own keep-positions path (`neato -n2`), which reads the positions back
/// from the attributes [`place`] wrote: for graphs `keep_positions` does not cover, and as
/// the reference its results are compared with.
fn keep_positions_by_graphviz(graph: &mut Graph) -> Result<(), String> {
    graphviz_pure_layout::layout_graph(graph, graphviz_pure_layout::LayoutEngine::Nop2)
        .map_err(|e| e.to_string())
}

/// Places every node, frame, arrow and label of `graph` (its nodes sized, its arrows'
/// labels `measured`), and returns the positions as numbers, writing the frames' as
/// Graphviz attributes (`bb`, `lp`).
fn place(graph: &mut Graph, measured: &Measured) -> Result<Placement, String> {
    let direction = Direction::of(graph);
    crate::progress::mark(crate::progress::Step::Placing);
    let frames = Frames::of(graph);
    let (input, label_sizes) = engine_input(graph, direction, &frames, measured)?;
    let layout = tl_layered::lay_out(&input).map_err(|e| e.to_string())?;
    let page = Page::new(direction, &layout.bounds);
    let at = |p: tl_layered::Point| {
        let p = page.map(p);
        graphviz_pure_core::Point::new(rounded(p.x), rounded(p.y))
    };
    let mut placement = Placement {
        nodes: layout.nodes.iter().map(|&p| at(p)).collect(),
        edges: Vec::with_capacity(layout.edges.len()),
        frames: Vec::with_capacity(frames.subgraphs.len()),
    };
    for (route, sizes) in layout.edges.iter().zip(&label_sizes) {
        let centres = [
            route.label,
            route.floating_label,
            route.head_label,
            route.tail_label,
        ];
        let mut labels = [None; 4];
        for (index, centre) in centres.into_iter().enumerate() {
            labels[index] = centre
                .zip(sizes[index])
                .map(|(centre, size)| (at(centre), size));
        }
        placement.edges.push(PlacedEdge {
            points: route.points.iter().map(|&p| at(p)).collect(),
            tip: at(route.tip),
            labels,
        });
    }
    for (frame, &subgraph) in frames.subgraphs.iter().enumerate() {
        let (corner, far) = page.rect(&layout.frames[frame]);
        let (min, max) = (
            graphviz_pure_core::Point::new(rounded(corner.x), rounded(corner.y)),
            graphviz_pure_core::Point::new(rounded(far.x), rounded(far.y)),
        );
        let caption = input.frames[frame].caption;
        let caption = if direction.across() {
            Size {
                breadth: caption.depth,
                depth: caption.breadth,
            }
        } else {
            caption
        };
        // Captions sit at the frame's top left, as the guide draws them.
        let centre = graphviz_pure_core::Point::new(
            rounded(corner.x + caption.breadth / 2.0),
            rounded(far.y - caption.depth / 2.0),
        );
        let attrs = &mut graph.subgraphs[subgraph].graph_attrs;
        attrs.insert(
            "bb".to_owned(),
            format!(
                "{},{},{},{}",
                num(min.x),
                num(min.y),
                num(max.x),
                num(max.y)
            ),
        );
        attrs.insert(
            "lp".to_owned(),
            format!("{},{}", num(centre.x), num(centre.y)),
        );
        placement.frames.push((
            subgraph,
            graphviz_pure_core::BoundingBox::new(min.x, min.y, max.x, max.y),
            centre,
        ));
    }
    declare(graph);
    Ok(placement)
}

/// Writes the nodes' and arrows' positions as Graphviz's attributes (`pos`, and `lp`, `xlp`,
/// `head_lp`, `tail_lp` of each placed label), which graphviz-pure's keep-positions path
/// reads and the text formats print; an SVG or a painting (PDF, PNG) written from
/// [`keep_positions::write`]'s results reads none of them, so those do without these
/// strings (230,000 of them in a large drawing; 5% of DenseNet-121's PDF).
fn write_position_attributes(graph: &mut Graph, placement: &Placement) {
    for (node, p) in graph.nodes.iter_mut().zip(&placement.nodes) {
        node.attrs
            .insert("pos".to_owned(), format!("{},{}!", num(p.x), num(p.y)));
    }
    for (edge, placed) in graph.edges.iter_mut().zip(&placement.edges) {
        let mut pos = String::with_capacity(placed.points.len() * 16);
        pos.push('e');
        for p in std::iter::once(&placed.tip).chain(&placed.points) {
            pos.push(if pos.len() == 1 { ',' } else { ' ' });
            push_num(&mut pos, p.x);
            pos.push(',');
            push_num(&mut pos, p.y);
        }
        edge.attrs.insert("pos".to_owned(), pos);
        for (label, key) in placed
            .labels
            .iter()
            .zip(["lp", "xlp", "head_lp", "tail_lp"])
        {
            if let Some((centre, _)) = label {
                edge.attrs.insert(
                    key.to_owned(),
                    format!("{},{}", num(centre.x), num(centre.y)),
                );
            }
        }
    }
}

/// Graphviz reads a position only when its attribute is declared on the graph.
fn declare(graph: &mut Graph) {
    let Some(dicts) = graph.dicts.first_mut() else {
        return;
    };
    let mut next = dicts
        .graph
        .values()
        .chain(dicts.node.values())
        .chain(dicts.edge.values())
        .map(|s| s.id + 1)
        .max()
        .unwrap_or(0);
    let mut add = |map: &mut std::collections::BTreeMap<String, AttrSym>, key: &str| {
        map.entry(key.to_owned()).or_insert_with(|| {
            next += 1;
            AttrSym {
                print: true,
                id: next - 1,
                ..AttrSym::default()
            }
        });
    };
    add(&mut dicts.node, "pos");
    for key in ["pos", "lp", "xlp", "head_lp", "tail_lp"] {
        add(&mut dicts.edge, key);
    }
    for key in ["bb", "lp"] {
        add(&mut dicts.graph, key);
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{lay_out, LayoutEngine, TextFormat};

    const DOT: &str = r#"digraph G {
        graph [label="header" labeljust=l labelloc=t ordering=out rankdir=BT]
        node [shape=box]
        input -> a
        subgraph cluster_block {
            label="@block" labelloc=b margin=20
            a -> b
            b -> c [label="x2"]
            subgraph cluster_inner { label="@inner" margin=12  c -> d }
        }
        input -> d
        d -> output [xlabel="arg 1"]
        { rank=sink output }
    }"#;

    fn laid_out(dot: &str) -> serde_json::Value {
        let json = lay_out(dot, &[TextFormat::Json], LayoutEngine::Layered)
            .unwrap()
            .take(TextFormat::Json);
        serde_json::from_str(&json).unwrap()
    }

    #[test]
    fn the_layered_engine_writes_graphviz_json_with_frames_labels_and_no_crossed_node() {
        let json = laid_out(DOT);
        let objects = json["objects"].as_array().unwrap();
        let clusters: Vec<&serde_json::Value> = objects
            .iter()
            .filter(|o| o["name"].as_str().is_some_and(|n| n.starts_with("cluster")))
            .collect();
        assert_eq!(clusters.len(), 2);
        assert!(clusters.iter().all(|c| c["bb"].is_string()));
        let edges = json["edges"].as_array().unwrap();
        assert!(
            edges.iter().any(|e| e["lp"].is_string()),
            "the label is placed"
        );
        assert!(
            edges.iter().any(|e| e["xlp"].is_string()),
            "the floating label is placed"
        );
        let text = serde_json::to_string(&json).unwrap();
        let quality = crate::quality::measure(&text).unwrap();
        assert_eq!(quality.arrows_through_nodes, 0, "{quality:?}");
        assert_eq!(quality.frames_overlapping, 0, "{quality:?}");
        // Bottom to top: the output, pinned to the last layer, is above the input.
        let y = |name: &str| -> f64 {
            let node = objects.iter().find(|o| o["name"] == name).unwrap();
            let pos = node["pos"].as_str().unwrap();
            pos.split(',').nth(1).unwrap().parse().unwrap()
        };
        assert!(y("output") > y("d") && y("d") > y("input"));
    }

    #[test]
    fn every_direction_lays_out_and_the_same_dot_gives_the_same_text() {
        for direction in ["TB", "LR", "RL"] {
            let dot = DOT.replace("rankdir=BT", &format!("rankdir={direction}"));
            let first = lay_out(&dot, &[TextFormat::Svg], LayoutEngine::Layered)
                .unwrap()
                .take(TextFormat::Svg);
            crate::forget_recent_layouts();
            let again = lay_out(&dot, &[TextFormat::Svg], LayoutEngine::Layered)
                .unwrap()
                .take(TextFormat::Svg);
            assert!(first.contains("@inner"), "{direction}");
            assert_eq!(first, again, "{direction}");
        }
    }

    /// An SVG alone is written without the nodes' and arrows' position attributes; with
    /// another format beside it, they are on the graph. The SVG is the same either way.
    #[test]
    fn an_svg_alone_is_the_svg_written_beside_the_position_attributes() {
        for direction in ["BT", "LR"] {
            let dot = DOT.replace("rankdir=BT", &format!("rankdir={direction}"));
            crate::forget_recent_layouts();
            let alone = lay_out(&dot, &[TextFormat::Svg], LayoutEngine::Layered)
                .unwrap()
                .take(TextFormat::Svg);
            crate::forget_recent_layouts();
            let mut both = lay_out(
                &dot,
                &[TextFormat::Xdot, TextFormat::Svg],
                LayoutEngine::Layered,
            )
            .unwrap();
            assert!(both.take(TextFormat::Xdot).contains("lp="), "{direction}");
            assert_eq!(alone, both.take(TextFormat::Svg), "{direction}");
        }
    }

    #[test]
    fn coordinates_are_written_as_graphviz_writes_them() {
        assert_eq!(super::num(12.0), "12");
        assert_eq!(super::num(12.345), "12.35");
        assert_eq!(super::num(-0.001), "0");
        assert_eq!(super::num(3.10), "3.1");
    }

    #[test]
    fn malformed_dot_is_a_coded_failure_of_the_layered_engine() {
        let error = lay_out("digraph {", &[TextFormat::Svg], LayoutEngine::Layered).unwrap_err();
        assert_eq!(error.code(), "graphviz_render_failed");
        assert!(error.to_string().contains("layered"), "{error}");
    }
}
