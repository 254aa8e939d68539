//! Helpers shared by the workspace-level tests in `tests/tests/workspace/`: where the repository,
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

/// The trace at `path`; a test fails naming the file when it cannot be loaded.
pub fn load_trace(path: &Path) -> tl_draw::Trace {
    tl_draw::Trace::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs `check` on each guide fixture of `guide` (`fixtures/<name>.json` with its options)
/// laid out by each built-in engine, then on each real model of `real`
/// (`fixtures/real/<name>.json`) at full detail, by the engine `auto` picks.
pub fn on_guide_and_real_models(
    guide: &[(&str, tl_draw::DrawOptions)],
    real: &[&str],
    mut check: impl FnMut(&str, &tl_draw::Trace, &tl_draw::DrawOptions),
) {
    for (name, options) in guide {
        let trace = load_trace(&fixtures_dir().join(format!("{name}.json")));
        for engine in [
            tl_draw::LayoutEngine::Embedded,
            tl_draw::LayoutEngine::Layered,
        ] {
            check(name, &trace, &options.clone().layout_engine(engine));
        }
    }
    for name in real {
        let trace = load_trace(&repo_root().join(format!("fixtures/real/{name}.json")));
        check(name, &trace, &tl_draw::DrawOptions::default());
    }
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
            "no golden file {}; run `cargo xtask bless`, then review it",
            path.display()
        )
    });
    assert!(
        expected == actual,
        "{} differs from the output; review the change and rerun `cargo xtask bless` if it is right\n{}",
        path.display(),
        first_difference(&expected, actual)
    );
}

/// Where `actual` first departs from `expected`, as a few numbered lines of each, so a
/// failing golden test shows what changed without a diff tool.
pub fn first_difference(expected: &str, actual: &str) -> String {
    let (expected, actual): (Vec<&str>, Vec<&str>) =
        (expected.lines().collect(), actual.lines().collect());
    let Some(at) =
        (0..expected.len().max(actual.len())).find(|&line| expected.get(line) != actual.get(line))
    else {
        return "the texts differ only in their line endings".to_owned();
    };
    let shown = |lines: &[&str], sign: char| -> String {
        lines
            .iter()
            .enumerate()
            .skip(at)
            .take(GOLDEN_LINES_SHOWN)
            .map(|(n, line)| format!("{sign}{:>5} | {line}\n", n + 1))
            .collect()
    };
    format!(
        "first difference at line {}:\n{}{}",
        at + 1,
        shown(&expected, '-'),
        shown(&actual, '+')
    )
}

/// Lines of each side a golden mismatch prints.
const GOLDEN_LINES_SHOWN: usize = 4;

/// Draws `document` every way a user can (every collapse stop kind, depth, module focus,
/// rolled, each view, backward and combined graphs, a colour channel; a bundle as its diff
/// and its union) and returns how many drawings were made. Options a document cannot
/// take are refused with an error, which is fine; a panic or a hang is the bug this looks
/// for (the fuzz target `load_and_draw` and the property tests run it). Only the DOT is
/// made: layout is graphviz-pure's, not ours to fuzz.
pub fn draw_every_way(document: &tl_trace_model::Document) -> usize {
    use tl_draw::{Collapse, DrawOptions, GraphKind};
    let mut drawn = 0;
    match document {
        tl_trace_model::Document::Trace(trace) => {
            let module = trace.modules.get(1).map(|m| m.address.clone());
            let mut every: Vec<DrawOptions> = vec![
                DrawOptions::default(),
                DrawOptions::default().collapse(Collapse::Auto),
                DrawOptions::default().collapse(Collapse::Max),
                DrawOptions::default().collapse(Collapse::Level(0.5)),
                DrawOptions::default()
                    .collapse(Collapse::Max)
                    .fold_repeats(true),
                DrawOptions::default().depth(1),
                DrawOptions::default().rolled(true),
                DrawOptions::default().rolled(true).collapse(Collapse::Max),
                DrawOptions::default().graph(GraphKind::Backward),
                DrawOptions::default().graph(GraphKind::Combined),
                DrawOptions::default().color_by("time"),
            ];
            every.extend(
                tl_draw::View::ALL
                    .iter()
                    .map(|view| DrawOptions::default().view(*view)),
            );
            if let Some(module) = module {
                every.push(DrawOptions::default().module(&module));
            }
            for options in every {
                drawn += usize::from(tl_draw::draw(trace, &options.force(true)).is_ok());
            }
        }
        tl_trace_model::Document::Bundle(bundle) => {
            let options = DrawOptions::default().force(true);
            for graph in [
                tl_draw::BundleGraph::Diff,
                tl_draw::BundleGraph::Union(GraphKind::Forward),
                tl_draw::BundleGraph::Union(GraphKind::Backward),
            ] {
                let bundle_options = tl_draw::BundleOptions {
                    graph,
                    ..tl_draw::BundleOptions::default()
                };
                drawn +=
                    usize::from(tl_draw::draw_bundle(bundle, &options, &bundle_options).is_ok());
            }
        }
    }
    drawn
}

