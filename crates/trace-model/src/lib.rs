//! The TorchLens trace data model and its versioned JSON format (`tl-trace`, version 1).
//!
//! A [`Trace`] records one run of a model: every operation pass, input, output and buffer
//! version ([`OpRecord`]), the module tree and its calls, parameters, branches, timings,
//! the backward pass and edits. A [`Bundle`] holds several named traces of one model with
//! the per-operation differences a diff drawing needs.
//!
//! Loading always validates: JSON syntax, field types (errors name the JSON path of the bad
//! field), format and version, every cross-reference, the absence of cycles in the forward
//! graph, and the summary counts. [`Trace::read`] checks all but the cross-record rules, for
//! a caller that validates as part of its own work: [`Trace::validated`] runs them and keeps
//! the name lookups it built ([`Validated`], which `tl_collapse::TraceIndex` is made from).
//! Saving writes the canonical layout (one record per line) atomically, so `load` then
//! `save` reproduces a canonical file byte for byte.
//!
//! This crate holds no drawing code; it is the bottom of the pipeline
//! `trace-model -> collapse -> style -> dot-emit -> layout -> render`.

mod atomic;
pub mod builder;
mod canonical;
mod error;
mod halves;
mod lists;
pub mod parallel;
mod records;
#[cfg(unix)]
mod streamed;
pub mod suggest;
pub mod synthetic;
pub mod union;
mod validate;
mod values;

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Deserialize;

pub use atomic::{
    cancel_writes_of, forget_cancelled, remove_unfinished_writes, write_atomically,
    write_atomically_with,
};
pub use error::TraceError;
pub use lists::IndexLists;
pub use records::*;
pub use validate::{NameIndex, Validated};

/// The first fields of every file, read before the full parse so that a file of another
/// format or version gets a precise error instead of a confusing field error.
#[derive(Deserialize)]
struct Envelope {
    format: Option<serde_json::Value>,
    version: Option<serde_json::Value>,
}

fn syntax_error(error: serde_json::Error) -> TraceError {
    if error.is_eof() {
        TraceError::Truncated {
            line: error.line(),
            column: error.column(),
        }
    } else {
        let detail = error.to_string();
        // serde_json appends " at line L column C"; the message states them separately.
        let detail = detail
            .split(" at line ")
            .next()
            .unwrap_or(&detail)
            .to_owned();
        TraceError::Malformed {
            line: error.line(),
            column: error.column(),
            detail,
        }
    }
}

fn check_envelope(text: &str, expected: &'static str) -> Result<(), TraceError> {
    let starts_as_object = text.trim_start().starts_with('{');
    let envelope: Envelope = match serde_json::from_str(text) {
        Ok(envelope) if starts_as_object => envelope,
        Err(error) if error.is_syntax() || error.is_eof() => return Err(syntax_error(error)),
        // An object whose top level is wrong (`duplicate field `format``): say so, where.
        Err(error) if starts_as_object => return Err(syntax_error(error)),
        _ => {
            return Err(TraceError::FormatUnknown {
                found: "missing (the file is not a JSON object)".to_owned(),
                expected,
            })
        }
    };
    match &envelope.format {
        Some(serde_json::Value::String(format)) if format == expected => {}
        Some(other) => {
            return Err(TraceError::FormatUnknown {
                found: other.to_string(),
                expected,
            })
        }
        None => {
            return Err(TraceError::FormatUnknown {
                found: "missing".to_owned(),
                expected,
            })
        }
    }
    match &envelope.version {
        Some(version) if version.as_u64() == Some(u64::from(FORMAT_VERSION)) => Ok(()),
        Some(other) => Err(TraceError::VersionUnsupported {
            found: other.to_string(),
            supported: FORMAT_VERSION,
        }),
        None => Err(TraceError::VersionUnsupported {
            found: "missing".to_owned(),
            supported: FORMAT_VERSION,
        }),
    }
}

/// A document that states its format and version.
trait Versioned: DeserializeOwned {
    fn format_and_version(&self) -> (&str, u32);

    /// The document, when `text` is a well-formed document (no error detail).
    fn parse_well_formed(text: &str) -> Option<Self> {
        serde_json::from_str(text).ok()
    }
}

impl Versioned for Trace {
    fn format_and_version(&self) -> (&str, u32) {
        (&self.format, self.version)
    }

