"""Convert a TorchLens 2.36.x ``Bundle`` (or a list of traces) to the ``tl-bundle`` format: its
members' traces and the differences between them."""

from __future__ import annotations

from typing import Any

import torch

from .convert import FORMAT_VERSION, export_trace
from .ops import _latest_grad
from .values import _finite, _float_tensor

METRICS = ("relative_l2", "cosine", "pearson")


def _metric(name: str, a: torch.Tensor, b: torch.Tensor) -> float:
    """The bundle-diff metrics of TorchLens 2.36.1 (the guide's "Comparing runs", graph="diff")."""
    a = a.flatten()
    b = b.flatten()
    if a.numel() <= 1 and b.numel() <= 1:
        diff = float((a - b).abs().sum())
        base = float(a.abs().sum())
        return diff / base if base >= 1e-12 else diff
    if name == "relative_l2":
        diff = float((a - b).norm())
        base = float(a.norm())
        return diff / base if base >= 1e-12 else diff
    if name == "cosine":
        denominator = float(a.norm() * b.norm())
        if denominator < 1e-12:
            return 0.0 if torch.equal(a, b) else 1.0
        return 1.0 - float(a.dot(b)) / denominator
    if name == "pearson":
        if a.numel() < 2 or float(a.std()) == 0.0 or float(b.std()) == 0.0:
            return 0.0 if torch.equal(a, b) else 1.0
        r = float(torch.corrcoef(torch.stack([a, b]))[0, 1])
        return 1.0 - r
    raise ValueError(f"unknown metric {name!r}")


def _tensors(trace: Any, on: str) -> dict[str, torch.Tensor]:
    result = {}
    for op in trace.ops:
        value = op.out if on == "out" else (_latest_grad(op) if op.has_grad else None)
        tensor = _float_tensor(value)
        if tensor is not None:
            result[op.label] = tensor
    return result


def export_bundle(
    members: Any, baseline: str | None = None, source_root: str | None = None, model: Any = None
) -> dict[str, Any]:
    """The ``tl-bundle`` v1 document of a ``tl.Bundle`` (or of ``(name, trace)`` pairs),
    with every metric precomputed against the baseline (the bundle's, else the first)."""
    if hasattr(members, "names") and hasattr(members, "traces"):
        baseline = baseline or getattr(members, "baseline_name", None)
        members = [(name, members.traces[name]) for name in members.names]
    members = list(members)
    baseline = baseline or members[0][0]
    traces = dict(members)
    deltas = []
    for on in ("out", "grad"):
        base = _tensors(traces[baseline], on)
        for name, trace in members:
            if name == baseline:
                continue
            other = _tensors(trace, on)
            for metric in METRICS:
                values = {}
                for label, tensor in other.items():
                    reference = base.get(label)
                    if reference is not None and reference.numel() == tensor.numel():
                        value = _finite(_metric(metric, reference, tensor))
                        if value is not None:
                            values[label] = value
                if values:
                    deltas.append({"member": name, "metric": metric, "on": on, "values": values})
    return {
        "format": "tl-bundle",
        "version": FORMAT_VERSION,
        "baseline": baseline,
        "members": [
            {"name": name, "trace": export_trace(trace, source_root=source_root, model=model)}
            for name, trace in members
        ],
        "deltas": deltas,
    }
