//! `cargo xtask bench`: end-to-end timings of the release `tl-draw` program against the
//! budgets of `docs/performance.md`, on real GPT-2 traces (`fixtures/real`) and on synthetic
//! transformer traces of 1,000, 10,000 and 100,000 operations; `cargo xtask bench-compare`:
//! TorchLens 2.36.1's `draw` and tl-draw on the same traces of the guide's fixtures and of
//! real architectures at their real sizes, side by side.
//!
//! Every timing is the median of several runs of the whole program (start, load, plan,
//! emit, layout, write), so it is what a user waits for.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use tl_trace_model::synthetic::transformer_of_size;

use crate::{repo_root, run, Result};

/// Sizes (operations) of the synthetic traces.
const SYNTHETIC_SIZES: [usize; 3] = [1_000, 10_000, 100_000];
/// Runs per measurement; the median is reported.
const RUNS: usize = 5;

/// Builds the release program; returns its path.
fn release_binary() -> Result<PathBuf> {
    let root = repo_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    run(Command::new(cargo)
        .args(["build", "--release", "-p", "tl-draw"])
        .current_dir(&root))?;
    Ok(root.join("target").join("release").join("tl-draw"))
}

/// Writes the synthetic traces under `target/synthetic` where they are missing or not what
/// this version's generator and canonical layout give; returns their paths.
pub fn synthetic_traces() -> Result<Vec<PathBuf>> {
    synthetic_traces_of(&SYNTHETIC_SIZES)
}

/// [`synthetic_traces`] of the given sizes (operations), for `cargo xtask synth OPS ...`.
pub fn synthetic_traces_of(sizes: &[usize]) -> Result<Vec<PathBuf>> {
    let folder = repo_root().join("target").join("synthetic");
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    sizes
        .iter()
        .map(|&ops| {
            let path = folder.join(format!("transformer_{ops}.json"));
            let text = transformer_of_size(ops).to_json();
            if std::fs::read(&path).ok().as_deref() != Some(text.as_bytes()) {
                tl_trace_model::write_atomically(&path, text.as_bytes())
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            }
            Ok(path)
        })
        .collect()
}

/// Median wall time and peak memory (KiB, when `/usr/bin/time` can tell) of `args`.
fn measure(program: &Path, args: &[&str]) -> Result<(Duration, Option<u64>)> {
    let mut times = Vec::with_capacity(RUNS);
    let mut peak = None;
    let gnu_time = Path::new("/usr/bin/time").exists();
    for _ in 0..RUNS {
        let mut command = if gnu_time {
            let mut command = Command::new("/usr/bin/time");
            command.args(["-f", "%M"]).arg(program);
            command
        } else {
            Command::new(program)
        };
        command.args(args);
        let start = Instant::now();
        let output = command
            .output()
            .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
        times.push(start.elapsed());
        let stderr = String::from_utf8_lossy(&output.stderr);
        if !output.status.success() {
            return Err(format!(
                "{} {} failed: {stderr}",
                program.display(),
                args.join(" ")
            ));
        }
        if gnu_time {
            peak = stderr
                .lines()
                .last()
                .and_then(|line| line.trim().parse::<u64>().ok())
                .max(peak);
        }
    }
    times.sort();
    Ok((times[RUNS / 2], peak))
}

fn milliseconds(duration: Duration) -> String {
    format!("{:.0} ms", duration.as_secs_f64() * 1e3)
}

/// One row of the report.
struct Row {
    what: String,
    budget: Option<Duration>,
    measured: Duration,
    command: String,
}

/// `cargo xtask bench`: prints the budget table (Markdown) and fails when a budget is missed.
/// A synthetic trace's file stem and its operations (`transformer_<ops>.json`).
/// The size of the file at `path` in KiB (0 when it cannot be read).
fn json_kib(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len() / 1024).unwrap_or(0)
}

