"""Convert a TorchLens 2.36.x ``Trace`` (and ``Bundle``) to the ``tl-trace`` v1 JSON format.

The format is documented field by field in ``docs/trace-format.md``; the Rust crate
``tl-trace-model`` is its reference reader. This module only reads public attributes of
TorchLens records, except where noted (the AccumulateGrad -> parameter map) and in
``row_store`` (op fields read ahead from TorchLens's row store). Helpers: ``values`` (value
formats and tensor summaries), ``pictures`` (node pictures), ``bundle`` (bundles).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import torch

from .pictures import _feature_map_picture, _png_picture, annotation_picture
from .row_store import _prefetched_ops, stored_params
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

FORMAT_VERSION = 1


def _branch_edges(trace: Any, ops: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The arrows into condition tests, between passes. TorchLens records them by layer
    (``("getitem_72_454", "eq_14_455")``, once per pass) and labels ``IF`` on every pass's
    arrow between those layers: so does the format, one entry per pass pair."""
    layers = {(str(p).split(":")[0], str(c).split(":")[0]) for p, c in trace.conditional_branch_edges or []}
    layer_of = {op["label"]: op["layer_label"] for op in ops}
    edges = []
    for op in ops:
        for parent in op.get("parents", []):
            if (layer_of[parent], op["layer_label"]) in layers:
                edges.append({"parent": parent, "child": op["label"]})
    return sorted(edges, key=lambda e: (layer_of[e["parent"]], layer_of[e["child"]], e["parent"], e["child"]))


def _decoded_labels(trace: Any) -> list[dict[str, Any]]:
    """Class names TorchLens decoded from the output (models whose config has ``id2label``),
    for batch item 0, best first."""
    decoded = getattr(trace, "decoded_output", None)
    if not isinstance(decoded, Mapping):
        return []
    rows = [row for row in decoded.get("rows") or [] if row.get("batch_item", 0) == 0]
    rows.sort(key=lambda row: row.get("rank", 0))
    return [
        {"label": str(row["label"]), "score": float(row["prob"])}
        for row in rows
        if row.get("label") is not None and row.get("prob") is not None
    ]


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


# ---------------------------------------------------------------------------- ops


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
            key = id(frame)
            if key not in self.known:
                self.known[key] = (frame, self._site(frame))
            site = self.known[key][1]
            if site is not None:
                sites.append(dict(site))
        return sites

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
    by_label = {op["label"]: op for op in ops}
    for op in ops:
        for parent in op.get("parents", []):
            by_label[parent]["children"].append(op["label"])
    for op in ops:
        if not op["children"]:
            del op["children"]


# ---------------------------------------------------------------------------- modules, params


def _export_params(trace: Any) -> list[dict[str, Any]]:
    params = []
    for p in stored_params(trace):
        params.append(
            {
                "address": p.address,
                "name": p.name,
                "module": p.module_address or "self",
                "shape": _shape(p.shape),
                "dtype": _dtype(p.dtype),
                "trainable": bool(p.is_trainable),
                "numel": int(p.num_params),
                "bytes": int(p.param_memory),
            }
        )
    return params


def _export_modules(trace: Any, params: list[dict[str, Any]], model: Any) -> list[dict[str, Any]]:
    """Every module, the ones that never ran (a ``ModuleList``, an untaken branch) included.

    TorchLens only records modules that were called; the others are rebuilt from the
    addresses that mention them, with the class name taken from ``model`` when available.
    """
    modules: dict[str, dict[str, Any]] = {}
    buffers_of: dict[str, set[str]] = {}
    for b in trace.buffers:
        buffers_of.setdefault(b.module_address or "self", set()).add(b.address)
    for m in trace.modules:
        record: dict[str, Any] = {"address": m.address, "class_name": m.class_name}
        if m.address_parent is not None:
            record["parent"] = m.address_parent
        record["depth"] = int(m.address_depth)
        children = list(getattr(m, "address_children", None) or m.call_children or [])
        if children:
            record["children"] = children
        record["num_calls"] = int(m.num_calls)
        record["num_params"] = int(m.num_params)
        record["num_params_trainable"] = int(m.num_params_trainable)
        record["num_params_frozen"] = int(m.num_params_frozen)
        buffers = sorted(buffers_of.get(m.address, ()))
        if buffers:
            record["buffers"] = buffers
        modules[m.address] = record

    def class_of(address: str) -> str:
        try:
            return type(model.get_submodule(address)).__name__
        except (AttributeError, TypeError):
            return "Module"

    def ensure(address: str) -> None:
        if address in modules:
            return
        parent = address.rsplit(".", 1)[0] if "." in address else "self"
        ensure(parent)
        owned = [p for p in params if p["module"] == address or p["module"].startswith(address + ".")]
        trainable = sum(p["numel"] for p in owned if p["trainable"])
        frozen = sum(p["numel"] for p in owned if not p["trainable"])
        modules[address] = {
            "address": address,
            "class_name": class_of(address),
            "parent": parent,
            "depth": modules[parent]["depth"] + 1,
            "num_calls": 0,
            "num_params": trainable + frozen,
            "num_params_trainable": trainable,
            "num_params_frozen": frozen,
        }
        siblings = modules[parent].setdefault("children", [])
        if address not in siblings:
            siblings.append(address)

    mentioned = [c for record in list(modules.values()) for c in record.get("children", [])]
    mentioned += [p["module"] for p in params]
    for address in mentioned:
        ensure(address)
    for address, record in modules.items():
        if record["num_calls"] == 0:
            children = [a for a, r in modules.items() if r.get("parent") == address]
            if children:
                record["children"] = children
    return list(modules.values())


