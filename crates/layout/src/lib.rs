//! The layout stage: DOT text in, laid-out text out.
//!
//! - [`lay_out`] runs a layout engine ([`LayoutEngine`]: the embedded graphviz-pure,
//!   tl-draw's own layered engine `tl-layered` for large drawings (`layered/`: sizes from
//!   graphviz-pure, positions handed back as its keep-positions path would), or the system's
//!   Graphviz `dot`) once and writes each [`TextFormat`] asked for, returned as a
//!   typed [`LaidOut`]; the embedded engine's last few layouts are remembered by their DOT
//!   source (`recent.rs`), so drawing the same thing again skips the layout.
//! - [`guard`] estimates, before layout, what a layered layout of a styled graph will cost,
//!   so that a drawing that would take minutes is refused with a remedy.
//! - [`frames`] gives module frames that long arrows cross a wider margin.
//! - [`progress`] tells how far the layouts under way have gone, for a progress bar.
//!
//! Depends on `tl-style` (the guard and the frames read the styled graph), graphviz-pure
//! and `tl-layered`; never on cairo.

mod engine;
mod error;
pub mod frames;
pub mod guard;
mod layered;
pub mod painting;
pub mod progress;
pub mod quality;
mod recent;
mod sizing;

pub use engine::{
    lay_out, lay_out_layered_by_graphviz, lay_out_svg_into, LaidOut, LayoutEngine, TextFormat,
};
pub use error::LayoutError;
pub use recent::forget_recent_layouts;
