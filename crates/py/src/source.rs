//! Where a document comes from: JSON bytes handed over in memory, or a file.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use tl_draw::{Document, DrawError, Trace};

/// A trace or bundle document as Python hands it over.
#[derive(FromPyObject)]
pub enum Source {
    /// JSON text, as UTF-8 bytes (a live trace converted in memory: no temporary file).
    Json(PyBackedBytes),
    /// A trace or bundle file (`str` or `os.PathLike`).
    File(PathBuf),
}

impl Source {
    /// The document, parsed; a trace is validated when it is drawn.
    pub fn document(&self) -> Result<Document, DrawError> {
        match self {
            Source::Json(bytes) => Ok(Document::from_json(json_text(bytes)?)?),
            // A trace or bundle file, or a saved ONNX model (`model.onnx`).
            Source::File(path) => tl_draw::read_document(path, tl_draw::DEFAULT_MAX_TRACE_BYTES),
        }
    }

    /// The document, which must be a trace (a member of a union drawing).
    pub fn trace(&self) -> Result<Trace, DrawError> {
        let trace = match self {
            Source::Json(bytes) => Trace::from_json(json_text(bytes)?)?,
            Source::File(path) if tl_draw::is_onnx_path(path) => tl_draw::read_onnx(path)?,
            Source::File(path) => Trace::load(path)?,
        };
        Ok(trace)
    }
}

fn json_text(bytes: &[u8]) -> Result<&str, DrawError> {
    std::str::from_utf8(bytes).map_err(|error| {
        DrawError::invalid(
            "trace_json_malformed",
            format!("the trace JSON is not UTF-8 ({error}); export the trace again (tl_draw.export_trace)"),
        )
    })
}
