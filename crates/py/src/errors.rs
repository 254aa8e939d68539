//! Rust errors as the Python package's exceptions, with the same stable codes, their
//! remedies spelt as Python writes them.

use pyo3::prelude::*;
use tl_draw::{DrawError, Language};

/// `tl_draw.DrawError(code, message)` (a `ValueError`), `tl_draw.DrawKeywordError` (also a
/// `TypeError`) for a keyword that does not exist, or, when the file system refused, the
/// matching `OSError` (`FileNotFoundError`, `PermissionError`, ...) naming the user's path
/// and carrying the code too.
pub fn to_python(py: Python<'_>, error: &DrawError) -> PyErr {
    let message = error.message_in(Language::Python);
    match error.file_failure() {
        Some((path, kind)) => {
            let built = py
                .import("tl_draw._errors")
                .and_then(|module| module.getattr("file_error"))
                .and_then(|file_error| {
                    file_error.call1((error.code(), &message, format!("{kind:?}"), path))
                });
            match built {
                Ok(exception) => PyErr::from_value(exception),
                Err(_) => {
                    pyo3::exceptions::PyOSError::new_err(format!("[{}] {message}", error.code()))
                }
            }
        }
        None => raise(py, error.code(), &message),
    }
}

/// The package's exception for `code`.
pub fn raise(py: Python<'_>, code: &str, message: &str) -> PyErr {
    let class = if code == "draw_keyword_unknown" {
        "DrawKeywordError"
    } else {
        "DrawError"
    };
    let built = py
        .import("tl_draw._errors")
        .and_then(|module| module.getattr(class))
        .and_then(|class| class.call1((code, message)));
    match built {
        Ok(exception) => PyErr::from_value(exception),
        // The package is broken (the module was imported on its own): still say what failed.
        Err(_) => pyo3::exceptions::PyValueError::new_err(format!("[{code}] {message}")),
    }
}
