//! tl-draw: TorchLens's model-graph drawing in Rust. This facade is what applications
//! depend on: one front door ([`Drawn`]: a [`Subject`] drawn with [`DrawOptions`], written
//! or rendered to any format, the interactive page included), the re-exported API of the
//! stage crates, and the `tl-draw` program ([`cli`], feature `cli`). The pipeline
//! `tl-trace-model -> tl-collapse -> tl-style -> tl-dot-emit -> tl-layout ->
//! tl-render-cairo` is run by `tl-drawing` (one static drawing) and `tl-page` (the
//! interactive page); each stage is also usable on its own.
//!
//! ```no_run
//! use tl_draw::{draw, DrawOptions, Trace};
//!
//! // `draw` validates the trace, so it is only read here (`Trace::load` would check it twice).
//! let trace = Trace::read("fixtures/convnet.json")?;
//! let drawing = draw(&trace, &DrawOptions::default().depth(2))?;
//! println!("{}", drawing.dot);
//! drawing.write("convnet.svg")?;
//! # Ok::<(), tl_draw::DrawError>(())
//! ```

#[cfg(feature = "cli")]
pub mod cli;
mod document;
pub mod progress;

pub use document::{Caller, Drawn, Subject};
pub use tl_collapse::schedule::{readable_band, Schedule, Stop};
pub use tl_collapse::BufferVisibility;
pub use tl_collapse::NodeKind;
pub use tl_drawing::{
    draw, draw_bundle, in_language, keywords, options, output_target, parse_on, BatchRender,
    BundleGraph, BundleKeywords, BundleOptions, Collapse, DrawError, DrawOptions, Drawing,
    GraphKind, KeywordValue, Language, LayoutEngine, NodeContext, OutputFormat, View, WriteOptions,
    Written, BUNDLE_KEYWORDS, DRAW_KEYWORDS, MAX_HOOK_NODE_INCHES, MAX_HOOK_PENWIDTH,
    MAX_HOOK_ROWS, METRICS, WRITE_KEYWORDS,
};
pub use tl_layout::{forget_recent_layouts, guard};
pub use tl_onnx::{is_onnx_path, OnnxError};
/// The interactive page (`tl-page`).
pub use tl_page as html;
pub use tl_render_cairo::{use_fonts_in, Rendered, FONT_FILES};
pub use tl_style::encoding::ValueSource;
pub use tl_style::{
    Direction, Fill, LabelField, NodePicture, NodeStyle, Row, Shape, StyledNode, ThemeName,
};
pub use tl_trace_model::union::union_bundle;
pub use tl_trace_model::{
    Bundle, BundleMember, DeltaOn, Document, OpKind, OpRecord, Trace, TraceError, BUNDLE_FORMAT,
    DEFAULT_MAX_TRACE_BYTES, FORMAT_VERSION,
};

use std::path::Path;

use tl_style::format;

/// Reads what a drawing starts from: a trace or bundle file (JSON, at most `max_bytes`), or
/// a saved ONNX model (`.onnx`: its graph, read into a trace; `tl_onnx`).
pub fn read_document(path: &Path, max_bytes: u64) -> Result<Document, DrawError> {
    if is_onnx_path(path) {
        return Ok(Document::Trace(Box::new(read_onnx(path)?)));
    }
    Ok(Document::read_limited(path, max_bytes)?)
}

/// The trace of the ONNX model at `path`. A file that cannot be read, or a path that is not
/// a file, is the same error as for a trace (`trace_read_failed`, `trace_not_a_file`, naming
/// the path); any other is the reader's coded error (`onnx_truncated`, ...).
pub fn read_onnx(path: &Path) -> Result<Trace, DrawError> {
    tl_onnx::read(path).map_err(|error| match error {
        OnnxError::Read { path, source } => DrawError::Trace(TraceError::Read { path, source }),
        OnnxError::NotAFile { path } => DrawError::Trace(TraceError::NotAFile { path }),
        other => DrawError::invalid(other.code(), other.to_string()),
    })
}

/// The Rust calls of the drawing guide (`docs/guides/drawing.md`), compiled by
/// `cargo test --doc` so that the guide cannot drift from the API.
#[doc = include_str!("../../../docs/guides/drawing.md")]
#[cfg(doctest)]
pub struct DrawingGuide;

/// The whole-network facts a drawing's header states, as one line:
/// `ConvNet: 12 operations (19.4 KB of outputs), 1.61K parameters, all trainable`.
pub fn summary(trace: &Trace) -> String {
    let counts = &trace.summary;
    format!(
        "{}: {} operations ({} of outputs), {}",
        trace.model.class_name,
        format::compact_count(counts.num_ops),
        format::bytes(counts.total_output_bytes),
        tl_style::params_line(counts.num_params_trainable, counts.num_params_frozen)
    )
}
