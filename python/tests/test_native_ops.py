"""The ops written by the Rust core (``tl_export.native_ops``, ``tl_draw._native.write_ops``)
are the records the Python converter writes: on real models and the guide's fixtures, and
op by op on fields of every kind the writer takes or leaves to the converter."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy
import orjson
import pytest
import torch

from tl_draw import _native
from tl_export import export_trace, fixtures, native_ops
from tl_export.ops import _CallSites, _export_op
from tl_export.row_store import _Prefetched


def _traced(name: str) -> Any:
    from tl_export.timing import build

    return build(name)["trace"]


@pytest.mark.parametrize(
    ("name", "all_native"),
    [
        ("convnet", False),  # 0-d outputs: their values are read by the converter
        ("custom_buffer", True),
        ("backward", False),  # gradients
        ("long_loop", True),
        ("gpt2_6", True),
        ("unet", True),
        ("mobilenet_v3_large", True),  # buffer versions, TorchLens's own annotations
        ("lstm_gru", True),
        # Arrows into the routing's branch tests, which with their arms' ops are read by the
        # converter; its routing turns tensors into Python numbers, as TorchLens reports.
        pytest.param(
            "mixtral_4",
            False,
            marks=pytest.mark.filterwarnings("ignore:TorchLens observed 19 tensor-to-Python scalar escape:Warning"),
        ),
        ("branch_true", False),  # a branch test and its arms: read by the converter
    ],
)
def test_the_document_is_the_one_the_python_converter_writes(
    name: str, all_native: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    trace = _traced(name)
    left_to_python: list[int] = []

    def counted(op: Any, *rest: Any) -> dict[str, Any]:
        left_to_python.append(1)
        return _export_op(op, *rest)

    monkeypatch.setattr(native_ops, "_export_op", counted)
    written = native_ops.export_trace_json(trace, _native.write_ops, _native.fill_column)
    monkeypatch.undo()
    assert written is not None
    document = json.loads(written)
    assert document == json.loads(orjson.dumps(export_trace(trace, value_stats=False)))
    assert (not left_to_python) == all_native, len(left_to_python)


@pytest.mark.parametrize("name", ["edited", "photo"])
def test_a_trace_with_what_only_the_converter_writes_is_converted_whole_by_it(name: str) -> None:
    """An edited fork (its clean trace), an input photo."""
    builders: dict[str, Callable[[], dict[str, Any]]] = {
        "edited": fixtures._edited_pair,
        "photo": {f.name: f for f in fixtures.FIXTURES}["photo"].build,
    }
    assert native_ops.export_trace_json(builders[name]()["trace"], _native.write_ops, _native.fill_column) is None


def _frame(file: str, line: int, function: str) -> SimpleNamespace:
    return SimpleNamespace(file=file, line_number=line, func_name=function)


_FRAME = _frame("/src/model.py", 12, "forward")
_MISSING = object()


def _fields(**changes: Any) -> dict[str, Any]:
    """An op's read-ahead fields: a convolution inside a block, then ``changes``."""
    fields: dict[str, Any] = {
        "label": "conv2d_1_3:1",
        "layer_label": "conv2d_1_3",
        "type": "conv2d",
        "layer_type": "conv2d",
        "func_name": "conv2d",
        "type_index": 1,
        "pass_index": 1,
        "num_passes": 1,
        "shape": torch.Size([1, 8, 4, 4]),
        "dtype": torch.float32,
        "activation_memory": 512,
        "modules": ["block:1"],
        "is_atomic_module": False,
        "output_of_module_calls": [],
        "func_config": {"stride": (1, 1), "padding": (0, 0), "groups": 1, "bias": True},
        "parents": ["input_1:1"],
        "parent_arg_positions": {"args": {0: "input_1:1"}, "kwargs": {}},
        "has_input_ancestor": True,
        "io_role": None,
        "address": None,
        "buffer_pass": None,
        "is_terminal_bool": False,
        "bool_value": None,
        "conditional_context_kind": None,
        "terminal_conditional_id": None,
        "conditional_arm_children": {},
        "func_duration": 0.00025,
        "flops_forward": 4096,
        "code_context": [_FRAME],
        "num_autograd_tensors": 0,
        "autograd_memory": None,
        "has_grad": False,
        "annotations": {},
        "visualizer_path": None,
        "interventions": [],
        "is_input": False,
        "is_output": False,
        "is_buffer": False,
        "params": [SimpleNamespace(address="block.conv.weight")],
        "trace": None,
        "out": None,
    }
    fields.update(changes)
    return fields


def _both(fields: dict[str, Any], children: list[str]) -> tuple[Any, Any, int]:
    """The op's record as the converter writes it and as the Rust core writes it, parsed,
    and how many times the writer left it to the converter."""
    op = _Prefetched(None, fields)
    sites = _CallSites(None)

    def python_record() -> dict[str, Any]:
        record = _export_op(op, None, sites, False)
        if children:
            record["children"] = list(children)
        else:
            del record["children"]
        return record

    left: list[int] = []

    def export_one(index: int) -> bytes:
        left.append(index)
        return orjson.dumps(python_record())

    frames = fields.get("code_context") or []
    known = {id(frame): _dumped(sites.site_of(frame)) for frame in frames[:1]}
    written, _num_ops, _bytes = _native.write_ops([fields], [children], known, export_one)
    rust, left_to_python = json.loads(written)[0], len(left)
    return json.loads(orjson.dumps(python_record())), rust, left_to_python


