//! Rust errors as the Python package's exceptions, with the same stable codes.

use pyo3::prelude::*;
use tl_draw::DrawError;

/// `tl_draw.DrawError(code, message)` (a `ValueError`), or `tl_draw.DrawKeywordError` (also a
/// `TypeError`) for a keyword that does not exist.
pub fn to_python(py: Python<'_>, error: &DrawError) -> PyErr {
    raise(py, error.code(), &error.to_string())
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
