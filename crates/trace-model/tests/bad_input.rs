//! Every kind of bad trace file gets a clear error: a stable code, the JSON path of the bad
//! field and a remedy. The base document is a real fixture, broken one way per test.

use serde_json::{json, Value};
use tl_trace_model::{Bundle, Trace, TraceError};

const BASE: &str = include_str!("../../../fixtures/branch_true.json");
const BUNDLE: &str = include_str!("../../../fixtures/bundle.json");

fn base() -> Value {
    serde_json::from_str(BASE).unwrap()
}

fn load(document: &Value) -> TraceError {
    Trace::from_json(&document.to_string()).expect_err("the broken trace must be refused")
}

/// Asserts the code and that the message contains every fragment.
fn assert_error(error: &TraceError, code: &str, fragments: &[&str]) {
    let message = error.to_string();
    assert_eq!(error.code(), code, "wrong code for: {message}");
    for fragment in fragments {
        assert!(
            message.contains(fragment),
            "message lacks {fragment:?}: {message}"
        );
    }
}

fn op_index(document: &Value, label: &str) -> usize {
    document["ops"]
        .as_array()
        .unwrap()
        .iter()
        .position(|op| op["label"] == label)
        .unwrap()
}

#[test]
fn the_base_document_is_valid() {
    Trace::from_json(BASE).unwrap();
}

#[test]
fn malformed_json_names_line_and_column() {
    let error = Trace::from_json("{\"format\": \"tl-trace\", \"version\": 1,, }").unwrap_err();
    assert_error(
        &error,
        "trace_json_malformed",
        &["line 1, column 37", "re-export"],
    );
}

#[test]
fn truncated_file_is_called_truncated() {
    let cut = &BASE[..BASE.len() / 2];
    let error = Trace::from_json(cut).unwrap_err();
    assert_error(&error, "trace_truncated", &["truncated", "re-export"]);
}

#[test]
fn empty_file_is_truncated() {
    assert_error(
        &Trace::from_json("").unwrap_err(),
        "trace_truncated",
        &["truncated"],
    );
}

#[test]
fn other_format_is_named() {
    let mut document = base();
    document["format"] = json!("onnx");
    assert_error(
        &load(&document),
        "trace_format_unknown",
        &["\"onnx\"", "tl-trace"],
    );
}

#[test]
fn missing_format_is_reported() {
    let mut document = base();
    document.as_object_mut().unwrap().remove("format");
    assert_error(&load(&document), "trace_format_unknown", &["missing"]);
}

#[test]
fn a_json_array_is_not_a_trace() {
    assert_error(
        &Trace::from_json("[1, 2]").unwrap_err(),
        "trace_format_unknown",
        &["not a JSON object"],
    );
}

#[test]
fn future_version_asks_for_an_upgrade() {
    let mut document = base();
    document["version"] = json!(2);
    assert_error(
        &load(&document),
        "trace_version_unsupported",
        &["`version` is 2", "reads version 1", "upgrade"],
    );
}

#[test]
fn wrong_field_type_names_the_json_path() {
    let mut document = base();
    let i = op_index(&document, "linear_1_3:1");
    document["ops"][i]["shape"] = json!("2x4");
    assert_error(
        &load(&document),
        "trace_field_invalid",
        &[&format!("`ops[{i}].shape`"), "expected a sequence"],
    );
}

#[test]
fn missing_required_field_names_the_record() {
    let mut document = base();
    document["ops"][0]
        .as_object_mut()
        .unwrap()
        .remove("layer_label");
    assert_error(
        &load(&document),
        "trace_field_invalid",
        &["`ops[0]`", "missing field `layer_label`"],
    );
}

#[test]
fn unknown_field_is_refused() {
    let mut document = base();
    document["ops"][1]["shapee"] = json!([1]);
    assert_error(
        &load(&document),
        "trace_field_invalid",
        &["`ops[1].shapee`", "unknown field `shapee`"],
    );
}

