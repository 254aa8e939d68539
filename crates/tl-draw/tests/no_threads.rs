//! The `tl-draw` program where the system starts no thread: every format is drawn, and the
//! files are those drawn with threads.
//!
//! Run as root (as CI runs), the program is started as `nobody` with a limit of one task
//! (`setpriv`, `prlimit`: util-linux), so every thread it asks for is refused. Elsewhere the
//! limit cannot be set for the program alone, and the test says it was not run.

use std::path::Path;
use std::process::Command;

/// Each file drawn at `auto`, and what in it takes a thread: Mamba's trace is over a quarter
/// of a MiB, so two threads read it, and its PNG is several bands (encoded by another);
/// GPT-2 small's page holds several drawings (laid out by a helper thread).
const DRAWN: [(&str, &str); 4] = [
    ("mamba", "svg"),
    ("mamba", "png"),
    ("mamba", "pdf"),
    ("gpt2_small", "html"),
];

fn root_with_util_linux() -> bool {
    let id = Command::new("id").arg("-u").output();
    let root = id.is_ok_and(|id| String::from_utf8_lossy(&id.stdout).trim() == "0");
    let has = |program: &str| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    root && has("setpriv") && has("prlimit")
}

/// `tl-draw draw NAME.json --collapse auto -o out` in `dir`, with threads or as `nobody`
/// without any.
fn draw(dir: &Path, name: &str, out: &Path, threads: bool) {
    let program = dir.join("tl-draw");
    let mut command = if threads {
        Command::new(&program)
    } else {
        let mut command = Command::new("setpriv");
        command.args(["--reuid=65534", "--regid=65534", "--clear-groups"]);
        command.args(["prlimit", "--nproc=1:1"]);
        command.arg(&program);
        command
    };
    let output = command
        .args(["draw", &format!("{name}.json"), "--collapse", "auto", "-o"])
        .arg(out)
        .current_dir(dir)
        .output()
        .expect("tl-draw runs");
    assert!(
        output.status.success(),
        "{} (threads: {threads}): {}",
        out.display(),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn every_format_is_drawn_the_same_where_no_thread_starts() {
    if !root_with_util_linux() {
        eprintln!("not run: needs root, setpriv and prlimit to refuse the program its threads");
        return;
    }
    // `nobody` runs the program and reads the traces from a folder it can write in (the
    // clone may be in a home folder it cannot enter).
    let dir = tempfile::tempdir().unwrap();
    let open = |path: &Path, mode: u32| {
        let mode = std::os::unix::fs::PermissionsExt::from_mode(mode);
        std::fs::set_permissions(path, mode).unwrap();
    };
    open(dir.path(), 0o777);
    let program = dir.path().join("tl-draw");
    std::fs::copy(env!("CARGO_BIN_EXE_tl-draw"), &program).unwrap();
    open(&program, 0o755);
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/real");
    for (name, _) in DRAWN {
        let trace = dir.path().join(format!("{name}.json"));
        if !trace.exists() {
            std::fs::copy(real.join(format!("{name}.json")), &trace).unwrap();
            open(&trace, 0o644);
        }
    }
    for (name, format) in DRAWN {
        let with = dir.path().join(format!("{name}.threads.{format}"));
        let without = dir.path().join(format!("{name}.none.{format}"));
        draw(dir.path(), name, &with, true);
        draw(dir.path(), name, &without, false);
        let (with, without) = (
            std::fs::read(with).unwrap(),
            std::fs::read(without).unwrap(),
        );
        assert!(!with.is_empty());
        assert!(
            with == without,
            "{name}'s {format} file differs without threads"
        );
    }
}
