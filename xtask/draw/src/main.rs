//! The project tasks that draw, run by `cargo xtask` once setup has installed cairo:
//!
//! * `figures`: redraw every figure of `docs/guides/drawing.md` (`cargo xtask figures`).
//! * `time-draws [--format svg|pdf|png] MODES TRACE ...`: for each trace file and collapse
//!   mode (comma separated: `none,auto,max`), the median seconds of `draw` + render + file
//!   write (SVG, or the format given; the drawing's own error for any other) from the loaded
//!   trace and of the drawing's layout engine (`auto` resolved) alone on the same DOT, to
//!   SVG, and the layout guard's estimate (drawn and virtual nodes), as `path<TAB>mode<TAB>
//!   seconds<TAB>layout seconds<TAB>nodes<TAB>virtual nodes` lines (`cargo xtask
//!   bench-compare`).
//! * `layout DOT ...`: the seconds graphviz-pure takes on each DOT file (median of three), as
//!   `path<TAB>seconds` lines: to compare tl-draw's DOT with TorchLens's, construct by
//!   construct (`docs/performance.md`, "What each DOT construct costs").
//! * `quality TRACE ...`: the layout's quality at full detail (`tl_layout::quality`: arrow
//!   crossings as arrows and as drawn, arrow length, line drawn, size, arrows through nodes, overlapping frames) and the
//!   layout's seconds, by graphviz-pure and by the layered engine, as the Markdown rows of
//!   `docs/performance.md`, "Layout quality".
//!
//! They live apart from `xtask` because they link the drawing facade, and so cairo: the
//! program that installs cairo must build on a machine that has none.

mod figures;
mod schedules;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use tl_draw::{draw, Collapse, DrawOptions, Trace};

// The same allocator as the `tl-draw` program, so in-process timings measure what it does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

type Result<T> = std::result::Result<T, String>;

