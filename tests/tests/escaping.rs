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
        .write(folder.path().join("hostile.pdf"), None)
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
