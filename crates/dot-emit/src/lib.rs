//! Turns a [`StyledGraph`] into Graphviz DOT text.
//!
//! Pure and deterministic: the same styled graph gives byte-identical DOT. Every piece of
//! text that comes from a trace (names, module addresses, argument values, class names) is
//! escaped, as HTML-like label text or as a quoted DOT string, so it is drawn literally and
//! can never break or inject into the DOT.

use std::fmt::Write;

use tl_style::{
    EdgeText, EdgeTextSize, Fill, Legend, NodePicture, Row, StyledCluster, StyledEdge, StyledGraph,
    StyledNode,
};

/// Id of the key node.
pub const LEGEND_ID: &str = "tl_legend";

/// Text as an SVG or DOT writer escaped it, read back (`&#45;&gt;` is `->`): the entities
/// Graphviz and TorchLens write.
pub fn unescape_xml(text: &str) -> String {
    text.replace("&#45;", "-")
        .replace("&gt;", ">")
        .replace("&lt;", "<")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Escapes text for an HTML-like label: `&`, `<`, `>`, quotes, line breaks, and
/// backslashes (Graphviz reads `\\` in label text as one backslash).
pub fn escape_html(text: &str) -> String {
    let text = tl_style::format::capped(text);
    let mut escaped = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            '\\' => escaped.push_str("\\\\"),
            '\n' | '\r' => escaped.push(' '),
            // Drawn visibly (`\u0001`); its backslash escaped like any other.
            ch if tl_style::format::is_hidden_control(ch) => {
                escaped.push_str(&tl_style::format::control_escape(ch).replace('\\', "\\\\"))
            }
            _ => escaped.push(ch),
        }
    }
    escaped
}

/// A DOT double-quoted string: backslashes and quotes escaped, line breaks flattened.
pub fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for ch in text.chars() {
        match ch {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' | '\r' => quoted.push(' '),
            ch if tl_style::format::is_hidden_control(ch) => {
                quoted.push_str(&tl_style::format::control_escape(ch).replace('\\', "\\\\"))
            }
            _ => quoted.push(ch),
        }
    }
    quoted.push('"');
    quoted
}

fn fill_attr(fill: &Fill) -> String {
    match fill {
        Fill::Solid(color) => format!("fillcolor={}", quote(color)),
        Fill::Gradient(a, b) => format!("fillcolor={} gradangle=0", quote(&format!("{a}:{b}"))),
    }
}

fn row_html(row: &Row) -> String {
    let text = escape_html(&row.text);
    if row.bold {
        format!("<B>{text}</B>")
    } else {
        text
    }
}

fn node_label(rows: &[Row], picture: Option<&NodePicture>) -> String {
    // TorchLens's table, less what Graphviz assumes anyway (cell borders follow `BORDER`,
    // cells pad by 2 and centre their text): graphviz-pure reads every label twice, in
    // layout and again when drawing, and reading labels is a quarter of its time.
    let mut label = String::from("<<TABLE BORDER=\"0\" CELLSPACING=\"0\">");
    if let Some(picture) = picture {
        let _ = write!(
            label,
            "<TR><TD FIXEDSIZE=\"TRUE\" WIDTH=\"{}\" HEIGHT=\"{}\"><IMG SRC={} SCALE=\"TRUE\"/></TD></TR>",
            picture.width,
            picture.height,
            quote(&picture.file)
        );
    }
    for row in rows {
        let _ = write!(label, "<TR><TD>{}</TD></TR>", row_html(row));
    }
    label.push_str("</TABLE>>");
    label
}

/// Left-aligned lines of a header or cluster caption.
fn left_lines(rows: &[Row], color: &str) -> String {
    let mut label = format!("<<FONT COLOR={}>", quote(color));
    for row in rows {
        let _ = write!(label, "{}<BR ALIGN=\"LEFT\"/>", row_html(row));
    }
    label.push_str("</FONT>>");
    label
}

/// Attribute values most nodes and arrows share, written once in the `node [...]` and
/// `edge [...]` statements; each node and arrow then names only what differs. graphviz-pure
/// spends 2-3 µs reading each attribute: repeating them on every statement was a third of
/// its DOT parsing and 5-10% of its whole time.
struct Defaults<'g> {
    /// Node border colour.
    border: Option<&'g str>,
    /// Node text colour.
    font_color: Option<&'g str>,
    /// Arrow colour.
    edge_color: Option<&'g str>,
    /// Arrow text colour.
    edge_font_color: Option<&'g str>,
    /// Arrow line style.
    edge_line: Option<&'static str>,
}

