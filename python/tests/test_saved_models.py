"""Saved models drawn with the same call as a trace: a ``torch.export`` program (live, or saved
as ``.pt2``) and an ONNX file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch

import tl_draw
from tl_export import models
from tl_export.exported import export_program

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def program() -> Any:
    torch.manual_seed(0)
    model = models.ConvNet().eval()  # type: ignore[no-untyped-call]
    return torch.export.export(model, (torch.randn(1, 3, 8, 8),))


def test_an_exported_program_draws_as_a_trace_does(program: Any, tmp_path: Path) -> None:
    drawing = tl_draw.draw(program, tmp_path / "convnet.svg", depth=2)
    svg = (tmp_path / "convnet.svg").read_text()
    assert "torch.export (torch " in svg and "a saved graph, no run recorded" in svg
    assert "@features.0" in svg and "ConvBlock" in svg
    calls = [node for node in program.graph.nodes if node.op == "call_function"]
    document = export_program(program)
    assert document["summary"]["num_ops"] == len(calls)
    # Parameters from the graph signature; the batch norms' running statistics are buffers.
    model_params = sum(p.numel() for p in program.parameters())
    assert document["summary"]["num_params"] == model_params
    assert {m["address"]: m["class_name"] for m in document["modules"]}["features.0.conv"] == "Conv2d"
    assert "@features.0" in drawing.dot


class Tied(torch.nn.Module):
    """A head sharing its weight with the embedding, as GPT-2's does."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = torch.nn.Embedding(10, 4)
        self.head = torch.nn.Linear(4, 10, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.head(self.embed(ids))
        return logits


def test_a_tied_weight_is_one_parameter() -> None:
    program = torch.export.export(Tied(), (torch.tensor([[1, 2, 3]]),))
    document = export_program(program)
    assert document["summary"]["num_params"] == 40
    assert [p["address"] for p in document["params"]] == ["embed.weight"]


def test_a_saved_pt2_archive_draws(program: Any, tmp_path: Path) -> None:
    archive = tmp_path / "convnet.pt2"
    torch.export.save(program, archive)
    drawing = tl_draw.draw(archive, collapse="auto")
    assert "ConvNet" in drawing.dot


def test_an_onnx_file_draws_with_the_same_call(tmp_path: Path) -> None:
    drawing = tl_draw.draw(FIXTURES / "onnx" / "gpt2_small.onnx", tmp_path / "gpt2.pdf", collapse="auto")
    assert (tmp_path / "gpt2.pdf").stat().st_size > 0
    assert "@gpt2.transformer.h.11" in drawing.dot


def test_resnet18_exported_has_the_modules_and_operations_of_its_torchlens_trace() -> None:
    """The same model through TorchLens and through torch.export: the same modules (with
    their classes) run something, and as many operations are drawn."""
    import torchlens as tl
    import torchvision  # type: ignore[import-untyped]

    from tl_export import export_trace

    torch.manual_seed(0)
    model = torchvision.models.resnet18().eval()
    x = torch.randn(1, 3, 224, 224)
    with torch.no_grad():
        traced = export_trace(tl.trace(model, x), model=model)
    exported = export_program(torch.export.export(model, (x,)))

    def ran(document: dict[str, Any]) -> dict[str, str]:
        called = {call["address"] for call in document["module_calls"]}
        return {m["address"]: m["class_name"] for m in document["modules"] if m["address"] in called}

    assert ran(exported) == ran(traced)
    assert exported["summary"]["num_ops"] == traced["summary"]["num_ops"] == 69
    assert exported["summary"]["num_params"] == traced["summary"]["num_params"]


def test_both_branches_of_a_torch_cond_are_drawn_in_frames(tmp_path: Path) -> None:
    """Exported in a fresh interpreter and drawn from its ``.pt2``: once TorchLens has wrapped
    torch's functions in a process (the guide's tests trace with it), Dynamo can no longer
    trace ``torch.cond``'s branches there."""
    import subprocess
    import sys

    from tl_export.onnx_models import Gate

    archive = tmp_path / "gate.pt2"
    code = (
        "import torch\n"
        "from tl_export.onnx_models import Gate\n"
        "torch.manual_seed(0)\n"
        f"torch.export.save(torch.export.export(Gate().eval(), (torch.randn(2, 16),)), {str(archive)!r})\n"
    )
    python_dir = str(Path(__file__).resolve().parents[1])
    subprocess.run([sys.executable, "-c", code], check=True, cwd=python_dir)
    document = export_program(torch.export.load(str(archive)))
    ops = {op["label"]: op for op in document["ops"]}
    frames = {call["label"] for call in document["module_calls"]}
    assert {"cond.true_graph_0:1", "cond.false_graph_0:1"} <= frames
    cond = next(op for op in document["ops"] if op["layer_type"] == "cond")
    assert [ops[p]["layer_type"] for p in cond["parents"]] == ["gt", "input", "relu", "tanh"]
    assert "params" not in cond, "the branches use the parameters the cond hands on"
    assert document["summary"]["num_params"] == sum(p.numel() for p in Gate().parameters())
    drawing = tl_draw.draw(archive)
    assert "@cond.true_graph_0" in drawing.dot and "@cond.false_graph_0" in drawing.dot


@pytest.mark.parametrize(
    ("name", "blocks"), [("GPT2Logits", "gpt2.transformer.h."), ("BertHidden", "bert.encoder.layer.")]
)
def test_language_models_exported_fold_into_their_blocks(name: str, blocks: str) -> None:
    """GPT-2 small and BERT-base through ``torch.export``: ``auto`` is inside the readable
    band and boxes each of the twelve blocks, as their TorchLens traces do."""
    from tl_export import onnx_models

    torch.manual_seed(0)
    model = getattr(onnx_models, name)().eval()
    program = torch.export.export(model, (torch.randint(0, 1000, (1, 16)),))
    drawing = tl_draw.draw(program, collapse="auto")
    titles = [line for line in drawing.dot.splitlines() if "<B>@" + blocks in line]
    assert len(titles) == 12, titles
    drawn = next(stop for stop in drawing.collapse_schedule if stop.is_drawn)
    assert drawn.nodes <= 25
