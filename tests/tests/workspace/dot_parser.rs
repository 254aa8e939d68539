//! The vendored DOT parser (`vendor/graphviz-pure-parser`, tl-draw's patch of graphviz-pure's)
//! returns the graph the published one does in the cases its patch touches: a subgraph
//! opened again by name under the same parent is the same subgraph, under another parent a
//! new one; nodes and edges join every enclosing subgraph once, in the order first met.

use serde_json::Value;

/// Each subgraph of `dot`, laid out by `dot`, as `name: members | edges | children` as the
/// JSON output lists them (the expected lists are the published parser's: checked by
/// building these tests without the `[patch.crates-io]` line).
fn subgraphs(dot: &str) -> Vec<String> {
    let json = graphviz_pure::render_dot(dot, "dot", "json0")
        .unwrap()
        .into_output();
    let json: Value = serde_json::from_str(&json).unwrap();
    let objects = json["objects"].as_array().unwrap();
    // Nodes and subgraphs share one id space in the JSON output.
    let name = |id: &Value| {
        let id = id.as_u64().unwrap() as usize;
        objects.iter().find(|o| o["_gvid"] == id).unwrap()["name"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let edges = json["edges"].as_array().unwrap();
    let edge = |id: &Value| {
        let e = edges.iter().find(|e| e["_gvid"] == *id).unwrap();
        format!("{}>{}", name(&e["tail"]), name(&e["head"]))
    };
    let list = |object: &Value, key: &str, show: &dyn Fn(&Value) -> String| {
        object[key]
            .as_array()
            .map(|ids| ids.iter().map(show).collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    };
    objects
        .iter()
        .filter(|o| o.get("nodes").is_some() || o.get("subgraphs").is_some())
        .map(|o| {
            format!(
                "{}: {} | {} | {}",
                o["name"].as_str().unwrap(),
                list(o, "nodes", &name),
                list(o, "edges", &edge),
                list(o, "subgraphs", &name)
            )
        })
        .collect()
}

#[test]
fn subgraphs_opened_again_and_members_met_again_are_kept_once() {
    let dot = r#"digraph {
        subgraph cluster_a { x; subgraph cluster_b { y; x } }
        subgraph cluster_a { z; subgraph cluster_b { w; y } }
        subgraph cluster_b { v }
        subgraph cluster_c { subgraph cluster_b { u } }
        subgraph "" { p } subgraph "" { q }
        subgraph { r } subgraph { s }
        subgraph cluster_a { x -> y; y -> z; x -> y }
        x -> y
    }"#;
    assert_eq!(
        subgraphs(dot),
        [
            "cluster_a: x y z w | x>y y>z x>y x>y | cluster_b",
            "cluster_b: x y w | x>y x>y x>y | ",
            "cluster_b: v |  | ",
            "cluster_c: u |  | cluster_b",
            "cluster_b: u |  | ",
            ": p q |  | ",
            "%3: r |  | ",
            "%5: s |  | ",
        ]
    );
}

/// The message `dot` gives for `source`, which cannot be parsed.
fn refusal(source: &str) -> String {
    match graphviz_pure::parse_dot(source) {
        Ok(_) => panic!("{source:.60} parsed"),
        Err(error) => error.to_string(),
    }
}

/// The parser moves each read token's value (a label) out rather than copying it, and an
/// atom takes the shifted token's value: the errors that quote the token last read are the
/// published parser's (the expected messages are its own: checked by building this test
/// without the `[patch.crates-io]` line).
#[test]
fn refusals_quote_the_token_the_published_parser_quotes() {
    let nested =
        |statement: &str| format!("digraph {{ {} }}", format!("{statement} {{ ").repeat(3000));
    let cases = [
        (
            "digraph { a [label=<<B>x</B>>] = }".to_owned(),
            "syntax error in line 1 near '='",
        ),
        (
            r#"digraph { "a b" -> "c" -> ; }"#.to_owned(),
            "syntax error in line 1 near ';'",
        ),
        (nested("a"), "memory exhausted in line 1 near 'a'"),
        (nested(r#""a b""#), "memory exhausted in line 1 near '\"'"),
        (nested("<<B>a</B>>"), "memory exhausted in line 1 near '>'"),
        (nested("a -> b"), "memory exhausted in line 1 near '{'"),
    ];
    for (source, expected) in cases {
        let message = refusal(&source);
        assert!(
            message.contains(expected),
            "{source:.60}: {message:?} does not hold {expected:?}"
        );
    }
}