#[test]
fn unknown_op_kind_lists_the_valid_ones() {
    let mut document = base();
    document["ops"][1]["kind"] = json!("tensor");
    assert_error(
        &load(&document),
        "trace_field_invalid",
        &["`ops[1].kind`", "`input`, `output`, `buffer`, `op`"],
    );
}

#[test]
fn dangling_parent_is_named() {
    let mut document = base();
    let i = op_index(&document, "relu_1_4:1");
    document["ops"][i]["parents"] = json!(["linear_9_9:1"]);
    assert_error(
        &load(&document),
        "trace_reference_dangling",
        &[&format!("`ops[{i}].parents[0]`"), "op 'linear_9_9:1'"],
    );
}

#[test]
fn parents_and_children_must_agree() {
    let mut document = base();
    // relu now claims the input as its parent; linear still claims relu as its child.
    let linear = op_index(&document, "linear_1_3:1");
    let relu = op_index(&document, "relu_1_4:1");
    document["ops"][relu]["parents"] = json!(["input_1:1"]);
    document["ops"][relu]
        .as_object_mut()
        .unwrap()
        .remove("arg_slots");
    assert_error(
        &load(&document),
        "trace_inconsistent",
        &[
            &format!("`ops[{linear}].children[0]`"),
            "does not list it as a parent",
        ],
    );
}

#[test]
fn dangling_module_call_is_named() {
    let mut document = base();
    let i = op_index(&document, "linear_1_3:1");
    document["ops"][i]["modules"] = json!(["ghost:1"]);
    assert_error(
        &load(&document),
        "trace_reference_dangling",
        &["module call 'ghost:1'"],
    );
}

#[test]
fn dangling_parameter_is_named() {
    let mut document = base();
    let i = op_index(&document, "linear_1_3:1");
    document["ops"][i]["params"] = json!(["pos.weigth"]);
    assert_error(
        &load(&document),
        "trace_reference_dangling",
        &[&format!("`ops[{i}].params[0]`"), "parameter 'pos.weigth'"],
    );
}

#[test]
fn duplicate_op_label_is_refused() {
    let mut document = base();
    let copy = document["ops"][1]["label"].clone();
    document["ops"][2]["label"] = copy;
    assert_error(
        &load(&document),
        "trace_label_duplicate",
        &["`ops[2].label`", "op label 'mean_1_1:1'"],
    );
}

#[test]
fn cycle_is_refused() {
    let mut document = base();
    // relu -> linear closes linear -> relu into a loop.
    let linear = op_index(&document, "linear_1_3:1");
    let relu = op_index(&document, "relu_1_4:1");
    document["ops"][relu]["children"]
        .as_array_mut()
        .unwrap()
        .push(json!("linear_1_3:1"));
    document["ops"][linear]["parents"]
        .as_array_mut()
        .unwrap()
        .push(json!("relu_1_4:1"));
    assert_error(
        &load(&document),
        "trace_graph_cyclic",
        &["cycle", "cannot feed an op its own output"],
    );
}

#[test]
fn count_mismatch_names_the_count() {
    let mut document = base();
    document["summary"]["num_ops"] = json!(99);
    assert_error(
        &load(&document),
        "trace_count_mismatch",
        &["`summary.num_ops` says 99", "add up to 4"],
    );
}

#[test]
fn parameter_totals_are_checked() {
    let mut document = base();
    document["summary"]["num_params_frozen"] = json!(1);
    assert_error(
        &load(&document),
        "trace_count_mismatch",
        &["`summary.num_params_frozen`"],
    );
}

#[test]
fn argument_slot_needs_exactly_one_position() {
    let mut document = base();
    let i = op_index(&document, "relu_1_4:1");
    document["ops"][i]["arg_slots"][0]["kwarg"] = json!("input");
    assert_error(
        &load(&document),
        "trace_inconsistent",
        &[
            &format!("`ops[{i}].arg_slots[0]`"),
            "exactly one of `arg` and `kwarg`",
        ],
    );
}