def _export_module_calls(trace: Any) -> list[dict[str, Any]]:
    calls = []
    for call in trace.module_calls:
        if call.address == "self":
            continue
        record: dict[str, Any] = {
            "label": call.call_label,
            "address": call.address,
            "call_index": int(call.call_index),
        }
        parent = call.call_parent_label
        if parent and not parent.startswith("self:"):
            record["parent_call"] = parent
        # Qualified as `_label` does, inline: the labels are many (each op is listed by every
        # call around it) and a function call apiece was a fifth of this loop.
        record["ops"] = [o if ":" in o else f"{o}:1" for o in call.ops]
        record["output_ops"] = [o if ":" in o else f"{o}:1" for o in call.output_ops]
        calls.append(record)
    return calls


# ---------------------------------------------------------------------------- backward, edits


def _export_backward(trace: Any) -> dict[str, Any] | None:
    if not trace.has_backward_pass:
        return None
    param_of = dict(getattr(trace, "_grad_fn_param_refs", None) or {})
    grad_fns = []
    for g in trace.grad_fns:
        record: dict[str, Any] = {"label": g.label, "grad_type": g.type}
        if g.has_op and g.op_label:
            record["forward_layer"] = g.op_label.split(":")[0]
        if g.is_custom:
            record["is_custom"] = True
        record["order"] = int(g.order or 1)
        if g.children:
            record["next"] = list(g.children)
        if g.module_address:
            record["module"] = g.module_address
        if g.label in param_of:
            record["param"] = param_of[g.label]
        calls = []
        for index in range(len(g.calls)):
            call = g.calls[index]
            entry: dict[str, Any] = {"pass": int(call.backward_pass_index or 1)}
            outputs = call.grad_outputs
            first = next((t for t in (outputs or ()) if isinstance(t, torch.Tensor)), None)
            if first is not None:
                entry["grad_output"] = _grad_summary(first.shape, first)
            calls.append(entry)
        if calls:
            record["calls"] = calls
        grad_fns.append(record)
    return {"num_passes": int(trace.num_backward_passes), "grad_fns": grad_fns}


def _export_edits(trace: Any, ops: list[dict[str, Any]], clean_available: bool) -> dict[str, Any] | None:
    """The edits of ``trace`` and where each fired, from the exported ``ops``' own edits."""
    spec = getattr(trace, "intervention_spec", None)
    fired: dict[str, list[str]] = {}
    for op in ops:
        for fire in op.get("edits", ()):
            fired.setdefault(fire["helper"], []).append(op["label"])
    edits = []
    for hook in getattr(spec, "hook_specs", ()) or ():
        helper = _helper_name(getattr(hook.helper, "helper_name", None))
        target = hook.site_target
        sites = fired.pop(helper, [])
        edits.append(
            {
                "helper": helper,
                "target": f"{target.selector_kind} {target.selector_value}",
                "sites": sites,
                "recorded": bool(sites),
            }
        )
    for helper, sites in fired.items():
        edits.append({"helper": helper, "target": "op", "sites": sites, "recorded": True})
    if not edits:
        return None
    return {"edits": edits, "clean_parent_available": clean_available}


# ---------------------------------------------------------------------------- public API


