//! Where and in which format a drawing is written (the guide's file rules ("Other options")): the formats, the
//! extensions they answer to, and the path rules.

use std::path::{Path, PathBuf};

use tl_layout::TextFormat;

use crate::error::DrawError;

/// Output file formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum OutputFormat {
    /// PDF (the default), written by tl-draw (by cairo for drawings with node pictures,
    /// radial or translucent gradients, or fonts other than Helvetica).
    Pdf,
    /// PNG, painted by cairo.
    Png,
    /// SVG, from the layout engine (text stays text).
    Svg,
    /// Gzip-compressed SVG.
    Svgz,
    /// PostScript, painted by cairo.
    Ps,
    /// Encapsulated PostScript (one page with a bounding box), painted by cairo.
    Eps,
    /// The DOT source itself.
    Dot,
    /// The layout engine's JSON (`-Tjson`: positions and drawing operations).
    Json,
    /// The layout engine's xdot (DOT with positions and drawing operations).
    Xdot,
    /// The layout engine's plain text (`-Tplain`: one line per node and arrow).
    Plain,
    /// One self-contained interactive HTML page (schedule slider, open/close boxes, pan and
    /// zoom, search, every recorded field).
    Html,
}

/// Every format's name, in the order messages list them.
const FORMATS: [(&str, OutputFormat); 11] = [
    ("pdf", OutputFormat::Pdf),
    ("png", OutputFormat::Png),
    ("svg", OutputFormat::Svg),
    ("svgz", OutputFormat::Svgz),
    ("ps", OutputFormat::Ps),
    ("eps", OutputFormat::Eps),
    ("dot", OutputFormat::Dot),
    ("json", OutputFormat::Json),
    ("xdot", OutputFormat::Xdot),
    ("plain", OutputFormat::Plain),
    ("html", OutputFormat::Html),
];

/// Graphviz formats tl-draw does not write, each with what it is: asked for by name or
/// extension, they are refused with the supported list rather than written as something
/// else.
const REFUSED: [(&str, &str); 9] = [
    ("jpg", "JPEG"),
    ("jpeg", "JPEG"),
    ("gif", "GIF"),
    ("webp", "WebP"),
    ("bmp", "BMP"),
    ("tif", "TIFF"),
    ("tiff", "TIFF"),
    ("pic", "PIC"),
    ("ico", "ICO"),
];

impl OutputFormat {
    /// The file extension.
    pub fn extension(self) -> &'static str {
        FORMATS
            .iter()
            .find(|(_, format)| *format == self)
            .map_or("pdf", |(name, _)| name)
    }

    /// Parses a format name (`png`, `eps`, `gv` for DOT, ...), refusing the ones tl-draw does
    /// not write with the supported list and a way to get them.
    pub fn parse(name: &str) -> Result<OutputFormat, DrawError> {
        let name = name.to_ascii_lowercase();
        let name = if name == "gv" { "dot".to_owned() } else { name };
        if let Some((_, format)) = FORMATS.iter().find(|(known, _)| *known == name) {
            return Ok(*format);
        }
        let supported: Vec<&str> = FORMATS.iter().map(|(known, _)| *known).collect();
        let message = match REFUSED.iter().find(|(refused, _)| *refused == name) {
            Some((_, what)) => format!(
                "{what} output is not supported; write a PNG (-o model.png, file_format=\"png\") and convert it if you need {what}. tl-draw writes {}",
                supported.join(", ")
            ),
            None => format!(
                "file format {name:?} is not supported; use one of {}",
                supported.join(", ")
            ),
        };
        Err(DrawError::invalid("file_format_invalid", message))
    }

    /// Whether the layout engine writes this format as text (no painting).
    pub(crate) fn layout_text(self) -> Option<TextFormat> {
        match self {
            OutputFormat::Json => Some(TextFormat::Json),
            OutputFormat::Xdot => Some(TextFormat::Xdot),
            OutputFormat::Plain => Some(TextFormat::Plain),
            _ => None,
        }
    }
}