/// The value most often given (the first given among equally common ones).
fn commonest<'a>(values: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for value in values {
        match counts.iter_mut().find(|(seen, _)| *seen == value) {
            Some((_, count)) => *count += 1,
            None => counts.push((value, 1)),
        }
    }
    let most = counts.iter().map(|&(_, count)| count).max()?;
    counts
        .into_iter()
        .find(|&(_, count)| count == most)
        .map(|(value, _)| value)
}

impl<'g> Defaults<'g> {
    fn of(graph: &'g StyledGraph) -> Defaults<'g> {
        Defaults {
            border: commonest(graph.nodes.iter().map(|node| node.border.as_str())),
            font_color: commonest(graph.nodes.iter().map(|node| node.font_color.as_str())),
            edge_color: commonest(graph.edges.iter().map(|edge| edge_colors(graph, edge).0)),
            edge_font_color: commonest(graph.edges.iter().map(|edge| edge_colors(graph, edge).1)),
            edge_line: commonest(graph.edges.iter().map(edge_line)),
        }
    }

    /// The `node [...]` statement.
    fn node_statement(&self, font: &str) -> String {
        let mut attrs = Vec::new();
        if let Some(border) = self.border {
            attrs.push(format!("color={}", quote(border)));
        }
        if let Some(font_color) = self.font_color {
            attrs.push(format!("fontcolor={}", quote(font_color)));
        }
        attrs.push(format!("fontname={}", quote(font)));
        attrs.push("ordering=out".to_owned());
        format!("\tnode [{}]\n", attrs.join(" "))
    }

    /// The `edge [...]` statement.
    fn edge_statement(&self, graph: &StyledGraph) -> String {
        let mut attrs = vec!["arrowsize=.7".to_owned()];
        if let Some(color) = self.edge_color {
            attrs.push(format!("color={}", quote(color)));
        }
        if let Some(font_color) = self.edge_font_color {
            attrs.push(format!("fontcolor={}", quote(font_color)));
        }
        attrs.push(format!("fontname={}", quote(&graph.style.font)));
        attrs.push("labelfontsize=10".to_owned());
        if graph.style.edge_penwidth != 1.0 {
            attrs.push(format!("penwidth={}", graph.style.edge_penwidth));
        }
        if let Some(line) = self.edge_line {
            attrs.push(format!("style={line}"));
        }
        format!("\tedge [{}]\n", attrs.join(" "))
    }
}

/// `name=value` unless `value` is the default.
fn unless_default(attrs: &mut Vec<String>, name: &str, value: &str, default: Option<&str>) {
    if default != Some(value) {
        attrs.push(format!("{name}={}", quote(value)));
    }
}

fn node_statement(node: &StyledNode, defaults: &Defaults<'_>, indent: &str) -> String {
    let mut style = vec!["filled", if node.dashed { "dashed" } else { "solid" }];
    if node.rounded {
        style.push("rounded");
    }
    if matches!(node.shape, tl_style::Shape::Plaintext) {
        style.clear();
    }
    let mut attrs = vec![format!(
        "label={}",
        node_label(&node.rows, node.picture.as_ref())
    )];
    unless_default(&mut attrs, "color", &node.border, defaults.border);
    attrs.push(fill_attr(&node.fill));
    unless_default(
        &mut attrs,
        "fontcolor",
        &node.font_color,
        defaults.font_color,
    );
    if let Some(peripheries) = node.peripheries {
        attrs.push(format!("peripheries={peripheries}"));
    }
    if let Some(penwidth) = node.penwidth {
        attrs.push(format!("penwidth={penwidth}"));
    }
    if let Some((width, height)) = node.min_size {
        attrs.push(format!("fixedsize=false height={height} width={width}"));
    }
    attrs.push(format!("shape={}", node.shape.dot_name()));
    attrs.push(format!("style={}", quote(&style.join(","))));
    if let Some(tooltip) = &node.tooltip {
        attrs.push(format!(
            "tooltip={}",
            quote(&tl_style::format::capped(tooltip))
        ));
    }
    format!("{indent}{} [{}]\n", quote(&node.id), attrs.join(" "))
}

fn edge_text_html(texts: &[EdgeText]) -> String {
    let parts: Vec<String> = texts
        .iter()
        .map(|t| {
            let text = escape_html(&t.text);
            match t.size {
                EdgeTextSize::Emphasis => {
                    format!("<FONT POINT-SIZE=\"18\"><B><U>{text}</U></B></FONT>")
                }
                EdgeTextSize::Word => format!("<FONT POINT-SIZE=\"12\">{text}</FONT>"),
                EdgeTextSize::Note => format!("<FONT POINT-SIZE=\"10\">{text}</FONT>"),
            }
        })
        .collect();
    format!("<{}>", parts.join("<BR/>"))
}

/// An arrow's colour and text colour.
fn edge_colors<'g>(graph: &'g StyledGraph, edge: &'g StyledEdge) -> (&'g str, &'g str) {
    match &edge.look {
        Some(look) => (&look.color, &look.font_color),
        None => (&graph.style.edge_color, &graph.style.edge_font_color),
    }
}

