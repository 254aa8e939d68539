//! Drawing documents and the drawing Python holds: DOT, schedule, rendered bytes, files.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tl_draw::{
    readable_band, Caller, Collapse, DrawError, Drawing, Drawn, OutputFormat, Schedule, Subject,
    WriteOptions,
};

use crate::errors;
use crate::interrupt::interruptible;
use crate::keywords::Request;
use crate::source::Source;

/// One schedule stop as Python reads it: `(level, nodes, folds, is_auto, is_drawn)`.
type Stop = (f64, usize, Vec<String>, bool, bool);

/// A drawing: its DOT source, the collapse schedule of its trace, and rendering.
#[pyclass(module = "tl_draw._native", frozen)]
pub struct NativeDrawing {
    /// Shared with the worker thread a render or save runs on ([`crate::interrupt`]).
    drawn: Arc<Drawn>,
    /// The `file_format=`/`dpi=` of the `draw()` call: a later render or save keeps them
    /// unless it says otherwise.
    write: WriteOptions,
}

/// Draws `documents` (one trace or bundle, or several traces) as `request` says: the static
/// drawing is drawn now, so that every refusal is raised by `draw()`.
pub fn draw_documents(
    documents: &[Source],
    names: Option<Vec<String>>,
    request: &Request,
) -> Result<NativeDrawing, DrawError> {
    let subject = match documents {
        [] => {
            return Err(DrawError::invalid(
                "trace_missing",
                "draw() needs a trace, a bundle, a list of traces or a trace file".to_owned(),
            ))
        }
        [only] => Subject::Document(only.document()?),
        several => Subject::Traces(
            several
                .iter()
                .enumerate()
                .map(|(i, source)| {
                    let name = names
                        .as_ref()
                        .and_then(|names| names.get(i).cloned())
                        .unwrap_or_else(|| format!("trace_{}", i + 1));
                    Ok((name, source.trace()?))
                })
                .collect::<Result<Vec<_>, DrawError>>()?,
        ),
    };
    let drawn = Drawn::new(
        subject,
        request.options.clone(),
        &request.bundle,
        &Caller::python(),
    )?;
    drawn.drawing()?;
    Ok(NativeDrawing {
        drawn: Arc::new(drawn),
        write: request.write.clone(),
    })
}

impl NativeDrawing {
    fn drawing(&self) -> &Drawing {
        self.drawn
            .drawing()
            .expect("draw_documents drew the static drawing")
    }
}

#[pymethods]
impl NativeDrawing {
    /// The Graphviz DOT source.
    #[getter]
    fn dot(&self) -> &str {
        &self.drawing().dot
    }

    /// How many nodes are drawn (the key not counted).
    #[getter]
    fn node_count(&self) -> usize {
        self.drawing().styled.nodes.len()
    }

    /// The header lines, top to bottom.
    #[getter]
    fn header(&self) -> Vec<String> {
        self.drawing()
            .styled
            .header
            .iter()
            .map(|row| row.text.clone())
            .collect()
    }

    /// The text rows of every drawn node, in drawing order.
    #[getter]
    fn node_rows(&self) -> Vec<Vec<String>> {
        self.drawing()
            .styled
            .nodes
            .iter()
            .map(|node| node.rows.iter().map(|row| row.text.clone()).collect())
            .collect()
    }

    /// The record `view="interventions"` writes beside the image, if any.
    #[getter]
    fn census(&self) -> Option<&str> {
        self.drawing().census.as_deref()
    }

    /// The collapse schedule's stops as `(level, nodes, folds, is_auto, is_drawn)`; empty for
    /// bundle drawings.
    fn schedule(&self, py: Python<'_>) -> PyResult<Vec<Stop>> {
        let Some(trace) = self.drawn.trace() else {
            return Ok(Vec::new());
        };
        let options = self.drawn.options().settings();
        let built;
        let schedule = match &self.drawing().collapse_schedule {
            Some(schedule) => schedule,
            None => {
                let buffers = options.show_buffers;
                built = py
                    .detach(|| Schedule::build(trace, buffers))
                    .map_err(|error| errors::to_python(py, &DrawError::Trace(error)))?;
                &built
            }
        };
        let auto = schedule.auto(readable_band(trace)).level;
        let drawn = match options.collapse {
            Collapse::None => schedule.none().level,
            Collapse::Auto => auto,
            Collapse::Max => schedule.max().level,
            Collapse::Level(level) => schedule.at(level).level,
        };
        Ok(schedule
            .stops
            .iter()
            .map(|step| {
                (
                    step.level,
                    step.nodes,
                    step.folds.clone(),
                    step.level == auto,
                    step.level == drawn,
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
        let (drawn, dpi, file_format) = (
            Arc::clone(&self.drawn),
            self.write.dpi,
            file_format.to_owned(),
        );
        let rendered = interruptible(py, move || {
            OutputFormat::parse(&file_format).and_then(|f| drawn.render(f, dpi))
        })?
        .map_err(|error| errors::to_python(py, &error))?;
        Ok((PyBytes::new(py, &rendered.bytes), rendered.warnings))
    }

    /// The notebook output: `(html, png, caption)`, the interactive viewer with its picture
    /// for where scripts cannot run; drawn without the GIL.
    fn notebook<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(String, Bound<'py, PyBytes>, Option<String>)> {
        let drawn = Arc::clone(&self.drawn);
        let output = interruptible(py, move || drawn.notebook())?
            .map_err(|error| errors::to_python(py, &error))?;
        Ok((output.html, PyBytes::new(py, &output.png), output.caption))
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
        let mut asked = WriteOptions::default();
        asked.file_format = file_format;
        asked.dpi = dpi;
        let write = self.write.overridden_by(&asked);
        let drawn = Arc::clone(&self.drawn);
        let written = interruptible(py, move || drawn.write(&path, &write))?
            .map_err(|error| errors::to_python(py, &error))?;
        Ok((written.path, written.warnings))
    }
}
