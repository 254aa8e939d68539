//! Python keyword arguments as drawing options: values through
//! [`tl_draw::DrawOptions::set_keyword`] (the guide's spelling, the command line's parsers
//! and codes), callables wired as hooks.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use tl_draw::{BundleKeywords, DrawError, DrawOptions, KeywordValue, WriteOptions};

use crate::errors;
use crate::hooks::{self, Failures};

/// Everything one `draw` call asked for.
pub struct Request {
    /// The drawing options.
    pub options: DrawOptions,
    /// `graph=` as given (a bundle also takes `diff`), `metric=`, `on=`, `members=`.
    pub bundle: BundleKeywords,
    /// `file_format=` and `dpi=`: how the drawing is written.
    pub write: WriteOptions,
}

impl Request {
    /// Reads `keywords`; callables report their exceptions to `failures`.
    pub fn from_python(keywords: &Bound<'_, PyDict>, failures: &Failures) -> PyResult<Request> {
        let py = keywords.py();
        let mut request = Request {
            options: DrawOptions::default(),
            bundle: BundleKeywords::default(),
            write: WriteOptions::default(),
        };
        for (name, value) in keywords.iter() {
            let name: String = name.extract()?;
            let fail = |error: DrawError| errors::to_python(py, &error);
            match name.as_str() {
                "node_spec_fn" if value.is_none() => {}
                "node_spec_fn" => {
                    if !value.is_callable() {
                        return Err(errors::raise(
                            py,
                            "keyword_value_invalid",
                            "node_spec_fn= takes a function of a node",
                        ));
                    }
                    let hook = hooks::node_restyle(value.unbind(), failures);
                    request.options = std::mem::take(&mut request.options).node_spec_fn(hook);
                }
                "color_by" | "size_by" if value.is_callable() => {
                    let (function, shown) = callable_with_name(&value)?;
                    let source = hooks::value_source(
                        shown,
                        function,
                        if name == "color_by" {
                            "color_by"
                        } else {
                            "size_by"
                        },
                        failures,
                    );
                    let options = std::mem::take(&mut request.options);
                    request.options = if name == "color_by" {
                        options.color_by(source)
                    } else {
                        options.size_by(source)
                    };
                }
                "graph" => {
                    let value = keyword_value(&name, &value).map_err(fail)?;
                    request.options = request
                        .bundle
                        .set_graph(std::mem::take(&mut request.options), &value)
                        .map_err(fail)?;
                }
                "metric" | "on" | "members" => {
                    let value = keyword_value(&name, &value).map_err(fail)?;
                    request.bundle.set_keyword(&name, &value).map_err(fail)?;
                }
                "file_format" | "dpi" => {
                    let value = keyword_value(&name, &value).map_err(fail)?;
                    if let Some(write) =
                        std::mem::take(&mut request.write).set_keyword(&name, &value)
                    {
                        request.write = write.map_err(fail)?;
                    }
                }
                _ => {
                    let value = keyword_value(&name, &value).map_err(fail)?;
                    request.options = std::mem::take(&mut request.options)
                        .set_keyword(&name, &value)
                        .map_err(fail)?;
                }
            }
        }
        Ok(request)
    }
}

/// A callable and the name the key shows for it: its `__name__`, or `custom` for a lambda.
fn callable_with_name(value: &Bound<'_, PyAny>) -> PyResult<(Py<PyAny>, String)> {
    let name = value
        .getattr("__tl_draw_name__")
        .or_else(|_| value.getattr("__name__"))
        .and_then(|name| name.extract::<String>())
        .ok()
        .filter(|name| !name.starts_with('<'))
        .unwrap_or_else(|| "custom".to_owned());
    Ok((value.clone().unbind(), name))
}

/// A Python value as a keyword value: `None`, a bool, an int, a float, a str, or a list or
/// tuple of str.
fn keyword_value(name: &str, value: &Bound<'_, PyAny>) -> Result<KeywordValue, DrawError> {
    let refused = || {
        DrawError::invalid(
            "keyword_value_invalid",
            format!(
                "{name}= got a {}, which no keyword takes; pass a string, number, True/False, a list of strings or None",
                value
                    .get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ),
        )
    };
    if value.is_none() {
        return Ok(KeywordValue::Unset);
    }
    // bool before int: True is an int in Python.
    if value.is_instance_of::<PyBool>() {
        return Ok(KeywordValue::Bool(value.extract().map_err(|_| refused())?));
    }
    if value.is_instance_of::<PyInt>() {
        return value
            .extract::<i64>()
            .map(KeywordValue::Int)
            .map_err(|_| refused());
    }
    if value.is_instance_of::<PyFloat>() {
        return value
            .extract::<f64>()
            .map(KeywordValue::Float)
            .map_err(|_| refused());
    }
    if value.is_instance_of::<PyString>() {
        return value
            .extract::<String>()
            .map(KeywordValue::Text)
            .map_err(|_| refused());
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        return value
            .extract::<Vec<String>>()
            .map(KeywordValue::Texts)
            .map_err(|_| refused());
    }
    Err(refused())
}
