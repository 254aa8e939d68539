"""Convert a TorchLens 2.36.x ``Trace`` (and ``Bundle``) to the ``tl-trace`` v1 JSON format.

The format is documented field by field in ``docs/trace-format.md``; the Rust crate
``tl-trace-model`` is its reference reader. This module only reads public attributes of
TorchLens records, except where noted (the AccumulateGrad -> parameter map) and in
``row_store`` (op fields read ahead from TorchLens's row store). Helpers: ``ops`` (an op's
record), ``native_ops`` (the common ops' records written by the Rust core), ``values``
(value formats and tensor summaries), ``pictures`` (node pictures), ``bundle`` (bundles).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from .ops import _CallSites, _export_op, _fill_children, _helper_name
from .pictures import _feature_map_picture, _png_picture
from .row_store import _prefetched_ops, stored_params
from .values import _dtype, _grad_summary, _read, _relative_path, _shape

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
    model, clean = _model_and_clean(trace, model, clean)
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
    return _document(
        trace,
        ops,
        OpCounts.of(ops),
        model,
        source_root,
        _branch_edges(trace, ops),
        _export_edits(trace, ops, clean is not None),
    )


@dataclass(frozen=True)
class OpCounts:
    """What the document's summary counts of its ops: those of kind ``op``, all of them, and
    the bytes of every output but the model's outputs."""

    num_ops: int
    num_tensors: int
    output_bytes: int

    @staticmethod
    def of(ops: list[dict[str, Any]]) -> OpCounts:
        return OpCounts(
            sum(1 for op in ops if op["kind"] == "op"),
            len(ops),
            sum(op.get("bytes", 0) for op in ops if op["kind"] != "output"),
        )


def _model_and_clean(trace: Any, model: Any, clean: Any) -> tuple[Any, Any]:
    """The traced model while it is alive, and an edited fork's clean trace, unless given."""
    if model is None:
        reference = getattr(trace, "_source_model_ref", None)
        model = reference() if callable(reference) else None
    if clean is None and getattr(trace, "intervention_spec", None) is not None:
        clean = getattr(trace, "parent_trace", None)
    return model, clean


def _document(
    trace: Any,
    ops: Any,
    counts: OpCounts,
    model: Any,
    source_root: str | None,
    branch_edges: list[dict[str, str]],
    edits: dict[str, Any] | None,
) -> dict[str, Any]:
    """The document of ``trace`` around its ``ops`` (a list of records, or their JSON)."""
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
            "num_ops": counts.num_ops,
            "num_tensors": counts.num_tensors,
            "total_output_bytes": counts.output_bytes,
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
    if branch_edges:
        document["conditional_branch_edges"] = branch_edges
    backward = _export_backward(trace)
    if backward is not None:
        document["backward"] = backward
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
