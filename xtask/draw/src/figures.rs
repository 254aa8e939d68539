//! `cargo xtask figures`: redraws every figure of `docs/guides/drawing.md` into
//! `docs/guides/figures/` (an SVG for the page and a PNG beside it), running the exact
//! command line written under each figure through the `tl-draw` program's own code.
//!
//! A figure is declared in the guide by a comment line
//! `<!-- figure NAME: ARGS -->` (ARGS as typed after `tl-draw draw`, paths from the
//! repository root), optionally followed by checks of the numbers the page states:
//! `<!-- figure NAME: ARGS | nodes=44 has="12 operations" -->`. A `<!-- check NAME: ARGS
//! | ... -->` line checks a drawing the page describes but does not show.
//! The task writes what follows each declaration, up to `<!-- /figure -->`: the image, the
//! command line and the same call in Rust; and, between `<!-- rust calls -->` and
//! `<!-- /rust calls -->`, every figure's Rust call in one block that `cargo test --doc`
//! compiles. So the command, the Rust call and the picture come from one line.

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
    /// Texts the drawing's DOT must contain (numbers the page states: `12 operations`).
    pub texts: Vec<String>,
    /// Drawn on the page (`figure`), or only checked (`check`: numbers the prose states
    /// about a drawing the page does not show).
    pub shown: bool,
}

/// Reads the checks after `|`: `nodes=N` and `has="text"`.
fn parse_checks(checks: &str) -> std::result::Result<(Option<usize>, Vec<String>), String> {
    let (mut nodes, mut texts) = (None, Vec::new());
    let mut rest = checks.trim();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("has=\"") {
            let end = after.find('"').ok_or("has=\"...\" is not closed")?;
            texts.push(after[..end].to_owned());
            rest = after[end + 1..].trim_start();
        } else if let Some(after) = rest.strip_prefix("nodes=") {
            let end = after.find(' ').unwrap_or(after.len());
            nodes = Some(after[..end].parse().map_err(|_| "nodes=N needs a number")?);
            rest = after[end..].trim_start();
        } else {
            return Err(format!("unknown check {rest:?} (nodes=N, has=\"text\")"));
        }
    }
    Ok((nodes, texts))
}

