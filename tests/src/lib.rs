//! Helpers shared by the workspace-level tests in `tests/tests/`: where the repository,
//! its fixtures and golden files are, and the golden-file comparison with its update flag.

use std::path::{Path, PathBuf};

pub mod reference_dot;

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the repository root")
        .to_owned()
}

/// `fixtures/`.
pub fn fixtures_dir() -> PathBuf {
    repo_root().join("fixtures")
}

/// Every committed fixture file (`fixtures/*.json`), sorted by name.
pub fn fixture_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("fixtures/ exists")
        .map(|entry| entry.expect("readable fixtures/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

/// True when a fixture file holds a bundle rather than a single trace.
pub fn is_bundle(text: &str) -> bool {
    tl_trace_model::format_of(text).as_deref() == Some(tl_trace_model::BUNDLE_FORMAT)
}

/// Set `TL_UPDATE_GOLDEN=1` to rewrite golden files instead of comparing with them.
pub fn updating_golden() -> bool {
    std::env::var_os("TL_UPDATE_GOLDEN").is_some_and(|value| value == "1")
}

/// Compares `actual` with the golden file `tests/golden/<name>`, or rewrites it when
/// updating. A rewritten golden file must be reviewed before it is committed.
pub fn check_golden(name: &str, actual: &str) {
    let path = repo_root().join("tests").join("golden").join(name);
    if updating_golden() {
        std::fs::create_dir_all(path.parent().expect("golden files live in a folder"))
            .expect("can create tests/golden");
        std::fs::write(&path, actual).expect("can write the golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no golden file {}; run with TL_UPDATE_GOLDEN=1, then review it",
            path.display()
        )
    });
    assert!(
        expected == actual,
        "{} differs from the output; review the change and rerun with TL_UPDATE_GOLDEN=1 if it is right",
        path.display()
    );
}