    fn parse_well_formed(text: &str) -> Option<Self> {
        halves::parse_in_halves(text).or_else(|| serde_json::from_str(text).ok())
    }
}

impl Versioned for Bundle {
    fn format_and_version(&self) -> (&str, u32) {
        (&self.format, self.version)
    }
}

/// The document, when `text` is a well-formed document of format `expected` and the current
/// version (parsed once, no error detail).
fn parse_fast<T: Versioned>(text: &str, expected: &str) -> Option<T> {
    T::parse_well_formed(text)
        .filter(|document| document.format_and_version() == (expected, FORMAT_VERSION))
}

/// Parses a document of format `expected`. A well-formed file of the right format and
/// version is parsed once (a large canonical trace on two threads, `halves`); anything else
/// is parsed again carefully, to name the problem
/// (format, version, syntax position, or the JSON path of the bad field).
fn parse_typed<T: Versioned>(text: &str, expected: &'static str) -> Result<T, TraceError> {
    if let Some(document) = parse_fast(text, expected) {
        return Ok(document);
    }
    check_envelope(text, expected)?;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            syntax_error(inner)
        } else {
            let detail = inner.to_string();
            let detail = detail
                .split(" at line ")
                .next()
                .unwrap_or(&detail)
                .to_owned();
            TraceError::FieldInvalid { path, detail }
        }
    })
}

/// A large canonical trace of the current version, parsed as it is read (`streamed`), not
/// validated; `None` for any other file, which is then read whole.
fn read_streamed(path: &Path) -> Result<Option<Trace>, TraceError> {
    #[cfg(unix)]
    {
        let trace = streamed::load(path).map_err(|source| TraceError::Read {
            path: path.to_owned(),
            source,
        })?;
        Ok(trace.filter(|trace| trace.format_and_version() == (TRACE_FORMAT, FORMAT_VERSION)))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(None)
    }
}

/// The largest trace file read unless told otherwise: 1 GiB (a 100,000-operation trace is
/// about 110 MB). Reading is bounded by it in time and memory.
pub const DEFAULT_MAX_TRACE_BYTES: u64 = 1 << 30;

/// What every read checks before reading: the path is a regular file (`/dev/zero` or a pipe
/// would never end), of at most `max_bytes`, whose first byte past white space can start a
/// trace (`{`): anything else stops at once, not after reading it all.
pub fn check_input_file(path: &Path, max_bytes: u64) -> Result<(), TraceError> {
    use std::io::Read;
    let read_error = |source| TraceError::Read {
        path: path.to_owned(),
        source,
    };
    let metadata = std::fs::metadata(path).map_err(read_error)?;
    if !metadata.is_file() {
        return Err(TraceError::NotAFile {
            path: path.to_owned(),
        });
    }
    if metadata.len() > max_bytes {
        return Err(TraceError::TooLarge {
            path: path.to_owned(),
            bytes: metadata.len(),
            limit: max_bytes,
        });
    }
    let mut head = [0u8; 256];
    let read = std::fs::File::open(path)
        .and_then(|mut file| file.read(&mut head))
        .map_err(read_error)?;
    let text = &head[..read];
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let Some(column) = text.iter().position(|b| !b.is_ascii_whitespace()) else {
        return Ok(()); // Empty, or only white space so far: the parser names it.
    };
    if text[column] != b'{' {
        let line = 1 + text[..column].iter().filter(|&&b| b == b'\n').count();
        let line_start = text[..column]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |n| n + 1);
        return Err(TraceError::Malformed {
            line,
            column: column - line_start + 1,
            detail: "a trace file is a JSON object and starts with `{`".to_owned(),
        });
    }
    Ok(())
}

fn read_text(path: &Path) -> Result<String, TraceError> {
    halves::read_text(path).map_err(|source| TraceError::Read {
        path: path.to_owned(),
        source,
    })
}

/// The `format` field of a document (`tl-trace`, `tl-bundle`), read without parsing the
/// rest; `None` for text that is not a JSON object with a string `format`.
pub fn format_of(text: &str) -> Option<String> {
    match serde_json::from_str::<Envelope>(text).ok()?.format? {
        serde_json::Value::String(format) => Some(format),
        _ => None,
    }
}

