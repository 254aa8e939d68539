//! The workspace-level tests, one module per concern, in one test binary (each binary
//! links cairo and the layout engine: fifteen of them cost more to link than to run).
//! `cargo test -p tl-tests --test workspace <module>::` runs one module.

mod backward;
mod bundles;
mod collapse;
mod conditions;
mod dot_parser;
mod edits;
mod escaping;
mod fixtures;
mod golden_dot;
mod guard;
mod hostile;
mod interactive;
mod measured_nodes;
mod number_format;
mod onnx;
mod painting;
mod real_models;
mod reference;
mod render;
mod svg_streamed;
mod tidy;
mod views;
mod xdot_ops;
