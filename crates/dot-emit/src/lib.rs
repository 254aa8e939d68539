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

/// Escapes text for an HTML-like label: `&`, `<`, `>`, quotes, line breaks, and
/// backslashes (Graphviz reads `\\` in label text as one backslash).
pub fn escape_html(text: &str) -> String {
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
    let mut label =
        String::from("<<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"2\">");
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
        let _ = write!(
            label,
            "<TR><TD ALIGN=\"CENTER\">{}</TD></TR>",
            row_html(row)
        );
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

fn node_statement(node: &StyledNode, indent: &str) -> String {
    let mut style = vec!["filled", if node.dashed { "dashed" } else { "solid" }];
    if node.rounded {
        style.push("rounded");
    }
    if matches!(node.shape, tl_style::Shape::Plaintext) {
        style.clear();
    }
    let mut attrs = vec![
        format!("label={}", node_label(&node.rows, node.picture.as_ref())),
        format!("color={}", quote(&node.border)),
        fill_attr(&node.fill),
        format!("fontcolor={}", quote(&node.font_color)),
        "ordering=out".to_owned(),
    ];
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
        attrs.push(format!("tooltip={}", quote(tooltip)));
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
                EdgeTextSize::Note => format!("<FONT POINT-SIZE=\"8\">{text}</FONT>"),
            }
        })
        .collect();
    format!("<{}>", parts.join("<BR/>"))
}

fn edge_statement(graph: &StyledGraph, edge: &StyledEdge) -> String {
    let from = quote(&graph.nodes[edge.from].id);
    let to = quote(&graph.nodes[edge.to].id);
    let (color, font_color) = match &edge.look {
        Some(look) => (&look.color, &look.color),
        None => (&graph.style.edge_color, &graph.style.edge_font_color),
    };
    let line = match &edge.look {
        Some(look) if look.dotted => "dotted",
        _ if edge.dashed => "dashed",
        _ => "solid",
    };
    let mut attrs = vec![
        "arrowsize=.7".to_owned(),
        format!("color={}", quote(color)),
        format!("fontcolor={}", quote(font_color)),
        "labelfontsize=8".to_owned(),
        format!("style={line}"),
    ];
    if let Some(look) = &edge.look {
        if !look.constraint {
            attrs.push("constraint=false".to_owned());
        }
        if let Some(tooltip) = &look.tooltip {
            attrs.push(format!("tooltip={}", quote(tooltip)));
        }
    }
    if graph.style.edge_penwidth != 1.0 {
        attrs.push(format!("penwidth={}", graph.style.edge_penwidth));
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
        attrs.push(format!("label={}", edge_text_html(&edge.label)));
    }
    format!("\t{from} -> {to} [{}]\n", attrs.join(" "))
}

fn cluster_block(graph: &StyledGraph, position: usize, depth: usize, out: &mut String) {
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
    let _ = writeln!(
        out,
        "{inner}color={} fillcolor={} fontcolor={} label={} labeljust=l labelloc={top} margin=20 penwidth={} style={}",
        quote(&cluster.border),
        quote(&cluster.fill),
        quote(&cluster.font_color),
        left_lines(&caption, &cluster.font_color),
        cluster.penwidth,
        quote(if cluster.dashed { "filled,dashed" } else { "filled,solid" })
    );
    for node in graph
        .nodes
        .iter()
        .filter(|node| node.cluster == Some(position))
    {
        out.push_str(&node_statement(node, &inner));
    }
    for (child, _) in graph
        .clusters
        .iter()
        .enumerate()
        .filter(|(_, c)| c.parent == Some(position))
    {
        cluster_block(graph, child, depth + 1, out);
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
    let mut out = String::with_capacity(256 + graph.nodes.len() * 400);
    let style = &graph.style;
    let _ = writeln!(out, "// {}", graph.comment.replace('\n', " "));
    let _ = writeln!(out, "digraph {} {{", quote(&graph.name));
    let _ = writeln!(
        out,
        "\tgraph [bgcolor={} fontname={} label={} labeljust=l labelloc=t ordering=out rankdir={}]",
        quote(&style.page),
        quote(&style.font),
        left_lines(&graph.header, &style.font_color),
        style.rankdir
    );
    let _ = writeln!(out, "\tnode [fontname={} ordering=out]", quote(&style.font));
    let _ = writeln!(out, "\tedge [fontname={}]", quote(&style.font));
    for node in graph.nodes.iter().filter(|node| node.cluster.is_none()) {
        out.push_str(&node_statement(node, "\t"));
    }
    for (position, _) in graph
        .clusters
        .iter()
        .enumerate()
        .filter(|(_, c)| c.parent.is_none())
    {
        cluster_block(graph, position, 0, &mut out);
    }
    for edge in &graph.edges {
        out.push_str(&edge_statement(graph, edge));
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

    #[test]
    fn quoted_strings_cannot_escape_their_quotes() {
        assert_eq!(
            quote("x\" -> evil [label=\"y"),
            "\"x\\\" -> evil [label=\\\"y\""
        );
        assert_eq!(quote("back\\slash"), "\"back\\\\slash\"");
    }
}
