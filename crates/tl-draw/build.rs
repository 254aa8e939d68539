//! Links cairo, and the C libraries it needs, into the `tl-draw` program itself when the
//! system has their static archives (Debian's `libcairo2-dev` and the packages it pulls in
//! ship them). The program then starts with 3 shared libraries to load instead of 24, which
//! is 1-3 ms of every drawing (docs/performance.md, "Cairo linked into the program").
//!
//! Only the program: the archives are named by `#[link]` blocks in a file that `src/main.rs`
//! includes, which the library does not. The Python module is itself a shared library,
//! which these archives (built for executables, not `-fPIC`) cannot go into, and users of the
//! library crates link as `cairo-sys-rs` says. Anything short of every archive (no
//! `pkg-config`, no compiler to ask, a cross build, another system) leaves the link as it
//! was, shared; so does `TL_DRAW_SHARED_CAIRO=1`.

use std::path::PathBuf;
use std::process::Command;

/// Set (to anything) to link the program to the shared cairo, as the library crates are.
const SHARED_CAIRO: &str = "TL_DRAW_SHARED_CAIRO";

/// The C library's own parts stay shared: a static `libm` or `libpthread` beside the shared
/// `libc` is not a supported mix.
const C_LIBRARY: [&str; 6] = ["c", "m", "pthread", "dl", "rt", "gcc_s"];

/// The beginnings of the names of libraries that only cairo's window-system surfaces (X11,
/// XCB) and its GObject binding use: the program paints on none of them, so they are not
/// taken in (taken, the linker would pull 1.2 MB of X11 into the program for the symbols the
/// shared cairo, still named on the link line, asks for).
const UNUSED: [&str; 6] = ["X", "xcb", "glib-", "gobject-", "ffi", "pcre"];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for variable in [SHARED_CAIRO, "PKG_CONFIG_PATH", "PKG_CONFIG", "CC"] {
        println!("cargo:rerun-if-env-changed={variable}");
    }
    let Some(out_dir) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        return;
    };
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let native = std::env::var("TARGET").ok() == std::env::var("HOST").ok();
    let wanted = linux && native && std::env::var_os(SHARED_CAIRO).is_none();
    let archives = wanted.then(static_cairo).flatten();
    let (folders, libraries) = archives.unwrap_or_default();
    for folder in folders {
        println!("cargo:rustc-link-arg-bins=-L{}", folder.display());
    }
    let declared = std::fs::write(out_dir.join(LINKED), link_attributes(&libraries));
    declared.expect("OUT_DIR takes the file of cairo's links");
    // For the test that reads the program's shared libraries (tests/linked.rs).
    let cairo = if libraries.is_empty() {
        "shared"
    } else {
        "static"
    };
    println!("cargo:rustc-env=TL_DRAW_CAIRO_LINK={cairo}");
}

/// The file, in `OUT_DIR`, that `src/main.rs` includes: an empty `extern` block linking each
/// archive (none when cairo stays shared).
const LINKED: &str = "static_cairo.rs";

/// The declarations that link `libraries` from their archives, in their order. They belong
/// to the program's own crate, so its link lists them before the crates that call cairo
/// (and so before their shared `-lcairo`): LLD, the linker Rust uses on Linux, takes an
/// archive's symbols wherever it stands, and then needs no shared cairo.
fn link_attributes(libraries: &[String]) -> String {
    if libraries.is_empty() {
        return String::new();
    }
    let mut declared = String::from(
        "// Written by build.rs: cairo and its libraries, linked from their archives.\n",
    );
    for library in libraries {
        declared.push_str(&format!(
            "#[link(name = \"{library}\", kind = \"static\")]\nextern \"C\" {{}}\n"
        ));
    }
    declared
}

/// The folders beyond the system's that hold cairo's archives, and the libraries to link
/// from them (the C library's own parts left out: they stay shared); `None` when any
/// archive is missing.
fn static_cairo() -> Option<(Vec<PathBuf>, Vec<String>)> {
    let listed = pkg_config(&["--static", "--libs", "cairo"])?;
    let flags: Vec<&str> = listed.split_whitespace().collect();
    let folders: Vec<PathBuf> = flags
        .iter()
        .filter_map(|flag| flag.strip_prefix("-L"))
        .map(PathBuf::from)
        .collect();
    let mut libraries = in_link_order(flags.iter().filter_map(|flag| flag.strip_prefix("-l")));
    if libraries.first().is_none_or(|first| first != "cairo") {
        return None;
    }
    libraries.retain(|library| {
        let unused = UNUSED.iter().any(|start| library.starts_with(start));
        !unused && !C_LIBRARY.contains(&library.as_str())
    });
    let searched: Vec<PathBuf> = folders.iter().cloned().chain(compiler_folders()).collect();
    let archived = |library: &String| {
        let file = format!("lib{library}.a");
        searched.iter().any(|folder| folder.join(&file).is_file())
    };
    libraries
        .iter()
        .all(archived)
        .then_some((folders, libraries))
}

/// Libraries as `pkg-config --static` lists them, each once, at its last place: every
/// library comes after the ones that use it, as a static link needs.
fn in_link_order<'a>(listed: impl Iterator<Item = &'a str>) -> Vec<String> {
    let names: Vec<&str> = listed.collect();
    let last_places = names
        .iter()
        .enumerate()
        .filter(|(place, name)| !names[place + 1..].contains(name))
        .map(|(_, name)| (*name).to_owned());
    last_places.collect()
}

/// The folders the C compiler takes libraries from (the system's, which `pkg-config`
/// leaves out); none when there is no compiler to ask.
fn compiler_folders() -> Vec<PathBuf> {
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_owned());
    let output = Command::new(compiler).arg("-print-search-dirs").output();
    let Ok(output) = output.map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
    else {
        return Vec::new();
    };
    let listed = output
        .lines()
        .find_map(|line| line.strip_prefix("libraries: ="))
        .unwrap_or_default();
    listed.split(':').map(PathBuf::from).collect()
}

fn pkg_config(arguments: &[&str]) -> Option<String> {
    let program = std::env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_owned());
    let output = Command::new(program).args(arguments).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8(output.stdout).ok())
        .flatten()
}
