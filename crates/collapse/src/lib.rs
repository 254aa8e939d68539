//! Decides what a drawing shows: depth cuts, the collapse schedule, repeat folding, module
//! focus and rolled loops (drawing-spec sections 3, 4.1 and 4.2).
//!
//! It reads a validated `tl_trace_model::Trace` and knows nothing of styles or DOT. It is
//! empty until the forward-drawing issue gives it the depth cut and buffer visibility.
