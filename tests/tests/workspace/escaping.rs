//! Text from a trace is drawn literally: names with `<`, `>`, `&`, quotes, backslashes and
//! unicode can neither break the DOT nor inject attributes or nodes into it.

use tl_draw::{draw, DrawOptions, Trace};
use tl_tests::fixtures_dir;

/// `branch_true` with its model class and the module `pos` renamed to hostile text.
fn hostile_trace() -> Trace {
    let text = std::fs::read_to_string(fixtures_dir().join("branch_true.json")).unwrap();
    let mut document: serde_json::Value = serde_json::from_str(&text).unwrap();
    document["model"]["class_name"] = serde_json::json!("Net<\"&'>\\ ünï");
    // The JSON encoder escapes the quote and backslash for the textual replacement.
    let hostile_module = serde_json::to_string("p\"] x [label=<evil> & 'q'\\").unwrap();
    let hostile_module = &hostile_module[1..hostile_module.len() - 1];
    let text = serde_json::to_string_pretty(&document)
        .unwrap()
        .replace("\"pos", &format!("\"{hostile_module}"));
    Trace::from_json(&text).expect("renamed trace stays valid")
}

#[test]
fn hostile_names_are_escaped_in_dot_and_drawn_literally() {
    let trace = hostile_trace();
    let drawing = draw(&trace, &DrawOptions::default()).unwrap();
    assert!(drawing.dot.contains("digraph \"Net<\\\"&'>\\\\ ünï\""));
    assert!(drawing.dot.contains("Net&lt;&quot;&amp;&#39;&gt;\\\\ ünï"));
    assert!(
        !drawing.dot.contains("<evil>"),
        "raw markup never reaches the DOT"
    );
    // The embedded layout parses it and lays out exactly the nodes we emitted, with the
    // texts intact, and every format paints.
    let layout: serde_json::Value = serde_json::from_str(&drawing.layout_json().unwrap()).unwrap();
    let objects = layout["objects"].as_array().unwrap();
    let subgraphs = layout["_subgraph_cnt"].as_u64().unwrap_or(0) as usize;
    assert_eq!(objects.len() - subgraphs, drawing.styled.nodes.len());
    // Painted text reads exactly as the trace spells it (one backslash, no entities).
    let folder = tempfile::tempdir().unwrap();
    let pdf = drawing
        .write(folder.path().join("hostile.pdf"))
        .unwrap()
        .path;
    let text = std::process::Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap()
        .stdout;
    let text = String::from_utf8_lossy(&text);
    assert!(text.contains("@p\"] x [label=<evil> & 'q'\\\n"), "{text}");
    assert!(text.contains("Net<\"&'>\\ ünï"), "{text}");
    for format in [
        tl_draw::OutputFormat::Pdf,
        tl_draw::OutputFormat::Png,
        tl_draw::OutputFormat::Svg,
    ] {
        assert!(!drawing.render(format).unwrap().bytes.is_empty());
    }
}

/// Two records whose labels spell the same node id (`linear_1_3:1` is drawn as
/// `linear_1_3pass1`, and a hostile trace names another op exactly that): before, the DOT
/// merged them into one node with a self-loop, silently.
#[test]
fn labels_that_spell_the_same_node_id_stay_two_nodes() {
    let text = std::fs::read_to_string(fixtures_dir().join("branch_true.json")).unwrap();
    let text = text.replace("\"relu_1_4:1\"", "\"linear_1_3pass1\"");
    let trace = Trace::from_json(&text).expect("the renamed trace is valid");
    let drawing = draw(&trace, &DrawOptions::default()).unwrap();
    let ids: std::collections::BTreeSet<&str> =
        drawing.styled.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids.len(), drawing.styled.nodes.len(), "{ids:?}");
    assert!(ids.contains("linear_1_3pass1") && ids.contains("linear_1_3pass1~2"));
    assert!(
        !drawing
            .dot
            .contains("\"linear_1_3pass1\" -> \"linear_1_3pass1\""),
        "no self-loop"
    );
    let layout: serde_json::Value = serde_json::from_str(&drawing.layout_json().unwrap()).unwrap();
    let objects = layout["objects"].as_array().unwrap();
    let subgraphs = layout["_subgraph_cnt"].as_u64().unwrap_or(0) as usize;
    assert_eq!(objects.len() - subgraphs, drawing.styled.nodes.len());
}

/// Control characters anywhere in the trace's text (here the model class and a module
/// address: NUL, an escape, a bell, U+FFFF): before, the SVG was not well-formed XML, Graphviz
/// rejected the DOT, and NUL failed every format. They are drawn visibly escaped.
#[test]
fn control_characters_are_drawn_visibly_and_every_format_is_well_formed() {
    let text = std::fs::read_to_string(fixtures_dir().join("branch_true.json")).unwrap();
    let mut document: serde_json::Value = serde_json::from_str(&text).unwrap();
    document["model"]["class_name"] = serde_json::json!("Net\u{0}\u{1b}[31m\u{7}\u{ffff}");
    let text = serde_json::to_string(&document)
        .unwrap()
        .replace("\"pos", "\"p\\u0001os");
    let trace = Trace::from_json(&text).expect("control characters are valid JSON text");
    let drawing = draw(&trace, &DrawOptions::default()).unwrap();
    assert!(
        !drawing.dot.chars().any(tl_style::format::is_hidden_control),
        "no raw control character reaches the DOT"
    );
    let svg = String::from_utf8(drawing.render(tl_draw::OutputFormat::Svg).unwrap().bytes).unwrap();
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let parsed =
        roxmltree::Document::parse_with_options(&svg, options).expect("the SVG is well-formed XML");
    let texts: String = parsed
        .descendants()
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        texts.contains("Net\\u0000\\u001b[31m\\u0007\\uffff"),
        "{texts}"
    );
    assert!(texts.contains("@p\\u0001os"), "{texts}");
    let folder = tempfile::tempdir().unwrap();
    for format in ["pdf", "png", "dot"] {
        let written = drawing
            .write(folder.path().join(format!("c.{format}")))
            .unwrap_or_else(|e| panic!("{format}: {e}"));
        assert!(std::fs::metadata(written.path).unwrap().len() > 100);
    }
    // The system Graphviz accepts the DOT too, where it is installed.
    tl_tests::assert_system_dot_reads(&folder.path().join("c.dot"), folder.path());
}

