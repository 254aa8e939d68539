//! The `tl-draw` program, run as a user runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture(name: &str) -> PathBuf {
    repo().join("fixtures").join(format!("{name}.json"))
}

fn tl_draw(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tl-draw"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("tl-draw runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn draws_svg_and_dot_files() {
    let dir = tempfile::tempdir().unwrap();
    let trace = fixture("convnet");
    let output = tl_draw(
        &["draw", trace.to_str().unwrap(), "-o", "out/convnet.svg"],
        dir.path(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let svg = std::fs::read_to_string(dir.path().join("out/convnet.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("conv2d_1_1") && svg.contains("@features.0"));
    assert!(svg.trim_end().ends_with("</svg>"));

    let output = tl_draw(
        &[
            "draw",
            trace.to_str().unwrap(),
            "-o",
            "convnet.dot",
            "--depth",
            "1",
        ],
        dir.path(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let dot = std::fs::read_to_string(dir.path().join("convnet.dot")).unwrap();
    assert!(dot.starts_with("// Computational graph") && dot.contains("shape=box3d"));
}

/// `--layout-engine layered` draws every format through the layered engine; an unknown
/// engine is refused naming the four.
#[test]
fn the_layered_engine_draws_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let trace = fixture("convnet");
    for name in ["convnet.svg", "convnet.pdf", "convnet.png"] {
        let output = tl_draw(
            &[
                "draw",
                trace.to_str().unwrap(),
                "--layout-engine",
                "layered",
                "-o",
                name,
            ],
            dir.path(),
        );
        assert!(output.status.success(), "{name}: {}", stderr(&output));
        assert!(std::fs::metadata(dir.path().join(name)).unwrap().len() > 1000);
    }
    let svg = std::fs::read_to_string(dir.path().join("convnet.svg")).unwrap();
    assert!(svg.contains("conv2d_1_1") && svg.contains("@features.0"));
    let output = tl_draw(
        &[
            "draw",
            trace.to_str().unwrap(),
            "--layout-engine",
            "fast",
            "-o",
            "x.svg",
        ],
        dir.path(),
    );
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("'auto', 'embedded', 'layered' or 'dot'"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn file_format_overrides_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    let trace = fixture("branch_true");
    let output = tl_draw(
        &[
            "draw",
            trace.to_str().unwrap(),
            "-o",
            "model.png",
            "--file-format",
            "dot",
        ],
        dir.path(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "model.dot");
    assert!(dir.path().join("model.dot").exists());
}

/// Every format the guide's "another Graphviz format" reaches is written under the name
/// asked for; a format tl-draw does not write is refused and nothing is written. Before,
/// `-o x.eps` silently wrote `x.eps.pdf`.
#[test]
fn every_output_format_is_written_under_the_name_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let trace = fixture("convnet");
    let trace = trace.to_str().unwrap();
    let starts: [(&str, &[u8]); 11] = [
        ("pdf", b"%PDF-"),
        ("png", b"\x89PNG"),
        ("svg", b"<?xml"),
        ("svgz", b"\x1f\x8b"),
        ("ps", b"%!PS-Adobe-3.0\n"),
        ("eps", b"%!PS-Adobe-3.0 EPSF-3.0"),
        ("dot", b"// Computational graph"),
        ("json", b"{"),
        ("xdot", b"digraph"),
        ("plain", b"graph "),
        ("html", b"<!DOCTYPE html>"),
    ];
    for (extension, start) in starts {
        let name = format!("model.{extension}");
        let output = tl_draw(&["draw", trace, "-o", &name], dir.path());
        assert!(output.status.success(), "{name}: {}", stderr(&output));
        assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), name);
        let bytes = std::fs::read(dir.path().join(&name)).unwrap();
        assert!(bytes.starts_with(start), "{name} starts {:?}", &bytes[..16]);
    }
    let json = std::fs::read_to_string(dir.path().join("model.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&json).expect("the JSON parses");
    assert!(json["objects"]
        .as_array()
        .is_some_and(|nodes| nodes.len() > 5));
    let plain = std::fs::read_to_string(dir.path().join("model.plain")).unwrap();
    assert!(plain.trim_end().ends_with("stop"));

    let before: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    for (args, what) in [
        (vec!["-o", "model.jpg"], "JPEG"),
        (vec!["-o", "model.gif"], "GIF"),
        (vec!["-o", "model.pdf", "--file-format", "webp"], "WebP"),
    ] {
        let mut full = vec!["draw", trace];
        full.extend(args);
        let output = tl_draw(&full, dir.path());
        assert!(!output.status.success(), "{what}");
        let message = stderr(&output);
        assert!(message.contains("file_format_invalid"), "{message}");
        assert!(
            message.contains(&format!("{what} output is not supported")),
            "{message}"
        );
        assert!(message.contains("pdf, png, svg, svgz, ps, eps, dot, json, xdot, plain, html"));
    }
    let after: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(before.len(), after.len(), "a refused format writes nothing");
}

#[test]
fn invalid_option_values_name_the_code_and_the_choices() {
    let dir = tempfile::tempdir().unwrap();
    let trace = fixture("convnet");
    let cases: [(&[&str], &str, &str); 6] = [
        (
            &["--collapse", "1.5"],
            "collapse_level_invalid",
            "[0.0, 1.0]",
        ),
        (&["--collapse", "lots"], "collapse_mode_invalid", "'auto'"),
        (
            &["--theme", "neon"],
            "visualization_theme_invalid",
            "high_contrast",
        ),
        (
            &["--show-buffers", "some"],
            "buffer_visibility_invalid",
            "'meaningful'",
        ),
        (
            &["--direction", "up"],
            "visualization_direction_invalid",
            "'rightleft'",
        ),
        (
            &["--node-label-fields", "name,colour"],
            "node_label_field_invalid",
            "dtype",
        ),
    ];
    for (args, code, hint) in cases {
        let mut all = vec!["draw", trace.to_str().unwrap(), "-o", "x.svg"];
        all.extend_from_slice(args);
        let output = tl_draw(&all, dir.path());
        assert!(!output.status.success());
        let message = stderr(&output);
        assert!(
            message.contains(&format!("error[{code}]")) && message.contains(hint),
            "{args:?}: {message}"
        );
    }
    assert!(
        !dir.path().join("x.svg").exists(),
        "no output file after a refusal"
    );
}

#[test]
fn views_draw_from_the_command_line_and_passed_flags_win() {
    let dir = tempfile::tempdir().unwrap();
    let trace = fixture("convnet");
    let trace = trace.to_str().unwrap();
    let output = tl_draw(
        &[
            "draw",
            trace,
            "--view",
            "speed",
            "--color-by",
            "bytes",
            "-o",
            "v.dot",
        ],
        dir.path(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let dot = std::fs::read_to_string(dir.path().join("v.dot")).unwrap();
    assert!(dot.contains("view: speed -- where does time go?"));
    assert!(
        dot.contains("bytes: 40 B ... 4 KB"),
        "the passed --color-by wins"
    );
    let output = tl_draw(
        &["draw", trace, "--view", "sequence", "-o", "s.dot"],
        dir.path(),
    );
    assert!(stderr(&output).contains("error[lens_single_pass_no_sequence]"));
    assert!(!dir.path().join("s.dot").exists());
}

#[test]
fn bad_traces_get_clear_errors_and_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("convnet")).unwrap();
    std::fs::write(dir.path().join("cut.json"), &text[..text.len() / 3]).unwrap();
    let output = tl_draw(&["draw", "cut.json", "-o", "cut.svg"], dir.path());
    assert!(
        stderr(&output).contains("error[trace_truncated]"),
        "{}",
        stderr(&output)
    );
    assert!(!dir.path().join("cut.svg").exists());

    // A well-formed file whose op names a parent that does not exist: the drawing
    // validates what the command only read.
    let mut trace: serde_json::Value = serde_json::from_str(&text).unwrap();
    trace["ops"][3]["parents"] = serde_json::json!(["no_such_op"]);
    std::fs::write(dir.path().join("dangling.json"), trace.to_string()).unwrap();
    let output = tl_draw(&["draw", "dangling.json", "-o", "d.svg"], dir.path());
    assert!(
        stderr(&output).contains("error[trace_reference_dangling]")
            && stderr(&output).contains("ops[3].parents[0]"),
        "{}",
        stderr(&output)
    );
    assert!(!dir.path().join("d.svg").exists());

    let output = tl_draw(&["draw", "missing.json", "-o", "m.svg"], dir.path());
    assert!(
        stderr(&output).contains("error[trace_read_failed]")
            && stderr(&output).contains("missing.json")
    );

    let output = tl_draw(
        &["check", "cut.json", fixture("bundle").to_str().unwrap()],
        dir.path(),
    );
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("bundle of 2 members"));
}

/// A saved ONNX model, with nothing but the program: every format, the page, a module
/// focus and the schedule; a damaged file gets its code and no output.
#[test]
fn onnx_models_draw_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let model = repo().join("fixtures").join("onnx").join("gpt2_small.onnx");
    let model = model.to_str().unwrap();
    for (args, out) in [
        (vec!["--collapse", "auto"], "gpt2.pdf"),
        (vec!["--collapse", "auto"], "gpt2.png"),
        (vec![], "gpt2.html"),
        (vec!["--module", "gpt2.transformer.h.3"], "h3.svg"),
    ] {
        let mut all = vec!["draw", model];
        all.extend(args);
        all.extend(["-o", out]);
        let output = tl_draw(&all, dir.path());
        assert!(output.status.success(), "{out}: {}", stderr(&output));
        assert!(std::fs::metadata(dir.path().join(out)).unwrap().len() > 0);
    }
    let focus = std::fs::read_to_string(dir.path().join("h3.svg")).unwrap();
    assert!(focus.contains("gpt2.transformer.h.3"));
    let schedule = tl_draw(&["schedule", model], dir.path());
    assert!(String::from_utf8_lossy(&schedule.stdout).contains("module box @gpt2.transformer.h.11"));
    let check = tl_draw(&["check", model], dir.path());
    assert!(String::from_utf8_lossy(&check.stdout).contains("524 operations"));

    let bytes = std::fs::read(model).unwrap();
    std::fs::write(dir.path().join("cut.onnx"), &bytes[..bytes.len() / 2]).unwrap();
    let output = tl_draw(&["draw", "cut.onnx", "-o", "cut.svg"], dir.path());
    assert!(
        stderr(&output).contains("error[onnx_truncated]"),
        "{}",
        stderr(&output)
    );
    assert!(!dir.path().join("cut.svg").exists());
}

#[test]
fn system_dot_missing_gives_an_install_hint() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_tl-draw"))
        .args([
            "draw",
            fixture("convnet").to_str().unwrap(),
            "-o",
            "x.svg",
            "--layout-engine",
            "dot",
        ])
        .current_dir(dir.path())
        .env("PATH", dir.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("error[graphviz_binary_unavailable]")
            && message.contains("apt install graphviz")
    );
}

#[test]
fn help_lists_the_guide_options() {
    let output = tl_draw(&["draw", "--help"], &repo());
    let help = String::from_utf8_lossy(&output.stdout);
    for flag in [
        "--depth",
        "--collapse",
        "--fold-repeats",
        "--module",
        "--rolled",
        "--view",
        "--graph",
        "--theme",
        "--show-buffers",
        "--direction",
        "--node-label-fields",
        "--node-style",
        "--show-legend",
        "--color-by",
        "--size-by",
        "--show-cone",
        "--show-saved-for-backward",
        "--show-redundant-args",
        "--file-format",
        "--dpi",
        "--layout-engine",
    ] {
        assert!(help.contains(flag), "--help lacks {flag}");
    }
}

#[test]
fn huge_drawings_are_refused_with_remedies_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let trace = fixture("stack40");
    let args = [
        "draw",
        trace.to_str().unwrap(),
        "-o",
        "big.dot",
        "--max-nodes",
        "100",
    ];
    let output = tl_draw(&args, dir.path());
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("error[layout_too_large]") && message.contains("204 nodes"),
        "{message}"
    );
    assert!(
        message.contains("--collapse auto")
            && message.contains("--module")
            && message.contains("--force")
    );
    assert!(!dir.path().join("big.dot").exists());
    let mut forced = args.to_vec();
    forced.push("--force");
    assert!(tl_draw(&forced, dir.path()).status.success());
    let auto = [
        "draw",
        trace.to_str().unwrap(),
        "-o",
        "auto.dot",
        "--max-nodes",
        "100",
        "--collapse",
        "auto",
    ];
    assert!(
        tl_draw(&auto, dir.path()).status.success(),
        "folding brings it under the limit"
    );
}

#[test]
fn colour_and_size_channels_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let trace = fixture("convnet");
    let trace = trace.to_str().unwrap();
    let args = [
        "draw",
        trace,
        "--color-by",
        "time",
        "--size-by",
        "bytes",
        "--size-scale",
        "linear",
        "--show-edge-shapes",
        "-o",
        "enc.svg",
    ];
    let output = tl_draw(&args, dir.path());
    assert!(output.status.success(), "{}", stderr(&output));
    let svg = std::fs::read_to_string(dir.path().join("enc.svg")).unwrap();
    assert!(svg.contains("time: 0.0279 ms ... 0.794 ms"));
    assert!(svg.contains("size: output bytes, 40 B ... 4 KB"));
    assert!(svg.contains("(1, 16, 8, 8)"));
    // A source that names nothing: a coded error, and no file.
    let output = tl_draw(
        &["draw", trace, "--color-by", "latency", "-o", "bad.svg"],
        dir.path(),
    );
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("encoding_source_invalid"),
        "{}",
        stderr(&output)
    );
    assert!(!dir.path().join("bad.svg").exists());
}

