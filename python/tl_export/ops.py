"""One TorchLens op as a ``tl-trace`` v1 op record (``docs/trace-format.md``): what it computed,
where it sits (module calls, parameters, arguments, arrows), branches, time and FLOPs, call
sites, value summaries, annotations and edits. ``convert`` assembles the document; for the
common op, ``native_ops`` has the Rust core write the same record."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch

from .pictures import _png_picture, annotation_picture
from .values import (
    _arg_value,
    _dtype,
    _finite,
    _float_tensor,
    _grad_summary,
    _label,
    _read,
    _relative_path,
    _shape,
    _value_summary,
)


def _latest_grad(op: Any) -> Any:
    """The gradient of the most recent backward pass (``op.grad`` refuses when there are several)."""
    passes = int(getattr(op.trace, "num_backward_passes", 0) or 0)
    if passes <= 1:
        return op.grad
    for backward_pass in range(passes, 0, -1):
        try:
            return op.grad_for(bwd=backward_pass)
        except KeyError:
            continue
    return None


def _kind(op: Any) -> str:
    if op.is_input:
        return "input"
    if op.is_output:
        return "output"
    if op.is_buffer:
        return "buffer"
    return "op"


def _step_index(layer_label: str, kind: str) -> int:
    """The step number in the label (2.36.1 rewrites ``step_index`` to an execution counter)."""
    if kind in ("input", "output", "buffer"):
        return 0
    return int(layer_label.rsplit("_", 1)[1])


def _arm_entries(op: Any) -> list[dict[str, Any]]:
    entries = []
    arm_children = op.conditional_arm_children
    if not arm_children:
        return []
    for conditional, arms in sorted(arm_children.items()):
        for arm_name, children in arms.items():
            arm = arm_name
            elif_index = None
            if arm_name.startswith("elif"):
                arm = "elif"
                digits = "".join(ch for ch in arm_name if ch.isdigit())
                elif_index = int(digits) if digits else None
            for child in children:
                entry: dict[str, Any] = {"child": _label(child), "arm": arm}
                if elif_index is not None:
                    entry["elif_index"] = elif_index
                entry["conditional"] = int(conditional)
                entries.append(entry)
    return entries


def _arg_slots(op: Any) -> list[dict[str, Any]]:
    positions = op.parent_arg_positions or {}
    slots = []
    for position, parent in (positions.get("args") or {}).items():
        path = list(position) if isinstance(position, tuple) else [position]
        slots.append({"parent": _label(parent), "arg": [int(p) for p in path]})
    for name, parent in (positions.get("kwargs") or {}).items():
        slots.append({"parent": _label(parent), "kwarg": str(name)})
    return slots


class _CallSites:
    """Ops' call sites, each source frame read once: an op's first frame is a TorchLens
    record (four field reads through its store), and a model's ops share few of them
    (ResNet-50: 73 frames for 389 ops)."""

    def __init__(self, root: str | None) -> None:
        self.root = root
        # By the frame's identity, the frame kept with its site so that no later frame can
        # take a freed one's identity (a record may hand out fresh frames on every read).
        self.known: dict[int, tuple[Any, dict[str, Any] | None]] = {}

    def of(self, op: Any) -> list[dict[str, Any]]:
        sites = []
        for frame in (op.code_context or [])[:1]:
            site = self.site_of(frame)
            if site is not None:
                sites.append(dict(site))
        return sites

    def site_of(self, frame: Any) -> dict[str, Any] | None:
        """The site of ``frame`` (``None`` for a frame with no file or line), read once."""
        key = id(frame)
        if key not in self.known:
            self.known[key] = (frame, self._site(frame))
        return self.known[key][1]

    def _site(self, frame: Any) -> dict[str, Any] | None:
        file = getattr(frame, "file", None)
        line = getattr(frame, "line_number", None) or getattr(frame, "line", None)
        if file is None or line is None:
            return None
        site: dict[str, Any] = {
            "file": _relative_path(str(file), self.root),
            "line": int(line),
            "function": str(getattr(frame, "func_name", None) or getattr(frame, "function", "")),
        }
        qualname = getattr(frame, "func_qualname", None)
        if qualname:
            site["qualname"] = str(qualname)
        return site


def _export_op(op: Any, clean: Any, call_sites: _CallSites, value_stats: bool = True) -> dict[str, Any]:
    # Each field is read once: a read of a TorchLens record field costs 1-2 us (its
    # __getattribute__, a descriptor and the row store), a real model has thousands of ops.
    kind = _kind(op)
    layer_label = op.layer_label
    record: dict[str, Any] = {
        "label": op.label,
        "layer_label": layer_label,
        "kind": kind,
        "layer_type": op.layer_type,
        "func_name": str(op.func_name),
        "type_index": int(op.type_index),
        "step_index": _step_index(layer_label, kind),
        "pass_index": int(op.pass_index),
        "num_passes": int(op.num_passes),
    }
    shape = op.shape
    # The saved output is read only when something is computed from it: reading it goes
    # through TorchLens's lazy-payload checks (a third of a lean conversion).
    wanted = value_stats or clean is not None or (shape is not None and len(shape) == 0)
    out = _read(op.out) if wanted else None
    if not isinstance(out, torch.Tensor):
        out = None
    _add_output(record, op, shape, out)
    _add_structure(record, op, kind)
    _add_condition(record, op)
    _add_profile(record, op, kind, call_sites)
    _add_values(record, op, out if value_stats else None)
    _add_annotations(record, op)
    _add_edits(record, op, out, clean)
    return record


def _add_output(record: dict[str, Any], op: Any, shape: Any, out: torch.Tensor | None) -> None:
    """The output's shape, dtype, size and (a scalar's) value."""
    dtype, memory = op.dtype, op.activation_memory
    if shape is not None:
        record["shape"] = _shape(shape)
    if dtype is not None:
        record["dtype"] = _dtype(dtype)
    if memory is not None:
        record["bytes"] = int(memory)
    if out is not None and out.dim() == 0:
        if out.dtype == torch.bool:
            record["value"] = bool(out.item())
        elif not out.is_complex():
            value = _finite(float(out.item()))
            if value is not None:
                record["value"] = value


def _add_structure(record: dict[str, Any], op: Any, kind: str) -> None:
    """Where the op sits: its module calls, parameters, arguments and arrows."""
    modules = op.modules
    if modules:
        record["modules"] = list(modules)
    if op.is_atomic_module:
        record["is_atomic_module"] = True
    output_of = op.output_of_module_calls
    if output_of:
        record["output_of_calls"] = list(output_of)
    params = [p.address for p in op.params]
    if params:
        record["params"] = params
    args = {str(k): _arg_value(v) for k, v in (op.func_config or {}).items()}
    if args:
        record["args"] = args
    parents = [_label(p) for p in op.parents]
    if parents:
        record["parents"] = parents
    slots = _arg_slots(op)
    if slots:
        record["arg_slots"] = slots
    # children are filled in by the caller (inverse of parents, in execution order)
    record["children"] = []
    record["has_input_ancestor"] = bool(op.has_input_ancestor)
    io_role = op.io_role
    if io_role:
        record["io_role"] = str(io_role)
    if kind == "buffer":
        record["buffer"] = {"address": op.address, "version": int(op.buffer_pass or 1)}


def _add_condition(record: dict[str, Any], op: Any) -> None:
    """The bool a Python branch tested, and the branch arms the op entered."""
    if op.is_terminal_bool:
        bool_value = op.bool_value
        if bool_value is not None:
            condition: dict[str, Any] = {
                "kind": op.conditional_context_kind or "if_test",
                "value": bool(bool_value),
            }
            conditional = op.terminal_conditional_id
            if conditional is not None:
                condition["conditional"] = int(conditional)
            record["condition"] = condition
    arms = _arm_entries(op)
    if arms:
        record["arm_entries"] = arms


def _add_profile(record: dict[str, Any], op: Any, kind: str, call_sites: _CallSites) -> None:
    """Time, FLOPs, the source lines that called the op, what it saved for backward."""
    duration = op.func_duration
    if duration is not None and kind == "op":
        record["duration_s"] = float(duration)
    flops = op.flops_forward
    if flops is not None:
        record["flops"] = int(flops)
    sites = call_sites.of(op)
    if sites:
        record["call_sites"] = sites
    saved_count = op.num_autograd_tensors
    if saved_count:
        saved: dict[str, Any] = {"count": int(saved_count)}
        saved_bytes = op.autograd_memory
        if saved_bytes is not None:
            saved["bytes"] = int(saved_bytes)
        record["saved_for_backward"] = saved


def _add_values(record: dict[str, Any], op: Any, out: torch.Tensor | None) -> None:
    """The output's magnitude and finiteness (when summaries are wanted) and its gradient."""
    summary = _value_summary(out) if out is not None else None
    if summary is not None:
        magnitude, finiteness = summary
        if magnitude is not None:
            record["magnitude"] = magnitude
        record["finiteness"] = finiteness
    if op.has_grad:
        grad_value = _read(_latest_grad(op))
        grad = _grad_summary(getattr(grad_value, "shape", None), grad_value)
        if grad is not None:
            record["grad"] = grad


