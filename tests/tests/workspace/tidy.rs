//! Tidy checks that plain `cargo test` runs: every crate documents itself and appears in
//! the code map, and every dependency's licence is on the allow-list, so a new dependency
//! is always a deliberate decision.

use std::process::Command;

use serde_json::Value;
use tl_tests::repo_root;

/// Licence expressions accepted for dependencies. EPL-2.0 is allowed only for the
/// unmodified graphviz-pure crates (see README, "Licences").
const ALLOWED: &[&str] = &[
    "MIT",
    "Apache-2.0",
    "MIT OR Apache-2.0",
    "Apache-2.0 OR MIT",
    "MIT/Apache-2.0",
    "Apache-2.0/MIT",
    "Unlicense OR MIT",
    "Unlicense/MIT",
    "MIT OR Unlicense",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "ISC",
    "Zlib",
    "Unicode-3.0",
    "(MIT OR Apache-2.0) AND Unicode-3.0",
    "Apache-2.0 WITH LLVM-exception OR Apache-2.0 OR MIT",
    "Apache-2.0 OR Apache-2.0 WITH LLVM-exception OR MIT",
    "MIT OR Apache-2.0 OR Zlib",
    "Zlib OR Apache-2.0 OR MIT",
    "Apache-2.0 OR BSL-1.0",
    "CC0-1.0",
    "MIT OR Apache-2.0 OR LGPL-2.1-or-later",
    "BSD-2-Clause OR Apache-2.0 OR MIT",
    "Apache-2.0 WITH LLVM-exception",
    "Apache-2.0 / MIT",
    // miniz_oxide and adler2: the `png` crate's inflate, and the backend flate2 builds by
    // default (tl-draw's deflate is zlib-rs, under "Zlib").
    "MIT OR Zlib OR Apache-2.0",
    "0BSD OR MIT OR Apache-2.0",
];

fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(repo_root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

#[test]
fn dependency_licences_are_on_the_allow_list() {
    let metadata = metadata();
    let members: Vec<&str> = metadata["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap())
        .collect();
    let mut refused = Vec::new();
    for package in metadata["packages"].as_array().unwrap() {
        let id = package["id"].as_str().unwrap();
        let name = package["name"].as_str().unwrap();
        let licence = package["license"].as_str().unwrap_or("(none)");
        if members.contains(&id) {
            assert!(
                licence == "MIT OR Apache-2.0" || package["publish"] == serde_json::json!([]),
                "workspace crate {name} must be MIT OR Apache-2.0, is {licence}"
            );
            continue;
        }
        let graphviz_pure = name.starts_with("graphviz-pure")
            && (licence == "EPL-2.0" || licence == "EPL-2.0 AND MIT");
        if !graphviz_pure && !ALLOWED.contains(&licence) {
            refused.push(format!("{name} ({licence})"));
        }
    }
    assert!(
        refused.is_empty(),
        "dependencies with licences not on the allow-list in tests/tests/workspace/tidy.rs: {}; \
         check the licence and add it deliberately, or drop the dependency",
        refused.join(", ")
    );
}

/// The core, the DOT parser, the node geometry, the layout and the writers are built from
/// `vendor/` (`vendor/README.md`): without the parser's patch, large drawings parse in
/// quadratic time, and nothing else would fail.
#[test]
fn the_vendored_crates_are_the_ones_built() {
    let metadata = metadata();
    for name in [
        "graphviz-pure-core",
        "graphviz-pure-parser",
        "graphviz-pure-geom",
        "graphviz-pure-layout",
        "graphviz-pure-render",
    ] {
        let package = metadata["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{name} is a dependency"));
        let manifest = package["manifest_path"].as_str().unwrap();
        assert!(
            manifest.contains(&format!("vendor/{name}")),
            "{name} is built from {manifest}: the workspace's `[patch.crates-io]` is gone"
        );
    }
}

#[test]
fn every_crate_has_a_crate_doc_and_a_code_map_entry() {
    let root = repo_root();
    let architecture = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let crates = std::fs::read_dir(root.join("crates")).unwrap();
    for entry in crates {
        let dir = entry.unwrap().path();
        let lib = dir.join("src/lib.rs");
        let text = std::fs::read_to_string(&lib)
            .unwrap_or_else(|_| panic!("{} has no lib.rs", dir.display()));
        assert!(
            text.starts_with("//!"),
            "{} must start with a crate-level doc comment",
            lib.display()
        );
        let folder = dir.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            architecture.contains(&format!("`crates/{folder}`")),
            "docs/architecture.md has no code-map paragraph for crates/{folder}"
        );
    }
}

#[test]
fn layout_crates_are_optimised_in_dev_builds() {
    let manifest = std::fs::read_to_string(repo_root().join("Cargo.toml")).unwrap();
    assert!(manifest.contains("[profile.dev.package.graphviz-pure]"));
}

