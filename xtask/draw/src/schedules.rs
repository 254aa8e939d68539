//! `docs/schedules.md`: the collapse schedule of every real fixture beside TorchLens
//! 2.36.1's node counts at `none`, `auto` and `max` (from its DOT in
//! `fixtures/real/reference/`), so a reader sees where the two planners differ. Written by
//! `cargo xtask figures`; a test keeps it current.

use std::fmt::Write;

use tl_draw::{readable_band, BufferVisibility, Schedule, Trace};

use crate::{repo_root, Result};

/// Where the report is written, from the repository root.
pub const REPORT: &str = "docs/schedules.md";

/// Events of a stop, shortened for the table.
fn shortened(events: &[String]) -> String {
    let text = events.join("; ");
    match text.char_indices().nth(110) {
        Some((cut, _)) => format!("{} ...", &text[..cut]),
        None => text,
    }
}

/// The report's text.
pub fn report() -> Result<String> {
    let folder = repo_root().join("fixtures").join("real");
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .map_err(|e| format!("{}: {e}", folder.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .filter_map(|path| Some(path.file_stem()?.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    let mut summary = String::new();
    let mut details = String::new();
    for name in &names {
        let trace = Trace::load(folder.join(format!("{name}.json"))).map_err(|e| e.to_string())?;
        let schedule =
            Schedule::build(&trace, BufferVisibility::Meaningful).map_err(|e| e.to_string())?;
        let band = readable_band(&trace);
        let auto = schedule.auto(band);
        let reference = |level: &str| {
            let file = match level {
                "none" => format!("{name}.dot"),
                _ => format!("{name}.{level}.dot"),
            };
            std::fs::read_to_string(folder.join("reference").join(file)).map_or(
                "-".to_owned(),
                |dot| {
                    tl_tests::reference_dot::parse_reference(&dot, false)
                        .0
                        .len()
                        .to_string()
                },
            )
        };
        let _ = writeln!(
            summary,
            "| {name} | {} / {} | {} (t={}) / {} | {} / {} | {} | {band} |",
            schedule.none().nodes,
            reference("none"),
            auto.nodes,
            auto.level,
            reference("auto"),
            schedule.max().nodes,
            reference("max"),
            schedule.stops.len(),
        );
        let _ = writeln!(
            details,
            "\n### {name}\n\n| t | nodes | folds |\n|---|---|---|"
        );
        for step in &schedule.stops {
            let _ = writeln!(
                details,
                "| {} | {} | {} |",
                step.level,
                step.nodes,
                shortened(&step.folds)
            );
        }
    }
    Ok(format!(
        "# Collapse schedules of the real fixtures\n\n\
         Written by `cargo xtask figures` from `fixtures/real/` (a test keeps it current). Each\n\
         cell is tl-draw / TorchLens 2.36.1 (its own drawing of the same trace, counted from\n\
         `fixtures/real/reference/`). Where they differ and why: `docs/decisions.md` (the\n\
         `max` planner, capsules, op capsules).\n\n\
         | model | nodes at `none` | `auto` | `max` | stops | readable band |\n\
         |---|---|---|---|---|---|\n{summary}\n## Stops\n{details}"
    ))
}
