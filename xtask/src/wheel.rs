//! `wheel`: the Python package as users install it. One self-contained wheel of `tl_draw`
//! (abi3, manylinux) with cairo and every library it needs inside (maturin's repair, with
//! patchelf) and the fonts the drawings use, so that installing it takes seconds and draws
//! on a machine with no Rust, cairo, Graphviz or fonts. Then the check: a new virtual
//! environment installs the wheel and draws, in a mount namespace where the system's
//! drawing libraries and fonts are hidden, and the pictures are compared with the source
//! build's.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::{repo_root, run, stdout_of, Result};

/// Where Debian's fonts-urw-base35 keeps Nimbus Sans, the face Helvetica resolves to.
const URW_FONTS: &str = "/usr/share/fonts/opentype/urw-base35";
/// Their licence.
const URW_LICENCE: &str = "/usr/share/doc/fonts-urw-base35/copyright";
/// The libraries the check leaves visible: glibc's and libgcc's, which every Linux has,
/// and zlib and expat, which Python itself loads (so every Python has them). The wheel
/// brings every other library it loads, X11's included (`python/wheel_graft.py`).
const KEPT_VISIBLE: &[&str] = &[
    "libc.so",
    "libm.so",
    "libgcc_s.so",
    "ld-linux",
    "libpthread",
    "libdl.so",
    "librt.so",
    "libz.so",
    "libexpat.so",
];
/// Folders of fonts and font configuration the check hides.
const FONT_FOLDERS: &[&str] = &["/usr/share/fonts", "/usr/local/share/fonts", "/etc/fonts"];

/// `wheel`: builds the wheel into `target/wheels` and checks it; returns its path.
pub(crate) fn wheel(python: &Path) -> Result<PathBuf> {
    let wheel = build(python)?;
    check(python, &wheel)?;
    Ok(wheel)
}

/// Builds the release wheel, the fonts staged into the package for the build only.
fn build(python: &Path) -> Result<PathBuf> {
    let root = repo_root();
    let out = root.join("target/wheels");
    let _ = std::fs::remove_dir_all(&out);
    let fonts = StagedFonts::stage(&root.join("python/tl_draw/fonts"))?;
    let _relinked = Relinked::before_and_after(&root);
    let bin = python.parent().unwrap_or(Path::new("."));
    run(Command::new(bin.join("maturin"))
        .args([
            "build",
            "--release",
            "--quiet",
            "--auditwheel",
            "repair",
            "--out",
        ])
        .arg(&out)
        .env("PATH", crate::path_with(bin)?)
        .current_dir(root.join("python")))?;
    drop(fonts);
    let wheel = only_wheel_in(&out)?;
    // What the manylinux policy leaves to the system (X11's libraries) goes in too.
    run(Command::new(python)
        .arg(root.join("python/wheel_graft.py"))
        .arg(&wheel)
        .env("PATH", crate::path_with(bin)?))?;
    let size = std::fs::metadata(&wheel).map(|m| m.len()).unwrap_or(0);
    eprintln!(
        "xtask: built {} ({:.1} MB)",
        wheel.display(),
        size as f64 / 1e6
    );
    Ok(wheel)
}

/// The one wheel maturin wrote into `out`.
fn only_wheel_in(out: &Path) -> Result<PathBuf> {
    let wheels: Vec<PathBuf> = std::fs::read_dir(out)
        .map_err(|e| format!("cannot read {}: {e}", out.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "whl"))
        .collect();
    match wheels.as_slice() {
        [wheel] => Ok(wheel.clone()),
        _ => Err(format!(
            "maturin left {} wheels in {}, expected one",
            wheels.len(),
            out.display()
        )),
    }
}

/// maturin's repair patches the extension module where cargo built it (`target/maturin`
/// is a hard link of `target/release/deps`), so a second build, or the editable install of
/// `cargo xtask test`, would take a module that needs the wheel's renamed libraries. The
/// module is removed before the wheel is built and afterwards, whatever happens: cargo
/// links it anew (seconds).
struct Relinked(Vec<PathBuf>);

impl Relinked {
    fn before_and_after(root: &Path) -> Relinked {
        let relinked = Relinked(vec![
            root.join("target/release/deps/lib_native.so"),
            root.join("target/maturin/lib_native.so"),
        ]);
        relinked.remove();
        relinked
    }

