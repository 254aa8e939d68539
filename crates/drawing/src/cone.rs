//! The edit cone (`show_cone=True`) outside cairo: a translucent copy of each shaded node's
//! shape and arrow laid over the layout engine's SVG (so its text stays text), and a note
//! in the DOT, which has no translucent layer to carry it.

use std::collections::HashSet;

use tl_render_cairo::Shading;

/// `svg` (Graphviz's SVG of the drawing) with the cone painted over it: each shaded node's
/// outline shape and each shaded arrow's line and head again, in the cone colour, in a
/// group `tl-cone` above the graph, as it is painted over PDF and PNG.
pub(crate) fn shade_svg(svg: &str, shading: &Shading) -> String {
    let (color, opacity) = split_alpha(&shading.color);
    let nodes: HashSet<&str> = shading.nodes.iter().map(String::as_str).collect();
    let edges: HashSet<(&str, &str)> = shading
        .edges
        .iter()
        .map(|(t, h)| (t.as_str(), h.as_str()))
        .collect();
    let mut layer = String::new();
    let mut lines = svg.lines().peekable();
    while let Some(line) = lines.next() {
        let kind = if line.contains("class=\"node\"") {
            Kind::Node
        } else if line.contains("class=\"edge\"") {
            Kind::Edge
        } else {
            continue;
        };
        let Some(title) = lines.peek().and_then(|l| element_text(l, "title")) else {
            continue;
        };
        let title = tl_dot_emit::unescape_xml(title);
        let shaded = match kind {
            Kind::Node => nodes.contains(title.as_str()),
            Kind::Edge => title
                .split_once("->")
                .is_some_and(|(t, h)| edges.contains(&(t, h))),
        };
        if !shaded {
            continue;
        }
        lines.next();
        // The shapes of this group: a node's first outline, an arrow's line and head.
        let wanted = if kind == Kind::Node { 1 } else { 2 };
        let mut taken = 0;
        for shape in lines.by_ref() {
            if shape.starts_with("</g>") || taken == wanted {
                break;
            }
            let is_shape = ["<ellipse ", "<polygon ", "<path ", "<polyline "]
                .iter()
                .any(|start| shape.starts_with(start));
            if is_shape {
                layer.push_str(&recolor(shape, color, &opacity));
                layer.push('\n');
                taken += 1;
            }
        }
    }
    if layer.is_empty() {
        return svg.to_owned();
    }
    // The graph's own group closes just before `</svg>`: the layer goes inside it, so it
    // shares the graph's transform.
    let Some(end) = svg.rfind("</g>") else {
        return svg.to_owned();
    };
    format!(
        "{}<g class=\"tl-cone\">\n{layer}</g>\n{}",
        &svg[..end],
        &svg[end..]
    )
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Node,
    Edge,
}

/// `#rrggbbaa` as `#rrggbb` and an opacity (`0.333`).
fn split_alpha(color: &str) -> (&str, String) {
    let hex = color.trim_start_matches('#');
    match (
        hex.get(..6),
        hex.get(6..8).and_then(|a| u8::from_str_radix(a, 16).ok()),
    ) {
        (Some(_), Some(alpha)) => (
            &color[..color.len() - 2],
            format!("{:.3}", f64::from(alpha) / 255.0),
        ),
        _ => (color, "0.333".to_owned()),
    }
}

/// The text of `<name>...</name>` on one line.
fn element_text<'s>(line: &'s str, name: &str) -> Option<&'s str> {
    let open = format!("<{name}>");
    let start = line.find(&open)? + open.len();
    let end = line[start..].find(&format!("</{name}>"))? + start;
    Some(&line[start..end])
}

/// `shape` with its fill and stroke in the cone colour: an unfilled line stays unfilled.
fn recolor(shape: &str, color: &str, opacity: &str) -> String {
    let mut shape = shape.to_owned();
    for name in ["fill", "stroke"] {
        let key = format!(" {name}=\"");
        let Some(start) = shape.find(&key).map(|at| at + key.len()) else {
            continue;
        };
        let Some(length) = shape[start..].find('"') else {
            continue;
        };
        let value = &shape[start..start + length];
        if value != "none" && value != "transparent" {
            shape.replace_range(
                start..=start + length,
                &format!("{color}\" {name}-opacity=\"{opacity}\""),
            );
        }
    }
    shape
}

/// The DOT comment that says the cone is there and which nodes it shades: DOT has no
/// translucent layer, so the cone is painted in the pdf, png, svg, ps and eps outputs.
pub(crate) fn dot_note(shading: &Shading) -> String {
    let printable = |id: &str| -> String {
        id.chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect()
    };
    let nodes: Vec<String> = shading.nodes.iter().map(|id| printable(id)).collect();
    format!(
        "// show_cone: {} nodes and {} arrows downstream of an edit are shaded {} in the pdf, png, svg, ps and eps outputs (DOT has no translucent layer): {}\n",
        shading.nodes.len(),
        shading.edges.len(),
        shading.color,
        nodes.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG: &str = "<svg>\n<g id=\"graph0\" class=\"graph\">\n<g id=\"node1\" class=\"node\">\n<title>a</title>\n<ellipse fill=\"white\" stroke=\"black\" cx=\"1\" cy=\"2\" rx=\"3\" ry=\"4\"/>\n<text x=\"1\">a</text>\n</g>\n<g id=\"node2\" class=\"node\">\n<title>b</title>\n<polygon fill=\"white\" stroke=\"black\" stroke-width=\"3\" points=\"0,0 1,1\"/>\n</g>\n<g id=\"edge1\" class=\"edge\">\n<title>a&#45;&gt;b</title>\n<path fill=\"none\" stroke=\"black\" d=\"M1,2C3,4\"/>\n<polygon fill=\"black\" stroke=\"black\" points=\"1,1 2,2\"/>\n</g>\n</g>\n</svg>\n";

    #[test]
    fn shaded_nodes_and_arrows_are_copied_over_in_the_cone_colour() {
        let shading = Shading {
            color: "#8E44AD55".to_owned(),
            nodes: vec!["b".to_owned()],
            edges: vec![("a".to_owned(), "b".to_owned())],
        };
        let shaded = shade_svg(SVG, &shading);
        let layer = &shaded[shaded.find("<g class=\"tl-cone\">").unwrap()..];
        assert!(layer.contains("<polygon fill=\"#8E44AD\" fill-opacity=\"0.333\" stroke=\"#8E44AD\" stroke-opacity=\"0.333\" stroke-width=\"3\" points=\"0,0 1,1\"/>"), "{layer}");
        assert!(
            layer.contains(
                "<path fill=\"none\" stroke=\"#8E44AD\" stroke-opacity=\"0.333\" d=\"M1,2C3,4\"/>"
            ),
            "{layer}"
        );
        assert!(!layer.contains("<ellipse"), "node a is not shaded");
        assert_eq!(shaded.matches("<text").count(), 1, "text stays text");
        assert!(shaded.ends_with("</g>\n</g>\n</svg>\n"));
    }

    #[test]
    fn the_dot_note_is_one_comment_line() {
        let note = dot_note(&Shading {
            color: "#8E44AD55".to_owned(),
            nodes: vec!["x\ny".to_owned()],
            edges: Vec::new(),
        });
        assert!(note.starts_with("// show_cone: 1 nodes"));
        assert_eq!(note.matches('\n').count(), 1);
        assert!(note.contains("x?y"));
    }
}
