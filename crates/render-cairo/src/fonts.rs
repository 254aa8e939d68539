//! A program's own fonts. Text is normally set in whatever the system's fontconfig gives for
//! Helvetica; a program that ships its fonts (the Python wheel) registers them once with
//! [`use_fonts_in`], and then every drawing sets Helvetica text in them: the same look on
//! every machine, and drawing works on a machine with no fonts installed at all.
//!
//! Invariant: the registered faces live until the process ends (they are never replaced or
//! dropped), which is what makes sharing them between threads sound (see [`Faces`]).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use cairo::freetype::Library;
use cairo::FontFace;

use crate::RenderError;

/// The files of the one family a drawing uses (Graphviz's Helvetica), by weight and slant:
/// URW's Nimbus Sans, the metric-compatible face Debian's fontconfig picks for Helvetica.
pub const FONT_FILES: [&str; 4] = [
    "NimbusSans-Regular.otf",
    "NimbusSans-Bold.otf",
    "NimbusSans-Italic.otf",
    "NimbusSans-BoldItalic.otf",
];

/// Regular, bold, italic and bold italic, in [`FONT_FILES`]'s order.
struct Faces {
    faces: [FontFace; 4],
    folder: PathBuf,
}

// SAFETY: a cairo font face is reference-counted atomically and cairo serialises the use of
// the FreeType face under it (one lock per face). The non-thread-safe parts, the FreeType
// library and the `Rc` that cairo-rs keeps in the face's user data, are touched only when a
// face is created (once, under `REGISTERING`) or destroyed, and these faces never are.
#[allow(unsafe_code)]
unsafe impl Send for Faces {}
// SAFETY: as for `Send`; `&Faces` only hands out new references to the faces.
#[allow(unsafe_code)]
unsafe impl Sync for Faces {}

static FACES: OnceLock<Faces> = OnceLock::new();
static REGISTERING: Mutex<()> = Mutex::new(());

/// Sets every later drawing's Helvetica text in the fonts of `folder` (the files
/// [`FONT_FILES`] names). Registering the same folder again does nothing; another folder
/// afterwards is refused, as drawings already made would not match the ones to come.
pub fn use_fonts_in(folder: &Path) -> Result<(), RenderError> {
    let _registering = REGISTERING.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(faces) = FACES.get() {
        return if faces.folder == folder {
            Ok(())
        } else {
            Err(font_error(
                folder,
                format!(
                    "the fonts of {} are in use already; register one folder per process",
                    faces.folder.display()
                ),
            ))
        };
    }
    let library = Library::init()
        .map_err(|error| font_error(folder, format!("FreeType did not start: {error}")))?;
    let load = |file: &str| -> Result<FontFace, RenderError> {
        let path = folder.join(file);
        let bytes = std::fs::read(&path)
            .map_err(|error| font_error(folder, format!("{file} could not be read: {error}")))?;
        let face = library
            .new_memory_face(bytes, 0)
            .map_err(|error| font_error(folder, format!("{file} is not a font: {error}")))?;
        Ok(FontFace::create_from_ft(&face)?)
    };
    let [regular, bold, italic, bold_italic] = FONT_FILES;
    let faces = [
        load(regular)?,
        load(bold)?,
        load(italic)?,
        load(bold_italic)?,
    ];
    // The faces need their library for as long as they live: the process's lifetime.
    std::mem::forget(library);
    let _ = FACES.set(Faces {
        faces,
        folder: folder.to_owned(),
    });
    Ok(())
}

/// The registered face for Helvetica in this weight and slant, if fonts were registered.
/// Lent, not cloned: cairo-rs's `FontFace::clone` without its `use_glib` feature takes no
/// reference of its own, yet releases one when dropped (a clone would free the face).
pub(crate) fn helvetica(bold: bool, italic: bool) -> Option<&'static FontFace> {
    let faces = FACES.get()?;
    Some(&faces.faces[face_index(bold, italic)])
}

/// The index in [`FONT_FILES`] of a weight and slant.
pub(crate) fn face_index(bold: bool, italic: bool) -> usize {
    usize::from(bold) + 2 * usize::from(italic)
}

/// The folder registered with [`use_fonts_in`], if any.
pub(crate) fn registered_folder() -> Option<&'static Path> {
    FACES.get().map(|faces| faces.folder.as_path())
}

fn font_error(folder: &Path, problem: String) -> RenderError {
    RenderError::Fonts {
        folder: folder.to_owned(),
        problem,
    }
}
