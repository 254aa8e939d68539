"""Trace values as the ``tl-trace`` format writes them: labels, shapes, element types, argument
values and paths, and the summaries of saved tensors (mean absolute value, finiteness,
gradients); and which tensors a conversion read (``tensors_read``)."""

from __future__ import annotations

import contextlib
import contextvars
import math
import os
from collections.abc import Iterator
from typing import Any

import numpy
import torch


def _label(ref: str) -> str:
    """TorchLens names single-pass layers without a pass; the format always qualifies."""
    return ref if ":" in ref else f"{ref}:1"


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _shape(shape: Any) -> list[int] | None:
    if shape is None:
        return None
    return [int(d) for d in shape]


def _dtype(dtype: Any) -> str | None:
    if dtype is None:
        return None
    return str(dtype).replace("torch.", "")


def _arg_value(value: Any) -> Any:
    """Salient argument values as JSON scalars and lists."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        # A float of another type (NumPy's float64) as a plain float: JSON writers take only those.
        return float(value) if math.isfinite(value) else str(value)
    if isinstance(value, (torch.Size, tuple, list)):
        return [_arg_value(v) for v in value]
    if isinstance(value, torch.dtype):
        return _dtype(value)
    if isinstance(value, torch.Tensor):
        return [int(d) for d in value.shape]
    return str(value)


def _relative_path(path: str | None, root: str | None) -> str | None:
    if path is None:
        return None
    if root:
        try:
            rel = os.path.relpath(path, root)
            if not rel.startswith(".."):
                return rel.replace(os.sep, "/")
        except ValueError:
            pass
    return os.path.basename(path)


def _float_tensor(value: Any) -> torch.Tensor | None:
    if not isinstance(value, torch.Tensor) or value.numel() == 0:
        return None
    if value.is_complex():
        value = value.abs()
    converted: torch.Tensor = value.detach().to(torch.float64).cpu()
    return converted


def _plain_array(value: Any) -> numpy.ndarray | None:
    """The tensor's values as a NumPy array without a copy where NumPy can read them (CPU,
    real, a dtype NumPy has): statistics on it skip the torch function wrappers TorchLens
    installs, which cost more than the arithmetic on a real model's hundreds of tensors."""
    if not isinstance(value, torch.Tensor) or value.device.type != "cpu" or value.numel() == 0:
        return None
    if value.is_complex() or value.dtype in (torch.bfloat16, torch.float8_e4m3fn, torch.float8_e5m2):
        return None
    try:
        return (value.detach() if value.requires_grad else value).numpy()
    except (TypeError, RuntimeError):
        return None


def _value_summary(value: Any) -> tuple[float | None, str] | None:
    """Mean absolute value and finiteness (``finite``, ``nan``, ``pos_inf``, ``neg_inf`` or
    ``mixed``) of a tensor's values; ``None`` for no values."""
    array = _plain_array(value)
    if array is None:
        values = _float_tensor(value)
        if values is None:
            return None
        return _finite(float(values.abs().mean())), _finiteness(values)
    if array.dtype == numpy.bool_:
        array = array.view(numpy.uint8)
    mean_abs = float(numpy.abs(array).mean(dtype=numpy.float64))
    # The mean of absolute values (in float64, which a float32 sum cannot overflow) is finite
    # exactly when every value is: one pass over the tensor instead of two.
    if math.isfinite(mean_abs):
        return mean_abs, "finite"
    flags = (
        ("nan", bool(numpy.isnan(array).any())),
        ("pos_inf", bool(numpy.isposinf(array).any())),
        ("neg_inf", bool(numpy.isneginf(array).any())),
    )
    kinds = [kind for kind, flag in flags if flag]
    if not kinds:  # finite values whose float64 sum overflowed
        return None, "finite"
    return None, kinds[0] if len(kinds) == 1 else "mixed"


def _finiteness(value: torch.Tensor) -> str:
    nan = bool(torch.isnan(value).any())
    pos = bool(torch.isposinf(value).any())
    neg = bool(torch.isneginf(value).any())
    kinds = [k for k, flag in (("nan", nan), ("pos_inf", pos), ("neg_inf", neg)) if flag]
    if not kinds:
        return "finite"
    return kinds[0] if len(kinds) == 1 else "mixed"


def _grad_summary(shape: Any, grad: Any) -> dict[str, Any] | None:
    if shape is None:
        return None
    summary: dict[str, Any] = {"shape": _shape(shape)}
    values = _float_tensor(grad)
    if values is not None:
        norm = _finite(float(values.norm()))
        max_abs = _finite(float(values.abs().max()))
        if norm is not None:
            summary["norm"] = norm
        if max_abs is not None:
            summary["max_abs"] = max_abs
    return summary


#: The tensors a conversion reads, collected while someone asks (``tensors_read``).
_READ: contextvars.ContextVar[list[torch.Tensor] | None] = contextvars.ContextVar("tl_export_read", default=None)


@contextlib.contextmanager
def tensors_read() -> Iterator[list[torch.Tensor]]:
    """Collects every tensor the conversions inside read (saved outputs, gradients, the clean
    run's outputs): ``tl_draw`` keeps their version counters, which an in-place change of a
    tensor bumps, to know when a kept conversion is stale."""
    read: list[torch.Tensor] = []
    token = _READ.set(read)
    try:
        yield read
    finally:
        _READ.reset(token)


def _read(value: Any) -> Any:
    read = _READ.get()
    if read is not None and isinstance(value, torch.Tensor):
        read.append(value)
    return value
