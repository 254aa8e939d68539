//! Errors of drawing: invalid options, and the failures of the stages a drawing runs.

use tl_layout::LayoutError;
use tl_trace_model::union::UnionError;
use tl_trace_model::TraceError;

/// Everything `draw` can refuse or fail at. Every variant has a stable [`code`](DrawError::code)
/// and a message naming the problem and a remedy.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DrawError {
    /// The trace could not be read or written.
    #[error(transparent)]
    Trace(#[from] TraceError),
    /// Bundle members did not join into one graph.
    #[error(transparent)]
    Union(#[from] UnionError),
    /// The guard refused the layout, or the layout engine failed.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// Painting the laid-out drawing failed.
    #[error(transparent)]
    Render(#[from] tl_render_cairo::RenderError),
    /// An option value is not one the option accepts, or options that cannot be drawn
    /// together.
    #[error("{message}")]
    OptionInvalid {
        /// Stable code, e.g. `collapse_level_invalid`.
        code: &'static str,
        /// What was wrong and what is accepted.
        message: String,
    },
    /// The output could not be written (compressed, packed or put in place).
    #[error("{message}")]
    OutputFailed {
        /// Stable code, e.g. `output_write_failed`.
        code: &'static str,
        /// What failed and what to do.
        message: String,
    },
}

impl DrawError {
    /// The stable code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            DrawError::Trace(error) => error.code(),
            DrawError::Union(error) => error.code(),
            DrawError::Layout(error) => error.code(),
            DrawError::Render(error) => error.code(),
            DrawError::OptionInvalid { code, .. } | DrawError::OutputFailed { code, .. } => code,
        }
    }

    /// An option error with its stable code and a message that says what to do.
    pub fn invalid(code: &'static str, message: String) -> DrawError {
        DrawError::OptionInvalid { code, message }
    }

    /// An output failure with its stable code and a message that says what to do.
    pub fn output(code: &'static str, message: String) -> DrawError {
        DrawError::OutputFailed { code, message }
    }

    /// The file and the kind of failure, when the file system refused a read or a write
    /// ([`TraceError::file_failure`]).
    pub fn file_failure(&self) -> Option<(&std::path::Path, std::io::ErrorKind)> {
        match self {
            DrawError::Trace(error) => error.file_failure(),
            _ => None,
        }
    }

    /// Whether the layout guard refused the drawing (it was never laid out).
    pub fn is_layout_refusal(&self) -> bool {
        matches!(self, DrawError::Layout(error) if error.is_refusal())
    }
}
