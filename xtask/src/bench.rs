//! `cargo xtask bench`: end-to-end timings of the release `tl-draw` program against the
//! budgets of `docs/performance.md`, on the fixtures and on synthetic transformer traces of
//! 1,000, 10,000 and 100,000 operations; `cargo xtask bench-compare`: TorchLens 2.36.1's
//! `draw` and tl-draw on the same models, side by side.
//!
//! Every timing is the median of several runs of the whole program (start, load, plan,
//! emit, layout, write), so it is what a user waits for.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use tl_draw::{draw, Collapse, DrawOptions, Trace};
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
    let folder = repo_root().join("target").join("synthetic");
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    SYNTHETIC_SIZES
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
    for path in synthetic_traces()? {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let ops: usize = name.trim_start_matches("transformer_").parse().unwrap_or(0);
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
        let json_kib = std::fs::metadata(&path)
            .map(|m| m.len() / 1024)
            .unwrap_or(0);
        memory.push((ops, peak, json_kib));
    }
    let gpt2 = root
        .join("fixtures")
        .join("gpt2.json")
        .to_string_lossy()
        .into_owned();
    for (format, budget) in [("svg", 300), ("pdf", 600)] {
        time(
            format!("GPT-2 fixture, full detail, to {}", format.to_uppercase()),
            Some(budget),
            vec![
                "draw".into(),
                gpt2.clone(),
                "-o".into(),
                out(&format!("gpt2.{format}")),
            ],
        )?;
    }
    time(
        "GPT-2 fixture, collapse=auto, to SVG".to_owned(),
        Some(50),
        vec![
            "draw".into(),
            gpt2,
            "--collapse".into(),
            "auto".into(),
            "-o".into(),
            out("gpt2_auto.svg"),
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
    println!("| trace | JSON size | peak memory | ratio (budget < 10x at 100,000 ops) |");
    println!("|---|---|---|---|");
    for (ops, peak, json_kib) in memory {
        match peak {
            Some(peak) => {
                let ratio = peak as f64 / json_kib.max(1) as f64;
                if ops == 100_000 && ratio >= 10.0 {
                    missed.push(format!("peak memory of {ops} ops"));
                }
                println!(
                    "| {ops} ops | {:.1} MiB | {} MiB | {ratio:.1}x |",
                    json_kib as f64 / 1024.0,
                    peak / 1024
                );
            }
            None => println!(
                "| {ops} ops | {:.1} MiB | (needs /usr/bin/time) | |",
                json_kib as f64 / 1024.0
            ),
        }
    }
    if missed.is_empty() {
        Ok(())
    } else {
        Err(format!("over budget: {}", missed.join(", ")))
    }
}

/// Fixture models timed by `bench-compare` (every plain trace of a real model).
const COMPARED: [&str; 6] = [
    "convnet",
    "recurrent",
    "stack8",
    "stack40",
    "gpt2",
    "resnet18",
];
/// Targets: tl-draw this many times faster than TorchLens.
const TARGETS: [(&str, f64); 2] = [("none", 5.0), ("auto", 20.0)];

/// `cargo xtask bench-compare`: TorchLens 2.36.1's `draw` and tl-draw on the same models,
/// collapse none and auto, to SVG; prints the ratios and fails when a target is missed.
pub fn compare(python: &Path) -> Result<()> {
    let program = release_binary()?;
    let root = repo_root();
    let modes: Vec<&str> = TARGETS.iter().map(|(mode, _)| *mode).collect();
    eprintln!("xtask: timing TorchLens 2.36.1 (this takes a minute)");
    let torchlens = stdout_of(
        Command::new(python)
            .args(["-m", "tl_export", "time-draw"])
            .args(COMPARED)
            .args(["--collapse", &modes.join(","), "--runs", "3"])
            .current_dir(root.join("python")),
        "timing TorchLens",
    )?;
    let scratch = root.join("target").join("bench-out");
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    // tl-draw in process (same footing as TorchLens's in-memory trace), timed by a release
    // build of this task.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let in_process = stdout_of(
        Command::new(cargo)
            .args([
                "run",
                "--quiet",
                "--release",
                "-p",
                "xtask",
                "--",
                "time-draws",
            ])
            .args(COMPARED)
            .current_dir(&root),
        "timing tl-draw in process",
    )?;
    let ours_in_process = |name: &str, mode: &str| {
        in_process.lines().find_map(|line| {
            let mut fields = line.split('\t');
            let matches = fields.next() == Some(name) && fields.next() == Some(mode);
            matches
                .then(|| fields.next()?.parse::<f64>().ok())
                .flatten()
        })
    };
    println!(
        "| model | collapse | TorchLens 2.36.1 `draw` | tl-draw `draw` (in process) | speed-up | target | \
         tl-draw program (start to exit) |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut missed = Vec::new();
    for line in torchlens.lines() {
        let result: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("unexpected adapter output {line:?}: {e}"))?;
        let (Some(name), Some(mode), Some(seconds)) = (
            result["name"].as_str(),
            result["collapse"].as_str(),
            result["seconds"].as_f64(),
        ) else {
            return Err(format!("unexpected adapter output {line:?}"));
        };
        let trace = root.join("fixtures").join(format!("{name}.json"));
        let svg = scratch.join(format!("{name}_{mode}.svg"));
        let args = [
            "draw",
            &trace.to_string_lossy(),
            "--collapse",
            mode,
            "-o",
            &svg.to_string_lossy(),
        ]
        .map(str::to_owned);
        let arguments: Vec<&str> = args.iter().map(String::as_str).collect();
        let (program_time, _) = measure(&program, &arguments)?;
        let ours = ours_in_process(name, mode)
            .ok_or_else(|| format!("no in-process timing of {name} at {mode}"))?;
        let speedup = seconds / ours;
        let target = TARGETS
            .iter()
            .find(|(m, _)| *m == mode)
            .map_or(1.0, |(_, t)| *t);
        if speedup < target {
            missed.push(format!("{name} at {mode} ({speedup:.1}x)"));
        }
        println!(
            "| {name} | {mode} | {} | {} | {speedup:.1}x | {target:.0}x | {} |",
            milliseconds(Duration::from_secs_f64(seconds)),
            milliseconds(Duration::from_secs_f64(ours)),
            milliseconds(program_time)
        );
    }
    if missed.is_empty() {
        Ok(())
    } else {
        Err(format!("below the speed-up target: {}", missed.join(", ")))
    }
}