fn synthetic_name_and_ops(path: &Path) -> (String, usize) {
    let name = path
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let ops = name.trim_start_matches("transformer_").parse().unwrap_or(0);
    (name, ops)
}

pub fn bench() -> Result<()> {
    let program = release_binary()?;
    let root = repo_root();
    let scratch = root.join("target").join("bench-out");
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let out = |name: &str| scratch.join(name).to_string_lossy().into_owned();
    let mut rows = Vec::new();
    let mut time =
        |what: String, budget_ms: Option<u64>, args: Vec<String>| -> Result<Option<u64>> {
            let arguments: Vec<&str> = args.iter().map(String::as_str).collect();
            let (measured, peak) = measure(&program, &arguments)?;
            rows.push(Row {
                what,
                budget: budget_ms.map(Duration::from_millis),
                measured,
                command: format!("tl-draw {}", arguments.join(" ")),
            });
            Ok(peak)
        };
    let mut memory = Vec::new();
    let synthetic = synthetic_traces()?;
    for path in &synthetic {
        let (name, ops) = synthetic_name_and_ops(path);
        let trace = path.to_string_lossy().into_owned();
        let budget = (ops == 100_000).then_some(300);
        let peak = time(
            format!("{ops} ops, load + plan + emit, collapse=auto"),
            budget,
            vec![
                "draw".into(),
                trace.clone(),
                "--collapse".into(),
                "auto".into(),
                "-o".into(),
                out(&format!("{name}.dot")),
            ],
        )?;
        memory.push(("collapse=auto, DOT", ops, peak, json_kib(path)));
    }
    // Real GPT-2 at full detail (fixtures/real, `cargo xtask fixtures`): small to SVG and
    // PDF, and at GPT-2 XL's depth (48 layers); then GPT-2 small folded.
    let real = |name: &str| {
        root.join("fixtures")
            .join("real")
            .join(format!("{name}.json"))
            .to_string_lossy()
            .into_owned()
    };
    // Past graphviz-pure's switch point (DenseNet-121 and below, the layered engine, issue
    // 33): the real models it takes, then the synthetic transformers at full detail (no
    // refusal below 100,000 nodes).
    for (name, format, budget) in [
        ("gpt2_small", "svg", Some(500)),
        ("gpt2_small", "pdf", Some(1000)),
        ("gpt2_48", "svg", Some(2000)),
        ("densenet121", "svg", None),
        ("densenet121", "png", None),
        ("llama_32", "svg", None),
        ("llama_32", "pdf", None),
        ("mamba", "svg", None),
    ] {
        time(
            format!("{name}, full detail, to {}", format.to_uppercase()),
            budget,
            vec![
                "draw".into(),
                real(name),
                "-o".into(),
                out(&format!("{name}.{format}")),
            ],
        )?;
    }
    for path in &synthetic {
        let (name, ops) = synthetic_name_and_ops(path);
        if ops < 10_000 {
            continue;
        }
        let peak = time(
            format!("{ops} ops, full detail, to SVG"),
            (ops == 100_000).then_some(10_000),
            vec![
                "draw".into(),
                path.to_string_lossy().into_owned(),
                "-o".into(),
                out(&format!("{name}_full.svg")),
            ],
        )?;
        memory.push(("full detail, SVG", ops, peak, json_kib(path)));
    }
    time(
        "gpt2_small, collapse=auto, to SVG".to_owned(),
        Some(50),
        vec![
            "draw".into(),
            real("gpt2_small"),
            "--collapse".into(),
            "auto".into(),
            "-o".into(),
            out("gpt2_small_auto.svg"),
        ],
    )?;

    println!("| what | budget | measured (median of {RUNS}) | command |");
    println!("|---|---|---|---|");
    let mut missed = Vec::new();
    for row in &rows {
        let budget = row.budget.map_or("".to_owned(), milliseconds);
        let over = row.budget.is_some_and(|b| row.measured > b);
        if over {
            missed.push(row.what.clone());
        }
        let measured = milliseconds(row.measured);
        let measured = if over {
            format!("**{measured} (over)**")
        } else {
            measured
        };
        println!(
            "| {} | {budget} | {measured} | `{}` |",
            row.what, row.command
        );
    }
    println!();
    println!("| trace | drawing | JSON size | peak memory | ratio (budget < 10x at 100,000 ops) |");
    println!("|---|---|---|---|---|");
    for (drawing, ops, peak, json_kib) in memory {
        match peak {
            Some(peak) => {
                let ratio = peak as f64 / json_kib.max(1) as f64;
                if ops == 100_000 && ratio >= 10.0 {
                    missed.push(format!("peak memory of {ops} ops, {drawing}"));
                }
                println!(
                    "| {ops} ops | {drawing} | {:.1} MiB | {} MiB | {ratio:.1}x |",
                    json_kib as f64 / 1024.0,
                    peak / 1024
                );
            }
            None => println!(
                "| {ops} ops | {drawing} | {:.1} MiB | (needs /usr/bin/time) | |",
                json_kib as f64 / 1024.0
            ),
        }
    }
    // Layout quality on the real set at full detail, by both engines (`docs/performance.md`,
    // "Layout quality"): 0 arrows through nodes, 0 overlapping frames.
    println!();
    let mut quality_args = vec!["quality".to_owned()];
    let mut reals: Vec<String> = std::fs::read_dir(root.join("fixtures").join("real"))
        .map_err(|e| e.to_string())?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .map(|path| path.to_string_lossy().into_owned())
        .collect();
    reals.sort();
    quality_args.extend(reals);
    let arguments: Vec<&str> = quality_args.iter().map(String::as_str).collect();
    run(&mut crate::drawing_task(&arguments))?;
    if missed.is_empty() {
        Ok(())
    } else {
        Err(format!("over budget: {}", missed.join(", ")))
    }
}