def _dumped(site: dict[str, Any] | None) -> bytes | None:
    return None if site is None else orjson.dumps(site)


@pytest.mark.parametrize(
    ("changes", "left_to_python"),
    [
        ({}, False),
        ({"func_config": {"p": math.nan, "q": -math.inf, "r": 0.1, "s": None}}, False),
        ({"func_config": {"size": (1, (2, 3), [4]), "flag": False, "mode": "reflect"}}, False),
        ({"func_config": {"dtype": torch.float64}}, True),
        ({"func_config": {"n": numpy.int64(5)}}, True),
        ({"func_config": {"p": numpy.float64(0.25), "q": numpy.float64("nan")}}, False),
        ({"func_config": {"t": torch.zeros(2, 3)}}, True),
        ({"func_config": {3: "positional"}}, True),
        ({"type_index": True, "pass_index": 2, "num_passes": 3}, False),
        ({"shape": [2, 3], "dtype": torch.int64}, False),
        ({"shape": torch.Size([]), "out": torch.tensor(2.5)}, True),
        ({"shape": None, "dtype": None, "activation_memory": None}, False),
        ({"parents": ["x_1_1", "y_2_2:3"]}, False),
        ({"parent_arg_positions": {"args": {(0, 1): "input_1:1", 2: "w_1_1"}, "kwargs": {"other": "z_1_1"}}}, False),
        ({"parent_arg_positions": None}, False),
        ({"func_duration": math.nan}, False),
        ({"func_duration": 3}, False),
        ({"flops_forward": 3.0}, True),
        ({"label": 7}, True),
        ({"layer_label": "conv2d_1_ 3"}, True),
        ({"annotations": {"dedup_source_id": 3}}, False),
        ({"annotations": {"user": {"data": {"note": "hi"}}}}, True),
        ({"is_buffer": True, "address": "bn.running_mean", "buffer_pass": None, "func_duration": 1.0}, False),
        ({"is_buffer": True, "address": "bn.running_mean", "buffer_pass": 2}, False),
        ({"is_input": True, "io_role": "input.x", "func_duration": 0.5}, False),
        ({"is_output": True, "io_role": "output"}, False),
        ({"is_terminal_bool": True, "bool_value": True, "terminal_conditional_id": 1}, True),
        ({"interventions": [SimpleNamespace(helper_name="zero", engine=None)]}, True),
        ({"num_autograd_tensors": 2, "autograd_memory": None}, False),
        ({"num_autograd_tensors": 2, "autograd_memory": 64}, False),
        ({"code_context": [_frame("/src/other.py", 3, "helper"), _FRAME]}, False),
        ({"code_context": [SimpleNamespace(file=None, line_number=None)]}, False),
        ({"code_context": None}, False),
        ({"modules": ("a:1", "a.b:1"), "is_atomic_module": True, "output_of_module_calls": ["a.b:1"]}, False),
        ({"params": []}, False),
        ({"func_name": SimpleNamespace(), "io_role": 3}, False),
    ],
)
def test_an_op_is_written_as_the_converter_writes_it(changes: dict[str, Any], left_to_python: bool) -> None:
    python, rust, left = _both(_fields(**changes), ["relu_1_4:1"])
    if "func_name" in changes:  # an object's text names its address, the same in both
        assert python.pop("func_name") == rust.pop("func_name")
    assert rust == python
    assert left == int(left_to_python)


def test_an_op_without_children_has_no_children_list() -> None:
    python, rust, left = _both(_fields(), [])
    assert "children" not in rust and rust == python and left == 0


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"io_role": _MISSING}, AttributeError),  # a field not read ahead
        ({"layer_label": "conv2d_x"}, ValueError),  # no step number
        ({"func_config": {"big": 2**70}}, TypeError),  # past JSON's 64 bits
    ],
)
def test_an_op_the_converter_refuses_is_refused_with_its_error(changes: dict[str, Any], error: type) -> None:
    """The writer leaves the op to the converter, whose error reaches the caller."""
    fields = {name: value for name, value in _fields(**changes).items() if value is not _MISSING}
    with pytest.raises(error):
        _both(fields, [])


def test_the_summary_counts_are_exact_past_64_bits() -> None:
    """Two outputs of 2**62 bytes each: the writer's sum is Python's, not wrapped."""
    fields = [
        _fields(label=f"conv2d_1_{step}:1", layer_label=f"conv2d_1_{step}", activation_memory=2**62) for step in (3, 4)
    ]
    sites = {id(_FRAME): _dumped(_CallSites(None).site_of(_FRAME))}
    _written, num_ops, output_bytes = _native.write_ops(fields, [[], []], sites, lambda index: b"")
    assert (num_ops, output_bytes) == (2, 2**63)
