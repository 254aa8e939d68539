//! Errors of drawing: invalid options, layout failures, output problems.

use tl_trace_model::TraceError;

/// Everything `draw` can refuse or fail at. Every variant has a stable [`code`](DrawError::code)
/// and a message naming the problem and a remedy.
#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    /// The trace could not be read or written.
    #[error(transparent)]
    Trace(#[from] TraceError),
    /// Painting the laid-out drawing failed.
    #[error(transparent)]
    Render(#[from] tl_render_cairo::RenderError),
    /// An option value is not one the option accepts.
    #[error("{message}")]
    OptionInvalid {
        /// Stable code, e.g. `collapse_level_invalid`.
        code: &'static str,
        /// What was wrong and what is accepted.
        message: String,
    },
    /// The drawing has more nodes than a layout can handle in reasonable time and memory.
    #[error("this drawing has {nodes} nodes, over the {limit}-node limit for a layout (it would take minutes and gigabytes); fold it with collapse=\"auto\" (--collapse auto), depth= (--depth 2), or focus one module with module= (--module <address>); or lift the limit with --force")]
    TooLarge {
        /// Drawn nodes.
        nodes: usize,
        /// The limit in force.
        limit: usize,
    },
    /// The drawing's arrows span so many ranks that its layout would take minutes (a
    /// DenseNet's concatenations, masks that feed every block): see [`crate::guard`].
    #[error("this drawing's layout would place {nodes} nodes and {virtual_nodes} more points where its arrows cross ranks, over the {limit} limit (it would take minutes); fold it with collapse=\"auto\" (--collapse auto), depth= (--depth 2), or focus one module with module= (--module <address>); or lift the limit with --force")]
    TooCostly {
        /// Drawn nodes.
        nodes: usize,
        /// Virtual nodes of the estimate.
        virtual_nodes: usize,
        /// The limit in force (on nodes plus virtual nodes).
        limit: usize,
    },
    /// The system Graphviz `dot` program was asked for but is not installed.
    #[error("the Graphviz `dot` program was not found on PATH; install Graphviz (Debian/Ubuntu: apt install graphviz; macOS: brew install graphviz) or use the embedded layout engine (--layout-engine embedded, the default)")]
    GraphvizUnavailable,
    /// The layout engine failed on the DOT source.
    #[error("the {engine} layout engine failed: {detail}; report this with the DOT source (write it with a .dot output path), or try the other engine (--layout-engine)")]
    LayoutFailed {
        /// Which engine.
        engine: &'static str,
        /// Its message.
        detail: String,
    },
}

impl DrawError {
    /// The stable code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            DrawError::Trace(error) => error.code(),
            DrawError::Render(error) => error.code(),
            DrawError::OptionInvalid { code, .. } => code,
            DrawError::GraphvizUnavailable => "graphviz_binary_unavailable",
            DrawError::TooLarge { .. } | DrawError::TooCostly { .. } => "layout_too_large",
            DrawError::LayoutFailed { .. } => "graphviz_render_failed",
        }
    }

    /// An option error with its stable code and a message that says what to do.
    pub fn invalid(code: &'static str, message: String) -> DrawError {
        DrawError::OptionInvalid { code, message }
    }
}
