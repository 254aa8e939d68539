//! Any bytes as an ONNX file: the reader returns a trace that validates or a coded error,
//! never a panic, a hang or unbounded memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match tl_onnx::from_bytes(data, "fuzz") {
        Ok(trace) => assert!(trace.validate().is_ok()),
        Err(error) => {
            let _ = error.code();
        }
    }
});