#[test]
fn two_roots_are_refused() {
    let mut document = base();
    document["modules"][1]
        .as_object_mut()
        .unwrap()
        .remove("parent");
    assert_error(
        &load(&document),
        "trace_inconsistent",
        &["`modules`", "exactly one module"],
    );
}

#[test]
fn pass_zero_is_refused() {
    let mut document = base();
    document["ops"][0]["pass_index"] = json!(0);
    assert_error(
        &load(&document),
        "trace_inconsistent",
        &["`ops[0].pass_index`", "passes count from 1"],
    );
}

#[test]
fn names_with_markup_characters_are_plain_data() {
    let mut document = base();
    document["model"]["class_name"] = json!("Net<\"&'>");
    let trace = Trace::from_json(&document.to_string()).unwrap();
    assert_eq!(trace.model.class_name, "Net<\"&'>");
    let again = Trace::from_json(&trace.to_json()).unwrap();
    assert_eq!(again, trace);
}

#[test]
fn missing_file_names_the_path() {
    let error = Trace::load("no/such/trace.json").unwrap_err();
    assert_error(
        &error,
        "trace_read_failed",
        &["no/such/trace.json", "check that the path is right"],
    );
}

#[test]
fn bundle_errors_carry_the_member_path() {
    let mut document: Value = serde_json::from_str(BUNDLE).unwrap();
    document["members"][1]["trace"]["ops"][1]["parents"] = json!(["nowhere:1"]);
    let error = Bundle::from_json(&document.to_string()).unwrap_err();
    assert_error(
        &error,
        "trace_reference_dangling",
        &["`members[1].trace.ops[1].parents[0]`"],
    );
}

#[test]
fn bundle_baseline_must_be_a_member() {
    let mut document: Value = serde_json::from_str(BUNDLE).unwrap();
    document["baseline"] = json!("dirty");
    let error = Bundle::from_json(&document.to_string()).unwrap_err();
    assert_error(
        &error,
        "trace_reference_dangling",
        &["`baseline`", "bundle member 'dirty'"],
    );
}

#[test]
fn a_trace_is_not_a_bundle() {
    let error = Bundle::from_json(BASE).unwrap_err();
    assert_error(
        &error,
        "trace_format_unknown",
        &["\"tl-trace\"", "tl-bundle"],
    );
}

#[test]
fn save_is_atomic_and_leaves_no_temporary_file() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("nested").join("trace.json");
    let trace = Trace::from_json(BASE).unwrap();
    trace.save(&path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), BASE);
    let entries: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
    assert_eq!(entries.len(), 1, "only the trace itself is left behind");
}

#[test]
fn save_into_an_unwritable_place_fails_cleanly() {
    let folder = tempfile::tempdir().unwrap();
    let blocker = folder.path().join("file");
    std::fs::write(&blocker, "not a folder").unwrap();
    let trace = Trace::from_json(BASE).unwrap();
    let error = trace.save(blocker.join("trace.json")).unwrap_err();
    assert_error(&error, "trace_write_failed", &["cannot write", "writable"]);
}

#[test]
fn documents_are_told_apart_by_their_format_field_not_their_layout() {
    let minified = serde_json::to_string(&serde_json::from_str::<Value>(BUNDLE).unwrap()).unwrap();
    assert!(matches!(
        tl_trace_model::Document::from_json(&minified).unwrap(),
        tl_trace_model::Document::Bundle(_)
    ));
    assert!(matches!(
        tl_trace_model::Document::from_json(BASE).unwrap(),
        tl_trace_model::Document::Trace(_)
    ));
    assert_eq!(tl_trace_model::format_of("[1]"), None);
}

