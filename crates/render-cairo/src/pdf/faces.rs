//! The font files tl-draw's PDF writer sets Helvetica text in: URW's Nimbus Sans, the face
//! cairo gets from Debian's fontconfig for Helvetica and the one the Python wheel ships
//! ([`crate::FONT_FILES`]). Read and parsed once per process, kept for its life.
//!
//! Invariant: a face's glyph advances are its unhinted `hmtx` advances, which is what cairo
//! measures text with on a PDF surface, so text is as wide as cairo set it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::FONT_FILES;

/// Where distributions install URW's base-35 fonts: Debian's and Ubuntu's
/// `fonts-urw-base35`, Fedora's `urw-base35-fonts`, Arch's `gsfonts`.
const SYSTEM_FOLDERS: [&str; 3] = [
    "/usr/share/fonts/opentype/urw-base35",
    "/usr/share/fonts/urw-base35",
    "/usr/share/fonts/gsfonts",
];

/// One face: its file and the parts of it text is set with.
pub(crate) struct Face {
    /// The whole font file, for subsetting.
    pub bytes: &'static [u8],
    pub parsed: ttf_parser::Face<'static>,
    /// Font units per em.
    pub units_per_em: f64,
    /// The PostScript name (`NimbusSans-Regular`).
    pub postscript_name: String,
}

/// Regular, bold, italic and bold italic, in [`FONT_FILES`]'s order.
pub(crate) type Faces = [Face; 4];

static REGISTERED: OnceLock<Option<Faces>> = OnceLock::new();
static SYSTEM: OnceLock<Option<Faces>> = OnceLock::new();

/// The faces to set Helvetica in: the registered program fonts ([`crate::use_fonts_in`]) if
/// any, else the system's Nimbus Sans; `None` when neither can be read (cairo then writes
/// the PDF, with whatever fontconfig gives).
pub(crate) fn faces() -> Option<&'static Faces> {
    match crate::fonts::registered_folder() {
        Some(folder) => REGISTERED.get_or_init(|| load(folder)).as_ref(),
        None => SYSTEM
            .get_or_init(|| {
                SYSTEM_FOLDERS
                    .iter()
                    .map(PathBuf::from)
                    .find_map(|folder| load(&folder))
            })
            .as_ref(),
    }
}

fn load(folder: &Path) -> Option<Faces> {
    let [regular, bold, italic, bold_italic] = FONT_FILES.map(|file| read_face(&folder.join(file)));
    Some([regular?, bold?, italic?, bold_italic?])
}

fn read_face(path: &Path) -> Option<Face> {
    let bytes: &'static [u8] = Box::leak(std::fs::read(path).ok()?.into_boxed_slice());
    let parsed = ttf_parser::Face::parse(bytes, 0).ok()?;
    // The writer embeds CFF outlines only (Nimbus Sans's); other files go to cairo.
    parsed
        .raw_face()
        .table(ttf_parser::Tag::from_bytes(b"CFF "))?;
    let postscript_name = parsed
        .names()
        .into_iter()
        .filter(|name| name.name_id == ttf_parser::name_id::POST_SCRIPT_NAME)
        // Only the Unicode and Windows records decode; Nimbus Sans lists a Macintosh one first.
        .filter_map(|name| name.to_string())
        .find(|name| !name.is_empty() && name.is_ascii())?;
    Some(Face {
        bytes,
        units_per_em: f64::from(parsed.units_per_em()),
        parsed,
        postscript_name,
    })
}
