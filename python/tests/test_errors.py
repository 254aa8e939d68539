"""Errors as a Python user meets them: remedies in Python's spelling, file-system failures as
``OSError`` subclasses naming the user's path, every keyword value checked when ``draw()`` is
called, TorchLens's own field names, pictures of ``trace.annotate``, and edits."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
import torchlens as tl
from PIL import Image

import tl_draw
from tl_export import models

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def convnet() -> object:
    torch.manual_seed(0)
    return tl.trace(models.ConvNet().train(), torch.randn(1, 3, 8, 8))


def fresh_convnet() -> object:
    torch.manual_seed(0)
    return tl.trace(models.ConvNet().train(), torch.randn(1, 3, 8, 8))


def test_remedies_name_keywords_not_flags(convnet: object) -> None:
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(
            FIXTURES / "real" / "densenet121.json",
            max_layout_cost=10_000,
            layout_engine="embedded",
        )
    message = str(raised.value)
    assert raised.value.code == "layout_too_large"
    assert "--" not in message, message
    remedies = ('layout_engine="layered"', 'collapse="auto"', "depth=2", 'module="<address>"', "force=True")
    for remedy in remedies:
        assert remedy in message, message
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(convnet, module="no.such.module")
    assert "tl-draw check" not in str(raised.value)
    assert "trace.modules" in str(raised.value)
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(convnet, color_by="no_such_field")
    assert "Rust" not in str(raised.value) and "function of the node" in str(raised.value)


def test_file_failures_are_os_errors_naming_the_users_path(tmp_path: Path) -> None:
    blocking = tmp_path / "a-file"
    blocking.write_text("x")
    wanted = blocking / "model.pdf"
    with pytest.raises(NotADirectoryError) as raised:
        tl_draw.draw(FIXTURES / "convnet.json", wanted)
    assert raised.value.filename == str(wanted)
    assert raised.value.code == "trace_write_failed"  # type: ignore[attr-defined]
    assert "is a file, not a folder" in str(raised.value) and ".tmp" not in str(raised.value)
    missing = tmp_path / "missing.json"
    with pytest.raises(FileNotFoundError) as raised_read:
        tl_draw.draw(missing)
    assert raised_read.value.filename == str(missing)
    assert raised_read.value.code == "trace_read_failed"  # type: ignore[attr-defined]
    with pytest.raises(IsADirectoryError):
        tl_draw.draw(tmp_path)


def test_a_missing_output_folder_is_created_as_torchlens_does(tmp_path: Path) -> None:
    target = tmp_path / "new" / "folder" / "model.svg"
    tl_draw.draw(FIXTURES / "convnet.json", target)
    assert target.read_bytes().startswith(b"<?xml")


def test_every_keyword_value_is_checked_when_draw_is_called(convnet: object) -> None:
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(convnet, file_format="docx")
    assert raised.value.code == "file_format_invalid"
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(convnet, dpi=-3)
    assert raised.value.code == "dpi_invalid"


def test_torchlens_field_names_colour_and_size_nodes(convnet: object) -> None:
    for ours, theirs in (("time", "func_duration"), ("bytes", "tensor_fsize"), ("bytes", "activation_memory")):
        assert "#" in tl_draw.draw(convnet, color_by=theirs).dot
        assert tl_draw.draw(convnet, size_by=theirs).dot == tl_draw.draw(convnet, size_by=ours).dot
    dot = tl_draw.draw(convnet, color_by="num_params").dot
    assert "num_params" in dot


def test_a_pil_image_annotated_is_drawn_once_installed(tmp_path: Path) -> None:
    picture = Image.new("RGB", (24, 12), (200, 30, 30))
    trace = fresh_convnet()
    label = next(op.label for op in trace.ops if op.label.startswith("conv2d"))  # type: ignore[attr-defined]
    trace.annotate(label, image=picture)  # type: ignore[attr-defined]
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(trace)
    assert raised.value.code == "annotation_picture_unreadable"
    assert label in str(raised.value) and "tl_draw.install()" in str(raised.value)
    tl_draw.install()
    try:
        trace = fresh_convnet()
        trace.annotate(label, image=picture)  # type: ignore[attr-defined]
        drawing = tl_draw.draw(trace)
        assert "<IMG" in drawing.dot
        png = drawing.render("png")
        assert png.startswith(b"\x89PNG")
        trace.annotate(label, image=str(tmp_path / "gone.png"))  # type: ignore[attr-defined]
        with pytest.raises(tl_draw.DrawError) as raised:
            tl_draw.draw(trace)
        assert label in str(raised.value) and "No such file" in str(raised.value)
    finally:
        tl_draw.uninstall()


def test_edit_refusals_name_the_capture_option(convnet: object) -> None:
    for keywords in ({"show_cone": True}, {"view": "interventions"}):
        with pytest.raises(tl_draw.DrawError) as raised:
            tl_draw.draw(convnet, **keywords)
        assert raised.value.code == "surgery_evidence_missing"
        assert "CaptureOptions(intervention_ready=True)" in str(raised.value)


def test_a_saved_onnx_model_draws_and_a_damaged_one_is_a_coded_error(tmp_path: Path) -> None:
    """``tl_draw.draw("model.onnx")``: the graph of a saved model, drawn as a trace is; a
    damaged file raises ``DrawError`` (a ``ValueError``) with the reader's code."""
    out = tmp_path / "gpt2.svg"
    tl_draw.draw(FIXTURES / "onnx" / "gpt2_small.onnx", out, collapse="auto")
    svg = out.read_text()
    assert "@gpt2.transformer.h.11" in svg and "ONNX opset 20" in svg
    damaged = tmp_path / "damaged.onnx"
    damaged.write_bytes((FIXTURES / "onnx" / "resnet18.onnx").read_bytes()[:5000])
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(damaged, tmp_path / "never.svg")
    assert raised.value.code == "onnx_truncated"
    assert isinstance(raised.value, ValueError)
    assert not (tmp_path / "never.svg").exists()


def test_the_layered_engine_draws_and_an_unknown_engine_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "convnet.svg"
    tl_draw.draw(FIXTURES / "convnet.json", out, layout_engine="layered")
    assert "conv2d_1_1" in out.read_text()
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(FIXTURES / "convnet.json", tmp_path / "x.svg", layout_engine="fast")  # type: ignore[arg-type]
    assert raised.value.code == "layout_engine_invalid"
    assert "'layered'" in str(raised.value)