/// An arrow's line style.
fn edge_line(edge: &StyledEdge) -> &'static str {
    match &edge.look {
        Some(look) if look.dotted => "dotted",
        _ if edge.dashed => "dashed",
        _ => "solid",
    }
}

fn edge_statement(graph: &StyledGraph, edge: &StyledEdge, defaults: &Defaults<'_>) -> String {
    let from = quote(&graph.nodes[edge.from].id);
    let to = quote(&graph.nodes[edge.to].id);
    let (color, font_color) = edge_colors(graph, edge);
    let mut attrs = Vec::new();
    unless_default(&mut attrs, "color", color, defaults.edge_color);
    unless_default(
        &mut attrs,
        "fontcolor",
        font_color,
        defaults.edge_font_color,
    );
    let line = edge_line(edge);
    if defaults.edge_line != Some(line) {
        attrs.push(format!("style={line}"));
    }
    if let Some(look) = &edge.look {
        if !look.constraint {
            attrs.push("constraint=false".to_owned());
        }
        if let Some(tooltip) = &look.tooltip {
            attrs.push(format!(
                "tooltip={}",
                quote(&tl_style::format::capped(tooltip))
            ));
        }
    }
    for (attribute, lines) in [
        ("headlabel", &edge.head_label),
        ("taillabel", &edge.tail_label),
    ] {
        if !lines.is_empty() {
            let lines: Vec<String> = lines.iter().map(|line| escape_html(line)).collect();
            attrs.push(format!(
                "{attribute}=<<TABLE BORDER=\"0\" CELLPADDING=\"6\"><TR><TD>{}</TD></TR></TABLE>>",
                lines.join("<BR/>")
            ));
        }
    }
    if !edge.label.is_empty() {
        let attribute = if edge.label_floats { "xlabel" } else { "label" };
        attrs.push(format!("{attribute}={}", edge_text_html(&edge.label)));
    }
    if attrs.is_empty() {
        format!("\t{from} -> {to}\n")
    } else {
        format!("\t{from} -> {to} [{}]\n", attrs.join(" "))
    }
}

/// Per cluster: the nodes directly in it and its child clusters, in order; built once, so
/// writing the clusters is linear in the graph.
struct Members {
    nodes: Vec<Vec<usize>>,
    children: Vec<Vec<usize>>,
}

impl Members {
    fn of(graph: &StyledGraph) -> Members {
        let mut nodes = vec![Vec::new(); graph.clusters.len()];
        let mut children = vec![Vec::new(); graph.clusters.len()];
        for (at, node) in graph.nodes.iter().enumerate() {
            if let Some(slot) = node.cluster.and_then(|c| nodes.get_mut(c)) {
                slot.push(at);
            }
        }
        for (at, cluster) in graph.clusters.iter().enumerate() {
            if let Some(slot) = cluster.parent.and_then(|p| children.get_mut(p)) {
                slot.push(at);
            }
        }
        Members { nodes, children }
    }
}

fn cluster_block(
    graph: &StyledGraph,
    defaults: &Defaults<'_>,
    members: &Members,
    position: usize,
    depth: usize,
    out: &mut String,
) {
    let cluster: &StyledCluster = &graph.clusters[position];
    let indent = "\t".repeat(depth + 1);
    let _ = writeln!(out, "{indent}subgraph {} {{", quote(&cluster.id));
    let inner = "\t".repeat(depth + 2);
    let caption = [
        Row::bold(cluster.title.clone()),
        Row::plain(cluster.subtitle.clone()),
    ];
    // Captions sit at the top of the box whichever way the graph flows (`b` is the top
    // when ranks run bottom to top).
    let top = if graph.style.rankdir == "BT" {
        "b"
    } else {
        "t"
    };
    // `labeljust=l` comes from the root graph.
    let _ = writeln!(
        out,
        "{inner}color={} fillcolor={} fontcolor={} label={} labelloc={top} margin={} penwidth={} style={}",
        quote(&cluster.border),
        quote(&cluster.fill),
        quote(&cluster.font_color),
        left_lines(&caption, &cluster.font_color),
        cluster.margin,
        cluster.penwidth,
        quote(if cluster.dashed { "filled,dashed" } else { "filled,solid" })
    );
    for &node in &members.nodes[position] {
        out.push_str(&node_statement(&graph.nodes[node], defaults, &inner));
    }
    for &child in &members.children[position] {
        cluster_block(graph, defaults, members, child, depth + 1, out);
    }
    let _ = writeln!(out, "{indent}}}");
}

