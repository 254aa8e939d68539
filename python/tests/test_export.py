"""The adapter on real models: what it exports is complete, consistent and strict JSON."""

from __future__ import annotations

import base64
import io
import json
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch
import torchlens as tl
from PIL import Image

from tl_export import export_bundle, export_trace, files, fixtures
from tl_export.bundle import _metric


def roundtrip(document: dict[str, Any]) -> dict[str, Any]:
    """Strict JSON (no NaN/inf) that survives a dump/load unchanged."""
    text = json.dumps(document, allow_nan=False)
    assert json.loads(text) == document
    return document


def check_consistent(document: dict[str, Any]) -> None:
    """The cross-references tl-trace-model validates, checked on the Python side too."""
    ops = {op["label"]: op for op in document["ops"]}
    assert len(ops) == len(document["ops"]), "labels are unique"
    calls = {call["label"] for call in document["module_calls"]}
    modules = {m["address"] for m in document["modules"]}
    params = {p["address"] for p in document["params"]}
    for op in document["ops"]:
        for parent in op.get("parents", []):
            assert op["label"] in ops[parent].get("children", []), (parent, op["label"])
        for child in op.get("children", []):
            assert op["label"] in ops[child].get("parents", []), (op["label"], child)
        assert set(op.get("modules", [])) <= calls
        assert set(op.get("params", [])) <= params
        assert op["kind"] in ("input", "output", "buffer", "op")
        assert (op["kind"] == "buffer") == ("buffer" in op)
    for m in document["modules"]:
        assert m.get("parent") is None or m["parent"] in modules
        assert set(m.get("children", [])) <= modules
    summary = document["summary"]
    assert summary["num_tensors"] == len(document["ops"])
    assert summary["num_ops"] == sum(op["kind"] == "op" for op in document["ops"])
    assert summary["num_params"] == sum(p["numel"] for p in document["params"])