/// The guide's small fixtures timed by `bench-compare` before the real architectures (the
/// adapter's `real_models.py` lists those): shown for reference, without targets (a drawing
/// of a dozen nodes is mostly the program's 5 ms start).
const SMALL: [&str; 4] = ["convnet", "stack40", "resnet18", "recurrent"];
/// Targets for the real architectures: tl-draw's program (start to written file) this many
/// times faster than TorchLens's `draw` of the trace in memory, to SVG.
const TARGETS: [(&str, f64); 3] = [("none", 5.0), ("auto", 10.0), ("max", 1.0)];
/// Absolute budgets, program start to written file: (model, collapse, format, seconds).
const BUDGETS: [(&str, &str, &str, f64); 3] = [
    ("gpt2_small", "none", "svg", 0.5),
    ("gpt2_small", "none", "pdf", 1.0),
    ("gpt2_48", "none", "svg", 2.0),
];

/// One in-process timing of `xtask-draw time-draws`.
struct InProcess {
    total: f64,
    layout: f64,
    nodes: usize,
    virtual_nodes: usize,
}

/// `cargo xtask bench-compare [--format svg|pdf|png] [NAME ...]`: TorchLens 2.36.1's `draw`
/// and the tl-draw program on the same traces (the adapter exports the trace it timed and
/// runs the program before and after each of TorchLens's runs), collapse none, auto and
/// max, to SVG; prints the table of `docs/performance.md` and fails when a target or budget
/// is missed. With `--format pdf` or `png`, both write that format at full detail
/// (the one collapse mode with a target in those formats, [`PDF_PNG_TARGET`]).
pub fn compare(python: &Path, args: &[String]) -> Result<()> {
    let (format, names) = format_and_names("bench-compare", args)?;
    let listed;
    let names: Vec<&str> = if names.is_empty() {
        listed = crate::stdout_of_adapter(python, &["list-names", "real-models"])?;
        SMALL.iter().copied().chain(listed.lines()).collect()
    } else {
        names.iter().map(String::as_str).collect()
    };
    let program = release_binary()?;
    let root = repo_root();
    let traces = root.join("target").join("bench-traces");
    let modes: Vec<&str> = if format == "svg" {
        TARGETS.iter().map(|(mode, _)| *mode).collect()
    } else {
        vec!["none"]
    };
    eprintln!("xtask: tracing and timing TorchLens 2.36.1 (several minutes)");
    let torchlens = crate::stdout_of(
        Command::new(python)
            .args(["-m", "tl_export", "time-draw"])
            .args(&names)
            .args([
                "--collapse",
                &modes.join(","),
                "--runs",
                "3",
                "--format",
                format,
            ])
            .arg("--export")
            .arg(&traces)
            .arg("--program")
            .arg(&program)
            .current_dir(root.join("python")),
        "timing TorchLens",
    )?;
    let trace_of = |name: &str| traces.join(format!("{name}.json"));
    let paths: Vec<String> = names
        .iter()
        .map(|name| trace_of(name).to_string_lossy().into_owned())
        .collect();
    let joined_modes = modes.join(",");
    let mut timing_args = vec!["time-draws", "--format", format, &joined_modes];
    timing_args.extend(paths.iter().map(String::as_str));
    let in_process = crate::stdout_of(
        &mut crate::drawing_task(&timing_args),
        "timing tl-draw in process",
    )?;
    let ours = |name: &str, mode: &str| -> Option<InProcess> {
        let path = trace_of(name).to_string_lossy().into_owned();
        in_process.lines().find_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            (fields.len() == 6 && fields[0] == path && fields[1] == mode).then(|| InProcess {
                total: fields[2].parse().unwrap_or(f64::NAN),
                layout: fields[3].parse().unwrap_or(f64::NAN),
                nodes: fields[4].parse().unwrap_or(0),
                virtual_nodes: fields[5].parse().unwrap_or(0),
            })
        })
    };
    let scratch = root.join("target").join("bench-out");
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let program_time = |name: &str, mode: &str, format: &str| -> Result<f64> {
        let trace = trace_of(name);
        let output = scratch.join(format!("{name}_{mode}.{format}"));
        let args = [
            "draw",
            &trace.to_string_lossy(),
            "--collapse",
            mode,
            "--force",
            "-o",
            &output.to_string_lossy(),
        ]
        .map(str::to_owned);
        let arguments: Vec<&str> = args.iter().map(String::as_str).collect();
        Ok(measure(&program, &arguments)?.0.as_secs_f64())
    };
    println!(
        "| model | ops | collapse | nodes (+ virtual) | TorchLens 2.36.1 `draw` to {} (engine) | \
         tl-draw program (start to file) | speed-up | target | tl-draw in process | layout share |",
        format.to_uppercase()
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut missed = Vec::new();
    for line in torchlens.lines() {
        let result: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("unexpected adapter output {line:?}: {e}"))?;
        let (Some(name), Some(mode), Some(seconds), Some(program_seconds), Some(ops)) = (
            result["name"].as_str(),
            result["collapse"].as_str(),
            result["seconds"].as_f64(),
            result["program_seconds"].as_f64(),
            result["ops"].as_u64(),
        ) else {
            return Err(format!("unexpected adapter output {line:?}"));
        };
        let inside =
            ours(name, mode).ok_or_else(|| format!("no in-process timing of {name} at {mode}"))?;
        let speedup = seconds / program_seconds;
        let target = if format == "svg" {
            TARGETS.iter().find(|(m, _)| *m == mode).map(|(_, t)| *t)
        } else {
            Some(PDF_PNG_TARGET)
        }
        .filter(|_| !SMALL.contains(&name));
        if target.is_some_and(|target| speedup < target) {
            missed.push(format!(
                "{name} at {mode} ({speedup:.1}x, target {:.0}x)",
                target.unwrap_or(0.0)
            ));
        }
        let target = target.map_or("".to_owned(), |t| format!("{t:.0}x"));
        println!(
            "| {name} | {ops} | {mode} | {} (+{}) | {} ({}) | {} | {speedup:.1}x | {target} | {} | {:.0}% |",
            inside.nodes,
            inside.virtual_nodes,
            seconds_text(seconds),
            result["engine"].as_str().unwrap_or("?"),
            seconds_text(program_seconds),
            seconds_text(inside.total),
            100.0 * inside.layout / inside.total.max(f64::MIN_POSITIVE),
        );
    }
    // The absolute budgets name their own formats: timed once, with the default run.
    let budgets: Vec<_> = BUDGETS
        .iter()
        .filter(|(name, ..)| format == "svg" && names.contains(name))
        .collect();
    if !budgets.is_empty() {
        println!();
        println!("| budget | limit | measured (program, median of {RUNS}) |");
        println!("|---|---|---|");
    }
    for &(name, mode, budget_format, limit) in budgets {
        let measured = program_time(name, mode, budget_format)?;
        let over = measured > limit;
        if over {
            missed.push(format!(
                "{name} {mode} to {budget_format}: {measured:.2} s > {limit} s"
            ));
        }
        println!(
            "| {name} at {mode} to {} | {} | {}{} |",
            budget_format.to_uppercase(),
            seconds_text(limit),
            seconds_text(measured),
            if over { " **(over)**" } else { "" }
        );
    }
    if missed.is_empty() {
        Ok(())
    } else {
        Err(format!("missed: {}", missed.join("; ")))
    }
}

