//! Any bytes that load as a trace or bundle draw every way (`tl_tests::draw_every_way`)
//! without a panic: a refused option is an error, never a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Large inputs only slow the search down; real traces are in the corpus.
    if text.len() > 200_000 {
        return;
    }
    if let Ok(document) = tl_trace_model::Document::from_json(text) {
        tl_tests::draw_every_way(&document);
    }
});
