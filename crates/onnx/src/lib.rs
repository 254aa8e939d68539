//! Reads ONNX model files (`.onnx`) into tl-draw's trace model, so that a saved model draws
//! as a TorchLens trace does: module frames, collapse, folds, every output format.
//!
//! The file is read as a stream and only the graph is kept: each initializer's name, type
//! and dimensions, never its weights (they are skipped in place, so a 2 GB file costs what
//! its graph costs), and a model whose weights live in external data files reads only the
//! `.onnx` file. What a drawing reads: nodes (op type, inputs, outputs, attributes, the
//! exporter's module scopes), the graph's inputs, outputs, initializers and `value_info`,
//! the opset and producer, and subgraphs (`If`, `Loop`, `Scan`), each drawn in a frame of
//! its own before the node that runs it. Malformed, truncated, cyclic, dangling or oversized
//! input is a coded [`OnnxError`], never a panic.

mod convert;
mod flatten;
mod proto;
mod scopes;
mod wire;

use std::fs::File;
use std::io::{BufReader, Cursor};
use std::path::Path;

use tl_trace_model::Trace;

/// Why an ONNX file could not be drawn. Codes are stable.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OnnxError {
    /// The file could not be opened or read.
    #[error("cannot read the ONNX file '{}': {source}", path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The path is a folder, a pipe or a device: reading it could never end.
    #[error("'{}' is not a regular file (a folder, a pipe or a device); name an .onnx file", path.display())]
    NotAFile {
        /// The path.
        path: std::path::PathBuf,
    },
    /// The protobuf ends in the middle of a field.
    #[error("the ONNX file is truncated: it ends in the middle of a field (byte {at}); export or copy it again")]
    Truncated {
        /// Where.
        at: u64,
    },
    /// The bytes are not protobuf.
    #[error("the ONNX file is not a valid protobuf: {what} at byte {at}; is it an ONNX model (`.onnx`)? export it again")]
    Malformed {
        /// Where.
        at: u64,
        /// What was found.
        what: &'static str,
    },
    /// Messages nest deeper than any model needs.
    #[error("the ONNX file nests messages or subgraphs more than {depth} deep; no exporter writes that: the file is damaged or hostile")]
    TooDeep {
        /// The limit.
        depth: usize,
    },
    /// The graph holds more than the reader keeps.
    #[error("the ONNX graph is too large to draw: {what}; draw a part of the model (export one submodule)")]
    TooLarge {
        /// What was too large.
        what: &'static str,
    },
    /// The file holds no graph.
    #[error("the ONNX file holds no graph (no nodes and no inputs): is it an ONNX model? export it again")]
    NoGraph,
    /// The model needs a newer or unknown operator set.
    #[error("the ONNX model uses opset {version} of the default domain, which this reader does not know (it reads opsets 1 to {max}); export with an older opset (torch.onnx.export(..., opset_version={max}))")]
    UnknownOpset {
        /// The opset version.
        version: i64,
        /// The newest known.
        max: i64,
    },
    /// A node reads a tensor nothing makes.
    #[error("the ONNX node '{node}' reads '{input}', which no node, input or initializer makes; the graph is inconsistent: export it again")]
    Dangling {
        /// The node.
        node: String,
        /// The tensor name.
        input: String,
    },
    /// The graph has a cycle.
    #[error("the ONNX graph has a cycle through node '{node}'; a model graph must be acyclic: export it again")]
    Cycle {
        /// A node on the cycle.
        node: String,
    },
    /// The graph read, but does not make a consistent trace (a reader bug).
    #[error("the ONNX graph did not convert to a consistent trace ({detail}); please report this with the file")]
    Inconsistent {
        /// The validation error.
        detail: String,
    },
}

impl OnnxError {
    /// The stable code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            OnnxError::Read { .. } => "onnx_read_failed",
            OnnxError::NotAFile { .. } => "onnx_not_a_file",
            OnnxError::Truncated { .. } => "onnx_truncated",
            OnnxError::Malformed { .. } => "onnx_malformed",
            OnnxError::TooDeep { .. } => "onnx_too_deep",
            OnnxError::TooLarge { .. } => "onnx_too_large",
            OnnxError::NoGraph => "onnx_no_graph",
            OnnxError::UnknownOpset { .. } => "onnx_opset_unknown",
            OnnxError::Dangling { .. } => "onnx_reference_dangling",
            OnnxError::Cycle { .. } => "onnx_graph_cyclic",
            OnnxError::Inconsistent { .. } => "onnx_inconsistent",
        }
    }
}

/// The newest default-domain opset this reader accepts: ONNX 1.23's (the graph is read the
/// same way in every opset; a newer one may hold nodes this reader has never seen drawn).
pub const MAX_OPSET: i64 = 28;

/// Whether a file looks like an ONNX model: its name ends in `.onnx`.
pub fn is_onnx_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("onnx"))
}

/// Reads the ONNX model at `path` as a trace named after the file.
pub fn read(path: &Path) -> Result<Trace, OnnxError> {
    let read_error = |source| OnnxError::Read {
        path: path.to_owned(),
        source,
    };
    // Checked before opening: opening a pipe blocks until a writer comes.
    let metadata = std::fs::metadata(path).map_err(read_error)?;
    if !metadata.is_file() {
        return Err(OnnxError::NotAFile {
            path: path.to_owned(),
        });
    }
    let file = File::open(path).map_err(read_error)?;
    let len = file.metadata().map_err(read_error)?.len();
    let mut source = BufReader::with_capacity(1 << 16, file);
    let name = path
        .file_stem()
        .map_or_else(|| "model".to_owned(), |s| s.to_string_lossy().into_owned());
    read_from(&mut source, len, &name)
}

/// Reads an ONNX model held in memory (the fuzz target's and tests' entry).
pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Trace, OnnxError> {
    let mut source = Cursor::new(bytes);
    read_from(&mut source, bytes.len() as u64, name)
}

fn read_from(source: &mut dyn wire::Source, len: u64, name: &str) -> Result<Trace, OnnxError> {
    let mut wire = wire::Wire::new(source, len);
    let model = proto::model(&mut wire)?;
    if model.graph.nodes.is_empty() && model.graph.inputs.is_empty() {
        return Err(OnnxError::NoGraph);
    }
    if let Some((_, version)) = model
        .opsets
        .iter()
        .find(|(domain, _)| domain.is_empty() || domain == "ai.onnx")
    {
        if *version > MAX_OPSET || *version < 1 {
            return Err(OnnxError::UnknownOpset {
                version: *version,
                max: MAX_OPSET,
            });
        }
    }
    convert::to_trace(&model, name)
}