/// The arguments `[--format svg|pdf|png] [NAME ...]` of the comparisons with TorchLens:
/// the format (SVG when none is given) and the names.
fn format_and_names<'a>(task: &str, args: &'a [String]) -> Result<(&'a str, &'a [String])> {
    let (format, names) = match args {
        [flag, format, names @ ..] if flag == "--format" => (format.as_str(), names),
        names => ("svg", names),
    };
    if ["svg", "pdf", "png"].contains(&format) {
        Ok((format, names))
    } else {
        Err(format!(
            "{task} --format takes svg, pdf or png, not {format:?}"
        ))
    }
}

fn seconds_text(seconds: f64) -> String {
    if seconds < 1.0 {
        format!("{:.0} ms", seconds * 1e3)
    } else {
        format!("{seconds:.2} s")
    }
}

/// The Python package's speed targets on GPT-2 small (issue 19): `tl_draw.draw` at least
/// this many times faster than TorchLens's own `trace.draw`, per collapse mode.
const PYTHON_TARGETS: [(&str, f64); 2] = [("none", 5.0), ("auto", 10.0)];
/// A second drawing of the same unchanged trace: at least this many times faster than
/// TorchLens's second `trace.draw()` (which reuses its collapse plan), at either level.
const PYTHON_WARM_TARGET: f64 = 10.0;
/// A first drawing at full detail to PDF or PNG: at least this many times faster than
/// TorchLens's own `trace.draw` to the same format.
const PDF_PNG_TARGET: f64 = 5.0;

