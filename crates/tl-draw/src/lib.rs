//! tl-draw: TorchLens's model-graph drawing in Rust. This facade wires the pipeline
//! `tl-trace-model -> tl-collapse -> tl-style -> tl-dot-emit -> layout -> tl-render-cairo`
//! and is what applications depend on; each stage is also usable on its own.
//!
//! ```no_run
//! use tl_draw::Trace;
//!
//! let trace = Trace::load("fixtures/convnet.json")?;
//! println!("{}", tl_draw::summary(&trace));
//! # Ok::<(), tl_draw::TraceError>(())
//! ```

pub use tl_trace_model::{Bundle, OpKind, OpRecord, Trace, TraceError};

use tl_style::format;

/// The whole-network facts a drawing's header states, as one line:
/// `ConvNet: 12 operations (19.4 KB of outputs), 1.61K parameters, all trainable`.
pub fn summary(trace: &Trace) -> String {
    let counts = &trace.summary;
    let params = if counts.num_params_frozen == 0 {
        format!(
            "{} parameters, all trainable",
            format::compact_count(counts.num_params)
        )
    } else if counts.num_params_trainable == 0 {
        format!(
            "{} parameters, all frozen",
            format::compact_count(counts.num_params)
        )
    } else {
        format!(
            "{} parameters ({} trainable, {} frozen)",
            format::compact_count(counts.num_params),
            format::compact_count(counts.num_params_trainable),
            format::compact_count(counts.num_params_frozen)
        )
    };
    format!(
        "{}: {} operations ({} of outputs), {params}",
        trace.model.class_name,
        format::compact_count(counts.num_ops),
        format::bytes(counts.total_output_bytes)
    )
}