#[test]
fn interventions_write_the_census_beside_the_image() {
    let dir = tempfile::tempdir().unwrap();
    let trace = fixture("edited");
    let args = [
        "draw",
        trace.to_str().unwrap(),
        "--view",
        "interventions",
        "-o",
        "e.png",
    ];
    let output = tl_draw(&args, dir.path());
    assert!(output.status.success(), "{}", stderr(&output));
    let census = std::fs::read_to_string(dir.path().join("e.png.census.txt")).unwrap();
    assert!(census.starts_with("interventions census of TwoLayer"));
    let output = tl_draw(
        &[
            "draw",
            trace.to_str().unwrap(),
            "--show-cone",
            "-o",
            "cone.svg",
        ],
        dir.path(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn bundles_and_several_traces_draw_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = fixture("bundle");
    let output = tl_draw(
        &["draw", bundle.to_str().unwrap(), "-o", "diff.dot"],
        dir.path(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let dot = std::fs::read_to_string(dir.path().join("diff.dot")).unwrap();
    assert!(
        dot.contains("relative_l2 on out: 0 ... 0.4457"),
        "a bundle file draws its diff"
    );
    let (a, b) = (fixture("backward"), fixture("backward_twice"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let output = tl_draw(&["draw", a, b, "-o", "union.dot"], dir.path());
    assert!(output.status.success(), "{}", stderr(&output));
    let dot = std::fs::read_to_string(dir.path().join("union.dot")).unwrap();
    assert!(
        dot.contains("[backward, backward_twice]"),
        "several traces draw their union"
    );
    let output = tl_draw(
        &["draw", a, b, "--graph", "diff", "-o", "x.dot"],
        dir.path(),
    );
    assert!(stderr(&output).contains("error[bundle_deltas_missing]"));
    let output = tl_draw(&["draw", a, "--graph", "diff", "-o", "x.dot"], dir.path());
    assert!(stderr(&output).contains("error[bundle_graph_invalid]"));
    assert!(!dir.path().join("x.dot").exists());
}

#[test]
fn an_output_that_is_the_input_is_refused_and_the_trace_kept() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.svg");
    std::fs::copy(fixture("convnet"), &trace).unwrap();
    let before = std::fs::read(&trace).unwrap();
    let output = tl_draw(&["draw", "t.svg", "-o", "t.svg"], dir.path());
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("error[output_is_input]"),
        "{}",
        stderr(&output)
    );
    // The same file by another spelling, and through the extension rule (`t` + `.svg`).
    let output = tl_draw(
        &["draw", "./t.svg", "-o", "t", "--file-format", "svg"],
        dir.path(),
    );
    assert!(
        stderr(&output).contains("error[output_is_input]"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read(&trace).unwrap(),
        before,
        "the trace is untouched"
    );
}

#[test]
fn an_output_folder_or_a_bare_extension_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    let trace = fixture("convnet");
    for output_path in ["out/", "out", "out/.pdf", ".svg"] {
        let output = tl_draw(
            &["draw", trace.to_str().unwrap(), "-o", output_path],
            dir.path(),
        );
        assert!(!output.status.success(), "{output_path}");
        assert!(
            stderr(&output).contains("error[output_path_invalid]"),
            "{output_path}: {}",
            stderr(&output)
        );
    }
    assert_eq!(
        std::fs::read_dir(dir.path().join("out")).unwrap().count(),
        0,
        "nothing written"
    );
    assert!(!dir.path().join(".svg").exists());
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_output_is_written_through_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("real")).unwrap();
    std::fs::write(dir.path().join("real/model.svg"), "old").unwrap();
    std::os::unix::fs::symlink("real/model.svg", dir.path().join("link.svg")).unwrap();
    let trace = fixture("convnet");
    let output = tl_draw(
        &["draw", trace.to_str().unwrap(), "-o", "link.svg"],
        dir.path(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let link = std::fs::symlink_metadata(dir.path().join("link.svg")).unwrap();
    assert!(link.file_type().is_symlink(), "the link stays a link");
    let svg = std::fs::read_to_string(dir.path().join("real/model.svg")).unwrap();
    assert!(
        svg.contains("<svg"),
        "the file it points to holds the drawing"
    );
}

#[test]
fn check_never_prints_a_control_character_from_the_trace() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("branch_true")).unwrap();
    let mut document: serde_json::Value = serde_json::from_str(&text).unwrap();
    // A class name that would turn the terminal red, ring its bell and print the rest
    // reversed (U+202E).
    document["model"]["class_name"] = serde_json::json!("Net\u{1b}[31m\u{7}\u{202e}ten");
    std::fs::write(dir.path().join("t.json"), document.to_string()).unwrap();
    // And an error message quoting a hostile field name.
    std::fs::write(
        dir.path().join("bad.json"),
        text.replacen("\"model\"", "\"mo\\u001b[2Jdel\"", 1),
    )
    .unwrap();
    for file in ["t.json", "bad.json"] {
        let output = tl_draw(&["check", file], dir.path());
        let printed = [output.stdout.as_slice(), output.stderr.as_slice()].concat();
        assert!(
            !printed.contains(&0x1b) && !printed.contains(&0x07),
            "{file}: {}",
            String::from_utf8_lossy(&printed)
        );
        assert!(
            String::from_utf8_lossy(&printed).contains("\\u001b"),
            "{file}: shown escaped"
        );
        assert!(!String::from_utf8_lossy(&printed).contains('\u{202e}'));
    }
    let output = tl_draw(&["check", "t.json"], dir.path());
    assert!(String::from_utf8_lossy(&output.stdout).contains("\\u202eten"));
}

#[test]
fn reads_are_bounded_devices_huge_files_and_non_traces_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // Before: `check /dev/zero` grew to 8 GB and never returned.
    for (args, code) in [
        (vec!["check", "/dev/zero"], "trace_not_a_file"),
        (vec!["draw", "/dev/zero", "-o", "z.svg"], "trace_not_a_file"),
        (vec!["check", "."], "trace_not_a_file"),
    ] {
        let start = std::time::Instant::now();
        let output = tl_draw(&args, dir.path());
        assert!(!output.status.success(), "{args:?}");
        assert!(
            stderr(&output).contains(&format!("error[{code}]")),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "{args:?} returns at once"
        );
    }
    let trace = fixture("convnet");
    let output = tl_draw(
        &[
            "check",
            trace.to_str().unwrap(),
            "--max-trace-bytes",
            "1000",
        ],
        dir.path(),
    );
    assert!(
        stderr(&output).contains("error[trace_too_large]")
            && stderr(&output).contains("--max-trace-bytes"),
        "{}",
        stderr(&output)
    );
    let output = tl_draw(
        &[
            "draw",
            trace.to_str().unwrap(),
            "--max-trace-bytes",
            "1000",
            "-o",
            "c.svg",
        ],
        dir.path(),
    );
    assert!(
        stderr(&output).contains("error[trace_too_large]"),
        "{}",
        stderr(&output)
    );
    assert!(!dir.path().join("c.svg").exists());
    // 64 MiB that cannot be a trace: refused from its first byte, not after parsing it all.
    std::fs::write(dir.path().join("junk.json"), vec![b'x'; 64 << 20]).unwrap();
    let output = tl_draw(&["check", "junk.json"], dir.path());
    assert!(
        stderr(&output).contains("error[trace_json_malformed]")
            && stderr(&output).contains("starts with `{`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn options_that_cannot_apply_are_refused_or_said_never_silently_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let trace = fixture("convnet");
    let trace = trace.to_str().unwrap();
    for flags in [
        vec!["--metric", "cosine"],
        vec!["--on", "grad"],
        vec!["--members", "clean"],
    ] {
        let mut args = vec!["draw", trace, "-o", "c.svg"];
        args.extend(&flags);
        let output = tl_draw(&args, dir.path());
        assert!(!output.status.success(), "{flags:?}");
        assert!(
            stderr(&output).contains("error[bundle_option_without_bundle]")
                && stderr(&output).contains(flags[0]),
            "{flags:?}: {}",
            stderr(&output)
        );
    }
    assert!(!dir.path().join("c.svg").exists());
    let output = tl_draw(&["draw", trace, "-o", "c.svg", "--dpi", "300"], dir.path());
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("warning: --dpi sets the resolution of PNG output"),
        "{}",
        stderr(&output)
    );
    let output = tl_draw(&["draw", trace, "-o", "c.png", "--dpi", "30"], dir.path());
    assert!(!stderr(&output).contains("--dpi"), "{}", stderr(&output));
    // A bundle still takes them.
    let output = tl_draw(
        &[
            "draw",
            fixture("bundle").to_str().unwrap(),
            "-o",
            "b.svg",
            "--metric",
            "cosine",
        ],
        dir.path(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
}

/// The interactive page's data: the JSON in its `tl-data` script.
fn page_data(page: &str) -> serde_json::Value {
    let start = page.find("id=\"tl-data\">").unwrap() + "id=\"tl-data\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

#[test]
fn html_holds_every_schedule_stop_and_is_the_same_file_each_time() {
    let dir = tempfile::tempdir().unwrap();
    let trace = fixture("convnet");
    let trace = trace.to_str().unwrap();
    for name in ["a.html", "b.html"] {
        let output = tl_draw(&["draw", trace, "-o", name], dir.path());
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let page = std::fs::read_to_string(dir.path().join("a.html")).unwrap();
    assert_eq!(
        page,
        std::fs::read_to_string(dir.path().join("b.html")).unwrap()
    );
    let data = page_data(&page);
    let schedule = tl_draw(&["schedule", trace], dir.path());
    let counts: Vec<u64> = String::from_utf8_lossy(&schedule.stdout)
        .lines()
        .filter_map(|line| line.strip_prefix("t="))
        .map(|line| line.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    let stops = data["stops"].as_array().unwrap();
    assert_eq!(
        stops
            .iter()
            .map(|s| s["nodes"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        counts
    );
    let states = data["states"].as_array().unwrap();
    for stop in stops {
        let state = &states[stop["state"].as_u64().unwrap() as usize];
        assert_eq!(state["count"], stop["nodes"], "a stop draws its node count");
    }
    // It opens on auto, unless collapse= says otherwise.
    let auto = stops.iter().find(|s| s["auto"] == true).unwrap();
    assert_eq!(data["start"], 0);
    assert_eq!(auto["state"], 0);
    let output = tl_draw(
        &["draw", trace, "--collapse", "max", "-o", "max.html"],
        dir.path(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let max = page_data(&std::fs::read_to_string(dir.path().join("max.html")).unwrap());
    assert_eq!(max["stops"].as_array().unwrap().last().unwrap()["state"], 0);
    assert!(
        states.len() > stops.len(),
        "boxes open into drawings of their own"
    );
}

#[test]
fn html_of_every_drawing_kind_writes_a_page() {
    let dir = tempfile::tempdir().unwrap();
    for (name, args) in [
        ("backward", vec!["--graph", "backward"]),
        ("backward", vec!["--graph", "combined"]),
        ("recurrent", vec!["--rolled"]),
        ("edited", vec!["--show-cone"]),
        ("bundle", vec!["--graph", "diff"]),
        ("convnet", vec!["--view", "speed"]),
    ] {
        let trace = fixture(name);
        let mut full = vec!["draw", trace.to_str().unwrap()];
        full.extend(&args);
        full.extend(["-o", "page.html"]);
        let output = tl_draw(&full, dir.path());
        assert!(
            output.status.success(),
            "{name} {args:?}: {}",
            stderr(&output)
        );
        let page = std::fs::read_to_string(dir.path().join("page.html")).unwrap();
        let data = page_data(&page);
        assert!(
            !data["states"].as_array().unwrap().is_empty(),
            "{name} {args:?}"
        );
        assert_eq!(data["cone"]["present"], name == "edited", "{name} {args:?}");
    }
}

#[test]
fn a_flag_value_of_the_wrong_kind_is_refused_in_the_flags_spelling() {
    let dir = tempfile::tempdir().unwrap();
    let trace = fixture("convnet");
    let output = tl_draw(
        &[
            "draw",
            trace.to_str().unwrap(),
            "--depth",
            "-1",
            "-o",
            "x.svg",
        ],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("error[keyword_value_invalid]: --depth takes a whole number of at least 0; received the number -1"),
        "{message}"
    );
    assert!(!dir.path().join("x.svg").exists());
}

/// Outputs are files the user owns as they expect (issue 31): a new file follows the umask
/// (before, always 0644), a replaced file keeps its mode (before, a 0600 file became
/// world-readable), and a FIFO at the output path is refused, not replaced by a file.
#[cfg(unix)]
#[test]
fn outputs_follow_the_umask_keep_their_mode_and_only_replace_regular_files() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let program = env!("CARGO_BIN_EXE_tl-draw");
    let convnet = fixture("convnet");
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "umask 077 && '{program}' draw '{}' -o new.svg",
            convnet.display()
        ))
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let mode = |name: &str| {
        std::fs::metadata(dir.path().join(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode("new.svg"), 0o600, "{:o}", mode("new.svg"));
    std::fs::write(dir.path().join("kept.svg"), b"old").unwrap();
    std::fs::set_permissions(
        dir.path().join("kept.svg"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    let convnet = convnet.to_str().unwrap();
    assert!(tl_draw(&["draw", convnet, "-o", "kept.svg"], dir.path())
        .status
        .success());
    assert_eq!(mode("kept.svg"), 0o640, "{:o}", mode("kept.svg"));
    assert!(std::fs::read_to_string(dir.path().join("kept.svg"))
        .unwrap()
        .contains("<svg"));
    let made = Command::new("mkfifo")
        .arg(dir.path().join("pipe.svg"))
        .status()
        .is_ok_and(|s| s.success());
    if made {
        let output = tl_draw(&["draw", convnet, "-o", "pipe.svg"], dir.path());
        assert!(!output.status.success());
        assert!(
            stderr(&output).contains("error[output_path_invalid]"),
            "{}",
            stderr(&output)
        );
        let kind = std::fs::symlink_metadata(dir.path().join("pipe.svg"))
            .unwrap()
            .file_type();
        assert!(kind.is_fifo());
    }
}

/// An interrupted program leaves nothing behind (issue 31): SIGINT and SIGTERM end it as
/// interrupted (exit 130, after removing the temporary file of a write under way), the
/// previous output intact; a write after a SIGKILL removes the dead writer's temporary
/// files, and only the program's own.
#[cfg(unix)]
#[test]
fn interrupted_runs_leave_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let gpt2 = repo().join("fixtures/real/gpt2_small.json");
    std::fs::write(dir.path().join("gpt2.png"), b"previous").unwrap();
    for signal in ["INT", "TERM"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tl-draw"))
            .args([
                "draw",
                gpt2.to_str().unwrap(),
                "--collapse",
                "none",
                "-o",
                "gpt2.png",
            ])
            .current_dir(dir.path())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(700));
        Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "SIG{signal}: {status:?}");
        assert_eq!(
            std::fs::read(dir.path().join("gpt2.png")).unwrap(),
            b"previous"
        );
    }
    // What a SIGKILLed writer leaves, and files that are not the program's.
    let stale = dir.path().join(".tl-draw-4294967295-x1y2z3.tmp");
    let foreign = dir.path().join(".tmpAbCdEf");
    std::fs::write(&stale, b"half").unwrap();
    std::fs::write(&foreign, b"someone else's").unwrap();
    let convnet = fixture("convnet");
    assert!(tl_draw(
        &["draw", convnet.to_str().unwrap(), "-o", "c.svg"],
        dir.path()
    )
    .status
    .success());
    assert!(!stale.exists() && foreign.exists());
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tl-draw-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// On a terminal, a drawing that takes more than a second shows a progress bar on stderr,
/// redrawn in place and erased at the end; into a log it says once that layout began.
/// `script` (util-linux) gives the program a terminal.
#[test]
fn a_long_drawing_shows_a_progress_bar_on_a_terminal_only() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("large.json");
    std::fs::write(
        &trace,
        // Large enough to take well over the bar's second in a test build on a fast machine.
        serde_json::to_vec(&tl_trace_model::synthetic::transformer_of_size(16_000)).unwrap(),
    )
    .unwrap();
    let command = format!(
        "'{}' draw '{}' --collapse none -o large.svg",
        env!("CARGO_BIN_EXE_tl-draw"),
        trace.display()
    );
    let on_terminal = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(dir.path())
        .output()
        .expect("script (util-linux) runs");
    let shown = String::from_utf8_lossy(&on_terminal.stdout);
    assert!(on_terminal.status.success(), "{shown}");
    let bars: Vec<&str> = shown
        .split('\r')
        .filter(|line| line.starts_with("tl-draw ["))
        .collect();
    assert!(
        !bars.is_empty() && bars.iter().all(|bar| bar.contains("% laying out 15,9")),
        "{shown}"
    );
    assert!(
        bars.iter()
            .any(|bar| bar.contains("placing") || bar.contains("writing")),
        "{shown}"
    );
    assert!(shown.contains("\r\u{1b}[K"), "the bar is erased: {shown}");

    let logged = tl_draw(
        &[
            "draw",
            trace.to_str().unwrap(),
            "--collapse",
            "none",
            "-o",
            "again.svg",
        ],
        dir.path(),
    );
    assert!(logged.status.success(), "{}", stderr(&logged));
    let said = stderr(&logged);
    assert!(
        !said.contains('\r') && said.contains("laying out 15"),
        "{said}"
    );
}
