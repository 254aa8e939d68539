"""What can be drawn, as the documents the Rust core reads: JSON bytes built in memory from
live TorchLens objects (no temporary file), or paths to trace files."""

from __future__ import annotations

import contextlib
import gc
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from . import _native
from ._cache import converted
from ._errors import DrawError

_orjson: Any
try:  # orjson writes the JSON several times faster when it is installed.
    import orjson as _orjson
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None

#: A document the native ``draw`` reads: JSON bytes or a file path.
Document = bytes | str


def _json_bytes(document: dict[str, Any]) -> bytes:
    if _orjson is not None:
        written: bytes = _orjson.dumps(document)
        return written
    return json.dumps(document, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


@contextlib.contextmanager
def _no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused: converting a trace makes tens of thousands of
    small dicts and lists, each batch of which would start a collection over the whole heap
    (580,000 objects after TorchLens drew GPT-2 small: 9 of its 66 ms). What it makes is
    acyclic and freed by reference counting; anything cyclic made meanwhile waits for the
    next collection."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def is_exported_program(value: Any) -> bool:
    """Whether ``value`` is a ``torch.export.ExportedProgram`` (without importing torch)."""
    return any(cls.__name__ == "ExportedProgram" for cls in type(value).__mro__)


def _is_live_trace(value: Any) -> bool:
    return hasattr(value, "ops") and hasattr(value, "model_class_name")


def _is_live_bundle(value: Any) -> bool:
    return hasattr(value, "names") and hasattr(value, "traces") and not _is_live_trace(value)


def _trace_name(trace: Any, index: int) -> str:
    name = getattr(trace, "trace_label", None) or getattr(trace, "name", None)
    return str(name) if isinstance(name, str) and name else f"trace_{index + 1}"


def documents_of(subject: Any, value_stats: bool = True) -> tuple[list[Document], list[str] | None]:
    """The documents ``subject`` stands for, and member names for a list of traces.

    ``subject`` is a live TorchLens ``Trace`` (an edited fork included), a ``tl.Bundle``, a
    list of traces (or of ``(name, trace)`` pairs), a ``torch.export.ExportedProgram`` (or
    its ``.pt2`` file), a path to a trace or bundle file or an ONNX model (``.onnx``), or a
    ``tl-trace`` / ``tl-bundle`` document already as a dict. ``value_stats=False`` converts
    live traces without their activations' summaries (``tl_export.export_trace``).
    """
    # Imported here: drawing a trace file needs neither torch nor torchlens.
    if isinstance(subject, (str, os.PathLike)):
        if os.fspath(subject).endswith(".pt2"):
            from tl_export.exported import load_program

            subject = load_program(subject)
        else:
            return [os.fspath(subject)], None
    if is_exported_program(subject):
        from tl_export.exported import export_program

        return [_json_bytes(export_program(subject))], None
    if isinstance(subject, dict) and subject.get("format") in ("tl-trace", "tl-bundle"):
        return [_json_bytes(subject)], None
    if _is_live_bundle(subject):
        from tl_export import export_bundle

        return [_json_bytes(export_bundle(subject))], None
    if _is_live_trace(subject):
        from tl_export import export_trace
        from tl_export.native_ops import export_trace_json
        from tl_export.pictures import PictureError

        def convert() -> bytes:
            with _no_collection():
                # The common ops written by the Rust core where the document allows it.
                written = None if value_stats else export_trace_json(subject, _native.write_ops, _native.fill_column)
                return written if written is not None else _json_bytes(export_trace(subject, value_stats=value_stats))

        try:
            return [converted(subject, value_stats, convert)], None
        except PictureError as error:
            raise DrawError("annotation_picture_unreadable", str(error)) from error
    if isinstance(subject, Sequence) and subject and not isinstance(subject, (bytes, bytearray)):
        documents: list[Document] = []
        names: list[str] = []
        for index, member in enumerate(subject):
            name = None
            if isinstance(member, tuple) and len(member) == 2 and isinstance(member[0], str):
                name, member = member
            member_documents, _ = documents_of(member, value_stats)
            if len(member_documents) != 1:
                raise TypeError("a list to draw holds traces, (name, trace) pairs or trace files, not bundles")
            documents.extend(member_documents)
            if name is None:
                name = (
                    os.path.splitext(os.path.basename(member))[0]
                    if isinstance(member, (str, os.PathLike))
                    else _trace_name(member, index)
                )
            names.append(str(name))
        return documents, names
    raise TypeError(
        "draw() draws a TorchLens Trace, a tl.Bundle, a list of traces, or a path to a trace file; "
        f"got {type(subject).__name__}"
    )


def needs_value_stats(outpath: Any, keywords: Mapping[str, Any]) -> bool:
    """Whether a drawing asked for with these arguments reads the activations' summaries
    (mean absolute value, finiteness): ``view="debug"`` marks non-finite outputs, a
    ``color_by``/``size_by`` name may be ``"magnitude"`` (a function reads the live record
    instead), and the interactive page shows every field. Anything else draws the same
    without them, and a real model's conversion takes half the time."""
    if keywords.get("view") == "debug":
        return True
    if any(isinstance(keywords.get(channel), str) for channel in ("color_by", "size_by")):
        return True
    file_format = keywords.get("file_format")
    if file_format is None and outpath is not None:
        file_format = os.path.splitext(os.fspath(outpath))[1].lstrip(".")
    return isinstance(file_format, str) and file_format.lower() == "html"
