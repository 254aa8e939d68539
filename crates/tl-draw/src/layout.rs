//! Layout: DOT text to a laid-out drawing, by the embedded graphviz-pure engine or by the
//! system's Graphviz `dot` program.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::error::DrawError;
use crate::options::LayoutEngine;

/// Lays out `dot` and renders it in a Graphviz output format (`svg`, `json`, `xdot`).
pub fn render(dot: &str, format: &str, engine: LayoutEngine) -> Result<String, DrawError> {
    match engine {
        LayoutEngine::Embedded => graphviz_pure::render_dot(dot, "dot", format)
            .map(|rendered| rendered.into_output())
            .map_err(|error| DrawError::LayoutFailed {
                engine: "embedded (graphviz-pure)",
                detail: error.to_string(),
            }),
        LayoutEngine::SystemDot => system_dot(dot, format),
    }
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