def _add_annotations(record: dict[str, Any], op: Any) -> None:
    """`trace.annotate(...)` rows and picture, else a visualizer's picture."""
    annotations = op.annotations
    user = annotations.get("user") if isinstance(annotations, Mapping) else None
    picture = None
    if isinstance(user, Mapping):
        # annotate(data={...}) stores the mapping under "data": its entries become rows.
        given = user.get("data")
        entries = dict(given) if isinstance(given, Mapping) else {}
        entries.update(
            (k, v)
            for k, v in user.items()
            if k not in ("image", "data") or (k == "data" and not isinstance(v, Mapping))
        )
        data = {str(k): _arg_value(v) for k, v in entries.items() if v is not None}
        if data:
            record["annotations"] = data
        picture = annotation_picture(record["label"], op.trace, user.get("image"))
    if picture is None:
        visualizer = op.visualizer_path
        if visualizer:
            picture = _png_picture(visualizer, "visualizer")
    if picture is not None:
        record["picture"] = picture


def _helper_name(name: Any) -> str:
    """An edit's helper as the document names it: a hook of the user's own is ``user_hook``.
    The firings and the edit specs are matched by it."""
    return str(name or "user_hook")


def _add_edits(record: dict[str, Any], op: Any, out: torch.Tensor | None, clean: Any) -> None:
    """The edits that fired at the op, and how far its output moved from the clean run."""
    fires = [
        {"helper": _helper_name(f.helper_name), **({"engine": str(f.engine)} if f.engine else {})}
        for f in (op.interventions or [])
    ]
    if fires:
        record["edits"] = fires
    values = _float_tensor(out) if clean is not None else None
    if values is not None:
        try:
            clean_values = _float_tensor(_read(clean[op.label].out))
        except (KeyError, ValueError, AttributeError):
            clean_values = None
        if clean_values is not None and clean_values.shape == values.shape:
            change = _finite(float((values - clean_values).abs().max()))
            if change is not None:
                record["clean_max_abs_change"] = change


def _fill_children(ops: list[dict[str, Any]]) -> None:
    """Children are the inverse of parents, in execution order; empty lists are dropped."""
    children = children_of([op["label"] for op in ops], [op.get("parents", ()) for op in ops])
    for op, op_children in zip(ops, children, strict=True):
        if op_children:
            op["children"] = op_children
        else:
            del op["children"]


def children_of(labels: list[str], parents: list[Any]) -> list[list[str]]:
    """Each op's children: the ops naming its label (qualified as ``_label`` does) among their
    parents, in order; an op whose label another shares takes the children (the last one).
    Raises ``KeyError`` for a parent that is no op's label."""
    children: list[list[str]] = [[] for _ in labels]
    at = {label: index for index, label in enumerate(labels)}
    for label, op_parents in zip(labels, parents, strict=True):
        for parent in op_parents:
            children[at[_label(parent)]].append(label)
    return children