#[test]
fn long_record_lists_load_in_order_and_name_a_bad_field_deep_inside() {
    // More than one 4,096-record chunk of ops and of module calls.
    let trace = tl_trace_model::synthetic::transformer_of_size(9_000);
    assert!(trace.ops.len() > 2 * 4096 && trace.module_calls.len() > 4096);
    let text = trace.to_json();
    assert_eq!(Trace::from_json(&text).unwrap(), trace);

    let mut document: Value = serde_json::from_str(&text).unwrap();
    document["ops"][8500]["shape"] = json!("wide");
    assert_error(
        &load(&document),
        "trace_field_invalid",
        &["`ops[8500].shape`", "expected a sequence"],
    );
}

#[test]
fn large_canonical_files_load_from_disk_and_name_a_bad_field() {
    // Large enough to be parsed as it is read, on two threads.
    let trace = tl_trace_model::synthetic::transformer_of_size(9_000);
    let text = trace.to_json();
    assert!(text.len() > 8 << 20);
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("trace.json");
    std::fs::write(&path, &text).unwrap();
    assert!(Trace::load(&path).unwrap() == trace);
    assert!(
        tl_trace_model::Document::load(&path).unwrap()
            == tl_trace_model::Document::Trace(Box::new(trace.clone()))
    );

    // Edits of the canonical text, inside op 8,500 (in the second part): the layout stays
    // canonical, so the file is still parsed as it is read.
    let op = text
        .find(&format!("\"label\":\"{}\"", trace.ops[8500].label))
        .unwrap();
    let edited = |field: &str, value: &str| {
        let at = op + text[op..].find(&format!("\"{field}\":[")).unwrap();
        let end = at + text[at..].find(']').unwrap() + 1;
        format!("{}\"{field}\":{value}{}", &text[..at], &text[end..])
    };
    std::fs::write(&path, edited("shape", "\"wide\"")).unwrap();
    assert_error(
        &Trace::load(&path).unwrap_err(),
        "trace_field_invalid",
        &["`ops[8500].shape`", "expected a sequence"],
    );
    // The file parses; validation names the reference.
    std::fs::write(&path, edited("parents", "[\"no_such_op\"]")).unwrap();
    assert_error(
        &tl_trace_model::Document::load(&path).unwrap_err(),
        "trace_reference_dangling",
        &["ops[8500].parents[0]", "no_such_op"],
    );
    // `read` leaves the cross-references to the caller's validation.
    let read = Trace::read(&path).unwrap();
    assert_eq!(read.ops[8500].parents, ["no_such_op"]);
    assert_error(
        &read.validated().unwrap_err(),
        "trace_reference_dangling",
        &["ops[8500].parents[0]"],
    );
}

#[test]
fn read_checks_the_document_but_not_its_references() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("trace.json");
    let mut document = base();
    let i = op_index(&document, "relu_1_4:1");
    document["ops"][i]["parents"] = json!(["linear_9_9:1"]);
    std::fs::write(&path, document.to_string()).unwrap();
    let read = Trace::read(&path).unwrap();
    assert!(matches!(
        tl_trace_model::Document::read(&path).unwrap(),
        tl_trace_model::Document::Trace(trace) if *trace == read
    ));
    assert_error(
        &Trace::load(&path).unwrap_err(),
        "trace_reference_dangling",
        &[&format!("`ops[{i}].parents[0]`")],
    );
    assert_error(
        &tl_trace_model::Document::load(&path).unwrap_err(),
        "trace_reference_dangling",
        &[&format!("`ops[{i}].parents[0]`")],
    );
    // Types are still checked when read.
    document["ops"][i]["shape"] = json!("wide");
    std::fs::write(&path, document.to_string()).unwrap();
    assert_error(
        &Trace::read(&path).unwrap_err(),
        "trace_field_invalid",
        &[&format!("`ops[{i}].shape`")],
    );
}

