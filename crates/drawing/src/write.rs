//! Writing a drawing to a file: the format from the path or `file_format`, atomically (a
//! failure never leaves a broken file), the pictures beside text formats and the census
//! sidecar; an SVG made by the layout engine is written as it is made.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use tl_layout::LayoutEngine;
use tl_render_cairo::Rendered;
use tl_trace_model::parallel::drop_beside;
use tl_trace_model::{write_atomically, write_atomically_with, TraceError};

use crate::draw::Drawing;
use crate::error::DrawError;
use crate::options::WriteOptions;
use crate::output::{output_target, through_links, OutputFormat};

/// A written drawing.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// The file written.
    pub path: PathBuf,
    /// Things the user should know (e.g. the picture was scaled down to fit).
    pub warnings: Vec<String>,
}

impl Drawing {
    /// Writes the drawing to `path` in the format of its extension (else PDF), atomically:
    /// a failure never leaves a broken file.
    pub fn write(&self, path: impl AsRef<Path>) -> Result<Written, DrawError> {
        self.write_as(path, &WriteOptions::default())
    }

    /// [`Drawing::write`] as `write` says: `file_format` wins over the extension, raster
    /// output at `dpi`.
    pub fn write_as(
        &self,
        path: impl AsRef<Path>,
        write: &WriteOptions,
    ) -> Result<Written, DrawError> {
        let path = path.as_ref();
        if let Some(target) = self.svg_as_made(path, write)? {
            self.announce_layout();
            let dot = Cow::Borrowed(self.dot.as_str());
            return write_svg_as_made(dot, self.layout_engine, target, self.census.as_deref());
        }
        self.write_with(path, write.file_format.as_deref(), |drawing, format| {
            drawing.render_at(format, write.dpi)
        })
    }

    /// [`Drawing::write_as`] for a program that writes this one file and exits. An SVG
    /// written as it is made lets go of the styled graph (on a thread of its own) before the
    /// layout and of the DOT once the layout engine has read it, so the layout reuses their
    /// memory (about 110 MB of a 100,000-operation drawing's peak); what is left of the
    /// drawing is let go beside the write, not waited for.
    pub fn write_once(
        self,
        path: impl AsRef<Path>,
        write: &WriteOptions,
    ) -> Result<Written, DrawError> {
        let path = path.as_ref();
        let Some(target) = self.svg_as_made(path, write)? else {
            let written = self.write_as(path, write);
            drop_beside(self);
            return written;
        };
        self.announce_layout();
        let Drawing {
            dot,
            styled,
            collapse_schedule,
            census,
            cone,
            layout_engine,
        } = self;
        drop_beside((styled, collapse_schedule, cone));
        write_svg_as_made(Cow::Owned(dot), layout_engine, target, census.as_deref())
    }

    /// [`Drawing::write`] with the bytes made by `render` (the facade renders `html` as the
    /// page of this drawing); the file rules, the pictures beside text formats and the
    /// census sidecar are the same.
    pub fn write_with(
        &self,
        path: &Path,
        file_format: Option<&str>,
        render: impl FnOnce(&Drawing, OutputFormat) -> Result<Rendered, DrawError>,
    ) -> Result<Written, DrawError> {
        let (target, format) = output_target(path, file_format)?;
        let rendered = render(self, format)?;
        let file = through_links(&target)?;
        if format == OutputFormat::Dot || format.layout_text().is_some() {
            // The text names its pictures beside itself; put them there (the DOT then lays
            // out as it is).
            self.write_pictures(file.parent().unwrap_or(Path::new(".")))?;
        }
        write_atomically(&file, &rendered.bytes)?;
        write_census(&target, self.census.as_deref())?;
        Ok(Written {
            path: target,
            warnings: rendered.warnings,
        })
    }

    /// The file `write` sends this drawing to at `path`, if it is written as the layout
    /// engine makes it: an SVG without pictures or a cone, which would be put into the text
    /// afterwards.
    fn svg_as_made(&self, path: &Path, write: &WriteOptions) -> Result<Option<PathBuf>, DrawError> {
        write.check()?;
        let (target, format) = output_target(path, write.file_format.as_deref())?;
        let as_made =
            format == OutputFormat::Svg && self.pictures().next().is_none() && self.cone.is_none();
        Ok(as_made.then_some(target))
    }
}

/// The SVG `engine` makes of `dot` (a drawing without pictures or a cone: the bytes
/// [`Drawing::render`] gives), written to `target` a piece at a time as it is made, and
/// `census` beside it.
fn write_svg_as_made(
    dot: Cow<'_, str>,
    engine: LayoutEngine,
    target: PathBuf,
    census: Option<&str>,
) -> Result<Written, DrawError> {
    let file = through_links(&target)?;
    write_atomically_with(&file, |into| {
        let mut failed = None;
        tl_layout::lay_out_svg_into(dot, engine, &mut |piece| {
            if failed.is_none() {
                failed = into.write_all(piece.as_bytes()).err();
            }
        })?;
        match failed {
            Some(source) => Err(DrawError::Trace(TraceError::Write {
                path: file.clone(),
                source,
            })),
            None => Ok(()),
        }
    })?;
    write_census(&target, census)?;
    Ok(Written {
        path: target,
        warnings: Vec::new(),
    })
}

/// Writes `census`, the record `view="interventions"` keeps, beside `target`
/// (`<target>.census.txt`).
fn write_census(target: &Path, census: Option<&str>) -> Result<(), DrawError> {
    if let Some(census) = census {
        let mut sidecar = target.to_owned().into_os_string();
        sidecar.push(".census.txt");
        write_atomically(Path::new(&sidecar), census.as_bytes())?;
    }
    Ok(())
}
