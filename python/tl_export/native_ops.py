"""The document ``export_trace(trace, value_stats=False)`` makes, as JSON bytes, with the
common ops' records written by the Rust core (``tl_draw._native.write_ops``) from the fields
``row_store`` read ahead: building each record field by field in Python was a fifth of
converting a real model (MobileNetV3-Large: 373 ops, about 4-6 ms). An op with anything
rarer is written by ``ops._export_op``, which the writer calls back; a trace with what only
the Python converter writes at the document's level is converted by it whole. The Python
converter is the reference: ``tests/test_native_ops.py`` compares the two on real models."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .convert import OpCounts, _branch_edges, _decoded_labels, _document, _export_edits, _model_and_clean
from .ops import _CallSites, _export_op, children_of
from .pictures import _png_picture
from .row_store import _Prefetched, _prefetched_ops
from .values import _label

_orjson: Any
try:  # the ops' JSON is spliced into the document as an ``orjson.Fragment``
    import orjson as _orjson
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None

#: ``write_ops(fields, children, sites, export_one)`` -> the ops' JSON array, and over the
#: ops it wrote itself the number of kind ``op`` and their output bytes but the model outputs'.
OpsWriter = Callable[
    [list[dict[str, Any]], list[list[str]], dict[int, bytes | None], Callable[[int], bytes]],
    tuple[bytes, int, int],
]


def export_trace_json(trace: Any, write_ops: OpsWriter, fill_column: Any = None) -> bytes | None:
    """The JSON of ``export_trace(trace, value_stats=False)``, the same document once parsed;
    ``None`` when the trace needs the Python converter whole: an edited fork (its clean
    trace), an input photo or decoded class names (records of other ops changed after the
    fact), ops not read ahead (other TorchLens internals), or no orjson. Arrows into branch
    tests are found from the ops' fields. ``fill_column`` (``tl_draw._native.fill_column``)
    reads the row store ahead in Rust (``row_store._prefetched_ops``)."""
    if _orjson is None or getattr(_orjson, "Fragment", None) is None:
        return None
    model, clean = _model_and_clean(trace, None, None)
    if clean is not None or _decoded_labels(trace):
        return None
    if _png_picture(getattr(trace, "raw_input", None), "input_photo") is not None:
        return None
    prefetched = _prefetched_ops(list(trace.ops), fill_column)
    if any(type(op) is not _Prefetched for op in prefetched):
        return None
    fields = [op.__dict__ for op in prefetched]
    children = _children(fields)
    if children is None:
        return None
    call_sites = _CallSites(None)
    sites = _sites(fields, call_sites)
    delegated: list[dict[str, Any]] = []

    def export_one(index: int) -> bytes:
        record = _export_op(prefetched[index], None, call_sites, False)
        if children[index]:
            record["children"] = children[index]
        else:
            del record["children"]
        delegated.append(record)
        written: bytes = _orjson.dumps(record)
        return written

    ops_json, num_ops, output_bytes = write_ops(fields, children, sites, export_one)
    others = OpCounts.of(delegated)
    counts = OpCounts(num_ops + others.num_ops, len(fields), output_bytes + others.output_bytes)
    edits = _export_edits(trace, delegated, False)  # only delegated ops have edits
    branch_edges = _branch_edges(trace, _arrow_ends(fields)) if trace.conditional_branch_edges else []
    document = _document(trace, _orjson.Fragment(ops_json), counts, model, None, branch_edges, edits)
    written: bytes = _orjson.dumps(document)
    return written


def _arrow_ends(fields: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What ``convert._branch_edges`` reads of the ops' records (label, layer, parents as the
    records qualify them), from their fields."""
    return [
        {"label": op["label"], "layer_label": op["layer_label"], "parents": [_label(p) for p in op["parents"] or ()]}
        for op in fields
    ]


def _children(fields: list[dict[str, Any]]) -> list[list[str]] | None:
    """Each op's children, as ``ops._fill_children`` finds them; ``None`` where that would
    fail (a parent not among the ops, a field missing), for the converter to report."""
    try:
        return children_of([op["label"] for op in fields], [op["parents"] or () for op in fields])
    except (KeyError, TypeError):
        return None


def _sites(fields: list[dict[str, Any]], call_sites: _CallSites) -> dict[int, bytes | None]:
    """The JSON of each op's call site by the ``id()`` of its frame (``None``: no site), as
    ``_CallSites.of`` reads an op's first frame."""
    sites: dict[int, bytes | None] = {}
    for op in fields:
        frames = op.get("code_context")
        if frames and isinstance(frames, (list, tuple)):
            frame = frames[0]
            if id(frame) not in sites:
                site = call_sites.site_of(frame)
                sites[id(frame)] = None if site is None else _orjson.dumps(site)
    return sites
