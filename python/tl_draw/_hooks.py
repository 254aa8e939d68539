"""User callables, adapted to what the Rust core calls: ``node_spec_fn`` in TorchLens's
``(layer, spec)`` form or the one-argument ``(node) -> dict | None`` form, and functions for
``color_by=`` / ``size_by=`` of a node record."""

from __future__ import annotations

import dataclasses
import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any


@dataclass
class NodeSpec:
    """A drawn node's Graphviz attributes, as TorchLens's ``NodeSpec``: a ``node_spec_fn``
    edits it in place or returns a changed copy. ``extra_attrs`` takes ``peripheries``
    (``spec.extra_attrs["peripheries"] = "1"`` drops a double border)."""

    lines: list[str]
    shape: str
    fillcolor: str | None = None
    fontcolor: str | None = None
    style: str | None = None
    color: str | None = None
    penwidth: float | None = None
    tooltip: str | None = None
    image: str | None = None
    width: float | None = None
    height: float | None = None
    fixedsize: str | None = None
    extra_attrs: dict[str, str] = field(default_factory=dict)

    def replace(self, **changes: Any) -> NodeSpec:
        """A copy with ``changes`` applied, as TorchLens's ``NodeSpec.replace`` (its node
        producers, ``tl.viz.feature_map_node_spec()`` and the MDS/RDM ones, return one)."""
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class Node:
    """What a one-argument ``node_spec_fn`` receives: what the node stands for, its
    ``spec`` and, for a live trace, its TorchLens ``record``."""

    kind: str
    label: str | None
    layer_label: str | None
    module: str | None
    spec: NodeSpec
    record: Any = None


@dataclass(frozen=True)
class Record:
    """The op a callable is asked about when the trace is a file (no live TorchLens record)."""

    label: str
    layer_label: str


_SPEC_KEYS = ("lines", "shape", "fillcolor", "fontcolor", "style", "color", "penwidth", "tooltip", "width", "height")


def _spec_of(raw: dict[str, Any]) -> NodeSpec:
    given: dict[str, Any] = {key: raw.get(key) for key in _SPEC_KEYS}
    spec = NodeSpec(**given)
    spec.lines = list(raw.get("lines") or [])
    if raw.get("peripheries", 1) != 1:
        spec.extra_attrs["peripheries"] = str(raw["peripheries"])
    return spec


#: Graphviz placement hints TorchLens's picture producers set beside ``image=``
#: (``imagescale``, ``labelloc``, ``fixedsize``, ``margin``): tl-draw always draws a picture
#: in its own cell above the rows at its own size, so with a picture they ask for nothing.
_PICTURE_HINTS = frozenset({"imagescale", "labelloc", "fixedsize", "margin"})


def picture_png(image: Any) -> bytes:
    """A node picture as PNG bytes, as the guide draws ``annotate(image=...)`` pictures: a PNG
    file as it is, any other image file (JPEG, WebP, ...) or PIL image as a PNG copy."""
    from tl_export.pictures import png_of

    png = png_of(image)
    if png is None:
        raise TypeError(
            f"NodeSpec.image takes the path of an image file or a PIL image; it was a {type(image).__name__}"
        )
    return png[0]


def _changes(before: dict[str, Any], spec: NodeSpec) -> dict[str, Any]:
    """The attributes ``spec`` changed, as the Rust core reads them."""
    if not isinstance(spec, NodeSpec):
        raise TypeError(f"node_spec_fn must return a NodeSpec or None; it returned a {type(spec).__name__}")
    changed: dict[str, Any] = {}
    for item in fields(spec):
        name = item.name
        value = getattr(spec, name)
        if name == "extra_attrs":
            extra = dict(value or {})
            peripheries = extra.pop("peripheries", None)
            if peripheries is not None and str(peripheries) != str(before.get("peripheries", 1)):
                changed["peripheries"] = str(peripheries)
            if spec.image is not None:
                extra = {key: hint for key, hint in extra.items() if key not in _PICTURE_HINTS}
            # Anything else would be dropped silently: let the core name it.
            changed.update(extra)
        elif name == "image":
            if value is not None:
                changed[name] = picture_png(value)
        elif name == "fixedsize":
            if value is not None and spec.image is None:
                changed[name] = value
        elif value != before.get(name):
            changed[name] = list(value) if name == "lines" else value
    return changed


def _positional_arity(function: Callable[..., Any]) -> int:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return 2
    positional = [
        p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    if any(p.kind == p.VAR_POSITIONAL for p in parameters):
        return 2
    return len(positional)


def record_lookup(trace: Any) -> Callable[[str, str], Any]:
    """``(label, layer_label) -> record``: the live TorchLens op when there is a trace (the
    aggregate layer for a multi-pass layer, as TorchLens's own callbacks get), else a
    ``Record``."""

    def lookup(label: str, layer_label: str) -> Any:
        if trace is not None:
            for key in (layer_label, label):
                try:
                    return trace[key]
                except (KeyError, ValueError, IndexError, TypeError):
                    continue
        return Record(label, layer_label)

    return lookup


def node_spec_hook(function: Callable[..., Any], lookup: Callable[[str, str], Any]) -> Callable[[dict[str, Any]], Any]:
    """The hook the core calls with a node dict; returns the changes to apply or ``None``."""
    two_arguments = _positional_arity(function) >= 2

    def hook(raw: dict[str, Any]) -> dict[str, Any] | None:
        spec = _spec_of(raw)
        label, layer_label = str(raw.get("label") or ""), str(raw.get("layer_label") or "")
        record = lookup(label, layer_label) if label else None
        if two_arguments:
            # TorchLens's form: (layer, spec) -> spec | None, edits in place counting; as in
            # TorchLens it restyles operation nodes (boxes have collapsed_node_spec_fn there).
            if record is None:
                return None
            result = function(record, spec)
            return _changes(raw, spec if result is None else result) or None
        result = function(Node(raw["kind"], label, layer_label, raw.get("module"), spec, record))
        if result is None:
            return _changes(raw, spec) or None
        if isinstance(result, NodeSpec):
            return _changes(raw, result) or None
        if not isinstance(result, dict):
            raise TypeError(
                f"node_spec_fn must return a dict, a NodeSpec or None; it returned a {type(result).__name__}"
            )
        result = dict(result)
        extra = result.pop("extra_attrs", None) or {}
        result.update(extra)
        return result or None

    return hook


def value_hook(function: Callable[[Any], Any], lookup: Callable[[str, str], Any]) -> Callable[[str, str], Any]:
    """A ``color_by=`` / ``size_by=`` function of a node record, as the core calls it."""

    def hook(label: str, layer_label: str) -> float | None:
        value = function(lookup(label, layer_label))
        if value is None:
            return None
        number = float(value)  # a 0-d tensor or NumPy scalar converts
        return number if math.isfinite(number) else None

    name = getattr(function, "__name__", "custom")
    hook.__tl_draw_name__ = name if not name.startswith("<") else "custom"  # type: ignore[attr-defined]
    return hook