/// `bench-python [--format svg|pdf|png] [NAME ...]`: TorchLens's `trace.draw` against
/// `tl_draw.draw` of the same live trace in one Python process, to SVG (or the format
/// asked), conversion included; cold (fresh traces) and warm (the same trace again).
/// Default: GPT-2 small.
pub fn python(python: &Path, args: &[String]) -> Result<()> {
    let (format, names) = format_and_names("bench-python", args)?;
    crate::install_python_package(python)?;
    let names: Vec<&str> = if names.is_empty() {
        vec!["gpt2_small"]
    } else {
        names.iter().map(String::as_str).collect()
    };
    eprintln!("xtask: tracing and drawing with both programs (a few minutes)");
    let modes: Vec<&str> = PYTHON_TARGETS.iter().map(|(mode, _)| *mode).collect();
    let lines = crate::stdout_of(
        Command::new(python)
            .args(["-m", "tl_export", "compare-python"])
            .args(&names)
            .args([
                "--collapse",
                &modes.join(","),
                "--runs",
                "5",
                "--format",
                format,
            ])
            .current_dir(repo_root().join("python")),
        "comparing in process",
    )?;
    println!("| model | format | collapse | cache | TorchLens | tl_draw | ratio | target |");
    println!("|---|---|---|---|---|---|---|---|");
    for line in lines.lines().filter(|l| l.starts_with('{')) {
        let row: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("bad timing line {line:?}: {e}"))?;
        let text = |key: &str| row[key].as_str().unwrap_or("?").to_owned();
        let number = |key: &str| row[key].as_f64().unwrap_or(f64::NAN);
        let mode = text("collapse");
        let cold = text("cache") == "cold";
        let target = if format != "svg" {
            // PDF and PNG have one budget: 5x at full detail (issue 33), a first drawing.
            (cold && mode == "none").then_some(PDF_PNG_TARGET)
        } else if cold {
            PYTHON_TARGETS
                .iter()
                .find(|(m, _)| *m == mode)
                .map(|(_, t)| *t)
        } else {
            Some(PYTHON_WARM_TARGET)
        };
        let ratio = number("ratio");
        let verdict = match target {
            Some(target) if ratio >= target => format!("{target}x met"),
            Some(target) => format!("{target}x **missed**"),
            None => String::new(),
        };
        println!(
            "| {} | {format} | {mode} | {} | {:.0} ms | {:.0} ms | {ratio:.1}x | {verdict} |",
            text("name"),
            text("cache"),
            number("torchlens_s") * 1000.0,
            number("tl_draw_s") * 1000.0,
        );
    }
    Ok(())
}

