//! `tl_draw._native`: the Rust core of the `tl-draw` Python package. The Python side
//! (`python/tl_draw`) turns live TorchLens traces into trace JSON, checks and wraps the
//! keywords and user callables, and gives users the `Drawing` class; this module parses the
//! JSON, draws, lays out and paints on a worker thread, with the GIL released for
//! everything but the user's callables, so that Ctrl-C stops a drawing at once
//! (`interrupt.rs`).
//!
//! One entry point, `draw`, and one class, [`NativeDrawing`]. Errors are raised as
//! `tl_draw.DrawError` (a `ValueError` carrying the Rust `code`), unknown keywords as
//! `tl_draw.DrawKeywordError` (also a `TypeError`).

use pyo3::prelude::*;

// Laying out and painting make millions of small allocations, which mimalloc serves faster
// than the C library's allocator (docs/performance.md, "The Python package"). Only the
// module's own Rust allocations use it: Python's objects stay Python's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_arena_eager_commit` (its place in mimalloc's option table, the same
/// in versions 2 and 3; libmimalloc-sys names no constant for it).
const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;

/// Arenas committed as they are used, not whole when reserved: in a Python process the
/// whole-arena commit made the first drawings slower than with the C library's allocator
/// (DenseNet-121 to PNG: 0.37-0.48 s against 0.35-0.37 s; 0.33-0.36 s committed as used).
fn commit_memory_as_used() {
    // SAFETY: `mi_option_set` writes one entry of mimalloc's option table (an atomic store);
    // any option and value are valid, and it is called before the module allocates.
    unsafe { libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0) };
}

mod drawing;
mod errors;
mod hooks;
mod interrupt;
mod json_writer;
mod keywords;
mod ops_json;
mod read_ahead;
mod source;

pub use drawing::NativeDrawing;

/// Draws what `documents` hold, as `keywords` say, and returns the drawing (laid out and
/// painted only when it is rendered or saved).
///
/// `documents` is a list: one trace or bundle (JSON bytes, or a path to a file), or several
/// traces of one model (drawn as their union, named by `names`). `keywords` maps the guide's
/// keyword names to values; `node_spec_fn` takes a callable of a node dict returning a dict
/// of changes or `None`, and `color_by` / `size_by` take a callable of `(label, layer_label)`
/// returning a number or `None`, besides the names the guide lists.
#[pyfunction]
#[pyo3(signature = (documents, keywords, names=None))]
fn draw(
    py: Python<'_>,
    documents: Vec<source::Source>,
    keywords: &Bound<'_, pyo3::types::PyDict>,
    names: Option<Vec<String>>,
) -> PyResult<NativeDrawing> {
    let failures = hooks::Failures::default();
    let request = keywords::Request::from_python(keywords, &failures)?;
    let outcome = interrupt::interruptible(py, move || {
        drawing::draw_documents(&documents, names, &request)
    })?;
    // An exception in a user callable is the user's to see, before anything it broke.
    failures.raise(py)?;
    outcome.map_err(|error| errors::to_python(py, &error))
}

/// The keywords `draw` takes, for the Python side's checks and suggestions.
#[pyfunction]
fn keyword_names() -> (Vec<&'static str>, Vec<&'static str>) {
    let write = tl_draw::WRITE_KEYWORDS.iter();
    (
        write.chain(tl_draw::DRAW_KEYWORDS).copied().collect(),
        tl_draw::BUNDLE_KEYWORDS.to_vec(),
    )
}

/// Refuses the first name that is not a keyword of `draw` (`DrawKeywordError`, naming the
/// closest keyword).
#[pyfunction]
fn check_keywords(py: Python<'_>, names: Vec<String>) -> PyResult<()> {
    let known = tl_draw::WRITE_KEYWORDS
        .iter()
        .chain(tl_draw::DRAW_KEYWORDS)
        .chain(tl_draw::BUNDLE_KEYWORDS.iter())
        .chain(tl_draw::keywords::HOOK_KEYWORDS.iter());
    let known: Vec<&str> = known.copied().collect();
    match names.iter().find(|name| !known.contains(&name.as_str())) {
        Some(name) => Err(errors::to_python(
            py,
            &tl_draw::keywords::unknown_keyword(name),
        )),
        None => Ok(()),
    }
}

/// Sets every later drawing's text in the fonts of `folder` (the wheel's own, so that a
/// drawing looks the same on every machine, fonts installed or not).
#[pyfunction]
fn use_fonts(py: Python<'_>, folder: std::path::PathBuf) -> PyResult<()> {
    tl_draw::use_fonts_in(&folder)
        .map_err(|error| errors::to_python(py, &tl_draw::DrawError::Render(error)))
}

/// Forgets the layouts remembered for drawing the same thing again (for timings of a first
/// drawing: `cargo xtask bench-python`).
#[pyfunction]
fn forget_recent_layouts() {
    tl_draw::forget_recent_layouts();
}

/// The native module.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    commit_memory_as_used();
    module.add_function(wrap_pyfunction!(draw, module)?)?;
    module.add_function(wrap_pyfunction!(keyword_names, module)?)?;
    module.add_function(wrap_pyfunction!(check_keywords, module)?)?;
    module.add_function(wrap_pyfunction!(use_fonts, module)?)?;
    module.add_function(wrap_pyfunction!(forget_recent_layouts, module)?)?;
    module.add_function(wrap_pyfunction!(ops_json::write_ops, module)?)?;
    module.add_function(wrap_pyfunction!(read_ahead::fill_column, module)?)?;
    module.add_class::<NativeDrawing>()?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