/// A trace or a bundle file, told apart by its `format` field.
#[derive(Debug, Clone, PartialEq)]
pub enum Document {
    /// A `tl-trace` file (boxed: a trace is much larger than a bundle's handle).
    Trace(Box<Trace>),
    /// A `tl-bundle` file.
    Bundle(Bundle),
}

impl Document {
    /// Parses and validates either kind of document (a trace unless it says it is a bundle).
    pub fn from_json(text: &str) -> Result<Document, TraceError> {
        Document::parse(text)?.with_trace_validated()
    }

    /// Reads, parses and validates a trace or bundle file.
    pub fn load(path: impl AsRef<Path>) -> Result<Document, TraceError> {
        Document::read(path)?.with_trace_validated()
    }

    /// [`Document::load`] of a file of at most `max_bytes` (see [`check_input_file`]).
    pub fn load_limited(path: impl AsRef<Path>, max_bytes: u64) -> Result<Document, TraceError> {
        Document::read_limited(path, max_bytes)?.with_trace_validated()
    }

    /// The document, once a trace is validated (a bundle was when it was parsed).
    fn with_trace_validated(self) -> Result<Document, TraceError> {
        if let Document::Trace(trace) = &self {
            trace.validate()?;
        }
        Ok(self)
    }

    /// Reads and parses a trace or bundle file; a bundle is validated as by
    /// [`Document::load`], a trace is not (see [`Trace::read`]).
    pub fn read(path: impl AsRef<Path>) -> Result<Document, TraceError> {
        Document::read_limited(path, DEFAULT_MAX_TRACE_BYTES)
    }

    /// [`Document::read`] of a file of at most `max_bytes` (see [`check_input_file`]).
    pub fn read_limited(path: impl AsRef<Path>, max_bytes: u64) -> Result<Document, TraceError> {
        check_input_file(path.as_ref(), max_bytes)?;
        if let Some(trace) = read_streamed(path.as_ref())? {
            return Ok(Document::Trace(Box::new(trace)));
        }
        Document::parse(&read_text(path.as_ref())?)
    }

    /// [`Document::from_json`] without validating a trace.
    fn parse(text: &str) -> Result<Document, TraceError> {
        if let Some(trace) = parse_fast::<Trace>(text, TRACE_FORMAT) {
            return Ok(Document::Trace(Box::new(trace)));
        }
        if format_of(text).as_deref() == Some(BUNDLE_FORMAT) {
            Bundle::from_json(text).map(Document::Bundle)
        } else {
            parse_typed(text, TRACE_FORMAT).map(|trace| Document::Trace(Box::new(trace)))
        }
    }

    /// Writes the canonical JSON atomically.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), TraceError> {
        match self {
            Document::Trace(trace) => trace.save(path),
            Document::Bundle(bundle) => bundle.save(path),
        }
    }
}

impl Picture {
    /// The PNG file's bytes.
    pub fn png_bytes(&self) -> Result<Vec<u8>, base64::DecodeError> {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.decode(&self.png_base64)
    }
}

impl Trace {
    /// Parses and validates a trace from JSON text.
    pub fn from_json(text: &str) -> Result<Trace, TraceError> {
        let trace: Trace = parse_typed(text, TRACE_FORMAT)?;
        trace.validate()?;
        Ok(trace)
    }

    /// Reads, parses and validates a trace file.
    pub fn load(path: impl AsRef<Path>) -> Result<Trace, TraceError> {
        let trace = Trace::read(path)?;
        trace.validate()?;
        Ok(trace)
    }

    /// Reads and parses a trace file: its format, version, types and required fields are
    /// checked, its cross-references not. For callers that validate as part of their own
    /// work through [`Trace::validated`] (`tl_draw::draw` does), so that a large trace is
    /// not checked twice.
    pub fn read(path: impl AsRef<Path>) -> Result<Trace, TraceError> {
        Trace::read_limited(path, DEFAULT_MAX_TRACE_BYTES)
    }

    /// [`Trace::read`] of a file of at most `max_bytes` (see [`check_input_file`]).
    pub fn read_limited(path: impl AsRef<Path>, max_bytes: u64) -> Result<Trace, TraceError> {
        check_input_file(path.as_ref(), max_bytes)?;
        if let Some(trace) = read_streamed(path.as_ref())? {
            return Ok(trace);
        }
        parse_typed(&read_text(path.as_ref())?, TRACE_FORMAT)
    }

