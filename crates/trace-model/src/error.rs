//! Errors of loading, validating and saving traces.

use std::path::PathBuf;

/// What a remedy line tells the user to do when a trace file itself is bad.
const REEXPORT: &str = "re-export the trace with the Python adapter \
     (tl_export.write_json(tl_export.export_trace(trace), path), see docs/trace-format.md)";

/// Everything that can go wrong reading or writing a trace or bundle file.
///
/// Each variant has a stable machine-readable [`code`](TraceError::code); messages name the
/// problem (with the JSON path of the bad field where there is one) and a remedy.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TraceError {
    /// The file could not be read.
    #[error(
        "cannot read '{path}': {source}; check that the path is right and the file is readable"
    )]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file could not be written.
    #[error(
        "cannot write '{path}': {source}; check that the folder is writable and the disk has room"
    )]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The JSON text ends early.
    #[error("the trace file is truncated: the JSON ends at line {line}, column {column} before it is complete; {REEXPORT}")]
    Truncated {
        /// Line of the end.
        line: usize,
        /// Column of the end.
        column: usize,
    },
    /// The text is not JSON.
    #[error(
        "the trace file is not valid JSON at line {line}, column {column} ({detail}); {REEXPORT}"
    )]
    Malformed {
        /// Line of the error.
        line: usize,
        /// Column of the error.
        column: usize,
        /// serde_json's description.
        detail: String,
    },
    /// The `format` field is missing or names another format.
    #[error("`format` is {found}, but a {expected} file must say \"format\": \"{expected}\"; is this a TorchLens trace exported by the tl-draw adapter?")]
    FormatUnknown {
        /// What the file says (quoted), or `missing`.
        found: String,
        /// The format that was expected.
        expected: &'static str,
    },
    /// The `version` field is missing or not one this build reads.
    #[error("`version` is {found}, but this build of tl-draw reads version {supported}; {REEXPORT} or upgrade tl-draw")]
    VersionUnsupported {
        /// What the file says, or `missing`.
        found: String,
        /// The version this build reads.
        supported: u32,
    },
    /// A field has the wrong type, is missing, or is unknown.
    #[error("field `{path}` is invalid: {detail}; fix that field or {REEXPORT}")]
    FieldInvalid {
        /// JSON path of the field (`ops[3].shape`).
        path: String,
        /// What is wrong with it.
        detail: String,
    },
    /// Two records share a label that must be unique.
    #[error("`{path}` repeats the {what} '{name}', which must be unique; {REEXPORT}")]
    DuplicateLabel {
        /// JSON path of the second occurrence.
        path: String,
        /// What kind of label (`op label`, `module address`, ...).
        what: &'static str,
        /// The repeated label.
        name: String,
    },
    /// A record refers to something the trace does not contain.
    #[error("`{path}` refers to {what} '{name}', which is not in the trace; {REEXPORT}")]
    DanglingReference {
        /// JSON path of the reference.
        path: String,
        /// What kind of record it names (`op`, `module`, `parameter`, ...).
        what: &'static str,
        /// The missing name.
        name: String,
    },
    /// Two records disagree with each other.
    #[error("`{path}` is inconsistent: {detail}; {REEXPORT}")]
    Inconsistent {
        /// JSON path of the record.
        path: String,
        /// What disagrees.
        detail: String,
    },
    /// The forward graph has a cycle.
    #[error("the forward graph has a cycle through op '{label}' (`{path}`): a recorded run cannot feed an op its own output; {REEXPORT}")]
    Cycle {
        /// JSON path of an op on the cycle.
        path: String,
        /// Its label.
        label: String,
    },
    /// The path names something that is not a regular file (a folder, a device such as
    /// `/dev/zero`, a pipe): it is refused before reading, which might never end.
    #[error(
        "'{path}' is not a regular file; pass the path of a trace file exported by the adapter"
    )]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The file is larger than the read limit.
    #[error("'{path}' is {bytes} bytes, over the {limit}-byte limit for a trace (a 100,000-operation trace is about 110 MB); if it really is a trace, raise the limit (--max-trace-bytes)")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
        /// The limit in force.
        limit: u64,
    },
    /// A recorded count disagrees with the records.
    #[error("`{path}` says {recorded}, but the records add up to {computed}; {REEXPORT}")]
    CountMismatch {
        /// JSON path of the count.
        path: String,
        /// The value in the file.
        recorded: u64,
        /// The value computed from the records.
        computed: u64,
    },
}

impl TraceError {
    /// The file and the kind of failure, when the file system refused (reading, writing, a
    /// path that is no regular file): for callers whose language has its own file errors
    /// (Python's `FileNotFoundError`, `PermissionError`, ...).
    pub fn file_failure(&self) -> Option<(&std::path::Path, std::io::ErrorKind)> {
        match self {
            TraceError::Read { path, source } | TraceError::Write { path, source } => {
                Some((path, source.kind()))
            }
            TraceError::NotAFile { path } if path.is_dir() => {
                Some((path, std::io::ErrorKind::IsADirectory))
            }
            TraceError::NotAFile { path } => Some((path, std::io::ErrorKind::Other)),
            _ => None,
        }
    }

    /// The stable code of this error, for scripts and tests.
    pub fn code(&self) -> &'static str {
        match self {
            TraceError::Read { .. } => "trace_read_failed",
            TraceError::Write { .. } => "trace_write_failed",
            TraceError::Truncated { .. } => "trace_truncated",
            TraceError::Malformed { .. } => "trace_json_malformed",
            TraceError::FormatUnknown { .. } => "trace_format_unknown",
            TraceError::VersionUnsupported { .. } => "trace_version_unsupported",
            TraceError::FieldInvalid { .. } => "trace_field_invalid",
            TraceError::DuplicateLabel { .. } => "trace_label_duplicate",
            TraceError::DanglingReference { .. } => "trace_reference_dangling",
            TraceError::Inconsistent { .. } => "trace_inconsistent",
            TraceError::Cycle { .. } => "trace_graph_cyclic",
            TraceError::CountMismatch { .. } => "trace_count_mismatch",
            TraceError::NotAFile { .. } => "trace_not_a_file",
            TraceError::TooLarge { .. } => "trace_too_large",
        }
    }
}