def export_trace(
    trace: Any,
    clean: Any = None,
    source_root: str | None = None,
    model: Any = None,
    feature_maps: Sequence[str] = (),
    value_stats: bool = True,
) -> dict[str, Any]:
    """The ``tl-trace`` v1 document of ``trace``.

    ``clean`` is the unedited trace an edited fork came from (defaults to the fork's
    ``parent_trace``); ``source_root`` makes call-site paths relative to that folder;
    ``model`` (defaults to the traced model while it is alive) names the classes of
    modules that never ran; ``feature_maps`` names ops whose saved activation is drawn
    inside the node as a grid of its channels. ``value_stats=False`` leaves out each
    output's mean absolute value and finiteness (``magnitude``, ``finiteness``): computing
    them reads every saved activation (half of converting GPT-2 small), and only
    ``color_by="magnitude"``, ``view="debug"`` and the interactive page use them.
    """
    if model is None:
        reference = getattr(trace, "_source_model_ref", None)
        model = reference() if callable(reference) else None
    if clean is None and getattr(trace, "intervention_spec", None) is not None:
        clean = getattr(trace, "parent_trace", None)
    call_sites = _CallSites(source_root)
    ops = [_export_op(op, clean, call_sites, value_stats) for op in _prefetched_ops(list(trace.ops))]
    _fill_children(ops)
    photo = _png_picture(getattr(trace, "raw_input", None), "input_photo")
    first_input = next((op for op in ops if op["kind"] == "input"), None)
    if photo is not None and first_input is not None:
        first_input["picture"] = photo
    by_label = {op["label"]: op for op in ops}
    for label in feature_maps:
        record = by_label.get(label) or by_label.get(f"{label}:1")
        if record is None:
            raise ValueError(f"feature_maps: no op {label!r} in this trace")
        picture = _feature_map_picture(_read(trace[record["label"]].out))
        if picture is None:
            raise ValueError(f"feature_maps: op {label!r} saved no (N, C, H, W) activation")
        record["picture"] = picture
    decoded = _decoded_labels(trace)
    first_output = next((op for op in ops if op["kind"] == "output"), None)
    if decoded and first_output is not None:
        first_output["decoded_labels"] = decoded
    params = _export_params(trace)
    conditionals = []
    for record in trace.conditional_records or []:
        entry: dict[str, Any] = {"id": int(record.id)}
        if record.source_file:
            entry["file"] = _relative_path(record.source_file, source_root)
        if record.if_stmt_span:
            entry["line"] = int(record.if_stmt_span[0])
        conditionals.append(entry)
    document: dict[str, Any] = {
        "format": "tl-trace",
        "version": FORMAT_VERSION,
        "model": {"class_name": trace.model_class_name},
        "summary": {
            "num_ops": sum(1 for op in ops if op["kind"] == "op"),
            "num_tensors": len(ops),
            "total_output_bytes": sum(op.get("bytes", 0) for op in ops if op["kind"] != "output"),
            "num_params": int(trace.num_params),
            "num_params_trainable": int(trace.num_params_trainable),
            "num_params_frozen": int(trace.num_params_frozen),
            "total_param_bytes": sum(p["bytes"] for p in params),
        },
        "params": params,
        "modules": _export_modules(trace, params, model),
        "module_calls": _export_module_calls(trace),
        "ops": ops,
    }
    trace_label = getattr(trace, "trace_label", None)
    if trace_label:
        document["model"]["trace_name"] = str(trace_label)
    if conditionals:
        document["conditionals"] = conditionals
    branch_edges = _branch_edges(trace, ops)
    if branch_edges:
        document["conditional_branch_edges"] = branch_edges
    backward = _export_backward(trace)
    if backward is not None:
        document["backward"] = backward
    edits = _export_edits(trace, ops, clean is not None)
    if edits is not None:
        document["edits"] = edits
    advisories = _export_advisories(trace, source_root)
    if advisories:
        document["advisories"] = advisories
    return document


def _export_advisories(trace: Any, source_root: str | None) -> list[dict[str, Any]]:
    """What TorchLens warns about the capture (``scalar_escape``: a tensor turned into a
    Python number), drawn as header lines; where it first happened, as call sites are."""
    # `capture_advisories` alone: the whole honesty record (`capture_honesty_facts`) also
    # scans every op for interventions.
    try:
        from torchlens._capture_honesty import capture_advisories
    except ImportError:  # pragma: no cover - other TorchLens versions
        return []
    advisories = []
    for advisory in capture_advisories(trace):
        entry: dict[str, Any] = {"kind": str(advisory.get("kind")), "count": int(advisory.get("count") or 0)}
        location = advisory.get("first_location")
        if location:
            file, _, line = str(location).rpartition(":")
            entry["first_at"] = f"{_relative_path(file, source_root)}:{line}" if line.isdigit() else str(location)
        advisories.append(entry)
    return advisories
