//! A reader of TorchLens's own DOT files (`fixtures/reference/`), for the node-by-node
//! comparisons: each node's label rows, shape, fill and borders, and each arrow's labels.

use std::collections::BTreeMap;

/// Arrows keyed by (from, to) node ids, with their label texts.
pub type EdgeLabels = BTreeMap<(String, String), Vec<String>>;

/// One node of a reference drawing.
#[derive(Debug, Default)]
pub struct ReferenceNode {
    /// Text rows of its HTML label, top to bottom.
    pub rows: Vec<String>,
    /// Graphviz shape.
    pub shape: String,
    /// Fill colour, lower case.
    pub fill: String,
    /// Number of borders.
    pub peripheries: u32,
}

fn strip_tags(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for ch in html.chars() {
        match ch {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => text.push(ch),
            _ => {}
        }
    }
    tl_dot_emit::unescape_xml(&text)
}

fn attribute(line: &str, name: &str) -> Option<String> {
    // The first attribute follows `[`, the others a space.
    let start = line
        .find(&format!(" {name}="))
        .or_else(|| line.find(&format!("[{name}=")))?
        + name.len()
        + 2;
    let rest = &line[start..];
    let value = if let Some(quoted) = rest.strip_prefix('"') {
        &quoted[..quoted.find('"')?]
    } else {
        rest.split([' ', ']']).next()?
    };
    Some(value.to_owned())
}

fn unquote(id: &str) -> String {
    id.trim_matches('"').to_owned()
}

/// Nodes and edges of a TorchLens DOT file; gradient arrows (`#9197F6`) only when
/// `gradient_arrows` (they belong to the backward drawing, not to the forward one).
pub fn parse_reference(
    dot: &str,
    gradient_arrows: bool,
) -> (BTreeMap<String, ReferenceNode>, EdgeLabels) {
    let mut nodes = BTreeMap::new();
    let mut edges = BTreeMap::new();
    for line in dot.lines().map(str::trim) {
        // Invisible arrows only steer the layout.
        let gradient = line.contains("#9197F6");
        if line.contains(" -> ") && !line.contains("style=invis") && (gradient_arrows || !gradient)
        {
            let (from, rest) = line.split_once(" -> ").unwrap();
            let to = rest.split(" [").next().unwrap();
            let labels = match rest.find("label=<") {
                Some(start) => {
                    let html = &rest[start + 7..];
                    let html = &html[..html.find("> ").unwrap_or(html.len())];
                    vec![strip_tags(html)]
                }
                // A plain label (`label=accum` on backward arrows).
                None => attribute(line, "label").into_iter().collect(),
            };
            edges.insert((unquote(from), unquote(to)), labels);
        } else if let Some((id, rest)) = line.split_once(" [label=<<TABLE") {
            let table = &rest[..rest.find("</TABLE>").unwrap()];
            let rows = table
                .split("<TR>")
                .skip(1)
                .map(strip_tags)
                .filter(|row| !row.is_empty())
                .collect();
            nodes.insert(
                unquote(id),
                ReferenceNode {
                    rows,
                    shape: attribute(line, "shape").unwrap_or_default(),
                    fill: attribute(line, "fillcolor")
                        .unwrap_or_default()
                        .to_ascii_lowercase(),
                    peripheries: attribute(line, "peripheries").map_or(1, |p| p.parse().unwrap()),
                },
            );
        }
    }
    (nodes, edges)
}
