//! Writing a drawing to a file: the format from the path or `file_format`, atomically (a
//! failure never leaves a broken file), the pictures beside text formats and the census
//! sidecar; an SVG made by the layout engine is written as it is made.

use std::io::Write;
use std::path::{Path, PathBuf};

use tl_render_cairo::Rendered;
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
        write.check()?;
        let path = path.as_ref();
        let (target, format) = output_target(path, write.file_format.as_deref())?;
        if format == OutputFormat::Svg && self.pictures().next().is_none() && self.cone.is_none() {
            // The layout engine's SVG as it is written: nothing to put into it afterwards.
            let file = through_links(&target)?;
            write_atomically_with(&file, |into| self.write_svg_into(into, &file))?;
            self.write_census(&target)?;
            return Ok(Written {
                path: target,
                warnings: Vec::new(),
            });
        }
        self.write_with(path, write.file_format.as_deref(), |drawing, format| {
            drawing.render_at(format, write.dpi)
        })
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
        self.write_census(&target)?;
        Ok(Written {
            path: target,
            warnings: rendered.warnings,
        })
    }

    /// The SVG of a drawing without pictures or a cone ([`Drawing::render`]'s bytes) into
    /// `into`, a piece at a time as the layout engine writes it; `file` is named in a write
    /// error.
    fn write_svg_into(&self, into: &mut dyn Write, file: &Path) -> Result<(), DrawError> {
        let mut failed = None;
        self.announce_layout();
        tl_layout::lay_out_svg_into(&self.dot, self.layout_engine, &mut |chunk| {
            if failed.is_none() {
                failed = into.write_all(chunk.as_bytes()).err();
            }
        })?;
        match failed {
            Some(source) => Err(DrawError::Trace(TraceError::Write {
                path: file.to_owned(),
                source,
            })),
            None => Ok(()),
        }
    }

    /// The record `view="interventions"` writes beside the image (`<target>.census.txt`).
    fn write_census(&self, target: &Path) -> Result<(), DrawError> {
        if let Some(census) = &self.census {
            let mut sidecar = target.to_owned().into_os_string();
            sidecar.push(".census.txt");
            write_atomically(Path::new(&sidecar), census.as_bytes())?;
        }
        Ok(())
    }
}