/// Whether `extension` names an image or Graphviz format (so it picks the format, or is
/// refused), rather than being part of the file's name (`model.v2`).
fn is_format_extension(extension: &str) -> bool {
    extension == "gv"
        || FORMATS.iter().any(|(name, _)| *name == extension)
        || REFUSED.iter().any(|(name, _)| *name == extension)
}

/// Where and in which format a drawing is written (the guide's file rules ("Other options")): `file_format` wins,
/// else a format's extension picks the format, else PDF. A format's extension is replaced
/// by the format's (`-o x.png --file-format svg` writes `x.svg`); any other suffix is kept
/// (`model.v2` -> `model.v2.pdf`). An extension of a format tl-draw does not write
/// (`x.jpg`) is refused, never written under another name.
pub fn output_target(
    path: &Path,
    file_format: Option<&str>,
) -> Result<(PathBuf, OutputFormat), DrawError> {
    let shown = path.display();
    let names_a_folder = path
        .as_os_str()
        .to_string_lossy()
        .ends_with(std::path::MAIN_SEPARATOR)
        || path.is_dir()
        || path.file_name().is_none();
    if names_a_folder {
        return Err(DrawError::invalid(
            "output_path_invalid",
            format!(
                "the output path '{shown}' is a folder; name the file to write, for example '{}'",
                path.join("model.pdf").display()
            ),
        ));
    }
    // `-o .pdf` names no file, only an extension (a hidden file called `.pdf`).
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase());
    if let Some(extension) = name.as_deref().and_then(|n| n.strip_prefix('.')) {
        if is_format_extension(extension) {
            return Err(DrawError::invalid(
                "output_path_invalid",
                format!("the output path '{shown}' has only an extension, no file name; name the file, for example 'model.{extension}'"),
            ));
        }
    }
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .filter(|e| is_format_extension(e));
    let format = match (file_format, &extension) {
        (Some(format), _) => OutputFormat::parse(format)?,
        (None, Some(extension)) => OutputFormat::parse(extension)?,
        (None, None) => OutputFormat::Pdf,
    };
    let stem = if extension.is_some() {
        path.with_extension("")
    } else {
        path.to_owned()
    };
    let mut target = stem.into_os_string();
    target.push(".");
    target.push(format.extension());
    Ok((PathBuf::from(target), format))
}

/// `bytes` gzip-compressed (`.svgz`); the header carries no time or name, so the same
/// drawing gives the same file.
pub fn gzip(bytes: &[u8]) -> Result<Vec<u8>, DrawError> {
    Gzipped::new().whole(bytes)
}

/// A gzip stream written piece by piece, as [`gzip`] writes it whole: for text too large to
/// hold uncompressed (the interactive page's records of a 100,000-operation trace).
///
/// Small writes are gathered first: the encoder clears its whole output buffer on every
/// write, which on the records' field-sized writes was two thirds of the page's first 19 s.
pub struct Gzipped(std::io::BufWriter<flate2::write::GzEncoder<Vec<u8>>>);

/// How much a [`Gzipped`] gathers before compressing it.
const GZIP_BUFFER_BYTES: usize = 256 << 10;

impl Gzipped {
    /// An empty stream at gzip's default level (`.svgz`); the header carries no time or name.
    pub fn new() -> Gzipped {
        Gzipped::at(flate2::Compression::default())
    }

    /// An empty stream at level 5, for output made on every draw (the interactive page):
    /// a page's state packs 6% smaller than at level 3 in about the same time, where the
    /// default level takes half as long again (docs/decisions.md).
    pub fn fast() -> Gzipped {
        Gzipped::at(flate2::Compression::new(5))
    }

    fn at(level: flate2::Compression) -> Gzipped {
        Gzipped(std::io::BufWriter::with_capacity(
            GZIP_BUFFER_BYTES,
            flate2::GzBuilder::new().mtime(0).write(Vec::new(), level),
        ))
    }

    /// `bytes` written and the stream finished: the compressed bytes.
    pub fn whole(mut self, bytes: &[u8]) -> Result<Vec<u8>, DrawError> {
        use std::io::Write;
        self.write_all(bytes).map_err(Gzipped::failed)?;
        self.finish()
    }

