//! A program's own fonts ([`tl_render_cairo::use_fonts_in`]) look as the system's do.
//! Registering fonts is process-wide, so this test is a binary of its own (as is
//! `fonts_used.rs`).

use cairo::ImageSurface;
use tl_render_cairo::{render, use_fonts_in, Format, RenderOptions, FONT_FILES};

mod common;
use common::png_of;

/// Where Debian's fonts-urw-base35 (installed by `cargo xtask setup`) puts Nimbus Sans.
const URW_FONTS: &str = "/usr/share/fonts/opentype/urw-base35";

const TEXTS: &str = r##"digraph G {
  graph [label=<<B>Header</B><BR ALIGN="LEFT"/>second line<BR ALIGN="LEFT"/>> fontname="Helvetica"]
  node [fontname="Helvetica"]
  a [shape=box label=<<B>linear_1_3</B><BR/>(1, 768) · <I>italic</I> <B><I>both</I></B>>]
  b [shape=oval label="gelu_2_4"]
  a -> b
}"##;

/// The fraction of pixels whose colour differs by more than a quarter in some channel.
fn differing(a: &[u8], b: &[u8]) -> f64 {
    let mut a = ImageSurface::create_from_png(&mut std::io::Cursor::new(a)).unwrap();
    let mut b = ImageSurface::create_from_png(&mut std::io::Cursor::new(b)).unwrap();
    assert_eq!((a.width(), a.height()), (b.width(), b.height()));
    let pixels = (a.width() * a.height()) as f64;
    let (a, b) = (a.data().unwrap(), b.data().unwrap());
    let differ = a
        .chunks(4)
        .zip(b.chunks(4))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 64))
        .count();
    differ as f64 / pixels
}

#[test]
fn registered_fonts_set_helvetica_text_as_the_systems_nimbus_sans_does() {
    let system = png_of(TEXTS);
    let missing = std::env::temp_dir().join("tl-draw-no-fonts-here");
    let error = use_fonts_in(&missing).unwrap_err();
    assert_eq!(error.code(), "fonts_unusable");
    assert!(error.to_string().contains(FONT_FILES[0]), "{error}");

    use_fonts_in(std::path::Path::new(URW_FONTS)).unwrap();
    // The same folder again is fine; another one is refused.
    use_fonts_in(std::path::Path::new(URW_FONTS)).unwrap();
    let other = use_fonts_in(std::path::Path::new("/usr/share/fonts")).unwrap_err();
    assert!(other.to_string().contains("in use already"), "{other}");

    let own = png_of(TEXTS);
    // Debian's fontconfig resolves Helvetica to these very files: the pictures agree up to
    // antialiasing (fontconfig's rendering settings differ from cairo's defaults).
    let share = differing(&system, &own);
    assert!(share < 0.01, "{share}");

    // The faces are shared by every drawing and every thread, in every format, for as long
    // as the process runs (a face released too early crashes the second drawing).
    let layout = graphviz_pure::render_dot(TEXTS, "dot", "json")
        .unwrap()
        .into_output();
    let workers: Vec<_> = (0..2)
        .map(|_| {
            let layout = layout.clone();
            std::thread::spawn(move || {
                for _ in 0..2 {
                    for format in [Format::Pdf, Format::Png, Format::Svg] {
                        render(&layout, format, &RenderOptions::default()).unwrap();
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    assert_eq!(png_of(TEXTS), own);
}
