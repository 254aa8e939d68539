//! The browser tests of the interactive HTML: Debian's Chromium (installed by `setup` when
//! run as root), the npm packages of `web/package-lock.json` (installed with `npm ci` into a
//! cache outside the clone, like the Python environment), and `web/browser-test.mjs`; and
//! pdf.js reading the PDFs tl-draw writes (`web/pdf-test.mjs`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{repo_root, run, Result};

/// Debian packages of the browser tests: the browser and its driver.
pub(crate) const BROWSER_PACKAGES: &[&str] = &["chromium", "chromium-driver"];

/// Where the browser lives once installed.
const CHROMIUM: &str = "/usr/bin/chromium";

/// The npm packages' folder: `$TL_DRAW_CACHE/web` (beside the Python environment).
fn web_dir() -> PathBuf {
    crate::venv_dir().with_file_name("web")
}

/// Installs the locked npm packages into the cache when the lock changed; returns the
/// folder holding `node_modules`.
pub(crate) fn npm_packages() -> Result<PathBuf> {
    let dir = web_dir();
    let source = repo_root().join("web");
    let lock = std::fs::read(source.join("package-lock.json"))
        .map_err(|e| format!("cannot read web/package-lock.json: {e}"))?;
    let stamp = dir.join("installed.lock");
    if std::fs::read(&stamp).ok().as_deref() == Some(lock.as_slice())
        && dir.join("node_modules").exists()
    {
        return Ok(dir);
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for file in ["package.json", "package-lock.json"] {
        std::fs::copy(source.join(file), dir.join(file))
            .map_err(|e| format!("cannot copy web/{file}: {e}"))?;
    }
    run(Command::new("npm")
        .args([
            "ci",
            "--ignore-scripts",
            // pdf.js's optional canvas for Node (a native library): the tests read in the browser.
            "--omit=optional",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
        ])
        .current_dir(&dir))?;
    std::fs::write(&stamp, lock).map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(dir)
}

/// Runs the browser tests with the `tl-draw` program at `program`; screenshots go to
/// `target/browser`.
/// The browser tests, comparing each screenshot with its reviewed signature.
pub(crate) fn browser_tests(program: &Path) -> Result<()> {
    run_browser_tests(program, false)
}

/// The browser tests, rewriting the signatures of `web/golden` (`cargo xtask bless`).
pub(crate) fn browser_tests_updating(program: &Path) -> Result<()> {
    run_browser_tests(program, true)
}

/// The notebook viewer in a real JupyterLab (`web/notebook-test.mjs`), with the Python
/// environment's Jupyter and the installed `tl_draw`; `update` rewrites the signatures and
/// `figures` also writes the screenshots docs/python.md shows there.
pub(crate) fn notebook_tests(python: &Path, update: bool, figures: Option<&Path>) -> Result<()> {
    let mut node = browser_script("web/notebook-test.mjs", python, "target/notebook", update)?;
    if let Some(figures) = figures {
        node.arg("--figures").arg(figures);
    }
    run(&mut node)
}

/// `node SCRIPT FIRST fixtures OUT [--update]` with the browser and npm packages ready.
fn browser_script(script: &str, first: &Path, out: &str, update: bool) -> Result<Command> {
    let modules = browser_ready()?;
    let root = repo_root();
    let mut node = Command::new("node");
    node.arg(root.join(script))
        .arg(first)
        .arg(root.join("fixtures"))
        .arg(root.join(out))
        .env("TL_WEB_MODULES", &modules)
        .env("TL_CHROMIUM", CHROMIUM)
        .current_dir(&root);
    if update {
        node.arg("--update");
    }
    Ok(node)
}

/// Chromium is there and the npm packages are installed: their folder.
fn browser_ready() -> Result<PathBuf> {
    if !Path::new(CHROMIUM).exists() {
        return Err(format!(
            "the browser tests need Debian's Chromium ({CHROMIUM}); run `cargo xtask setup` as root, or apt-get install {}",
            BROWSER_PACKAGES.join(" ")
        ));
    }
    npm_packages()
}

/// pdf.js reads the PDFs the program at `program` writes (`web/pdf-test.mjs`); its pictures
/// go to `target/pdf-test`.
pub(crate) fn pdf_tests(program: &Path) -> Result<()> {
    run(&mut browser_script(
        "web/pdf-test.mjs",
        program,
        "target/pdf-test",
        false,
    )?)
}

fn run_browser_tests(program: &Path, update: bool) -> Result<()> {
    run(&mut browser_script(
        "web/browser-test.mjs",
        program,
        "target/browser",
        update,
    )?)
}
