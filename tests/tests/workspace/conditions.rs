//! Every kind of tensor condition TorchLens 2.36.1 records draws, with the guide's IF/THEN
//! wording extended to it, and a kind a later version may write draws as a plain condition
//! (`fixtures/control_flow.json`: a `while` test, a conditional expression, an `assert`, an
//! `if` and a comprehension filter on tensors).

use tl_draw::{draw, DrawOptions, Trace};
use tl_tests::fixtures_dir;

fn control_flow_text() -> String {
    std::fs::read_to_string(fixtures_dir().join("control_flow.json")).unwrap()
}

fn count(dot: &str, row: &str) -> usize {
    dot.matches(&format!("<B>{row}</B>")).count()
}

#[test]
fn every_recorded_kind_of_condition_draws_with_its_word() {
    let trace = Trace::from_json(&control_flow_text()).unwrap();
    let dot = draw(&trace, &DrawOptions::default()).unwrap().dot;
    // Three iterations of the loop, then the test that ended it.
    assert_eq!(count(&dot, "WHILE: TRUE"), 3, "{dot}");
    assert_eq!(count(&dot, "WHILE: FALSE"), 1);
    assert_eq!(count(&dot, "IF (inline): TRUE"), 1);
    assert_eq!(count(&dot, "ASSERT: TRUE"), 1);
    assert_eq!(count(&dot, "IF: TRUE"), 1);
    // One test per element the comprehension filtered.
    assert_eq!(count(&dot, "FILTER: TRUE"), 4);
}

#[test]
fn a_kind_this_version_does_not_know_draws_as_a_condition_and_is_kept() {
    let text = control_flow_text().replacen("\"kind\":\"assert\"", "\"kind\":\"for_else_test\"", 1);
    assert!(
        text.contains("for_else_test"),
        "the fixture has an assert condition"
    );
    let trace = Trace::from_json(&text).unwrap();
    let dot = draw(&trace, &DrawOptions::default()).unwrap().dot;
    assert_eq!(count(&dot, "CONDITION: TRUE"), 1);
    assert_eq!(count(&dot, "ASSERT: TRUE"), 0);
    // Saved back, the trace still names the kind as it was written.
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("saved.json");
    trace.save(&path).unwrap();
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("\"kind\":\"for_else_test\""));
    // A hostile kind name never reaches the drawing.
    let hostile =
        control_flow_text().replacen("\"kind\":\"assert\"", "\"kind\":\"<b>x</b>\\\"]\"", 1);
    let dot = draw(
        &Trace::from_json(&hostile).unwrap(),
        &DrawOptions::default(),
    )
    .unwrap()
    .dot;
    assert!(!dot.contains("<b>x</b>") && count(&dot, "CONDITION: TRUE") == 1);
}

/// A tensor turned into a Python number (`if x.mean() > 0`) is a capture advisory in
/// TorchLens's header; tl-draw draws the same bold line, the place relative to the
/// source root as call sites are (TorchLens writes the machine's absolute path).
#[test]
fn capture_advisories_are_header_lines_as_torchlens_draws_them() {
    for name in ["branch_true", "control_flow"] {
        let text = std::fs::read_to_string(fixtures_dir().join(format!("{name}.json"))).unwrap();
        let dot = draw(&Trace::from_json(&text).unwrap(), &DrawOptions::default())
            .unwrap()
            .dot;
        let reference =
            std::fs::read_to_string(fixtures_dir().join("reference").join(format!("{name}.dot")))
                .unwrap();
        let theirs = &reference[reference.find("<B>capture advisory: ").unwrap() + 3..];
        let theirs = &theirs[..theirs.find("</B>").unwrap()];
        let (what, place) = theirs.split_once(" (first at ").unwrap();
        let file_and_line = place.trim_end_matches(')').rsplit('/').next().unwrap();
        let ours = &dot[dot.find("<B>capture advisory: ").expect("an advisory line") + 3..];
        let ours = &ours[..ours.find("</B>").unwrap()];
        assert!(
            ours.starts_with(&format!("{what} (first at ")),
            "{name}: {ours}"
        );
        assert!(
            ours.ends_with(&format!("/{file_and_line})")),
            "{name}: {ours} vs {theirs}"
        );
    }
    let plain = std::fs::read_to_string(fixtures_dir().join("convnet.json")).unwrap();
    let dot = draw(&Trace::from_json(&plain).unwrap(), &DrawOptions::default())
        .unwrap()
        .dot;
    assert!(!dot.contains("capture advisory"));
}
