"""Drawing the same live trace again reuses its conversion while the trace is unchanged, and
converts anew after each way TorchLens changes a trace: a backward pass, an annotation, an
edit (and its replay), a direct write; a fork has its own."""

from __future__ import annotations

from typing import Any

import pytest
import torch
import torchlens as tl
from torchlens.options import CaptureOptions

import tl_draw
from tl_draw import _cache
from tl_draw._convert import documents_of
from tl_export import models


def traced(**capture: Any) -> Any:
    torch.manual_seed(0)
    return tl.trace(models.TwoLayer(), torch.randn(2, 8), capture=CaptureOptions(**capture) if capture else None)


def converted(trace: Any) -> bytes:
    documents, _ = documents_of(trace, value_stats=False)
    document = documents[0]
    assert isinstance(document, bytes)
    return document


def test_an_unchanged_trace_is_converted_once() -> None:
    trace = traced()
    first = converted(trace)
    assert converted(trace) is first
    assert tl_draw.draw(trace).dot == tl_draw.draw(trace).dot
    # The other conversion (with the activations' summaries) is kept on its own.
    with_stats, _ = documents_of(trace, value_stats=True)
    assert with_stats[0] is not first and documents_of(trace, value_stats=True)[0][0] is with_stats[0]


def test_a_backward_pass_converts_anew() -> None:
    trace = traced(save_grads=True)
    before = converted(trace)
    trace.backward(trace["output_1"].out.sum())
    after = converted(trace)
    assert after is not before and b'"grad"' in after and b'"grad"' not in before
    assert converted(trace) is after


def test_an_annotation_converts_anew_each_time() -> None:
    trace = traced()
    before = converted(trace)
    label = trace.ops[1].label
    trace.annotate(label, data={"note": "first"})
    first = converted(trace)
    assert first is not before and b"first" in first
    trace.annotate(label, data={"note": "second"})
    second = converted(trace)
    assert b"second" in second and b"first" not in second


def test_an_edit_and_its_fork_convert_anew() -> None:
    trace = traced(intervention_ready=True)
    clean = converted(trace)
    edited = trace.fork()
    forked = converted(edited)
    assert forked is not clean
    edited.do(tl.module("fc1"), tl.zero_ablate())
    after_edit = converted(edited)
    assert after_edit is not forked and b"zero_ablate" in after_edit
    assert converted(edited) is after_edit
    # Another edit of the same fork: converted anew again.
    edited.do(tl.module("fc2"), tl.zero_ablate())
    assert converted(edited) is not after_edit


def test_a_direct_write_is_never_served_from_the_cache() -> None:
    trace = traced()
    before = converted(trace)
    op = trace.ops[1]
    with pytest.warns(Warning, match="direct Op out writes"):
        op.out = op.out * 0 + 7  # a direct write of a saved output
    assert getattr(trace, "_has_direct_writes", False)
    after = converted(trace)
    assert after is not before and converted(trace) is not after


def test_a_trace_type_without_torchlens_hooks_is_never_cached() -> None:
    class Plain:
        state_history: list[Any] = []

    assert _cache.revision(Plain()) is None


def test_a_tensor_changed_in_place_converts_anew() -> None:
    trace = traced()
    before, _ = documents_of(trace, value_stats=True)
    assert documents_of(trace, value_stats=True)[0][0] is before[0]
    out = trace.ops[2].out
    assert isinstance(out, torch.Tensor)
    with torch.no_grad():
        out.mul_(1000.0)
    after, _ = documents_of(trace, value_stats=True)
    assert after[0] is not before[0] and after[0] != before[0]
