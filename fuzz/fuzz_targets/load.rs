//! Any bytes: the loader returns a trace, a bundle or a coded error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(error) = tl_trace_model::Document::from_json(text) {
            let _ = error.code();
        }
    }
});