/// Crates that build or find native code: a program depending on them needs a C toolchain
/// or a system library before it can build.
const NATIVE_BUILD_HELPERS: [&str; 5] = ["pkg-config", "system-deps", "cc", "cmake", "bindgen"];

/// The installer (`xtask`: `cargo xtask setup` installs cairo and the rest) must build on a
/// machine with nothing installed. This machine has the packages, so only this check sees
/// it: no crate in its normal or build dependency tree links a native library (a `links`
/// key, as every `-sys` crate has) or builds native code.
#[test]
fn the_installer_builds_with_nothing_installed() {
    let metadata = metadata();
    let packages = metadata["packages"].as_array().unwrap();
    let package = |id: &str| packages.iter().find(|p| p["id"] == id).unwrap();
    let nodes = metadata["resolve"]["nodes"].as_array().unwrap();
    let xtask = packages
        .iter()
        .find(|p| p["name"] == "xtask")
        .expect("the xtask package");
    let mut seen: Vec<String> = Vec::new();
    let mut stack = vec![xtask["id"].as_str().unwrap().to_owned()];
    let mut native = Vec::new();
    while let Some(id) = stack.pop() {
        if seen.contains(&id) {
            continue;
        }
        let found = package(&id);
        let name = found["name"].as_str().unwrap();
        if !found["links"].is_null() || NATIVE_BUILD_HELPERS.contains(&name) {
            native.push(name.to_owned());
        }
        let node = nodes.iter().find(|n| n["id"] == id.as_str()).unwrap();
        for dep in node["deps"].as_array().unwrap() {
            let not_dev_only = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|kind| kind["kind"] != "dev");
            if not_dev_only {
                stack.push(dep["pkg"].as_str().unwrap().to_owned());
            }
        }
        seen.push(id);
    }
    assert!(
        seen.len() > 5,
        "the walk found xtask's dependencies ({seen:?})"
    );
    assert!(
        native.is_empty(),
        "xtask must build on a machine with nothing installed (it installs cairo), but its dependency tree has {native:?}; \
         move what needs them to xtask-draw (xtask/draw), which xtask runs after setup"
    );
}

/// The codes the crates raise: the first argument of `DrawError::invalid`/`output`, a
/// view's `refuse`, the binding's `raise`, and every literal a `fn code` returns (the
/// stage errors' codes).
fn raised_codes() -> std::collections::BTreeSet<String> {
    fn is_code(text: &str) -> bool {
        text.contains('_')
            && text
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    }
    /// The string literal that starts `rest` (after blanks), if any.
    fn literal(rest: &str) -> Option<&str> {
        let rest = rest.trim_start().strip_prefix('"')?;
        rest.split('"').next()
    }
    fn walk(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, files);
            } else if path.extension().is_some_and(|e| e == "rs" || e == "py") {
                files.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&repo_root().join("crates"), &mut files);
    // The Python package raises a few codes of its own (`DrawError("code", ...)`).
    walk(&repo_root().join("python/tl_draw"), &mut files);
    let mut codes = std::collections::BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for call in [
            "invalid(",
            "output(",
            "refuse(",
            "raise(py,",
            "raise(\n",
            "DrawError(",
        ] {
            for (at, _) in text.match_indices(call) {
                if let Some(code) = literal(&text[at + call.len()..]).filter(|c| is_code(c)) {
                    codes.insert(code.to_owned());
                }
            }
        }
        for (at, _) in text.match_indices("fn code(&self)") {
            let body = &text[at..];
            let body = &body[..body.find("\n    }\n").unwrap_or(body.len())];
            // Every literal it returns: match arms, or the one code of a one-code error.
            for (n, text) in body.split('"').enumerate() {
                if n % 2 == 1 && is_code(text) {
                    codes.insert(text.to_owned());
                }
            }
        }
    }
    codes
}

#[test]
fn every_error_code_is_in_the_registry_of_docs_cli_md() {
    let reference = std::fs::read_to_string(repo_root().join("docs/cli.md")).unwrap();
    let registry: std::collections::BTreeSet<String> = reference
        .split("## Error codes")
        .nth(1)
        .expect("docs/cli.md has an Error codes section")
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split('`').next())
        .map(str::to_owned)
        .collect();
    let raised = raised_codes();
    assert!(
        raised.len() > 50,
        "found only {} codes: {raised:?}",
        raised.len()
    );
    let missing: Vec<&String> = raised.difference(&registry).collect();
    assert!(
        missing.is_empty(),
        "codes raised but not in docs/cli.md's Error codes table: {missing:?}"
    );
    let stale: Vec<&String> = registry.difference(&raised).collect();
    assert!(
        stale.is_empty(),
        "codes in docs/cli.md's Error codes table that nothing raises: {stale:?}"
    );
}