fn legend_statement(legend: &Legend) -> String {
    let mut table = format!(
        "<<TABLE BORDER=\"1\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\" COLOR={} BGCOLOR={}>",
        quote(&legend.ink),
        quote(&legend.fill)
    );
    let _ = write!(
        table,
        "<TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\"><FONT POINT-SIZE=\"12\"><B>{}</B></FONT></TD></TR>",
        escape_html(&legend.title)
    );
    if let Some(bar) = &legend.bar {
        let _ = write!(
            table,
            "<TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\"><FONT POINT-SIZE=\"12\">{}</FONT></TD></TR>",
            escape_html(&bar.label)
        );
        let cells: String = bar
            .swatches
            .iter()
            .map(|color| {
                format!(
                    "<TD BGCOLOR={} WIDTH=\"18\" HEIGHT=\"12\"></TD>",
                    quote(color)
                )
            })
            .collect();
        let _ = write!(
            table,
            "<TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\"><TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"0\"><TR><TD ALIGN=\"RIGHT\"><FONT POINT-SIZE=\"10\">{} </FONT></TD><TD><TABLE BORDER=\"1\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"0\" COLOR={}><TR>{cells}</TR></TABLE></TD><TD ALIGN=\"LEFT\"><FONT POINT-SIZE=\"10\"> {}</FONT></TD></TR></TABLE></TD></TR>",
            escape_html(&bar.low),
            quote(&legend.ink),
            escape_html(&bar.high)
        );
    }
    for entry in &legend.entries {
        let swatch = match &entry.swatch {
            Some(Fill::Solid(color)) if entry.ring => format!(
                "<TD BGCOLOR={} COLOR={} WIDTH=\"16\" HEIGHT=\"10\" BORDER=\"2\"></TD>",
                quote(&legend.fill),
                quote(color)
            ),
            Some(Fill::Solid(color)) => format!(
                "<TD BGCOLOR={} WIDTH=\"16\" HEIGHT=\"10\" BORDER=\"1\"></TD>",
                quote(color)
            ),
            Some(Fill::Gradient(a, b)) => format!(
                "<TD BGCOLOR={} GRADIENTANGLE=\"0\" WIDTH=\"16\" HEIGHT=\"10\" BORDER=\"1\"></TD>",
                quote(&format!("{a}:{b}"))
            ),
            None => "<TD WIDTH=\"16\"></TD>".to_owned(),
        };
        let _ = write!(
            table,
            "<TR>{swatch}<TD ALIGN=\"LEFT\"><FONT POINT-SIZE=\"12\">{}</FONT></TD></TR>",
            escape_html(&entry.text)
        );
    }
    table.push_str("</TABLE>>");
    format!(
        "\t{} [fontcolor={} label={table} margin=0 shape=plaintext]\n",
        quote(LEGEND_ID),
        quote(&legend.text)
    )
}

/// The DOT source of a styled graph.
pub fn emit(graph: &StyledGraph) -> String {
    emit_limited(graph, None)
}

