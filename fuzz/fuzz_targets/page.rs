//! Any bytes that load as a trace write an interactive page that keeps its invariants
//! (`tl_tests::check_page`): its own two scripts whole, its data JSON, its size linear in
//! the trace. Nothing a trace holds may be read as page syntax (issue 31).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // A page lays out every stop: small inputs keep the search moving.
    if text.len() > 60_000 {
        return;
    }
    if let Ok(trace) = tl_trace_model::Trace::from_json(text) {
        tl_tests::check_page(&trace, text.len());
    }
});
