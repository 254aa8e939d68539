//! Paints a laid-out graph (the layout engine's `json` output of xdot drawing operations)
//! onto PDF, PNG and SVG surfaces with cairo-rs.
//!
//! It is empty until the render issue fills it.
