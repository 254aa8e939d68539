//! Errors of the layout stage.

/// Everything layout can refuse or fail at, each with a stable [`code`](LayoutError::code)
/// and a message naming a remedy.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LayoutError {
    /// The drawing has more nodes than the node limit (`max_nodes=`, 100,000 by default).
    #[error("this drawing has {nodes} nodes, over the {limit}-node limit (max_nodes=, --max-nodes); fold it with collapse=\"auto\" (--collapse auto), depth= (--depth 2), or focus one module with module= (--module <address>); or lift the limit with --force")]
    TooLarge {
        /// Drawn nodes.
        nodes: usize,
        /// The limit in force.
        limit: usize,
    },
    /// Graphviz's `dot` algorithm (graphviz-pure or the system's `dot`) was asked for a
    /// drawing larger than it lays out in reasonable time; the layered engine takes it.
    #[error("the {engine} layout engine takes minutes on drawings of more than {limit} nodes and this one has {nodes}; use the layered engine (--layout-engine layered, or auto, the default), fold it with collapse=\"auto\" (--collapse auto) or depth= (--depth 2); or lift the limit with --force")]
    TooLargeForDot {
        /// Which engine was asked for.
        engine: &'static str,
        /// Drawn nodes.
        nodes: usize,
        /// The limit for that engine.
        limit: usize,
    },
    /// The drawing's arrows span so many ranks that its layout would take minutes (a
    /// DenseNet's concatenations, masks that feed every block): see [`crate::guard`].
    #[error("this drawing's layout would place {nodes} nodes and {virtual_nodes} more points where its arrows cross ranks, over the {limit} limit (Graphviz's dot algorithm would take minutes); use the layered engine (--layout-engine layered, or auto, the default), fold it with collapse=\"auto\" (--collapse auto), depth= (--depth 2), or focus one module with module= (--module <address>); or lift the limit with --force")]
    TooCostly {
        /// Drawn nodes.
        nodes: usize,
        /// Virtual nodes of the estimate.
        virtual_nodes: usize,
        /// The limit in force (on nodes plus virtual nodes).
        limit: usize,
    },
    /// One node is joined to so many others far apart that laying out the bundle of long
    /// arrows would take minutes (a mask every block reads): see [`crate::guard`].
    #[error("in this drawing {hub} has {arrows} arrows to nodes far apart (a hub load of {load}, over the {limit} limit): laying out that bundle of long arrows with Graphviz's dot algorithm would take minutes; use the layered engine (--layout-engine layered, or auto, the default), fold it with collapse=\"auto\" (--collapse auto), depth= (--depth 1), or focus one module with module= (--module <address>); or lift the limit with --force")]
    HubTooHeavy {
        /// The hub's name as drawn.
        hub: String,
        /// Its arrows that cross at least two ranks.
        arrows: usize,
        /// Its long arrows times the ranks they cross.
        load: usize,
        /// The limit in force.
        limit: usize,
    },
    /// The system Graphviz `dot` program was asked for but is not installed.
    #[error("the Graphviz `dot` program was not found on PATH; install Graphviz (Debian/Ubuntu: apt install graphviz; macOS: brew install graphviz) or use a built-in layout engine (--layout-engine auto, the default)")]
    GraphvizUnavailable,
    /// The layout engine failed on the DOT source.
    #[error("the {engine} layout engine failed: {detail}; report this with the DOT source (write it with a .dot output path), or try another engine (--layout-engine)")]
    Failed {
        /// Which engine.
        engine: &'static str,
        /// Its message.
        detail: String,
    },
    /// `layout_engine=` names no engine.
    #[error("layout engine must be 'auto', 'embedded', 'layered' or 'dot'; received {name:?}")]
    EngineUnknown {
        /// What was asked for.
        name: String,
    },
}

impl LayoutError {
    /// The stable code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            LayoutError::TooLarge { .. }
            | LayoutError::TooLargeForDot { .. }
            | LayoutError::TooCostly { .. }
            | LayoutError::HubTooHeavy { .. } => "layout_too_large",
            LayoutError::GraphvizUnavailable => "graphviz_binary_unavailable",
            LayoutError::Failed { .. } => "graphviz_render_failed",
            LayoutError::EngineUnknown { .. } => "layout_engine_invalid",
        }
    }

    /// Whether the guard refused the drawing (it was never laid out).
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            LayoutError::TooLarge { .. }
                | LayoutError::TooLargeForDot { .. }
                | LayoutError::TooCostly { .. }
                | LayoutError::HubTooHeavy { .. }
        )
    }
}
