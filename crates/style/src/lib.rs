//! Styling of drawings: number and text formats, and (as later issues fill it) themes,
//! fills, shapes, colour and size channels, legends and header text.
//!
//! It sits after `tl-collapse` in the pipeline and before `tl-dot-emit`; it never lays out
//! or paints anything. This first part owns the text formats every row and header uses
//! (drawing-spec section 2.3): shapes in tuple notation, binary byte sizes, compact counts,
//! durations, FLOPs, compact integer ranges and scalar values.

pub mod format;
