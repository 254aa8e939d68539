//! The libraries the `tl-draw` program loads as it starts: cairo is in the program itself
//! when build.rs found the archives of it and of its libraries, and a shared library when it
//! did not.
#![cfg(target_os = "linux")]

use std::process::Command;

#[test]
fn cairo_is_in_the_program_where_build_rs_found_its_archives() {
    let program = env!("CARGO_BIN_EXE_tl-draw");
    let listed = Command::new("ldd").arg(program).output().ok();
    let Some(listed) = listed.filter(|listed| listed.status.success()) else {
        eprintln!("skipped: no `ldd` here to list the program's shared libraries");
        return;
    };
    let libraries = String::from_utf8_lossy(&listed.stdout).into_owned();
    let loads = |name: &str| {
        libraries
            .lines()
            .any(|line| line.trim_start().starts_with(name))
    };
    match env!("TL_DRAW_CAIRO_LINK") {
        "static" => {
            for shared in [
                "libcairo.so",
                "libpixman-1.so",
                "libfreetype.so",
                "libX11.so",
            ] {
                assert!(
                    !loads(shared),
                    "the program loads {shared} though build.rs linked cairo from its archives \
                     (is the linker GNU ld? The archives come before the crates calling cairo, \
                     which only LLD, Rust's linker on Linux, reads that way; set \
                     TL_DRAW_SHARED_CAIRO=1 to link the shared cairo):\n{libraries}"
                );
            }
            assert!(
                libraries.lines().count() <= 6,
                "more than the C library:\n{libraries}"
            );
        }
        _ => assert!(loads("libcairo.so"), "no cairo at all:\n{libraries}"),
    }
}
