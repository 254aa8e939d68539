"""Build every committed fixture: real traces of real models, plus TorchLens's own DOT.

``python -m tl_export fixtures OUT_DIR`` (what ``cargo xtask fixtures`` runs) writes
``OUT_DIR/<name>.json`` for each fixture and, when the Graphviz ``dot`` program is present,
``OUT_DIR/reference/<name>.dot``: the DOT source of TorchLens 2.36.1's default drawing of
the same trace (``<name>.backward.dot`` too for traces with a backward pass).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import torch
import torchlens as tl
from torchlens.options import CaptureOptions

from . import models
from .bundle import export_bundle
from .convert import export_trace
from .files import write_json, write_text

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))
PHOTO = os.path.join(HERE, "assets", "photo.jpg")


@dataclass
class Fixture:
    """One fixture: what the build returns is a trace (with an optional clean parent) or a bundle."""

    name: str
    description: str
    build: Callable[[], dict[str, Any]]


def _trace(model: torch.nn.Module, x: Any, **capture: Any) -> dict[str, Any]:
    """Traces ``model`` on ``x``; the model is kept so uncalled modules can be named."""
    trace = tl.trace(model, x, capture=CaptureOptions(**capture) if capture else None)
    return {"trace": trace, "model": model}


def _convnet() -> dict[str, Any]:
    torch.manual_seed(0)
    model = models.ConvNet().train()
    return _trace(model, torch.randn(1, 3, 8, 8))


def _branch(sign: float) -> Callable[[], dict[str, Any]]:
    def build() -> dict[str, Any]:
        torch.manual_seed(0)
        x = torch.rand(2, 4) * sign
        return _trace(models.Branching(), x)

    return build


def _recurrent() -> dict[str, Any]:
    torch.manual_seed(0)
    return _trace(models.Recurrent(), torch.randn(2, 4))


def _long_loop() -> dict[str, Any]:
    torch.manual_seed(0)
    return _trace(models.LongLoop(), torch.randn(2, 4))


def _cell_loop() -> dict[str, Any]:
    torch.manual_seed(0)
    return _trace(models.CellLoop(), torch.randn(3, 2, 4))


def _stack(blocks: int) -> Callable[[], dict[str, Any]]:
    def build() -> dict[str, Any]:
        torch.manual_seed(0)
        return _trace(models.Stack(blocks).eval(), torch.randn(2, 4))

    return build


def _frozen() -> dict[str, Any]:
    torch.manual_seed(0)
    return _trace(models.PartlyFrozen(), torch.randn(2, 8))


def _custom_buffer() -> dict[str, Any]:
    torch.manual_seed(0)
    return _trace(models.Scaled(), torch.randn(2, 4))


def _edited_pair() -> dict[str, Any]:
    torch.manual_seed(0)
    built = _trace(models.TwoLayer(), torch.randn(2, 8), intervention_ready=True)
    edited = built["trace"].fork()
    edited.do(tl.module("fc1"), tl.zero_ablate())
    return {"trace": edited, "clean": built["trace"], "model": built["model"]}


def _edited() -> dict[str, Any]:
    return _edited_pair()


def _edited_clean() -> dict[str, Any]:
    built = _edited_pair()
    return {"trace": built["clean"], "model": built["model"]}


def _backward(passes: int) -> Callable[[], dict[str, Any]]:
    def build() -> dict[str, Any]:
        torch.manual_seed(0)
        built = _trace(models.TwoLayer(), torch.randn(2, 8), save_grads=True)
        trace = built["trace"]
        out = trace["output_1"].out
        if passes == 1:
            trace.backward(out.sum())
        else:
            trace.backward(out.sum(), retain_graph=True)
            trace.backward((out**2).sum())
        return built

    return build


def _bundle() -> dict[str, Any]:
    torch.manual_seed(0)
    model = models.TwoLayer()
    x = torch.randn(2, 8)
    members = []
    for name, inputs in (("clean", x), ("noisy", x + 0.25 * torch.randn(2, 8))):
        trace = _trace(model, inputs, save_grads=True)["trace"]
        trace.backward(trace["output_1"].out.sum())
        members.append((name, trace))
    return {"bundle": members, "model": model}


def ensure_photo() -> str:
    """A deterministic synthetic 'photo' (sky, sun, hills), generated once and committed."""
    if not os.path.exists(PHOTO):
        from PIL import Image, ImageDraw

        os.makedirs(os.path.dirname(PHOTO), exist_ok=True)
        image = Image.new("RGB", (96, 64), (135, 190, 235))
        draw = ImageDraw.Draw(image)
        draw.ellipse((62, 8, 82, 28), fill=(250, 215, 80))
        draw.polygon([(0, 64), (0, 40), (30, 28), (60, 44), (96, 34), (96, 64)], fill=(70, 140, 70))
        draw.rectangle((20, 44, 34, 58), fill=(150, 90, 60))
        image.save(PHOTO, format="JPEG", quality=90)
    return PHOTO


def _to_pixels(images: Any, return_tensors: str = "pt") -> torch.Tensor:
    """A minimal image processor: PIL image(s) to a float batch in [0, 1]."""
    import numpy as np

    images = images if isinstance(images, list) else [images]
    arrays = [np.asarray(image.convert("RGB"), dtype=np.float32) / 255.0 for image in images]
    return torch.from_numpy(np.stack(arrays)).permute(0, 3, 1, 2).contiguous()


def _photo() -> dict[str, Any]:
    """Node content: the photo's thumbnail on the input, a note on the convolution, the
    ReLU's feature maps inside its node, and decoded class names on the output (the model's
    config names its classes, as Hugging Face classifiers do)."""
    from PIL import Image

    torch.manual_seed(0)
    model = models.TinyCNN().eval()
    model.image_processor = _to_pixels
    model.config = SimpleNamespace(id2label={0: "landscape", 1: "portrait", 2: "abstract"}, num_labels=3)
    trace = tl.trace(model, Image.open(ensure_photo()))
    trace.annotate("conv2d_1_1", data={"note": "stem: stride 2"})
    return {"trace": trace, "model": model, "feature_maps": ["relu_1_2"]}


def _control_flow() -> dict[str, Any]:
    torch.manual_seed(0)
    return _trace(models.ControlFlow(), torch.randn(2, 4) * 3)


def _gpt2() -> dict[str, Any]:
    torch.manual_seed(0)
    model = models.GPT2LMHeadModel().eval()
    return _trace(model, torch.randint(0, 64, (1, 8)))


def _resnet18() -> dict[str, Any]:
    from torchvision.models import resnet18

    torch.manual_seed(0)
    model = resnet18(weights=None).eval()
    return _trace(model, torch.randn(1, 3, 64, 64))


FIXTURES = [
    Fixture("convnet", "two ConvBlocks with train-mode batch norms (the guide's first drawing)", _convnet),
    Fixture("branch_true", "if x.mean() > 0 taken: relu(pos(x))", _branch(1.0)),
    Fixture("branch_false", "if x.mean() > 0 not taken: -neg(x)", _branch(-1.0)),
    Fixture("recurrent", "one cell run three times", _recurrent),
    Fixture("long_loop", "a cell run twenty times: too long to read pass by pass", _long_loop),
    Fixture("cell_loop", "an LSTMCell over three steps fed its own (h, c): a leaf with two outputs", _cell_loop),
    Fixture("stack8", "8 residual blocks (layer norm + MLP + add)", _stack(8)),
    Fixture("stack40", "40 residual blocks", _stack(40)),
    Fixture("frozen", "a frozen layer and a layer with frozen weight, trainable bias", _frozen),
    Fixture("custom_buffer", "a custom buffer read in forward", _custom_buffer),
    Fixture("edited_clean", "fc1 -> relu -> fc2, the clean parent of `edited`", _edited_clean),
    Fixture("edited", "zero_ablate on fc1, on a fork of `edited_clean`", _edited),
    Fixture("backward", "fc1 -> relu -> fc2 with one backward pass and saved gradients", _backward(1)),
    Fixture("backward_twice", "the same with two backward passes", _backward(2)),
    Fixture("bundle", "two members: one input and a noisy copy, with gradients", _bundle),
    Fixture("photo", "a small CNN traced from a photo", _photo),
    Fixture(
        "control_flow", "while, conditional expression, assert, if and comprehension filter on tensors", _control_flow
    ),
    Fixture("gpt2", "a GPT-2-style transformer with 2 attention blocks", _gpt2),
    Fixture("resnet18", "torchvision ResNet-18, eval mode, 64x64 input", _resnet18),
]


def reference_dot(trace: Any, backward: bool = False, collapse: str = "none") -> str:
    """TorchLens 2.36.1's own DOT source of the default drawing, or of ``collapse="auto"`` /
    ``"max"`` (needs Graphviz's ``dot``)."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "reference")
        if backward:
            source = trace.draw_backward(vis_outpath=path, vis_save_only=True, vis_fileformat="svg")
        else:
            source = trace.draw(vis_outpath=path, vis_save_only=True, vis_fileformat="svg", collapse=collapse)
    return str(source)


#: The collapsed levels whose TorchLens drawings are kept beside each real architecture's
#: default one (``reference/<name>.<level>.dot``).
REFERENCE_LEVELS = ("auto", "max")


def build(out_dir: str, names: list[str] | None = None) -> list[str]:
    """Builds the fixtures named (all by default) into ``out_dir``; returns the files written."""
    warnings.filterwarnings("ignore")
    with_reference = shutil.which("dot") is not None
    written = []
    for fixture in FIXTURES:
        if names and fixture.name not in names:
            continue
        built = fixture.build()
        path = os.path.join(out_dir, f"{fixture.name}.json")
        if "bundle" in built:
            write_json(export_bundle(built["bundle"], source_root=REPO_ROOT, model=built["model"]), path)
            reference_trace = built["bundle"][0][1]
        else:
            trace = built["trace"]
            document = export_trace(
                trace,
                clean=built.get("clean"),
                source_root=REPO_ROOT,
                model=built["model"],
                feature_maps=built.get("feature_maps", ()),
            )
            write_json(document, path)
            reference_trace = trace
        written.append(path)
        if with_reference:
            reference = os.path.join(out_dir, "reference", f"{fixture.name}.dot")
            write_text(reference, reference_dot(reference_trace))
            written.append(reference)
            if reference_trace.has_backward_pass:
                reference = os.path.join(out_dir, "reference", f"{fixture.name}.backward.dot")
                write_text(reference, reference_dot(reference_trace, backward=True))
                written.append(reference)
    if not with_reference:
        print("warning: Graphviz `dot` not found; reference DOT files were not regenerated")
    return written


def build_real(out_dir: str, names: list[str] | None = None) -> list[str]:
    """Traces and exports the real architectures named (all by default) into ``out_dir``."""
    from .real_models import REAL_MODELS, trace_real

    warnings.filterwarnings("ignore")
    with_reference = shutil.which("dot") is not None and shutil.which("neato") is not None
    written = []
    for model in REAL_MODELS:
        if names and model.name not in names:
            continue
        built = trace_real(model.name)
        path = os.path.join(out_dir, f"{model.name}.json")
        write_json(export_trace(built["trace"], source_root=REPO_ROOT, model=built["model"]), path)
        written.append(path)
        if with_reference and model.reference:
            reference = os.path.join(out_dir, "reference", f"{model.name}.dot")
            write_text(reference, reference_dot(built["trace"]))
            written.append(reference)
            written.extend(write_collapsed_references(built["trace"], out_dir, model.name))
    return written


def write_collapsed_references(trace: Any, out_dir: str, name: str) -> list[str]:
    """TorchLens's drawings of ``trace`` at each of ``REFERENCE_LEVELS``, as
    ``reference/<name>.<level>.dot``; returns the files written."""
    written = []
    for level in REFERENCE_LEVELS:
        reference = os.path.join(out_dir, "reference", f"{name}.{level}.dot")
        write_text(reference, reference_dot(trace, collapse=level))
        written.append(reference)
    return written


def build_real_references(out_dir: str, names: list[str] | None = None) -> list[str]:
    """Only TorchLens's collapsed drawings of the real architectures (their traces are
    rebuilt the same way, seed 0, so the graphs are those of the committed traces)."""
    from .real_models import REAL_MODELS, trace_real

    warnings.filterwarnings("ignore")
    written = []
    for model in REAL_MODELS:
        if (names and model.name not in names) or not model.reference:
            continue
        written.extend(write_collapsed_references(trace_real(model.name)["trace"], out_dir, model.name))
    return written
