"""Every code line of the drawing guide (docs/reference/torchlens-drawing-guide.txt, the
TorchLens user guide page tl-draw implements) runs verbatim after ``tl_draw.install()``, on
traces of the guide's own models made here, and each Drawing shows what the guide says.

The lines are read from the guide itself: a line added to the guide fails
``test_every_code_line_of_the_guide_has_a_case`` until it has a case here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import torch
import torchlens as tl

import tl_draw
from tl_export import models

INTRO = "Reading and drawing TorchLens graphs"
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "torchlens-drawing-guide.txt"

STATEMENT = re.compile(
    r"^(import torchlens as tl|trace = tl\.trace\(.*\)|edited = trace\.fork\(\)"
    r"|(?:trace|edited|bundle)\.[a-z_]+(?:\(.*\)| = .*))(?:\s+#.*)?$"
)
INLINE = re.compile(r"\b(?:trace|edited|bundle)\.draw\((?:[^()]|\([^()]*\))*\)")


def guide_lines() -> Iterator[tuple[str, str]]:
    """``(section, code line)`` for every code line of the guide, in order."""
    section = INTRO
    for raw in GUIDE.read_text(encoding="utf-8").splitlines():
        if raw.endswith("¶"):
            section = raw[:-1]
            continue
        for part in raw.split("\t"):
            part = part.strip()
            statement = STATEMENT.match(part)
            if statement:
                yield section, statement.group(1)
                continue
            for inline in INLINE.finditer(part):
                yield section, inline.group(0)


# ------------------------------------------------------------------ the guide's models


def _convnet() -> dict[str, Any]:
    torch.manual_seed(0)
    model = models.ConvNet().train()
    x = torch.randn(1, 3, 8, 8)
    return {"model": model, "x": x, "trace": tl.trace(model, x)}


def _model(
    build: Callable[[], torch.nn.Module], x: Callable[[], torch.Tensor], **capture: Any
) -> Callable[[], dict[str, Any]]:
    def scene() -> dict[str, Any]:
        torch.manual_seed(0)
        model = build()
        inputs = x()
        options = tl.options.CaptureOptions(**capture) if capture else None
        return {"model": model, "x": inputs, "trace": tl.trace(model, inputs, capture=options)}

    return scene


def _backward() -> dict[str, Any]:
    scene = _model(models.TwoLayer, lambda: torch.randn(2, 8), save_grads=True)()
    trace = scene["trace"]
    trace.backward(trace["output_1"].out.sum())
    return scene


def _bundle() -> dict[str, Any]:
    torch.manual_seed(0)
    model = models.TwoLayer()
    x = torch.randn(2, 8)
    traces = {}
    for name, inputs in (("clean", x), ("noisy", x + 0.25 * torch.randn(2, 8))):
        trace = tl.trace(model, inputs, capture=tl.options.CaptureOptions(save_grads=True))
        trace.backward(trace["output_1"].out.sum())
        traces[name] = trace
    return {"bundle": tl.Bundle(traces)}


SCENES: dict[str, Callable[[], dict[str, Any]]] = {
    "convnet": _convnet,
    "frozen": _model(models.PartlyFrozen, lambda: torch.randn(2, 8)),
    "branch": _model(models.Branching, lambda: torch.rand(2, 4)),
    "recurrent": _model(models.Recurrent, lambda: torch.randn(2, 4)),
    "stack8": _model(lambda: models.Stack(8).eval(), lambda: torch.randn(2, 4)),
    "stack40": _model(lambda: models.Stack(40).eval(), lambda: torch.randn(2, 4)),
    "edit": _model(models.TwoLayer, lambda: torch.randn(2, 8), intervention_ready=True),
    "backward": _backward,
    "bundle": _bundle,
}

# Which model each section of the guide draws.
SECTION_SCENES = {
    INTRO: "convnet",
    "Your first drawing": "convnet",
    "Reading a node": "convnet",
    "Fill colors": "frozen",
    "Branches: IF and THEN": "branch",
    "Loops: unrolled and rolled": "recurrent",
    "Module depth": "convnet",
    "Collapsing large models": "stack8",
    "Focusing on one module": "stack8",
    "Ready-made views": "convnet",
    'Profiling: node_style="profiling"': "convnet",
    'What an edit changed: view="interventions"': "edit",
    "Color and size by any value": "convnet",
    "Direction": "convnet",
    "Choosing what each node shows": "convnet",
    "Buffers": "convnet",
    "The backward pass": "backward",
    "Themes": "convnet",
    "Comparing runs": "bundle",
}


# ------------------------------------------------------------------ what the guide says


def _nodes(count: int) -> Callable[[Any, dict[str, Any], Path], None]:
    def check(drawing: Any, scope: dict[str, Any], folder: Path) -> None:
        assert drawing.node_count == count, drawing.collapse_schedule

    return check


def _in_dot(*texts: str) -> Callable[[Any, dict[str, Any], Path], None]:
    def check(drawing: Any, scope: dict[str, Any], folder: Path) -> None:
        for text in texts:
            assert text in drawing.dot, f"{text!r} is not in the drawing"

    return check


def _file(name: str, magic: bytes) -> Callable[[Any, dict[str, Any], Path], None]:
    def check(drawing: Any, scope: dict[str, Any], folder: Path) -> None:
        assert isinstance(drawing, tl_draw.Drawing)
        assert (folder / name).read_bytes().startswith(magic)
        assert drawing.path == folder / name

    return check


def _header(*lines: str) -> Callable[[Any, dict[str, Any], Path], None]:
    def check(drawing: Any, scope: dict[str, Any], folder: Path) -> None:
        for line in lines:
            assert line in drawing.header, drawing.header

    return check


def _all(*checks: Callable[[Any, dict[str, Any], Path], None]) -> Callable[[Any, dict[str, Any], Path], None]:
    def check(drawing: Any, scope: dict[str, Any], folder: Path) -> None:
        for each in checks:
            each(drawing, scope, folder)

    return check


def _new_trace(drawing: Any, scope: dict[str, Any], folder: Path) -> None:
    assert len(scope["trace"].ops) > 0
    assert tl_draw.draw(scope["trace"]).node_count == 12  # the first drawing's 12 nodes


def _fork(drawing: Any, scope: dict[str, Any], folder: Path) -> None:
    assert scope["edited"] is not scope["trace"]


def _census(drawing: Any, scope: dict[str, Any], folder: Path) -> None:
    assert drawing.census and "zero_ablate" in drawing.census


def _cone(drawing: Any, scope: dict[str, Any], folder: Path) -> None:
    assert drawing._native is not None and "Δ zero_ablate" in drawing.dot
    svg = drawing.svg()
    assert "<text" in svg or "<path" in svg


def _nothing(drawing: Any, scope: dict[str, Any], folder: Path) -> None:
    assert drawing is None


def _every_op_row_count(count: int) -> Callable[[Any, dict[str, Any], Path], None]:
    def check(drawing: Any, scope: dict[str, Any], folder: Path) -> None:
        rows = [r for r in drawing.node_rows if r and r[0].startswith(("conv", "relu", "linear", "batchnorm"))]
        assert rows and all(len(r) == count for r in rows), rows

    return check


def _max_folds_six_blocks(drawing: Any, scope: dict[str, Any], folder: Path) -> None:
    stops = drawing.collapse_schedule
    assert stops[-1].is_drawn and stops[-1].level == 1.0
    assert any("6 blocks" in " ".join(rows) for rows in drawing.node_rows), drawing.node_rows


@dataclass(frozen=True)
class Case:
    check: Callable[[Any, dict[str, Any], Path], None]
    # A guide promise tl-draw does not keep yet: the case fails until it does (strict).
    not_yet: str | None = None


FIRST_HEADER = _header(
    "12 operations (19.4 KB of outputs; 2 hidden with the buffers)", "1.61K parameters, all trainable"
)

CASES: dict[tuple[str, str], Case] = {
    (INTRO, "import torchlens as tl"): Case(_nothing),
    (INTRO, "trace = tl.trace(model, x)"): Case(_new_trace),
    (INTRO, 'trace.draw("my_model")'): Case(_file("my_model.pdf", b"%PDF")),
    (INTRO, 'trace.draw("my_model", file_format="png", dpi=110)'): Case(_file("my_model.png", b"\x89PNG")),
    (INTRO, "trace.draw()"): Case(_all(FIRST_HEADER, _in_dot("@features.0", "@features.1"))),
    ("Your first drawing", "trace.draw()"): Case(
        _all(FIRST_HEADER, _nodes(12), _in_dot("@features", "Sequential", "ConvBlock"))
    ),
    ("Reading a node", "trace.draw()"): Case(_in_dot("batchnorm_1_3", "peripheries=2", "relu_1_4")),
    ("Fill colors", "trace.draw()"): Case(_in_dot("weight [")),
    ("Fill colors", "trace.draw(show_legend=True)"): Case(_in_dot("frozen")),
    ("Branches: IF and THEN", "trace.draw()"): Case(_in_dot("IF: TRUE", "THEN", "gt_1_2")),
    ("Loops: unrolled and rolled", "trace.draw()"): Case(_in_dot("tanh_1_5:2", "@rec:2")),
    ("Loops: unrolled and rolled", "trace.draw(rolled=True)"): Case(
        _in_dot("(x3)", "In 1", "In 2-3", "Out 1-2", "Out 3")
    ),
    ("Module depth", "trace.draw(depth=1)"): Case(_in_dot("box3d", "@features")),
    ("Module depth", "trace.draw(depth=2)"): Case(_all(_in_dot("4 ops + 6 buffers"), _nodes(8))),
    ("Collapsing large models", "trace.draw(collapse=0.25)"): Case(_nodes(32)),
    ("Collapsing large models", "trace.draw(collapse=0.5)"): Case(_nodes(20)),
    ("Collapsing large models", "trace.draw(collapse='max')"): Case(_max_folds_six_blocks),
    ("Collapsing large models", "trace.draw(...)"): Case(_nothing),  # a placeholder; see below
    ("Collapsing large models", "trace.draw(collapse='auto')"): Case(_in_dot("x2", "@blocks")),
    ("Focusing on one module", "trace.draw(module='blocks.1')"): Case(_header("Stack > blocks.1")),
    ("Ready-made views", 'trace.draw(view="debug", show_edge_shapes=True)'): Case(_in_dot("(1, 16, 8, 8)")),
    ('Profiling: node_style="profiling"', "trace.draw(node_style='profiling')"): Case(
        _in_dot("t=", "out=", "call=", "fn=")
    ),
    ('What an edit changed: view="interventions"', "edited = trace.fork()"): Case(_fork),
    ('What an edit changed: view="interventions"', 'edited.do(tl.module("fc1"), tl.zero_ablate())'): Case(
        lambda result, scope, folder: None
    ),
    ('What an edit changed: view="interventions"', "edited.draw()"): Case(
        _header("1 edit: Δ zero_ablate on linear_1_1")
    ),
    ('What an edit changed: view="interventions"', "edited.draw(show_cone=True)"): Case(_cone),
    ('What an edit changed: view="interventions"', "edited.draw(view='interventions')"): Case(_census),
    ("Color and size by any value", "trace.draw(color_by='time', size_by='bytes')"): Case(
        _in_dot("time:", "size: output bytes")
    ),
    ("Direction", "trace.draw(direction='leftright')"): Case(_in_dot("rankdir=LR")),
    ("Choosing what each node shows", "trace.draw(node_label_fields=['name', 'shape', 'dtype'])"): Case(
        _every_op_row_count(3)
    ),
    ("Choosing what each node shows", "trace.draw(show_saved_for_backward=True)"): Case(_in_dot("saved")),
    ("Buffers", "trace.draw(show_buffers='always')"): Case(_in_dot("cylinder", "running_mean:1", "arg 3")),
    ("The backward pass", "trace.draw(graph='backward', show_module_paths=True)"): Case(
        _in_dot("@linear_2_3", "module fc2", "param fc2.bias")
    ),
    ("Themes", "trace.draw(theme='paper')"): Case(_nodes(12)),
    ("Themes", "trace.draw(theme='dark')"): Case(_nodes(12)),
    ("Themes", "trace.draw(theme='high_contrast')"): Case(_nodes(12)),
    ("Themes", "trace.draw(theme='colorblind')"): Case(_nodes(12)),
    ("Comparing runs", 'bundle.draw(graph="diff")'): Case(_in_dot("relative_l2")),
    ("Comparing runs", 'bundle.draw(graph="diff", depth=2)'): Case(_in_dot("relative_l2")),
}

# The guide's ``trace.draw(...)`` is a placeholder, not a call; its sentence says what a real
# call returns: ``trace.draw(...).collapse_schedule`` lists the steps.
PLACEHOLDER_STAND_IN = "trace.draw(collapse='max').collapse_schedule"


def test_every_code_line_of_the_guide_has_a_case() -> None:
    found = set(guide_lines())
    assert found == set(CASES), {"no case": found - set(CASES), "not in the guide": set(CASES) - found}


@pytest.fixture(scope="module")
def scenes() -> Iterator[dict[str, dict[str, Any]]]:
    tl_draw.install()
    yield {}
    tl_draw.uninstall()


# Lines that draw another model than their section: "Here it is on the same model with 40 blocks".
LINE_SCENES = {("Collapsing large models", "trace.draw(collapse='auto')"): "stack40"}


def _scope(scenes: dict[str, dict[str, Any]], section: str, line: str) -> dict[str, Any]:
    name = LINE_SCENES.get((section, line), SECTION_SCENES[section])
    if name not in scenes:
        scenes[name] = SCENES[name]()
    return {"tl": tl, "torch": torch, **scenes[name]}


def _run(line: str, scope: dict[str, Any]) -> Any:
    try:
        code = compile(line, "<guide>", "eval")
    except SyntaxError:
        exec(compile(line, "<guide>", "exec"), scope)  # a statement: `edited = trace.fork()`
        return None
    return eval(code, scope)


@pytest.mark.parametrize(("section", "line"), list(CASES), ids=[f"{s}: {line}" for s, line in CASES])
def test_guide_line(
    section: str, line: str, scenes: dict[str, dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = CASES[(section, line)]
    monkeypatch.chdir(tmp_path)
    scope = _scope(scenes, section, line)
    if section == 'What an edit changed: view="interventions"' and line != "edited = trace.fork()":
        # The guide's lines run in order: the fork and the edit come first.
        scope.setdefault("edited", None)
        if scope["edited"] is None:
            _run("edited = trace.fork()", scope)
            _run('edited.do(tl.module("fc1"), tl.zero_ablate())', scope)
            scenes[SECTION_SCENES[section]]["edited"] = scope["edited"]
        if line.startswith("edited.do"):
            return
    if line == "trace.draw(...)":
        stops = _run(PLACEHOLDER_STAND_IN, scope)
        assert [stop.nodes for stop in stops][0] == 44 and sum(stop.is_auto for stop in stops) == 1
        return
    try:
        result = _run(line, scope)
        case.check(result, scope, tmp_path)
    except AssertionError:
        if case.not_yet:
            pytest.xfail(case.not_yet)
        raise
    if case.not_yet:
        pytest.fail(f"now kept, drop not_yet: {case.not_yet}")
    if isinstance(result, tl_draw.Drawing):
        # Every drawing also lays out and paints.
        assert result.svg().startswith(("<?xml", "<svg"))