/// [`emit`] with Graphviz's `nslimit`: the x placement's network simplex stops after
/// `nslimit` times the node count of iterations (the layout guard's
/// `tl_layout::guard::position_limit`), so a shape on which it would run for minutes is
/// placed in bounded time, less evenly.
pub fn emit_limited(graph: &StyledGraph, nslimit: Option<u32>) -> String {
    let mut out = String::with_capacity(256 + graph.nodes.len() * 400);
    let style = &graph.style;
    let _ = writeln!(out, "// {}", graph.comment.replace('\n', " "));
    let _ = writeln!(
        out,
        "digraph {} {{",
        quote(&tl_style::format::capped(&graph.name))
    );
    let _ = writeln!(
        out,
        "\tgraph [bgcolor={} fontname={} label={} labeljust=l labelloc=t{} ordering=out rankdir={}]",
        quote(&style.page),
        quote(&style.font),
        left_lines(&graph.header, &style.font_color),
        nslimit.map_or(String::new(), |limit| format!(" nslimit={limit}")),
        style.rankdir
    );
    let defaults = Defaults::of(graph);
    out.push_str(&defaults.node_statement(&style.font));
    out.push_str(&defaults.edge_statement(graph));
    for node in graph.nodes.iter().filter(|node| node.cluster.is_none()) {
        out.push_str(&node_statement(node, &defaults, "\t"));
    }
    let members = Members::of(graph);
    for (position, _) in graph
        .clusters
        .iter()
        .enumerate()
        .filter(|(_, c)| c.parent.is_none())
    {
        cluster_block(graph, &defaults, &members, position, 0, &mut out);
    }
    for edge in &graph.edges {
        out.push_str(&edge_statement(graph, edge, &defaults));
    }
    // Outputs, and the key beside them, sit at the far end of the flow.
    let mut sinks: Vec<String> = graph
        .sink
        .iter()
        .map(|&n| quote(&graph.nodes[n].id))
        .collect();
    if graph.legend.is_some() {
        sinks.push(quote(LEGEND_ID));
    }
    if !sinks.is_empty() {
        let _ = writeln!(
            out,
            "\t{{\n\t\trank=sink\n\t\t{}\n\t}}",
            sinks.join("\n\t\t")
        );
    }
    if let Some(legend) = &graph.legend {
        out.push_str(&legend_statement(legend));
        // Keep the key with the graph rather than floating beside it.
        if let Some(last) = graph.nodes.last() {
            let _ = writeln!(
                out,
                "\t{} -> {} [constraint=false style=invis]",
                quote(&last.id),
                quote(LEGEND_ID)
            );
        }
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_text_is_escaped() {
        assert_eq!(escape_html(r"x\y"), r"x\\y");
        assert_eq!(
            escape_html("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;"
        );
    }

    fn node(id: &str, border: &str) -> StyledNode {
        StyledNode::new(
            id.to_owned(),
            vec![Row::bold(id), Row::plain("(2, 8)")],
            tl_style::Shape::Box,
            Fill::Solid("white".to_owned()),
            border.to_owned(),
            "black".to_owned(),
        )
    }

    fn edge(from: usize, to: usize, dashed: bool) -> StyledEdge {
        StyledEdge {
            from,
            to,
            dashed,
            head_label: Vec::new(),
            tail_label: Vec::new(),
            label: Vec::new(),
            label_floats: false,
            look: None,
        }
    }

    #[test]
    fn shared_attributes_are_written_once_and_exceptions_on_their_statement() {
        let graph = StyledGraph {
            name: "M".to_owned(),
            comment: "c".to_owned(),
            style: tl_style::GraphStyle {
                rankdir: "BT",
                page: "white".to_owned(),
                font: "Helvetica".to_owned(),
                font_color: "black".to_owned(),
                edge_color: "#333333".to_owned(),
                edge_font_color: "#333333".to_owned(),
                edge_penwidth: 1.0,
            },
            header: Vec::new(),
            nodes: vec![node("a", "red"), node("b", "black"), node("c", "black")],
            edges: vec![edge(0, 1, false), edge(1, 2, false), edge(0, 2, true)],
            clusters: Vec::new(),
            sink: Vec::new(),
            legend: None,
        };
        let dot = emit(&graph);
        let line = |start: &str| dot.lines().find(|l| l.starts_with(start)).unwrap();
        assert_eq!(
            line("\tnode ["),
            "\tnode [color=\"black\" fontcolor=\"black\" fontname=\"Helvetica\" ordering=out]"
        );
        assert_eq!(
            line("\tedge ["),
            "\tedge [arrowsize=.7 color=\"#333333\" fontcolor=\"#333333\" fontname=\"Helvetica\" labelfontsize=10 style=solid]"
        );
        assert_eq!(
            line("\t\"a\" ["),
            "\t\"a\" [label=<<TABLE BORDER=\"0\" CELLSPACING=\"0\"><TR><TD><B>a</B></TD></TR><TR><TD>(2, 8)</TD></TR></TABLE>> color=\"red\" fillcolor=\"white\" shape=box style=\"filled,solid\"]"
        );
        assert!(!line("\t\"b\" [").contains("color=\"black\""));
        assert_eq!(line("\t\"a\" -> \"b\""), "\t\"a\" -> \"b\"");
        assert_eq!(line("\t\"a\" -> \"c\""), "\t\"a\" -> \"c\" [style=dashed]");
    }

    #[test]
    fn quoted_strings_cannot_escape_their_quotes() {
        assert_eq!(
            quote("x\" -> evil [label=\"y"),
            "\"x\\\" -> evil [label=\\\"y\""
        );
        assert_eq!(quote("back\\slash"), "\"back\\\\slash\"");
    }
}