/// What `command` printed, or why it failed.
fn stdout_of(command: &mut Command, what: &str) -> Result<String> {
    let output = command
        .output()
        .map_err(|e| format!("{what}: cannot start {command:?}: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!(
            "{what} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// `time-draws NAME ...` (run by `bench-compare` in a release build): for each fixture and
/// collapse mode, the median seconds of `draw` + SVG render + file write from the loaded
/// trace, as `name<TAB>mode<TAB>seconds` lines.
pub fn time_draws(names: &[String]) -> Result<()> {
    let root = repo_root();
    let scratch = root.join("target").join("bench-out");
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    for name in names {
        let path = root.join("fixtures").join(format!("{name}.json"));
        let trace = Trace::load(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (mode, collapse) in [("none", Collapse::None), ("auto", Collapse::Auto)] {
            let options = DrawOptions::default().collapse(collapse);
            let svg = scratch.join(format!("{name}_{mode}_in_process.svg"));
            let mut times: Vec<f64> = (0..RUNS)
                .map(|_| {
                    let start = Instant::now();
                    draw(&trace, &options)
                        .and_then(|drawing| drawing.write(&svg, None))
                        .map_err(|e| format!("{name}: {e}"))?;
                    Ok(start.elapsed().as_secs_f64())
                })
                .collect::<Result<_>>()?;
            times.sort_by(f64::total_cmp);
            println!("{name}\t{mode}\t{}", times[RUNS / 2]);
        }
    }
    Ok(())
}