#[test]
fn validated_lookups_name_every_record() {
    let trace = Trace::from_json(BASE).unwrap();
    let names = trace.validated().unwrap();
    for (i, op) in trace.ops.iter().enumerate() {
        assert_eq!(names.op(&op.label), Some(i));
    }
    for (i, call) in trace.module_calls.iter().enumerate() {
        assert_eq!(names.call(&call.label), Some(i));
    }
    for (i, param) in trace.params.iter().enumerate() {
        assert_eq!(names.param(&param.address), Some(i));
    }
    for (i, module) in trace.modules.iter().enumerate() {
        assert_eq!(names.module(&module.address), Some(i));
    }
    assert_eq!(names.op("no_such_op"), None);
}

// The module records must form one tree: later stages walk it (the collapse planner
// panicked on a wrong depth and spun forever on a parent cycle, both accepted before).

#[test]
fn a_module_depth_that_is_not_its_tree_depth_is_refused() {
    let mut document = base();
    document["modules"][1]["depth"] = json!(0);
    assert_error(
        &load(&document),
        "trace_inconsistent",
        &["modules[1].depth", "is 0", "1 levels below the root"],
    );
}

#[test]
fn a_module_that_is_its_own_parent_is_refused() {
    let mut document = base();
    document["modules"][1]["parent"] = json!("pos");
    document["modules"][1]["children"] = json!(["pos"]);
    document["modules"][0]["children"] = json!(["neg"]);
    let error = load(&document);
    assert_eq!(error.code(), "trace_inconsistent", "{error}");
    assert!(error.to_string().contains("`pos`"), "{error}");
}

#[test]
fn a_parent_cycle_is_refused() {
    let mut document = base();
    // pos -> neg -> pos, detached from the root.
    document["modules"][0]["children"] = json!([]);
    document["modules"][1]["parent"] = json!("neg");
    document["modules"][1]["children"] = json!(["neg"]);
    document["modules"][2]["parent"] = json!("pos");
    document["modules"][2]["children"] = json!(["pos"]);
    assert_error(
        &load(&document),
        "trace_inconsistent",
        &["not under the root module", "cycle"],
    );
}

#[test]
fn parents_and_children_of_modules_must_agree() {
    let mut document = base();
    // The root lists no children while both modules name it as parent.
    document["modules"][0]["children"] = json!([]);
    assert_error(
        &load(&document),
        "trace_inconsistent",
        &["modules[1].parent", "does not list `pos`"],
    );
    let mut document = base();
    document["modules"][0]["children"] = json!(["pos", "neg", "pos"]);
    assert_error(&load(&document), "trace_inconsistent", &["reached twice"]);
}

#[test]
fn sizes_that_overflow_are_refused_not_wrapped() {
    let mut document = base();
    // 2^32 x 2^32 = 2^64 elements: the product overflows u64.
    document["params"][0]["shape"] = json!([4294967296u64, 4294967296u64]);
    assert_error(
        &load(&document),
        "trace_inconsistent",
        &["params[0].shape", "larger than 2^64"],
    );
    let mut document = base();
    // Each fits, their sum does not (2^63 + 2^63): "108 parameters" before, in release.
    for p in [0, 1] {
        document["params"][p]["shape"] = json!([9223372036854775808u64]);
        document["params"][p]["numel"] = json!(9223372036854775808u64);
    }
    let error = load(&document);
    assert_eq!(error.code(), "trace_inconsistent", "{error}");
    assert!(error.to_string().contains("larger than 2^64"), "{error}");
}

#[test]
fn a_duplicate_top_level_key_is_named_not_called_a_non_object() {
    // Before: "`format` is missing (the file is not a JSON object)".
    let error = Trace::from_json(r#"{"format": "tl-trace", "format": "tl-trace", "version": 1}"#)
        .expect_err("refused");
    assert_error(
        &error,
        "trace_json_malformed",
        &["duplicate field `format`", "line 1"],
    );
}