    fn remove(&self) {
        for path in &self.0 {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Drop for Relinked {
    fn drop(&mut self) {
        self.remove();
    }
}

/// The fonts copied into the package while the wheel is built, removed afterwards (the
/// source install uses the system's).
struct StagedFonts(PathBuf);

impl StagedFonts {
    fn stage(folder: &Path) -> Result<StagedFonts> {
        let _ = std::fs::remove_dir_all(folder);
        std::fs::create_dir_all(folder)
            .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        let staged = StagedFonts(folder.to_owned());
        let source = Path::new(URW_FONTS);
        let entries = std::fs::read_dir(source).map_err(|e| {
            format!("cannot read {URW_FONTS} ({e}); run `cargo xtask setup --system` (fonts-urw-base35)")
        })?;
        let mut copied = 0;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("NimbusSans-") && name.ends_with(".otf") {
                copy(&entry.path(), &folder.join(&*name))?;
                copied += 1;
            }
        }
        if copied != 4 {
            return Err(format!(
                "{URW_FONTS} has {copied} NimbusSans-*.otf faces, expected 4"
            ));
        }
        copy(Path::new(URW_LICENCE), &folder.join("COPYING"))?;
        Ok(staged)
    }
}

impl Drop for StagedFonts {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
}

/// Installs `wheel` into a new virtual environment and draws with it where the system's
/// cairo, its libraries and the fonts are hidden; then compares the PNGs with the source
/// build's (the package `python` has installed editable).
fn check(python: &Path, wheel: &Path) -> Result<()> {
    let root = repo_root();
    let work = root.join("target/wheel-check");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let empty = work.join("hidden");
    std::fs::write(&empty, b"").map_err(|e| format!("cannot write {}: {e}", empty.display()))?;
    let venv = work.join("venv");
    let ours = work.join("wheel");
    let checker = root.join("python/wheel_check.py");
    let mut script = String::from("set -e\n");
    for folder in FONT_FOLDERS.iter().filter(|f| Path::new(f).is_dir()) {
        script += &format!("mount -t tmpfs none {}\n", quoted(Path::new(folder)));
    }
    for library in drawing_libraries(&root.join("python/tl_draw/_native.abi3.so"))? {
        script += &format!("mount --bind {} {}\n", quoted(&empty), quoted(&library));
    }
    let python_of_venv = quoted(&venv.join("bin/python"));
    script += &format!(
        "python3 -m venv {venv}\n{python_of_venv} -m pip install -q --no-index --no-deps --disable-pip-version-check {wheel}\n\
         cd {work}\n{python_of_venv} -I {checker} draw-hidden {fixtures} {ours}\n",
        venv = quoted(&venv),
        wheel = quoted(wheel),
        work = quoted(&work),
        checker = quoted(&checker),
        fixtures = quoted(&root.join("fixtures")),
        ours = quoted(&ours),
    );
    let started = Instant::now();
    let mut unshare = Command::new("unshare");
    if !crate::is_root() {
        unshare.arg("--map-root-user");
    }
    run(unshare.args(["--mount", "sh", "-c", &script]))?;
    eprintln!(
        "xtask: a new environment installed the wheel and drew 8 files, system cairo and fonts hidden, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // The same drawings by the source build, with the system's cairo and fonts.
    let theirs = work.join("source");
    run(Command::new(python)
        .arg(&checker)
        .arg("draw")
        .arg(root.join("fixtures"))
        .arg(&theirs)
        .current_dir(&root))?;
    run(Command::new(python)
        .arg(&checker)
        .arg("compare")
        .arg(&ours)
        .arg(&theirs)
        .current_dir(&work))
}

/// `path` as one word of a shell command (single-quoted).
fn quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}

/// The libraries the source build's extension module loads from the system, less those
/// every Linux with Python has ([`KEPT_VISIBLE`]): what the wheel must bring itself.
fn drawing_libraries(module: &Path) -> Result<Vec<PathBuf>> {
    let listing = stdout_of(Command::new("ldd").arg(module), "ldd")?;
    let libraries: Vec<PathBuf> = listing
        .lines()
        .filter_map(|line| line.split_once("=> ")?.1.split_whitespace().next())
        .filter(|path| path.starts_with('/'))
        .filter(|path| !KEPT_VISIBLE.iter().any(|kept| path.contains(kept)))
        .map(PathBuf::from)
        .collect();
    if !libraries
        .iter()
        .any(|path| path.to_string_lossy().contains("libcairo"))
    {
        return Err(format!(
            "{} does not load libcairo; build the package first (cargo xtask test installs it)",
            module.display()
        ));
    }
    Ok(libraries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_path_is_one_shell_word_whatever_it_holds() {
        assert_eq!(quoted(Path::new("/a/b")), "'/a/b'");
        assert_eq!(quoted(Path::new("/a b/c'd")), "'/a b/c'\\''d'");
        let echoed = Command::new("sh")
            .arg("-c")
            .arg(format!("printf %s {}", quoted(Path::new("/a b/c'd $x"))))
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&echoed.stdout), "/a b/c'd $x");
    }
}
