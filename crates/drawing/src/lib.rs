//! One drawing of a TorchLens trace: the pipeline `tl-trace-model -> tl-collapse ->
//! tl-style -> tl-dot-emit -> tl-layout -> tl-render-cairo` run for one set of options.
//!
//! - [`DrawOptions`] holds every keyword of the guide ([`options`]; by name for bindings:
//!   [`keywords`]); [`draw`] turns a [`Trace`](tl_trace_model::Trace) into a [`Drawing`]
//!   (its DOT, styled graph and schedule), which renders or writes any static
//!   [`OutputFormat`].
//! - [`draw_bundle`] draws a bundle: the diff of its members, or their union graph.
//! - Views (`view=`) are resolved against the trace in `views`; the edit cone's shading in
//!   `cone`.
//!
//! The interactive page is not drawn here: `tl-page` builds it on top of this crate, and
//! the facade `tl-draw` chooses between the two for each output.

mod bundle;
mod cone;
mod draw;
mod error;
pub mod keywords;
mod language;
pub mod options;
mod output;
mod painted;
mod views;
mod write;

pub use bundle::{draw_bundle, parse_on, BundleGraph, BundleKeywords, BundleOptions, METRICS};
pub use draw::{draw, draw_indexed, Drawing};
pub use error::DrawError;
pub use keywords::{KeywordValue, BUNDLE_KEYWORDS, DRAW_KEYWORDS};
pub use language::{in_language, Language};
pub use options::{
    BatchRender, Collapse, DrawOptions, GraphKind, NodeContext, View, WriteOptions, WRITE_KEYWORDS,
};
pub use output::{gzip, output_target, through_links, Gzipped, OutputFormat};
pub use tl_layout::LayoutEngine;
pub use views::{MAX_HOOK_NODE_INCHES, MAX_HOOK_PENWIDTH, MAX_HOOK_ROWS};
pub use write::Written;
