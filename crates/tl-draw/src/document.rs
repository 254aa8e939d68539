//! The front door: what is drawn (a trace, a bundle, several traces) and where it goes
//! (any static format, or the interactive page). The command line and the Python binding
//! parse their arguments into a [`Subject`], [`DrawOptions`] and [`BundleKeywords`] and
//! hand them here; this is the one place that decides between a static drawing and the
//! page, and between a trace and a bundle drawing.

use std::path::Path;
use std::sync::OnceLock;

use tl_drawing::Language;
use tl_drawing::{
    draw, draw_bundle, output_target, BundleKeywords, BundleOptions, DrawError, DrawOptions,
    Drawing, OutputFormat, WriteOptions, Written,
};
use tl_render_cairo::Rendered;
use tl_trace_model::union::union_bundle;
use tl_trace_model::{Bundle, Document, Trace};

/// What a caller asks to draw.
#[derive(Debug)]
#[non_exhaustive]
pub enum Subject {
    /// One trace or bundle file's document.
    Document(Document),
    /// Several traces of one model, by name: drawn as their union (the first is the
    /// baseline).
    Traces(Vec<(String, Trace)>),
}

/// How the caller's user spells things, for messages in their language.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The user's language: keywords spelt `--metric` on the command line, `metric=` in
    /// Python, and remedies as that language writes them.
    pub language: Language,
    /// How a message names the trace drawn (`'model.json'`, `this`).
    pub trace_name: String,
    /// How to draw a bundle instead of a trace, in the caller's terms.
    pub bundle_remedy: &'static str,
}

impl Caller {
    /// The command line drawing the file `path`.
    pub fn command_line(path: &Path) -> Caller {
        Caller {
            language: Language::CommandLine,
            trace_name: format!("'{}'", path.display()),
            bundle_remedy: "pass a bundle file (tl_export.export_bundle)",
        }
    }

    /// The Python package.
    pub fn python() -> Caller {
        Caller {
            language: Language::Python,
            trace_name: "this".to_owned(),
            bundle_remedy: "draw a tl.Bundle (or a list of traces)",
        }
    }
}

/// A subject with the options to draw it: renders or writes any output format. The static
/// drawing is drawn once, when first needed ([`Drawn::drawing`]); the interactive page of a
/// trace is drawn from the trace itself.
#[derive(Debug)]
pub struct Drawn {
    content: Content,
    options: DrawOptions,
    drawing: OnceLock<Drawing>,
}

/// What is drawn, with what only a bundle takes.
#[derive(Debug)]
enum Content {
    Trace(Box<Trace>),
    /// A bundle and its checked bundle keywords.
    Bundle(Bundle, BundleOptions),
}

impl Content {
    fn draw(&self, options: &DrawOptions) -> Result<Drawing, DrawError> {
        match self {
            Content::Trace(trace) => draw(trace, options),
            Content::Bundle(bundle, bundle_options) => draw_bundle(bundle, options, bundle_options),
        }
    }
}

impl Drawn {
    /// Checks `bundle_keywords` against `subject` (the bundle-only keywords are refused on a
    /// single trace, in `caller`'s spelling); nothing is drawn yet.
    pub fn new(
        subject: Subject,
        options: DrawOptions,
        bundle_keywords: &BundleKeywords,
        caller: &Caller,
    ) -> Result<Drawn, DrawError> {
        let document = match subject {
            Subject::Document(document) => document,
            Subject::Traces(traces) => Document::Bundle(union_bundle(traces)),
        };
        let content = match document {
            Document::Trace(trace) => {
                bundle_keywords.refuse_on_a_trace(
                    |name| caller.language.spell(name),
                    &caller.trace_name,
                    caller.bundle_remedy,
                )?;
                Content::Trace(trace)
            }
            Document::Bundle(bundle) => {
                let bundle_options = bundle_keywords.options_for(&bundle)?;
                Content::Bundle(bundle, bundle_options)
            }
        };
        Ok(Drawn {
            content,
            options,
            drawing: OnceLock::new(),
        })
    }

    /// The options drawn with.
    pub fn options(&self) -> &DrawOptions {
        &self.options
    }

    /// The trace drawn (`None` for a bundle).
    pub fn trace(&self) -> Option<&Trace> {
        match &self.content {
            Content::Trace(trace) => Some(trace),
            Content::Bundle(..) => None,
        }
    }

    /// The static drawing (drawn on the first call).
    pub fn drawing(&self) -> Result<&Drawing, DrawError> {
        if let Some(drawing) = self.drawing.get() {
            return Ok(drawing);
        }
        let drawing = self.content.draw(&self.options)?;
        Ok(self.drawing.get_or_init(|| drawing))
    }

    /// The static drawing, letting go of the trace or bundle it is drawn from: a writer of
    /// one static file needs nothing else, and the memory the trace held is reused by the
    /// layout instead of fresh pages (a 100,000-operation trace holds about 400 MB). The
    /// records are freed on a thread of their own, beside the layout.
    pub fn into_drawing(self) -> Result<Drawing, DrawError> {
        let drawing = match self.drawing.into_inner() {
            Some(drawing) => drawing,
            None => self.content.draw(&self.options)?,
        };
        tl_trace_model::parallel::drop_beside(self.content);
        Ok(drawing)
    }

    /// The bytes of `format`, with any warnings: a static format renders the static
    /// drawing (raster output at `dpi`, else the renderer's resolution); `html` is the
    /// interactive page of a trace (every stop, boxes that open), or the page of a bundle's
    /// one drawing.
    pub fn render(&self, format: OutputFormat, dpi: Option<f64>) -> Result<Rendered, DrawError> {
        if format != OutputFormat::Html {
            return self.drawing()?.render_at(format, dpi);
        }
        match self.trace() {
            Some(trace) => Ok(Rendered {
                bytes: tl_page::page(trace, &self.options)?.into_bytes(),
                warnings: Vec::new(),
            }),
            None => page_of(self.drawing()?),
        }
    }

    /// Writes to `path` by the guide's file rules (`write.file_format`, else the extension,
    /// else PDF; raster output at `write.dpi`), atomically.
    pub fn write(&self, path: &Path, write: &WriteOptions) -> Result<Written, DrawError> {
        write.check()?;
        let file_format = write.file_format.as_deref();
        let (target, format) = output_target(path, file_format)?;
        match (format, self.trace()) {
            (OutputFormat::Html, Some(trace)) => tl_page::write(trace, &self.options, &target),
            (OutputFormat::Html, None) => {
                self.drawing()?
                    .write_with(path, file_format, |drawing, _| page_of(drawing))
            }
            _ => self.drawing()?.write_as(path, write),
        }
    }
}

impl Drawn {
    /// The output a notebook shows: the interactive page where scripts run and a picture
    /// where they do not ([`tl_page::notebook`]); a bundle's is its one drawing's.
    pub fn notebook(&self) -> Result<tl_page::NotebookOutput, DrawError> {
        match self.trace() {
            Some(trace) => tl_page::notebook(trace, &self.options),
            None => tl_page::notebook_of_drawing(self.drawing()?),
        }
    }
}

/// The page of one finished drawing (a bundle's): pan, zoom, search, each node's rows.
fn page_of(drawing: &Drawing) -> Result<Rendered, DrawError> {
    Ok(Rendered {
        bytes: tl_page::single_page(drawing)?.into_bytes(),
        warnings: Vec::new(),
    })
}