/// The figures declared in `guide` (the guide's text), in page order.
pub fn parse(guide: &str) -> Result<Vec<Figure>> {
    let mut figures: Vec<Figure> = Vec::new();
    for (number, line) in guide.lines().enumerate() {
        let line = line.trim();
        let (body, shown) = match (
            line.strip_prefix("<!-- figure "),
            line.strip_prefix("<!-- check "),
        ) {
            (Some(body), _) => (body, true),
            (_, Some(body)) => (body, false),
            _ => continue,
        };
        let bad = |why: &str| format!("{GUIDE}:{}: {why}: {line}", number + 1);
        let body = body
            .strip_suffix("-->")
            .ok_or_else(|| bad("expected `-->`"))?;
        let (name, rest) = body
            .split_once(':')
            .ok_or_else(|| bad("expected `figure NAME: ARGS`"))?;
        let (args, checks) = rest.split_once('|').unwrap_or((rest, ""));
        let (nodes, texts) = parse_checks(checks).map_err(|why| bad(&why))?;
        let name = name.trim().to_owned();
        if figures.iter().any(|f| f.name == name) {
            return Err(bad("figure name used twice"));
        }
        figures.push(Figure {
            name,
            args: args.split_whitespace().map(str::to_owned).collect(),
            nodes,
            texts,
            shown,
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

/// A value of a flag as Rust (`Collapse::Level(0.25)`).
fn rust_value(flag: &str, value: &str) -> Result<String> {
    let variant = |pairs: &[(&str, &str)]| {
        pairs
            .iter()
            .find(|(text, _)| *text == value)
            .map(|(_, rust)| (*rust).to_owned())
            .ok_or_else(|| format!("--{flag} {value}: no Rust spelling known to xtask figures"))
    };
    Ok(match flag {
        "depth" => value.to_owned(),
        "collapse" => match value {
            "auto" => "Collapse::Auto".to_owned(),
            "max" => "Collapse::Max".to_owned(),
            "none" => "Collapse::None".to_owned(),
            level => format!("Collapse::Level({level})"),
        },
        "direction" => variant(&[
            ("bottomup", "Direction::BottomUp"),
            ("topdown", "Direction::TopDown"),
            ("leftright", "Direction::LeftRight"),
            ("rightleft", "Direction::RightLeft"),
        ])?,
        "node-style" => variant(&[
            ("default", "NodeStyle::Default"),
            ("profiling", "NodeStyle::Profiling"),
        ])?,
        "show-buffers" => variant(&[
            ("never", "BufferVisibility::Never"),
            ("meaningful", "BufferVisibility::Meaningful"),
            ("always", "BufferVisibility::Always"),
        ])?,
        "graph" => variant(&[
            ("forward", "GraphKind::Forward"),
            ("backward", "GraphKind::Backward"),
            ("combined", "GraphKind::Combined"),
        ])?,
        "show-legend" => value.to_owned(),
        "node-label-fields" => {
            let fields: Vec<String> = value
                .split(',')
                .map(|field| {
                    let mut chars = field.chars();
                    let first = chars
                        .next()
                        .map(|c| c.to_ascii_uppercase())
                        .unwrap_or_default();
                    format!("LabelField::{first}{}", chars.as_str())
                })
                .collect();
            format!("vec![{}]", fields.join(", "))
        }
        "view" => format!("View::{}{}", value[..1].to_ascii_uppercase(), &value[1..]),
        "theme" => variant(&[
            ("torchlens", "ThemeName::Torchlens"),
            ("paper", "ThemeName::Paper"),
            ("dark", "ThemeName::Dark"),
            ("colorblind", "ThemeName::Colorblind"),
            ("high_contrast", "ThemeName::HighContrast"),
        ])?,
        "module" | "color-by" | "size-by" | "size-scale" => format!("{value:?}"),
        other => {
            return Err(format!(
                "--{other}: no Rust spelling known to xtask figures"
            ))
        }
    })
}

/// Flags without a value.
const SWITCHES: [&str; 6] = [
    "rolled",
    "show-cone",
    "show-edge-shapes",
    "show-saved-for-backward",
    "show-module-paths",
    "show-grad-values",
];

/// The Rust call that draws `figure` (what its command line does).
pub fn rust_call(figure: &Figure) -> Result<String> {
    let root = repo_root();
    let mut files = Vec::new();
    let mut options = String::from("DrawOptions::default()");
    let mut bundle_graph = None;
    let mut tokens = figure.args.iter();
    while let Some(token) = tokens.next() {
        let Some(flag) = token.strip_prefix("--") else {
            files.push(token.as_str());
            continue;
        };
        if SWITCHES.contains(&flag) {
            options.push_str(&format!(".{}(true)", flag.replace('-', "_")));
            continue;
        }
        let value = tokens
            .next()
            .ok_or_else(|| format!("--{flag} needs a value"))?;
        if flag == "graph" && files.len() > 1 {
            bundle_graph = Some(rust_value(flag, value)?);
            continue;
        }
        options.push_str(&format!(
            ".{}({})",
            flag.replace('-', "_"),
            rust_value(flag, value)?
        ));
    }
    let output = format!("{}.svg", figure.name);
    let call = match files.as_slice() {
        [file] => {
            let text =
                std::fs::read_to_string(root.join(file)).map_err(|e| format!("{file}: {e}"))?;
            if tl_trace_model::format_of(&text).as_deref() == Some(tl_trace_model::BUNDLE_FORMAT) {
                format!(
                    "draw_bundle(&Bundle::load({file:?})?, &{options}, &BundleOptions::default())"
                )
            } else {
                format!("draw(&Trace::load({file:?})?, &{options})")
            }
        }
        many => {
            let members: Vec<String> = many
                .iter()
                .map(|file| {
                    let stem = Path::new(file)
                        .file_stem()
                        .unwrap_or_default()
                        .to_string_lossy();
                    format!("({stem:?}.to_owned(), Trace::load({file:?})?)")
                })
                .collect();
            let graph = bundle_graph.unwrap_or_else(|| "GraphKind::Forward".to_owned());
            format!(
                "draw_bundle(&union_bundle(vec![{}]), &{options}, &BundleOptions {{ graph: BundleGraph::Union({graph}), ..BundleOptions::default() }})",
                members.join(", ")
            )
        }
    };
    Ok(format!("{call}?.write({output:?})?;"))
}

/// What the task writes after a figure's declaration.
fn figure_block(figure: &Figure) -> Result<String> {
    Ok(format!(
        "![{name}](figures/{name}.svg)\n\n```sh\ntl-draw draw {args}\n```\n\n```rust,ignore\n{rust}\n```\n",
        name = figure.name,
        args = figure.args.join(" "),
        rust = rust_call(figure)?
    ))
}

/// The guide with every generated part rewritten from the declarations.
pub fn regenerate(guide: &str) -> Result<String> {
    let figures = parse(guide)?;
    let shown: Vec<&Figure> = figures.iter().filter(|f| f.shown).collect();
    let mut out = String::with_capacity(guide.len());
    let mut lines = guide.lines();
    let mut figure_index = 0;
    while let Some(line) = lines.next() {
        out.push_str(line);
        out.push('\n');
        if line.trim().starts_with("<!-- figure ") {
            let figure = shown
                .get(figure_index)
                .ok_or("more figures than declared")?;
            out.push_str(&figure_block(figure)?);
            figure_index += 1;
            skip_to(&mut lines, "<!-- /figure -->")?;
            out.push_str("<!-- /figure -->\n");
        } else if line.trim() == "<!-- rust calls -->" {
            out.push_str(
                "```rust,no_run\nuse tl_draw::*;\n\nfn main() -> Result<(), DrawError> {\n",
            );
            for figure in &shown {
                out.push_str(&format!(
                    "    // {}\n    {}\n",
                    figure.name,
                    rust_call(figure)?
                ));
            }
            out.push_str("    Ok(())\n}\n```\n");
            skip_to(&mut lines, "<!-- /rust calls -->")?;
            out.push_str("<!-- /rust calls -->\n");
        }
    }
    Ok(out)
}

/// Skips generated lines up to and including `end`.
fn skip_to<'a>(lines: &mut impl Iterator<Item = &'a str>, end: &str) -> Result<()> {
    lines
        .find(|line| line.trim() == end)
        .map(|_| ())
        .ok_or_else(|| format!("{GUIDE}: missing `{end}`"))
}

/// The interactive page of the guide's first model, beside the figures.
pub const INTERACTIVE: &str = "convnet.html";

/// Writes the interactive page of `fixtures/convnet.json` (as `tl-draw draw
/// fixtures/convnet.json -o convnet.html` does) to `path`.
fn write_interactive(path: &Path) -> Result<()> {
    let trace = tl_draw::Trace::load(repo_root().join("fixtures/convnet.json"))
        .map_err(|e| e.to_string())?;
    tl_draw::html::write(&trace, &tl_draw::DrawOptions::default(), path)
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// `cargo xtask figures`.
pub fn figures() -> Result<()> {
    let root = repo_root();
    let guide = std::fs::read_to_string(root.join(GUIDE)).map_err(|e| format!("{GUIDE}: {e}"))?;
    let guide = regenerate(&guide)?;
    tl_trace_model::write_atomically(&root.join(GUIDE), guide.as_bytes())
        .map_err(|e| format!("{GUIDE}: {e}"))?;
    let figures: Vec<Figure> = parse(&guide)?.into_iter().filter(|f| f.shown).collect();
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
    let page = folder.join(INTERACTIVE);
    write_interactive(&page)?;
    wanted.push(page);
    eprintln!(
        "xtask: {} figures and {INTERACTIVE} in {FIGURES}",
        figures.len()
    );
    let report = crate::schedules::report()?;
    tl_trace_model::write_atomically(&root.join(crate::schedules::REPORT), report.as_bytes())
        .map_err(|e| format!("{}: {e}", crate::schedules::REPORT))?;
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
                line.starts_with('"') && line.contains("\" [label=") && !line.contains(" -> ")
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
                texts: Vec::new(),
                shown: true,
            }]
        );
        assert!(parse("<!-- figure a: x | edges=3 -->").is_err());
        let check =
            parse("<!-- check b: y.json | has=\"12 operations (19.4 KB)\" nodes=3 -->").unwrap();
        assert_eq!(check[0].texts, ["12 operations (19.4 KB)"]);
        assert_eq!((check[0].nodes, check[0].shown), (Some(3), false));
    }

    /// Every figure is shown, its command is written under it, it is up to date (redrawing
    /// gives the committed bytes: deterministic output), and the node counts the page
    /// states hold.
    #[test]
    fn figure_calls_read_the_same_in_rust() {
        let figure = |args: &str| Figure {
            name: "x".into(),
            args: args.split_whitespace().map(str::to_owned).collect(),
            nodes: None,
            texts: Vec::new(),
            shown: true,
        };
        assert_eq!(
            rust_call(&figure("fixtures/stack8.json --collapse 0.5 --rolled")).unwrap(),
            "draw(&Trace::load(\"fixtures/stack8.json\")?, &DrawOptions::default().collapse(Collapse::Level(0.5)).rolled(true))?.write(\"x.svg\")?;"
        );
        assert!(rust_call(&figure("fixtures/convnet.json --unknown 1")).is_err());
    }

    #[test]
    fn the_interactive_page_of_the_first_model_is_current() {
        let scratch = tempfile::tempdir().unwrap();
        let page = scratch.path().join(INTERACTIVE);
        write_interactive(&page).unwrap();
        let committed = repo_root().join(FIGURES).join(INTERACTIVE);
        assert!(
            std::fs::read(&page).unwrap() == std::fs::read(&committed).unwrap_or_default(),
            "{} is stale; run `cargo xtask figures`",
            committed.display()
        );
        assert!(guide().contains(&format!("](figures/{INTERACTIVE})")));
    }

    #[test]
    fn the_schedule_report_is_current() {
        let committed =
            std::fs::read_to_string(repo_root().join(crate::schedules::REPORT)).unwrap_or_default();
        assert!(
            crate::schedules::report().unwrap() == committed,
            "{} is stale; run `cargo xtask figures`",
            crate::schedules::REPORT
        );
    }

    #[test]
    fn every_figure_is_current_and_its_numbers_hold() {
        let guide = guide();
        assert!(
            regenerate(&guide).unwrap() == guide,
            "{GUIDE}: the generated parts are stale; run `cargo xtask figures`"
        );
        let figures = parse(&guide).unwrap();
        assert!(
            figures.iter().filter(|f| f.shown).count() >= 30,
            "the guide has a figure per option"
        );
        let scratch = tempfile::tempdir().unwrap();
        for figure in &figures {
            if figure.shown {
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
                let redrawn = std::fs::read(&svg).unwrap();
                let committed = repo_root()
                    .join(FIGURES)
                    .join(format!("{}.svg", figure.name));
                let committed_bytes = std::fs::read(&committed).unwrap_or_default();
                if String::from_utf8_lossy(&redrawn).contains("Generated by graphviz") {
                    // The layout engine's SVG does not depend on the machine's fonts.
                    assert!(
                        committed_bytes == redrawn,
                        "{} differs from the drawing of its command; run `cargo xtask figures` and look at it",
                        committed.display()
                    );
                } else {
                    // Painted by cairo (a cone): glyph outlines come from the machine's
                    // fonts, so only determinism is checked here.
                    draw(figure, &svg, &[]).unwrap();
                    assert_eq!(
                        std::fs::read(&svg).unwrap(),
                        redrawn,
                        "{}: deterministic",
                        figure.name
                    );
                    assert!(
                        !committed_bytes.is_empty(),
                        "{} is missing",
                        committed.display()
                    );
                }
                assert!(
                    repo_root()
                        .join(FIGURES)
                        .join(format!("{}.png", figure.name))
                        .exists(),
                    "{}: PNG beside the SVG",
                    figure.name
                );
            }
            if figure.nodes.is_some() || !figure.texts.is_empty() {
                let dot = scratch.path().join(format!("{}.dot", figure.name));
                draw(figure, &dot, &[]).unwrap();
                let text = std::fs::read_to_string(&dot).unwrap();
                if let Some(expected) = figure.nodes {
                    assert_eq!(nodes_in(&text), expected, "{}: nodes=", figure.name);
                }
                for expected in &figure.texts {
                    assert!(
                        text.contains(expected.as_str()),
                        "{}: the drawing does not say {expected:?}, as the page does",
                        figure.name
                    );
                }
            }
        }
    }
}