/// The layout guard's adversarial shapes (issue 31): dense two-rank graphs K(n, n), a wide
/// concatenation, and a synthetic transformer at `--depth 2` (many long arrows), each
/// written to `target/synthetic`.
/// A shape the guard is timed on: what it is, its trace file, the flags, and the output
/// file's name (its extension picks the format).
type GuardShape = (String, PathBuf, Vec<&'static str>, &'static str);

fn guard_shapes() -> Result<Vec<GuardShape>> {
    use tl_trace_model::synthetic::{
        chain_into_one, complete_bipartite, deep_modules, wide_concat,
    };
    let folder = repo_root().join("target").join("synthetic");
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let large = transformer_of_size(100_000);
    let shapes: Vec<(
        String,
        tl_trace_model::Trace,
        Vec<&'static str>,
        &'static str,
    )> = vec![
        (
            "K(50, 50)".into(),
            complete_bipartite(50),
            vec![],
            "guard.svg",
        ),
        (
            "K(100, 100)".into(),
            complete_bipartite(100),
            vec![],
            "guard.svg",
        ),
        (
            "K(200, 200)".into(),
            complete_bipartite(200),
            vec![],
            "guard.svg",
        ),
        (
            "one op reading 20,000 inputs".into(),
            wide_concat(20_000),
            vec![],
            "guard.svg",
        ),
        (
            "a chain of 400 ops, each read by one final op".into(),
            chain_into_one(400),
            vec![],
            "guard.svg",
        ),
        (
            "a chain of 100 ops, each read by one final op".into(),
            chain_into_one(100),
            vec![],
            "guard.svg",
        ),
        (
            "a module tree 10,000 deep".into(),
            deep_modules(10_000),
            vec![],
            "guard.svg",
        ),
        // A mask read by every block: the hub load decides (docs/performance.md).
        (
            "transformer of 1,800 ops, depth 2".into(),
            transformer_of_size(1800),
            vec!["--depth", "2"],
            "guard.svg",
        ),
        (
            "transformer of 2,400 ops, depth 2".into(),
            transformer_of_size(2400),
            vec!["--depth", "2"],
            "guard.svg",
        ),
        (
            "transformer of 6,000 ops, depth 2".into(),
            transformer_of_size(6000),
            vec!["--depth", "2"],
            "guard.svg",
        ),
        (
            "transformer of 1,500 ops".into(),
            transformer_of_size(1500),
            vec![],
            "guard.svg",
        ),
        (
            "transformer of 1,800 ops".into(),
            transformer_of_size(1800),
            vec![],
            "guard.svg",
        ),
        // Let through by a higher limit: the x placement's iteration bound keeps it short.
        (
            "transformer of 1,800 ops, --max-layout-cost 1000000".into(),
            transformer_of_size(1800),
            vec!["--max-layout-cost", "1000000"],
            "guard.svg",
        ),
        // The page's memory against the static drawing's, on the same trace.
        (
            "transformer of 100,000 ops, auto, SVG".into(),
            large.clone(),
            vec!["--collapse", "auto"],
            "guard.svg",
        ),
        (
            "transformer of 100,000 ops, interactive page".into(),
            large,
            vec![],
            "guard.html",
        ),
    ];
    shapes
        .into_iter()
        .map(|(what, trace, args, output)| {
            let file: String = what
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            let path = folder.join(format!("guard_{file}.json"));
            let text = trace.to_json();
            if std::fs::read(&path).ok().as_deref() != Some(text.as_bytes()) {
                tl_trace_model::write_atomically(&path, text.as_bytes())
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            }
            Ok((what, path, args, output))
        })
        .collect()
}

