//! A program's own fonts ([`tl_render_cairo::use_fonts_in`]) are what text is set in:
//! registered under Nimbus Sans's names, DejaVu Sans (wider) changes the picture.
//! Registering fonts is process-wide, so this test is a binary of its own.

use tl_render_cairo::{use_fonts_in, FONT_FILES};

mod common;
use common::png_of;

const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

#[test]
fn text_is_set_in_the_registered_fonts() {
    let dot =
        r#"digraph G { node [fontname="Helvetica"] a [shape=box label="linear_1_3 (1, 768)"] }"#;
    let system = png_of(dot);
    let folder = tempfile::tempdir().unwrap();
    for file in FONT_FILES {
        std::fs::copy(DEJAVU, folder.path().join(file)).unwrap();
    }
    use_fonts_in(folder.path()).unwrap();
    let own = png_of(dot);
    assert_ne!(system, own, "the registered faces were not used");
    // Still the same drawing size: fonts change the look, never the layout.
    let size = |png: &[u8]| -> (u32, u32) {
        (
            u32::from_be_bytes(png[16..20].try_into().unwrap()),
            u32::from_be_bytes(png[20..24].try_into().unwrap()),
        )
    };
    assert_eq!(size(&system), size(&own));
}
