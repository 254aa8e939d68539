//! Drawing documents and the drawing Python holds: DOT, schedule, rendered bytes, files.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tl_draw::{
    draw, draw_bundle, readable_band, union_bundle, Collapse, Document, DrawError, Drawing,
    OutputFormat, Schedule, Trace,
};

use crate::errors;
use crate::keywords::Request;
use crate::source::Source;

/// One schedule stop as Python reads it: `(level, nodes, folds, is_auto, is_drawn)`.
type Stop = (f64, usize, Vec<String>, bool, bool);

/// A drawing: its DOT source, the collapse schedule of its trace, and rendering.
#[pyclass(module = "tl_draw._native", frozen)]
pub struct NativeDrawing {
    drawing: Drawing,
    /// The trace drawn (not for bundles): the schedule is built from it on request.
    trace: Option<Arc<Trace>>,
    collapse: Collapse,
    show_buffers: tl_draw::BufferVisibility,
    /// The options drawn with: an HTML save draws the trace's interactive page with them.
    options: tl_draw::DrawOptions,
}

/// Draws `documents` (one trace or bundle, or several traces) as `request` says.
pub fn draw_documents(
    documents: &[Source],
    names: Option<Vec<String>>,
    request: &Request,
) -> Result<NativeDrawing, DrawError> {
    let options = &request.options;
    let document = match documents {
        [] => {
            return Err(DrawError::invalid(
                "trace_missing",
                "draw() needs a trace, a bundle, a list of traces or a trace file".to_owned(),
            ))
        }
        [only] => only.document()?,
        several => {
            let traces = several
                .iter()
                .enumerate()
                .map(|(i, source)| {
                    let name = names
                        .as_ref()
                        .and_then(|names| names.get(i).cloned())
                        .unwrap_or_else(|| format!("trace_{}", i + 1));
                    Ok((name, source.trace()?))
                })
                .collect::<Result<Vec<_>, DrawError>>()?;
            Document::Bundle(union_bundle(traces))
        }
    };
    let show_buffers = options.show_buffers;
    match document {
        Document::Trace(trace) => {
            request.bundle.refuse_on_a_trace(
                |name| format!("{name}="),
                "this",
                "draw a tl.Bundle (or a list of traces)",
            )?;
            let drawing = draw(&trace, options)?;
            Ok(NativeDrawing {
                drawing,
                trace: Some(Arc::new(*trace)),
                collapse: options.collapse,
                show_buffers,
                options: options.clone(),
            })
        }
        Document::Bundle(bundle) => {
            let bundle_options = request.bundle.options_for(&bundle)?;
            let drawing = draw_bundle(&bundle, options, &bundle_options)?;
            Ok(NativeDrawing {
                drawing,
                trace: None,
                collapse: options.collapse,
                show_buffers,
                options: options.clone(),
            })
        }
    }
}

#[pymethods]
impl NativeDrawing {
    /// The Graphviz DOT source.
    #[getter]
    fn dot(&self) -> &str {
        &self.drawing.dot
    }

    /// How many nodes are drawn (the key not counted).
    #[getter]
    fn node_count(&self) -> usize {
        self.drawing.styled.nodes.len()
    }

    /// The header lines, top to bottom.
    #[getter]
    fn header(&self) -> Vec<String> {
        self.drawing
            .styled
            .header
            .iter()
            .map(|row| row.text.clone())
            .collect()
    }

    /// The text rows of every drawn node, in drawing order.
    #[getter]
    fn node_rows(&self) -> Vec<Vec<String>> {
        self.drawing
            .styled
            .nodes
            .iter()
            .map(|node| node.rows.iter().map(|row| row.text.clone()).collect())
            .collect()
    }

    /// The record `view="interventions"` writes beside the image, if any.
    #[getter]
    fn census(&self) -> Option<&str> {
        self.drawing.census.as_deref()
    }

    /// The collapse schedule's stops as `(level, nodes, folds, is_auto, is_drawn)`; empty for
    /// bundle drawings.
    fn schedule(&self, py: Python<'_>) -> PyResult<Vec<Stop>> {
        let Some(trace) = &self.trace else {
            return Ok(Vec::new());
        };
        let built;
        let schedule = match &self.drawing.collapse_schedule {
            Some(schedule) => schedule,
            None => {
                let trace = Arc::clone(trace);
                let buffers = self.show_buffers;
                built = py
                    .detach(move || Schedule::build(&trace, buffers))
                    .map_err(|error| errors::to_python(py, &DrawError::Trace(error)))?;
                &built
            }
        };
        let auto = schedule.auto(readable_band(trace)).t;
        let drawn = match self.collapse {
            Collapse::None => schedule.none().t,
            Collapse::Auto => auto,
            Collapse::Max => schedule.max().t,
            Collapse::Level(level) => schedule.at(level).t,
        };
        Ok(schedule
            .steps
            .iter()
            .map(|step| {
                (
                    step.t,
                    step.visible,
                    step.events.clone(),
                    step.t == auto,
                    step.t == drawn,
                )
            })
            .collect())
    }

    /// The drawing in `file_format` (`svg`, `png`, `pdf`, `dot`, `html`, ...) as bytes, with
    /// warnings; laid out and painted without the GIL. `html` of a trace is its interactive
    /// page (every stop, boxes that open).
    fn render<'py>(
        &self,
        py: Python<'py>,
        file_format: &str,
    ) -> PyResult<(Bound<'py, PyBytes>, Vec<String>)> {
        let rendered = py
            .detach(|| match (&self.trace, OutputFormat::parse(file_format)) {
                (Some(trace), Ok(OutputFormat::Html)) => tl_draw::html::page(trace, &self.options)
                    .map(|page| tl_draw::Rendered {
                        bytes: page.into_bytes(),
                        warnings: Vec::new(),
                    }),
                (_, format) => format.and_then(|format| self.drawing.render(format)),
            })
            .map_err(|error| errors::to_python(py, &error))?;
        Ok((PyBytes::new(py, &rendered.bytes), rendered.warnings))
    }

    /// Writes the drawing by the guide's file rules (`file_format`, else the extension, else
    /// PDF) atomically; returns the path written and any warnings.
    #[pyo3(signature = (path, file_format=None, dpi=None))]
    fn save(
        &self,
        py: Python<'_>,
        path: PathBuf,
        file_format: Option<String>,
        dpi: Option<f64>,
    ) -> PyResult<(PathBuf, Vec<String>)> {
        let written = py
            .detach(|| {
                match (
                    &self.trace,
                    tl_draw::output_target(&path, file_format.as_deref()),
                ) {
                    (Some(trace), Ok((target, OutputFormat::Html))) => {
                        tl_draw::html::write(trace, &self.options, &target)
                    }
                    _ => match dpi {
                        Some(dpi) => self
                            .drawing
                            .clone()
                            .with_dpi(dpi)
                            .and_then(|drawing| drawing.write(&path, file_format.as_deref())),
                        None => self.drawing.write(&path, file_format.as_deref()),
                    },
                }
            })
            .map_err(|error| errors::to_python(py, &error))?;
        Ok((written.path, written.warnings))
    }
}