    /// The compressed bytes.
    pub fn finish(self) -> Result<Vec<u8>, DrawError> {
        self.0
            .into_inner()
            .map_err(|error| Gzipped::failed(error.into_error()))?
            .finish()
            .map_err(Gzipped::failed)
    }

    fn failed(error: std::io::Error) -> DrawError {
        DrawError::output(
            "output_write_failed",
            format!("compressing the output failed: {error}"),
        )
    }
}

impl Default for Gzipped {
    fn default() -> Gzipped {
        Gzipped::new()
    }
}

impl std::io::Write for Gzipped {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// The file a write to `target` should replace: a symbolic link is followed (the user named
/// the link, and means the file it points to), so the link itself stays. Only a regular
/// file is replaced: a FIFO, a device or a folder at that path is refused (a rename would
/// silently put a file in its place).
pub fn through_links(target: &Path) -> Result<PathBuf, DrawError> {
    let file = match std::fs::symlink_metadata(target) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(target).map_err(|error| {
                DrawError::invalid(
                    "output_path_invalid",
                    format!(
                        "the output path '{}' is a symbolic link whose target cannot be reached ({error}); point it at a file in an existing folder, or name another path",
                        target.display()
                    ),
                )
            })?
        }
        _ => target.to_owned(),
    };
    match std::fs::metadata(&file) {
        Ok(meta) if !meta.is_file() => Err(DrawError::invalid(
            "output_path_invalid",
            format!(
                "the output path '{}' is {}, not a regular file; name a file's path (it is created, or replaced whole)",
                target.display(),
                if meta.is_dir() { "a folder" } else { "a FIFO, socket or device" }
            ),
        )),
        _ => Ok(file),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn target(path: &str, format: Option<&str>) -> Result<(PathBuf, OutputFormat), String> {
        output_target(Path::new(path), format).map_err(|e| format!("{}: {e}", e.code()))
    }

    #[test]
    fn every_format_is_picked_by_its_extension_and_keeps_the_name() {
        for (name, format) in FORMATS {
            let path = format!("out/model.{name}");
            assert_eq!(target(&path, None), Ok((PathBuf::from(&path), format)));
            assert_eq!(
                target("out/model.pdf", Some(name)),
                Ok((PathBuf::from(&path), format))
            );
        }
        assert_eq!(
            target("model.gv", None),
            Ok((PathBuf::from("model.dot"), OutputFormat::Dot))
        );
        assert_eq!(
            target("model.EPS", None),
            Ok((PathBuf::from("model.eps"), OutputFormat::Eps))
        );
    }

    #[test]
    fn a_format_not_written_is_refused_never_renamed() {
        for name in ["x.jpg", "x.jpeg", "x.gif", "x.webp", "x.tiff", "x.bmp"] {
            let error = target(name, None).unwrap_err();
            assert!(error.starts_with("file_format_invalid"), "{error}");
            assert!(error.contains("write a PNG"), "{error}");
        }
        let error = target("x.pdf", Some("jpg")).unwrap_err();
        assert!(error.contains("JPEG output is not supported"), "{error}");
        assert!(target("x", Some("tga"))
            .unwrap_err()
            .contains("use one of pdf, png"));
    }

    #[test]
    fn other_suffixes_stay_part_of_the_name() {
        assert_eq!(
            target("model", None),
            Ok((PathBuf::from("model.pdf"), OutputFormat::Pdf))
        );
        assert_eq!(
            target("model.v2", None),
            Ok((PathBuf::from("model.v2.pdf"), OutputFormat::Pdf))
        );
        assert!(target(".eps", None)
            .unwrap_err()
            .starts_with("output_path_invalid"));
    }

    #[test]
    fn gzip_round_trips_and_stamps_no_time() {
        let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>".repeat(50);
        let packed = gzip(&svg).unwrap();
        assert_eq!(&packed[4..8], &[0, 0, 0, 0], "mtime 0");
        let mut unpacked = Vec::new();
        flate2::read::GzDecoder::new(&packed[..])
            .read_to_end(&mut unpacked)
            .unwrap();
        assert_eq!(unpacked, svg);
        assert!(packed.len() < svg.len());
    }
}
