//! `cargo xtask figures`: redraws every figure of `docs/guides/drawing.md` into
//! `docs/guides/figures/` (an SVG for the page and a PNG beside it), running the exact
//! command line written under each figure through the `tl-draw` program's own code.
//!
//! A figure is declared in the guide by a comment line
//! `<!-- figure NAME: ARGS -->` (ARGS as typed after `tl-draw draw`, paths from the
//! repository root), optionally followed by checks: `<!-- figure NAME: ARGS | nodes=44 -->`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::{repo_root, Result};

/// The guide, from the repository root.
pub const GUIDE: &str = "docs/guides/drawing.md";
/// Where the figures go, from the repository root.
pub const FIGURES: &str = "docs/guides/figures";
/// Resolution of the PNG beside each SVG.
const PNG_DPI: &str = "72";

/// One figure of the guide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    /// File stem under `docs/guides/figures/`.
    pub name: String,
    /// Arguments after `tl-draw draw`.
    pub args: Vec<String>,
    /// Nodes the drawing must have, when the page states it.
    pub nodes: Option<usize>,
}

/// The figures declared in `guide` (the guide's text), in page order.
pub fn parse(guide: &str) -> Result<Vec<Figure>> {
    let mut figures: Vec<Figure> = Vec::new();
    for (number, line) in guide.lines().enumerate() {
        let Some(body) = line
            .trim()
            .strip_prefix("<!-- figure ")
            .and_then(|rest| rest.strip_suffix("-->"))
        else {
            continue;
        };
        let bad = |why: &str| format!("{GUIDE}:{}: {why}: {line}", number + 1);
        let (name, rest) = body
            .split_once(':')
            .ok_or_else(|| bad("expected `figure NAME: ARGS`"))?;
        let (args, checks) = rest.split_once('|').unwrap_or((rest, ""));
        let mut nodes = None;
        for check in checks.split_whitespace() {
            match check.split_once('=') {
                Some(("nodes", n)) => {
                    nodes = Some(n.parse().map_err(|_| bad("nodes=N needs a number"))?)
                }
                _ => return Err(bad("unknown check (only nodes=N)")),
            }
        }
        let name = name.trim().to_owned();
        if figures.iter().any(|f| f.name == name) {
            return Err(bad("figure name used twice"));
        }
        figures.push(Figure {
            name,
            args: args.split_whitespace().map(str::to_owned).collect(),
            nodes,
        });
    }
    Ok(figures)
}

/// Runs `tl-draw draw ARGS -o OUTPUT [extra]` in process, trace paths taken from the
/// repository root.
pub fn draw(figure: &Figure, output: &Path, extra: &[&str]) -> Result<()> {
    let root = repo_root();
    let mut args: Vec<String> = vec!["tl-draw".into(), "draw".into()];
    args.extend(figure.args.iter().map(|arg| {
        if arg.ends_with(".json") {
            root.join(arg).to_string_lossy().into_owned()
        } else {
            arg.clone()
        }
    }));
    args.push("-o".into());
    args.push(output.to_string_lossy().into_owned());
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    let status = tl_draw::cli::run(&args);
    if status == ExitCode::SUCCESS {
        Ok(())
    } else {
        Err(format!(
            "figure {}: `{}` failed",
            figure.name,
            args.join(" ")
        ))
    }
}

/// `cargo xtask figures`.
pub fn figures() -> Result<()> {
    let root = repo_root();
    let guide = std::fs::read_to_string(root.join(GUIDE)).map_err(|e| format!("{GUIDE}: {e}"))?;
    let figures = parse(&guide)?;
    let folder = root.join(FIGURES);
    std::fs::create_dir_all(&folder).map_err(|e| e.to_string())?;
    let mut wanted: Vec<PathBuf> = Vec::new();
    for figure in &figures {
        let svg = folder.join(format!("{}.svg", figure.name));
        let png = folder.join(format!("{}.png", figure.name));
        draw(figure, &svg, &[])?;
        draw(figure, &png, &["--dpi", PNG_DPI])?;
        wanted.extend([svg, png]);
    }
    // Figures the page no longer shows go too.
    for entry in std::fs::read_dir(&folder).map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if !wanted.contains(&path) {
            std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    eprintln!("xtask: {} figures in {FIGURES}", figures.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guide() -> String {
        std::fs::read_to_string(repo_root().join(GUIDE)).unwrap()
    }

    /// Nodes drawn in a DOT source: node statements, not the key, clusters or arrows.
    fn nodes_in(dot: &str) -> usize {
        dot.lines()
            .filter(|line| {
                let line = line.trim_start();
                line.starts_with('"') && line.contains("\" [label=")
            })
            .count()
    }

    #[test]
    fn markers_parse_with_their_checks() {
        let figures = parse("x\n<!-- figure a: fixtures/x.json --depth 1 | nodes=6 -->\n").unwrap();
        assert_eq!(
            figures,
            [Figure {
                name: "a".into(),
                args: vec!["fixtures/x.json".into(), "--depth".into(), "1".into()],
                nodes: Some(6),
            }]
        );
        assert!(parse("<!-- figure a: x | edges=3 -->").is_err());
    }

    /// Every figure is shown, its command is written under it, it is up to date (redrawing
    /// gives the committed bytes: deterministic output), and the node counts the page
    /// states hold.
    #[test]
    fn every_figure_is_current_and_its_numbers_hold() {
        let guide = guide();
        let figures = parse(&guide).unwrap();
        assert!(figures.len() >= 30, "the guide has a figure per option");
        let scratch = tempfile::tempdir().unwrap();
        for figure in &figures {
            assert!(
                guide.contains(&format!("](figures/{}.svg)", figure.name)),
                "{}: the page shows the figure",
                figure.name
            );
            let command = format!("tl-draw draw {}", figure.args.join(" "));
            assert!(
                guide.contains(&command),
                "{}: the page shows `{command}`",
                figure.name
            );
            let svg = scratch.path().join(format!("{}.svg", figure.name));
            draw(figure, &svg, &[]).unwrap();
            let committed = repo_root()
                .join(FIGURES)
                .join(format!("{}.svg", figure.name));
            assert!(
                std::fs::read(&committed).ok() == std::fs::read(&svg).ok(),
                "{} differs from the drawing of its command; run `cargo xtask figures` and look at it",
                committed.display()
            );
            assert!(
                repo_root()
                    .join(FIGURES)
                    .join(format!("{}.png", figure.name))
                    .exists(),
                "{}: PNG beside the SVG",
                figure.name
            );
            if let Some(expected) = figure.nodes {
                let dot = scratch.path().join(format!("{}.dot", figure.name));
                draw(figure, &dot, &[]).unwrap();
                let text = std::fs::read_to_string(&dot).unwrap();
                assert_eq!(nodes_in(&text), expected, "{}: nodes=", figure.name);
            }
        }
    }
}