/// Writes the interactive page of `trace` and checks what no trace may break (issue 31):
/// the page holds exactly its two scripts (its data and the viewer, whole), its data is
/// JSON with the model's name as text, and its size grows with the trace, no faster
/// (`input_bytes`: the trace file's size). Returns whether a page was written (a refusal,
/// such as a stop over the layout guard, is fine). Panics on a broken invariant: the fuzz
/// target `page` and the hostile-name tests run it.
pub fn check_page(trace: &tl_draw::Trace, input_bytes: usize) -> bool {
    let Ok(page) = tl_draw::html::page(trace, &tl_draw::DrawOptions::default()) else {
        return false;
    };
    assert_eq!(
        page.matches("<script").count(),
        2,
        "the page's two scripts, no more"
    );
    assert_eq!(
        page.matches("</script>").count(),
        2,
        "each script closes once"
    );
    assert!(
        !page[page.find("<script").unwrap_or(0)..].contains("<!--"),
        "no comment opens inside or after the scripts"
    );
    let data = page_data(&page);
    assert_eq!(
        data["title"].as_str(),
        Some(trace.model.class_name.as_str())
    );
    // The page's assets and a few drawings of a small trace are under a megabyte; each
    // byte of trace adds a bounded amount (its drawings, compressed, and its records).
    let bound = 4_000_000 + 400 * input_bytes;
    assert!(
        page.len() <= bound,
        "a {input_bytes}-byte trace made a {}-byte page",
        page.len()
    );
    true
}

/// The data of an interactive page (`-o model.html`): the JSON of its `tl-data` script.
pub fn page_data(page: &str) -> serde_json::Value {
    let start =
        page.find("id=\"tl-data\">").expect("an interactive page") + "id=\"tl-data\">".len();
    let end = start
        + page[start..]
            .find("</script>")
            .expect("the data script ends");
    serde_json::from_str(&page[start..end]).expect("the page's data is JSON")
}

/// Where the system Graphviz is installed, checks that it lays out the DOT file `dot` too
/// (run in `folder`, where the file names its pictures relatively).
pub fn assert_system_dot_reads(dot: &Path, folder: &Path) {
    if let Ok(output) = std::process::Command::new("dot")
        .args(["-Tsvg", dot.to_str().expect("test paths are UTF-8")])
        .current_dir(folder)
        .output()
    {
        assert!(
            output.status.success(),
            "system dot refused {}: {}",
            dot.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// The titles (first rows) of a drawing's nodes, in order.
pub fn node_titles(drawing: &tl_draw::Drawing) -> Vec<String> {
    drawing
        .styled
        .nodes
        .iter()
        .map(|node| node.rows[0].text.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::first_difference;

    #[test]
    fn a_golden_mismatch_names_the_first_differing_line() {
        let report = first_difference("a\nb\nc\n", "a\nB\nc\n");
        assert!(
            report.starts_with("first difference at line 2:"),
            "{report}"
        );
        assert!(
            report.contains("-    2 | b") && report.contains("+    2 | B"),
            "{report}"
        );
        let longer = first_difference("a\n", "a\nb\n");
        assert!(longer.contains("+    2 | b"), "{longer}");
    }
}