/// `cargo xtask bench-guard`: for each adversarial shape, how long the program takes to
/// refuse it (it should, in well under a second) or to draw it (what the guard lets
/// through should finish in about 10 s), to SVG with the default limits.
pub fn guard() -> Result<()> {
    let program = release_binary()?;
    let scratch = repo_root().join("target").join("bench-out");
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    println!("| shape | outcome | wall time | peak memory |");
    println!("|---|---|---|---|");
    let gnu_time = Path::new("/usr/bin/time").exists();
    for (what, path, args, output) in guard_shapes()? {
        let start = Instant::now();
        let mut command = if gnu_time {
            let mut command = Command::new("/usr/bin/time");
            command.args(["-f", "%M"]).arg(&program);
            command
        } else {
            Command::new(&program)
        };
        let output = command
            .arg("draw")
            .arg(&path)
            .args(&args)
            .arg("-o")
            .arg(scratch.join(output))
            .output()
            .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
        let took = start.elapsed();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let peak = gnu_time
            .then(|| stderr.lines().last()?.trim().parse::<u64>().ok())
            .flatten()
            .map_or("".to_owned(), |kib| format!("{} MB", kib / 1024));
        let outcome = if output.status.success() {
            "drawn".to_owned()
        } else {
            stderr
                .split(']')
                .next()
                .unwrap_or("failed")
                .trim_start_matches("error[")
                .to_owned()
        };
        println!("| {what} | {outcome} | {} | {peak} |", milliseconds(took));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::format_and_names;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|arg| (*arg).to_owned()).collect()
    }

    #[test]
    fn the_format_is_svg_unless_one_is_given_first() {
        let names = strings(&["vit_b_16", "densenet121"]);
        assert_eq!(
            format_and_names("bench-compare", &names),
            Ok(("svg", &names[..]))
        );
        let given = strings(&["--format", "png", "vit_b_16"]);
        assert_eq!(
            format_and_names("bench-compare", &given),
            Ok(("png", &given[2..]))
        );
        let error = format_and_names("bench-python", &strings(&["--format", "jpg"]))
            .expect_err("jpg is not a format the comparisons write");
        assert_eq!(
            error,
            "bench-python --format takes svg, pdf or png, not \"jpg\""
        );
    }
}