def trace_of(build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    built = build()
    return export_trace(
        built["trace"],
        clean=built.get("clean"),
        model=built["model"],
        feature_maps=built.get("feature_maps", ()),
    )


def test_convnet_matches_the_guide() -> None:
    document = roundtrip(trace_of(fixtures._convnet))
    check_consistent(document)
    assert document["model"]["class_name"] == "ConvNet"
    assert document["summary"]["num_ops"] == 12
    assert document["summary"]["num_params"] == 1610
    layers = [op["layer_label"] for op in document["ops"] if op["kind"] == "op"]
    assert layers[:4] == ["conv2d_1_1", "add_1_2", "batchnorm_1_3", "relu_1_4"]
    conv = next(op for op in document["ops"] if op["label"] == "conv2d_1_1:1")
    assert conv["args"] == {"out_channels": 8, "in_channels": 3, "kernel_size": [3, 3], "padding": [1, 1]}
    assert conv["params"] == ["features.0.conv.weight", "features.0.conv.bias"]
    assert conv["modules"] == ["features:1", "features.0:1", "features.0.conv:1"]
    assert conv["is_atomic_module"] is True
    assert conv["step_index"] == 1 and conv["type_index"] == 1
    norm = next(op for op in document["ops"] if op["label"] == "batchnorm_1_3:1")
    slots = {tuple(s["arg"]): s["parent"] for s in norm["arg_slots"]}
    assert slots[(3,)].startswith("buffer_") and slots[(0,)] == "conv2d_1_1:1"
    versions = sorted(
        (op["buffer"]["address"], op["buffer"]["version"]) for op in document["ops"] if op["kind"] == "buffer"
    )
    assert ("features.0.bn.running_mean", 2) in versions
    assert all(op["duration_s"] >= 0 for op in document["ops"] if "duration_s" in op)


def test_multi_pass_labels_are_qualified() -> None:
    document = trace_of(fixtures._recurrent)
    check_consistent(document)
    labels = [op["label"] for op in document["ops"]]
    assert "tanh_1_5:3" in labels and "zeroslike_1_1:1" in labels
    add = next(op for op in document["ops"] if op["label"] == "add_1_4:2")
    assert add["parents"] == ["linear_1_2:2", "linear_2_3:2"]
    assert [s["arg"] for s in add["arg_slots"]] == [[0], [1]]


def test_branch_condition_and_then_arm() -> None:
    document = trace_of(fixtures._branch(1.0))
    gt = next(op for op in document["ops"] if op["layer_type"] == "gt")
    assert gt["condition"]["value"] is True and gt["value"] is True
    entry = next(op for op in document["ops"] if op.get("arm_entries"))
    assert entry["arm_entries"][0]["arm"] == "then"
    assert document["conditionals"][0]["line"] > 0
    assert not document["conditionals"][0]["file"].startswith("/"), "paths are made relative"
    # `if x.sum() > 0` turns a tensor into a Python bool: TorchLens's scalar-escape advisory.
    advisory = document["advisories"][0]
    assert advisory["kind"] == "scalar_escape" and advisory["count"] >= 1
    assert not advisory["first_at"].startswith("/"), "paths are made relative"


def test_uncalled_modules_are_rebuilt_with_their_class() -> None:
    document = trace_of(fixtures._stack(3))
    check_consistent(document)
    blocks = next(m for m in document["modules"] if m["address"] == "blocks")
    assert blocks["class_name"] == "ModuleList" and blocks["num_calls"] == 0
    assert blocks["children"] == ["blocks.0", "blocks.1", "blocks.2"]
    assert blocks["num_params"] == sum(p["numel"] for p in document["params"] if p["address"].startswith("blocks."))


def test_edited_fork_exports_edits_and_clean_changes() -> None:
    document = trace_of(fixtures._edited)
    check_consistent(document)
    assert document["edits"]["edits"][0]["helper"] == "zero_ablate"
    assert document["edits"]["edits"][0]["target"] == "module fc1"
    fired_at = [op["label"] for op in document["ops"] if op.get("edits")]
    assert fired_at and document["edits"]["edits"][0]["sites"] == fired_at
    changes = {op["label"]: op.get("clean_max_abs_change") for op in document["ops"]}
    assert changes["input_1:1"] == 0.0 and changes["linear_1_1:1"] > 0.0


def test_backward_exports_grad_fns_and_parameter_targets() -> None:
    document = trace_of(fixtures._backward(1))
    backward = document["backward"]
    labels = {g["label"] for g in backward["grad_fns"]}
    for g in backward["grad_fns"]:
        assert set(g.get("next", [])) <= labels
    targets = {g.get("param") for g in backward["grad_fns"]} - {None}
    assert targets == {"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"}
    grads = [op["grad"] for op in document["ops"] if "grad" in op]
    assert grads and all(g["norm"] >= 0 for g in grads)


def test_photo_becomes_a_png_thumbnail() -> None:
    document = trace_of(fixtures._photo)
    picture = document["ops"][0]["picture"]
    assert picture["source"] == "input_photo"
    image = Image.open(io.BytesIO(base64.b64decode(picture["png_base64"])))
    assert image.format == "PNG" and (image.width, image.height) == (picture["width"], picture["height"])
    assert max(image.size) <= 128


def test_node_content_annotations_feature_maps_and_decoded_labels() -> None:
    document = trace_of(fixtures._photo)
    ops = {op["label"]: op for op in document["ops"]}
    # annotate(data={...}): its entries, not the wrapping "data" key.
    assert ops["conv2d_1_1:1"]["annotations"] == {"note": "stem: stride 2"}
    # The ReLU's four channels as a 2 x 2 grid of 32 x 48 tiles with 1 px gaps.
    picture = ops["relu_1_2:1"]["picture"]
    assert picture["source"] == "visualizer"
    image = Image.open(io.BytesIO(base64.b64decode(picture["png_base64"])))
    assert image.size == (2 * 48 + 3, 2 * 32 + 3)
    # The config's class names, best first, probabilities summing to one.
    decoded = ops["output_1:1"]["decoded_labels"]
    assert [d["label"] for d in decoded] == ["abstract", "portrait", "landscape"]
    assert math.isclose(sum(d["score"] for d in decoded), 1.0, rel_tol=1e-6)


def test_feature_maps_name_a_missing_op_clearly() -> None:
    built = fixtures._photo()
    with pytest.raises(ValueError, match="no op 'conv9'"):
        export_trace(built["trace"], model=built["model"], feature_maps=["conv9"])


def test_bundle_deltas_are_zero_against_itself_and_positive_otherwise() -> None:
    built = fixtures._bundle()
    clean = built["bundle"][0]
    document = roundtrip(export_bundle([clean, ("same", clean[1])], model=built["model"]))
    for table in document["deltas"]:
        assert all(abs(v) < 1e-9 for v in table["values"].values()), table["metric"]
    document = export_bundle(built["bundle"], model=built["model"])
    relative = next(t for t in document["deltas"] if t["metric"] == "relative_l2" and t["on"] == "out")
    assert relative["values"]["input_1:1"] > 0


@pytest.mark.parametrize(
    "metric, a, b, expected",
    [
        ("relative_l2", [3.0, 4.0], [3.0, 0.0], 4.0 / 5.0),
        ("cosine", [1.0, 0.0], [-1.0, 0.0], 2.0),
        ("pearson", [1.0, 2.0, 3.0], [3.0, 2.0, 1.0], 2.0),
        ("pearson", [1.0, 1.0], [1.0, 1.0], 0.0),
        ("relative_l2", [2.0], [3.0], 0.5),
    ],
)
def test_metrics_follow_the_reference_definitions(metric: str, a: Any, b: Any, expected: float) -> None:
    value = _metric(metric, torch.tensor(a, dtype=torch.float64), torch.tensor(b, dtype=torch.float64))
    assert math.isclose(value, expected, rel_tol=1e-9, abs_tol=1e-12)


def test_gpt2_has_attention_modules() -> None:
    document = trace_of(fixtures._gpt2)
    check_consistent(document)
    addresses = {m["address"] for m in document["modules"]}
    assert {"transformer.h.0.attn", "transformer.h.1.attn.c_attn"} <= addresses
    assert any(op["layer_type"] == "scaleddotproductattention" for op in document["ops"])


def test_any_model_exports(tmp_path: Path) -> None:
    """A model the fixtures do not cover: keyword input, a tuple output, a custom dtype."""

    class TwoOut(torch.nn.Module):
        def forward(self, x: torch.Tensor, scale: float = 2.0) -> tuple[torch.Tensor, torch.Tensor]:
            return x * scale, x.to(torch.float64).sum()

    trace = tl.trace(TwoOut(), torch.ones(2, 3))
    document = roundtrip(export_trace(trace))
    check_consistent(document)
    outputs = [op for op in document["ops"] if op["kind"] == "output"]
    assert len(outputs) == 2
    assert {op["io_role"] for op in outputs} == {"output.0", "output.1"}
    path = tmp_path / "two.json"
    files.write_json(document, str(path))
    assert json.loads(path.read_text()) == document


def test_a_torchlens_bundle_exports_like_its_members() -> None:
    built = fixtures._bundle()
    bundle = tl.Bundle(dict(built["bundle"]))
    document = roundtrip(export_bundle(bundle, model=built["model"]))
    assert [m["name"] for m in document["members"]] == ["clean", "noisy"]
    assert document["baseline"] == "clean"
    assert export_bundle(built["bundle"], model=built["model"])["deltas"] == document["deltas"]


def test_time_draw_reports_a_median_per_collapse_mode_and_exports_the_timed_trace(tmp_path: Path) -> None:
    from tl_export.timing import time_draws

    results = list(time_draws(["branch_true"], ["none", "auto"], runs=1, export_dir=str(tmp_path)))
    assert [(r["name"], r["collapse"]) for r in results] == [("branch_true", "none"), ("branch_true", "auto")]
    assert all(r["seconds"] > 0 and r["ops"] > 0 for r in results)
    assert {r["engine"] for r in results} == {"dot"}, "TorchLens lays small drawings out with dot"
    check_consistent(json.loads((tmp_path / "branch_true.json").read_text()))


def test_time_draw_times_the_program_beside_each_torchlens_run(tmp_path: Path) -> None:
    """``program``: run before and after each of TorchLens's runs on the exported trace, with
    the collapse mode and format asked; a failing program stops the timing with its message."""
    from tl_export.timing import time_draws

    calls = tmp_path / "calls.txt"
    program = tmp_path / "program"
    program.write_text(f'#!/bin/sh\necho "$@" >> {calls}\n')
    program.chmod(0o755)
    results = list(
        time_draws(["branch_true"], ["auto"], runs=2, export_dir=str(tmp_path), file_format="pdf", program=str(program))
    )
    assert [(r["format"], r["collapse"]) for r in results] == [("pdf", "auto")]
    assert results[0]["program_seconds"] > 0
    lines = calls.read_text().splitlines()
    assert len(lines) == 4, "two program runs beside each of TorchLens's two"
    for line in lines:
        words = line.split()
        assert words[:5] == ["draw", str(tmp_path / "branch_true.json"), "--collapse", "auto", "--force"]
        assert words[5] == "-o" and words[6].endswith("branch_true_program.pdf")

    program.write_text("#!/bin/sh\necho 'no such option' >&2\nexit 3\n")
    with pytest.raises(RuntimeError, match="failed \\(3\\): no such option"):
        list(time_draws(["branch_true"], ["none"], runs=1, export_dir=str(tmp_path), program=str(program)))


def test_real_architectures_trace_and_export_consistently() -> None:
    """The real-size builder (the benchmarks' and fidelity tests' models): a UNet, quick to
    trace, exports a consistent trace with its four skip joins."""
    from tl_export.real_models import BY_NAME, REAL_MODELS, trace_real

    assert {
        "gpt2_small",
        "gpt2_48",
        "llama_4",
        "llama_32",
        "bert_base",
        "vit_b_16",
        "resnet50",
        "mobilenet_v3_large",
        "densenet121",
        "unet",
    } <= set(BY_NAME)
    assert len({m.name for m in REAL_MODELS}.intersection(f.name for f in fixtures.FIXTURES)) == 0, "names are unique"
    built = trace_real("unet")
    document = roundtrip(export_trace(built["trace"], model=built["model"]))
    check_consistent(document)
    assert sum(op["layer_type"] == "cat" for op in document["ops"]) == 4
    assert {"up1.conv.net", "down4.conv"} <= {m["address"] for m in document["modules"]}


def test_gpt2_with_cache_returns_every_cache_tensor_as_an_output() -> None:
    from tl_export.real_models import GPT2WithCache

    torch.manual_seed(0)
    model = GPT2WithCache(2).eval()
    with torch.no_grad():
        outputs = model(torch.randint(0, 50257, (1, 4)))
    assert len(outputs) == 1 + 2 * 2
    assert outputs[0].shape == (1, 4, 50257)
    assert all(t.shape == (1, 12, 4, 64) for t in outputs[1:])


def test_written_files_are_readable_by_everyone_the_umask_allows(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    files.write_json({"a": 1}, str(path))
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


@pytest.mark.parametrize("name", ["convnet", "bundle", "backward", "gpt2"])
def test_written_json_has_the_canonical_layout(name: str) -> None:
    """The adapter writes the layout `Trace::save` writes, one record per line; only a
    float's spelling may differ (Python's repr against Rust's shortest round-trip digits)."""
    with open(f"{fixtures.REPO_ROOT}/fixtures/{name}.json", encoding="utf-8") as handle:
        committed = handle.read()
    written = files.canonical_json(json.loads(committed)) + "\n"
    lines = list(zip(written.splitlines(), committed.splitlines(), strict=True))
    assert len(lines) > 20
    for ours, theirs in lines:
        if ours != theirs:
            assert json.loads(ours.strip().rstrip(",")) == json.loads(theirs.strip().rstrip(","))


def test_annotation_pictures_png_as_is_others_from_a_png_copy(tmp_path: Path) -> None:
    """The guide: "A PNG file is drawn as it is; any other picture is drawn from a PNG copy"
    (before, every picture was re-encoded as a 128-pixel thumbnail)."""
    png_path = tmp_path / "plot.png"
    Image.new("RGBA", (300, 180), (200, 30, 30, 128)).save(png_path, pnginfo=None)
    jpeg_path = tmp_path / "photo.jpg"
    Image.new("RGB", (260, 140), (30, 90, 200)).save(jpeg_path, quality=90)
    built = fixtures._photo()
    trace = built["trace"]
    trace.annotate("conv2d_1_1", image=str(png_path))
    trace.annotate("linear_1_5", image=str(jpeg_path))
    document = export_trace(trace, model=built["model"])
    ops = {op["label"]: op for op in document["ops"]}
    as_is = ops["conv2d_1_1:1"]["picture"]
    assert as_is["source"] == "annotation"
    assert base64.b64decode(as_is["png_base64"]) == png_path.read_bytes()
    assert (as_is["width"], as_is["height"]) == (300, 180)
    copied = ops["linear_1_5:1"]["picture"]
    copy = Image.open(io.BytesIO(base64.b64decode(copied["png_base64"])))
    assert copy.format == "PNG" and copy.size == (260, 140)
    assert (copied["width"], copied["height"]) == (260, 140)


def _columnar_unet() -> dict[str, Any]:
    """UNet with its row store transposed into columns, as TorchLens stores traces of 512
    ops or more (GPT-2 small, DenseNet-121) once they are finished."""
    from torchlens._trace_core import op_store

    from tl_export.real_models import trace_real

    threshold = op_store._TRANSPOSE_MIN_ROWS
    op_store._TRANSPOSE_MIN_ROWS = 0
    try:
        built = trace_real("unet")
    finally:
        op_store._TRANSPOSE_MIN_ROWS = threshold
    store = op_store.OpRowStore
    assert {type(op._core) is store and op._core._rows is None for op in built["trace"].ops} == {True}
    return built


@pytest.mark.parametrize("reader", ["python", "rust"])
@pytest.mark.parametrize("name", ["unet", "unet_columns", "gpt2_6", "edited", "backward"])
def test_fields_read_ahead_from_the_row_store_are_what_the_ops_say(name: str, reader: str) -> None:
    """The converter reads TorchLens's row store column by column (its cells copied by a
    Python loop, or by the binding's ``fill_column``): every field it reads ahead is exactly
    the attribute's value (or, unset, absent), on real architectures (their store by rows,
    and by columns as for large traces), an edited fork (a copy-on-write view of its
    parent's store) and a trace with gradients, and the whole export is the same as reading
    attribute by attribute."""
    from tl_draw import _native
    from tl_export import convert, row_store
    from tl_export.ops import _CallSites
    from tl_export.real_models import trace_real

    builders = {"edited": fixtures._edited_pair, "backward": fixtures._backward(1), "unet_columns": _columnar_unet}
    trace = builders[name]()["trace"] if name in builders else trace_real(name)["trace"]
    ops = list(trace.ops)
    # Read as TorchLens reads them first: hydrated values are kept in the store (its
    # overlay, in a store by columns), where the read-ahead must find the same ones.
    shared = ("func_config", "parents", "code_context")
    read_before = {at: [getattr(op, field) for field in shared] for at, op in enumerate(ops) if at % 2}
    fast = row_store._prefetched_ops(ops, _native.fill_column if reader == "rust" else None)
    for at, values in read_before.items():
        assert [fast[at].__dict__[field] for field in shared] == values
        assert all(fast[at].__dict__[field] is value for field, value in zip(shared, values, strict=True))
    read_ahead_fields = list(row_store._field_kinds(type(ops[0])) or ())
    assert read_ahead_fields and len(read_ahead_fields) >= 30, (
        "the row store is read ahead (TorchLens internals as expected)"
    )
    # Shared facts, edge-table views and relation views included, not only plain cells.
    assert {"func_config", "code_context", "parents", "_param_logs", "type"} <= set(read_ahead_fields)
    unset = object()
    for op, read_ahead in zip(ops, fast, strict=True):
        for field in read_ahead_fields:
            ahead, plain = read_ahead.__dict__.get(field, unset), getattr(op, field, unset)
            assert ahead == plain, (op.label, field)
            if isinstance(ahead, (list, tuple, dict, set)):
                # A container read ahead is the one the op keeps (hydrated once, per row).
                assert ahead is plain, (op.label, field)
        assert read_ahead.__dict__["layer_type"] == op.layer_type, op.label
        assert read_ahead.__dict__["params"] == list(op.params), op.label
    # The parameters as the accessor yields them, the ops attribute by attribute.
    originals = convert._prefetched_ops, convert.stored_params  # type: ignore[attr-defined]
    try:
        convert._prefetched_ops = lambda ops, fill_column=None: list(ops)  # type: ignore[attr-defined]
        convert.stored_params = lambda trace: list(trace.params)  # type: ignore[attr-defined]
        attribute_by_attribute = export_trace(trace)
    finally:
        convert._prefetched_ops, convert.stored_params = originals  # type: ignore[attr-defined]
    exported = export_trace(trace)
    assert exported == attribute_by_attribute
    # Call sites are read once a frame: each op's are its own frame's.
    unshared = _CallSites(None)
    for op, record in zip(ops, exported["ops"], strict=True):
        frames = (op.code_context or [])[:1]
        assert record.get("call_sites", []) == [site for site in map(unshared._site, frames) if site is not None]


def test_value_stats_can_be_left_out_and_nothing_else_changes() -> None:
    trace = fixtures._convnet()["trace"]
    full = export_trace(trace)
    lean = export_trace(trace, value_stats=False)
    assert any("magnitude" in op for op in full["ops"]) and any("finiteness" in op for op in full["ops"])
    for op in full["ops"]:
        op.pop("magnitude", None)
        op.pop("finiteness", None)
    assert lean == full