    /// Checks every cross-reference, acyclicity and the summary counts.
    pub fn validate(&self) -> Result<(), TraceError> {
        self.validated().map(drop)
    }

    /// [`Trace::validate`], keeping the name lookups the checks built: the proof that code
    /// relying on every name resolving needs (`tl_collapse::TraceIndex::new`).
    pub fn validated(&self) -> Result<Validated<'_>, TraceError> {
        validate::validate_trace(self, "")
    }

    /// The canonical JSON text of the trace (one record per line, final line break).
    pub fn to_json(&self) -> String {
        canonical::to_json(self)
    }

    /// Writes the canonical JSON atomically.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), TraceError> {
        write_atomically(path.as_ref(), self.to_json().as_bytes())
    }

    /// An empty trace of a model: only the root module, counts zero.
    pub fn empty(class_name: &str) -> Trace {
        Trace {
            format: TRACE_FORMAT.to_owned(),
            version: FORMAT_VERSION,
            model: ModelInfo {
                class_name: class_name.to_owned(),
                trace_name: None,
                source: None,
            },
            summary: TraceSummary {
                num_ops: 0,
                num_tensors: 0,
                total_output_bytes: 0,
                num_params: 0,
                num_params_trainable: 0,
                num_params_frozen: 0,
                total_param_bytes: 0,
            },
            params: Vec::new(),
            modules: vec![ModuleRecord {
                address: "self".to_owned(),
                class_name: class_name.to_owned(),
                parent: None,
                depth: 0,
                children: Vec::new(),
                num_calls: 1,
                num_params: 0,
                num_params_trainable: 0,
                num_params_frozen: 0,
                buffers: Vec::new(),
            }],
            module_calls: Vec::new(),
            ops: Vec::new(),
            conditionals: Vec::new(),
            conditional_branch_edges: Vec::new(),
            backward: None,
            edits: None,
            advisories: Vec::new(),
        }
    }

    /// The summary counts the records add up to (what validation checks `summary` against).
    /// Sums saturate: validation refuses records whose sums overflow before it compares.
    pub fn computed_summary(&self) -> TraceSummary {
        let sum = |values: &mut dyn Iterator<Item = u64>| values.fold(0u64, u64::saturating_add);
        let params = |keep: fn(&ParamRecord) -> bool| {
            sum(&mut self.params.iter().filter(|p| keep(p)).map(|p| p.numel))
        };
        TraceSummary {
            num_ops: self.ops.iter().filter(|op| op.kind == OpKind::Op).count() as u64,
            num_tensors: self.ops.len() as u64,
            total_output_bytes: sum(&mut self
                .ops
                .iter()
                .filter(|op| op.kind != OpKind::Output)
                .filter_map(|op| op.bytes)),
            num_params: params(|_| true),
            num_params_trainable: params(|p| p.trainable),
            num_params_frozen: params(|p| !p.trainable),
            total_param_bytes: sum(&mut self.params.iter().map(|p| p.bytes)),
        }
    }

    /// The op with this pass-qualified label.
    pub fn op(&self, label: &str) -> Option<&OpRecord> {
        self.ops.iter().find(|op| op.label == label)
    }

    /// The module with this address.
    pub fn module(&self, address: &str) -> Option<&ModuleRecord> {
        self.modules.iter().find(|m| m.address == address)
    }
}

impl Bundle {
    /// Parses and validates a bundle from JSON text.
    pub fn from_json(text: &str) -> Result<Bundle, TraceError> {
        let bundle: Bundle = parse_typed(text, BUNDLE_FORMAT)?;
        bundle.validate()?;
        Ok(bundle)
    }

    /// Reads, parses and validates a bundle file.
    pub fn load(path: impl AsRef<Path>) -> Result<Bundle, TraceError> {
        check_input_file(path.as_ref(), DEFAULT_MAX_TRACE_BYTES)?;
        Bundle::from_json(&read_text(path.as_ref())?)
    }

    /// Validates the bundle and every member trace.
    pub fn validate(&self) -> Result<(), TraceError> {
        validate::validate_bundle(self)
    }

    /// The canonical JSON text of the bundle.
    pub fn to_json(&self) -> String {
        canonical::to_json(self)
    }

    /// Writes the canonical JSON atomically.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), TraceError> {
        write_atomically(path.as_ref(), self.to_json().as_bytes())
    }
}