/// A huge text field (here a 4 MiB class name) is drawn cut to the documented length, with
/// an ellipsis: before, a 64 MiB one made a PDF take 122 s and 8.3 GB.
#[test]
fn huge_texts_are_cut_to_the_documented_length() {
    let text = std::fs::read_to_string(fixtures_dir().join("branch_true.json")).unwrap();
    let mut document: serde_json::Value = serde_json::from_str(&text).unwrap();
    document["model"]["class_name"] = serde_json::json!("N".repeat(4 << 20));
    let trace = Trace::from_json(&document.to_string()).unwrap();
    let drawing = draw(&trace, &DrawOptions::default()).unwrap();
    assert!(
        drawing.dot.len() < 20_000,
        "{} bytes of DOT",
        drawing.dot.len()
    );
    let shown = format!("{}…", "N".repeat(tl_style::format::MAX_SHOWN_CHARS - 1));
    assert!(drawing.dot.contains(&shown));
    assert!(!drawing
        .dot
        .contains(&"N".repeat(tl_style::format::MAX_SHOWN_CHARS)));
    let folder = tempfile::tempdir().unwrap();
    drawing.write(folder.path().join("big.pdf")).unwrap();
}

#[test]
fn hostile_names_stay_text_in_the_interactive_page() {
    let trace = hostile_trace();
    let page = tl_draw::html::page(&trace, &DrawOptions::default()).unwrap();
    assert!(page.contains("<title>tl-draw: Net&lt;&quot;&amp;'&gt;\\ ünï</title>"));
    // Only the page's own two scripts (data, viewer); the trace's text cannot open or close one.
    assert_eq!(page.matches("<script").count(), 2);
    assert_eq!(page.matches("</script>").count(), 2);
    let data = tl_tests::page_data(&page);
    assert_eq!(data["title"], "Net<\"&'>\\ ünï");
}

/// Names holding entities, a backslash, a percent sign or a reversing control: Graphviz
/// hands back every node's and frame's id as its SVG title unchanged, so the page and the
/// cone shading find each one (before, `&lt;` came back as `<` and `\` doubled, and such a
/// module's box was dead in the page), and two names that differ only so stay two ids.
#[test]
fn every_id_comes_back_from_graphviz_as_its_title() {
    let text = std::fs::read_to_string(fixtures_dir().join("convnet.json")).unwrap();
    for name in ["fe&lt;at", "fe&#60;at", "a\\\\b", "p%26q", "\\u202eevil"] {
        let trace = Trace::from_json(&text.replace("\"features", &format!("\"{name}")))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let drawing = draw(&trace, &DrawOptions::default().depth(1)).unwrap();
        assert!(
            drawing
                .styled
                .nodes
                .iter()
                .any(|n| n.id.starts_with("box:")),
            "{name}"
        );
        let svg =
            String::from_utf8(drawing.render(tl_draw::OutputFormat::Svg).unwrap().bytes).unwrap();
        let titles: std::collections::BTreeSet<String> = svg
            .split("<title>")
            .skip(1)
            .map(|rest| tl_dot_emit::unescape_xml(&rest[..rest.find("</title>").unwrap()]))
            .collect();
        for id in drawing
            .styled
            .nodes
            .iter()
            .map(|n| &n.id)
            .chain(drawing.styled.clusters.iter().map(|c| &c.id))
        {
            assert!(titles.contains(id), "{name}: {id} not among {titles:?}");
        }
    }
    assert_ne!(
        tl_style::graphviz_safe_id("a&lt;"),
        tl_style::graphviz_safe_id("a<")
    );
    assert_ne!(
        tl_style::graphviz_safe_id("a%26"),
        tl_style::graphviz_safe_id("a&")
    );
    assert_eq!(
        tl_style::graphviz_safe_id("box:features.0:1"),
        "box:features.0:1"
    );
}

/// The page fuzz target's invariants (`tl_tests::check_page`) on its corpus and on ConvNet
/// with hostile names in its class and a module: a name holding `<!--<script>` blanked the
/// page before, and template syntax copied the page's data into it (issue 31).
#[test]
fn pages_keep_their_invariants_whatever_the_names() {
    let corpus = tl_tests::repo_root().join("fuzz/corpus/page");
    let mut texts: Vec<String> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
        .collect();
    let convnet = std::fs::read_to_string(fixtures_dir().join("convnet.json")).unwrap();
    for name in [
        "{{data}}",
        "<!--<script>",
        "</script><b>",
        "&lt;b&gt;",
        "a\\\\b",
        "\\u202e",
    ] {
        texts.push(
            convnet
                .replace("\"features", &format!("\"{name}"))
                .replace("\"ConvNet\"", &format!("\"{name}Net\"")),
        );
    }
    for text in &texts {
        let trace = Trace::from_json(text).unwrap();
        assert!(
            tl_tests::check_page(&trace, text.len()),
            "{}",
            trace.model.class_name
        );
    }
}
