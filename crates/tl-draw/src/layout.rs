//! Layout: DOT text to a laid-out drawing, by the embedded graphviz-pure engine or by the
//! system's Graphviz `dot` program.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::error::DrawError;
use crate::options::LayoutEngine;

/// Lays out `dot` once and renders it in each Graphviz output format asked for (`svg`,
/// `json`, `xdot`).
pub fn render(dot: &str, formats: &[&str], engine: LayoutEngine) -> Result<Vec<String>, DrawError> {
    match engine {
        LayoutEngine::Embedded => embedded(dot, formats).map_err(|error| DrawError::LayoutFailed {
            engine: "embedded (graphviz-pure)",
            detail: error.to_string(),
        }),
        // Each run of the system program lays out again; it is the optional backend.
        LayoutEngine::SystemDot => formats
            .iter()
            .map(|format| system_dot(dot, format))
            .collect(),
    }
}

fn embedded(dot: &str, formats: &[&str]) -> graphviz_pure::Result<Vec<String>> {
    let mut graph = graphviz_pure::parse_dot(dot)?.into_output();
    // Layout diagnostics are warnings about the drawing, not failures; they are dropped.
    let _diagnostics = graphviz_pure::layout_graph(&mut graph, graphviz_pure::LayoutEngine::Dot)?;
    formats
        .iter()
        .map(|format| {
            let format = graphviz_pure::OutputFormat::parse(format)?;
            Ok(graphviz_pure::render_graph(&graph, format)?.into_output())
        })
        .collect()
}

fn system_dot(dot: &str, format: &str) -> Result<String, DrawError> {
    let failed = |detail: String| DrawError::LayoutFailed {
        engine: "system dot",
        detail,
    };
    let mut child = Command::new("dot")
        .arg(format!("-T{format}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => DrawError::GraphvizUnavailable,
            _ => failed(error.to_string()),
        })?;
    // Write on another thread so a large output cannot deadlock against a full pipe.
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let source = dot.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(source.as_bytes()));
    let output = child
        .wait_with_output()
        .map_err(|error| failed(error.to_string()))?;
    writer
        .join()
        .map_err(|_| failed("writing to dot panicked".to_owned()))?
        .map_err(|error| failed(error.to_string()))?;
    if !output.status.success() {
        return Err(failed(
            String::from_utf8_lossy(&output.stderr).trim().to_owned(),
        ));
    }
    String::from_utf8(output.stdout).map_err(|error| failed(error.to_string()))
}