/// Runs per in-process measurement; the median is reported.
const RUNS: usize = 3;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("figures") => figures::figures(),
        Some("time-draws") => match &args[1..] {
            [flag, format, modes, traces @ ..] if flag == "--format" && !traces.is_empty() => {
                time_draws(format, modes, traces)
            }
            [modes, traces @ ..] if !traces.is_empty() => time_draws("svg", modes, traces),
            _ => Err("time-draws [--format svg|pdf|png] MODES TRACE ...".to_owned()),
        },
        Some("layout") if args.len() >= 2 => time_layouts(&args[1..]),
        Some("quality") if args.len() >= 2 => layout_quality(&args[1..]),
        _ => Err(format!(
            "unknown task {:?}; tasks: figures, time-draws [--format svg|pdf|png] MODES TRACE ..., layout DOT ..., quality TRACE ...",
            args.first().map(String::as_str).unwrap_or("")
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask-draw: {message}");
            ExitCode::FAILURE
        }
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Seconds graphviz-pure's `dot` takes on `dot` alone: parse, lay out, write SVG.
fn layout_seconds(dot: &str) -> Result<f64> {
    let start = Instant::now();
    let failed = |e: graphviz_pure::GraphvizError| format!("layout: {e}");
    let mut graph = graphviz_pure::parse_dot(dot).map_err(failed)?.into_output();
    let _warnings = graphviz_pure::layout_graph(&mut graph, graphviz_pure::LayoutEngine::Dot)
        .map_err(failed)?;
    let _svg =
        graphviz_pure::render_graph(&graph, graphviz_pure::OutputFormat::Svg).map_err(failed)?;
    Ok(start.elapsed().as_secs_f64())
}

/// Seconds `engine` takes from DOT to SVG (nothing remembered).
fn engine_seconds(dot: &str, engine: tl_layout::LayoutEngine) -> Result<f64> {
    tl_draw::forget_recent_layouts();
    let start = Instant::now();
    tl_layout::lay_out(dot, &[tl_layout::TextFormat::Svg], engine).map_err(|e| e.to_string())?;
    Ok(start.elapsed().as_secs_f64())
}

/// `layout DOT ...`: see the crate comment.
fn time_layouts(paths: &[String]) -> Result<()> {
    for path in paths {
        let dot = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let seconds = (0..3)
            .map(|_| layout_seconds(&dot))
            .collect::<Result<Vec<f64>>>()?;
        println!("{path}\t{:.4}", median(seconds));
    }
    Ok(())
}

/// `quality TRACE ...`: see the crate comment.
fn layout_quality(traces: &[String]) -> Result<()> {
    use tl_layout::LayoutEngine;
    println!("| model | engine | nodes | arrows | crossings | crossings drawn | arrow length (pt) | line drawn (pt) | size (pt) | arrows through nodes | overlapping frames | labels on a node or label | layout s |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let engines = [
        ("embedded", LayoutEngine::Embedded),
        ("layered", LayoutEngine::Layered),
    ];
    for path in traces {
        let trace = Trace::load(path).map_err(|e| format!("{path}: {e}"))?;
        for (name, engine) in engines {
            let drawing = draw(
                &trace,
                &DrawOptions::default().force(true).layout_engine(engine),
            )
            .map_err(|e| format!("{path}: {e}"))?;
            quality_row(path, name, engine, &drawing.dot)?;
        }
    }
    Ok(())
}

/// One row of the quality table: `dot` laid out by `engine`.
fn quality_row(path: &str, name: &str, engine: tl_layout::LayoutEngine, dot: &str) -> Result<()> {
    use tl_layout::{lay_out, TextFormat};
    tl_draw::forget_recent_layouts();
    let start = Instant::now();
    let laid_out = lay_out(dot, &[TextFormat::Json], engine).map_err(|e| format!("{path}: {e}"))?;
    let seconds = start.elapsed().as_secs_f64();
    let json = laid_out.get(TextFormat::Json).unwrap_or_default();
    let q = tl_layout::quality::measure(json)
        .ok_or_else(|| format!("{path}: the layout is not Graphviz JSON"))?;
    let stem = Path::new(path)
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy();
    println!(
        "| {stem} | {name} | {} | {} | {} | {} | {:.0} | {:.0} | {:.0} x {:.0} | {} | {} | {} | {seconds:.2} |",
        q.nodes,
        q.arrows,
        q.crossings,
        q.crossings_drawn,
        q.arrow_length,
        q.line_drawn,
        q.width,
        q.height,
        q.arrows_through_nodes,
        q.frames_overlapping,
        q.labels_overlapping
    );
    Ok(())
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("xtask/draw sits two folders below the repository root")
        .to_owned()
}

/// `time-draws [--format F] MODES TRACE ...`: see the crate comment.
fn time_draws(format: &str, modes: &str, traces: &[String]) -> Result<()> {
    let scratch = repo_root().join("target").join("bench-out");
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    for path in traces {
        let trace = Trace::load(path).map_err(|e| format!("{path}: {e}"))?;
        let stem = Path::new(path)
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for mode in modes.split(',') {
            let collapse = match mode {
                "none" => Collapse::None,
                "auto" => Collapse::Auto,
                "max" => Collapse::Max,
                other => return Err(format!("unknown collapse mode {other:?} (none, auto, max)")),
            };
            let options = DrawOptions::default().collapse(collapse).force(true);
            let output = scratch.join(format!("{stem}_{mode}_in_process.{format}"));
            let mut totals = Vec::with_capacity(RUNS);
            let mut layouts = Vec::with_capacity(RUNS);
            let mut cost = None;
            for _ in 0..RUNS {
                // Each run lays out anew, as the first drawing of a trace does.
                tl_draw::forget_recent_layouts();
                let start = Instant::now();
                let drawing = draw(&trace, &options).map_err(|e| format!("{path}: {e}"))?;
                drawing.write(&output).map_err(|e| format!("{path}: {e}"))?;
                totals.push(start.elapsed().as_secs_f64());
                cost = Some(tl_draw::guard::layout_cost(&drawing.styled));
                layouts.push(engine_seconds(&drawing.dot, drawing.layout_engine())?);
            }
            let cost = cost.expect("RUNS > 0");
            println!(
                "{path}\t{mode}\t{}\t{}\t{}\t{}",
                median(totals),
                median(layouts),
                cost.nodes,
                cost.virtual_nodes
            );
        }
    }
    Ok(())
}
