//! Styling of drawings: what each drawn node, arrow and cluster reads and looks like.
//!
//! It takes a [`tl_collapse::VisibleGraph`] (what is drawn) and produces a
//! [`StyledGraph`] (rows, shapes, fills, borders, arrow labels, clusters, header, key) for
//! `tl-dot-emit`. It never lays out or paints anything. It owns the text formats of rows and
//! headers (the guide's number formats), the argument row rules (2.4), themes read from the data
//! files in `themes/`, the forward drawing's node rules (2.2-2.13, 4.3-4.11), the backward
//! and combined drawings (4.5), edit marks (4.7, 5.3) and colour and size by value (6).
//!
//! Invariants: styling is a pure function of the trace, the visible graph, the options and
//! the theme; node and edge order follow the visible graph, so output is deterministic.

pub mod args;
mod backward;
pub mod contrast;
pub mod edits;
pub mod encoding;
pub mod format;
mod forward;
mod graph;
mod options;
mod theme;

pub use backward::{style_backward, style_combined};
pub use forward::{condition_word, header, params_line, style_forward};
pub use graph::*;
pub use options::{Direction, LabelField, NodeStyle, StyleOptions};
pub use theme::{RoleColors, Theme, ThemeName, UnknownTheme};
