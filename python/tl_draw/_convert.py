"""What can be drawn, as the documents the Rust core reads: JSON bytes built in memory from
live TorchLens objects (no temporary file), or paths to trace files."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

try:  # orjson writes the JSON several times faster when it is installed.
    import orjson as _orjson
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None

#: A document the native ``draw`` reads: JSON bytes or a file path.
Document = bytes | str


def _json_bytes(document: dict[str, Any]) -> bytes:
    if _orjson is not None:
        return _orjson.dumps(document)
    return json.dumps(document, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def _is_live_trace(value: Any) -> bool:
    return hasattr(value, "ops") and hasattr(value, "model_class_name")


def _is_live_bundle(value: Any) -> bool:
    return hasattr(value, "names") and hasattr(value, "traces") and not _is_live_trace(value)


def _trace_name(trace: Any, index: int) -> str:
    name = getattr(trace, "trace_label", None) or getattr(trace, "name", None)
    return str(name) if isinstance(name, str) and name else f"trace_{index + 1}"


def documents_of(subject: Any) -> tuple[list[Document], list[str] | None]:
    """The documents ``subject`` stands for, and member names for a list of traces.

    ``subject`` is a live TorchLens ``Trace`` (an edited fork included), a ``tl.Bundle``, a
    list of traces (or of ``(name, trace)`` pairs), a path to a trace or bundle file, or a
    ``tl-trace`` / ``tl-bundle`` document already as a dict.
    """
    # Imported here: drawing a trace file needs neither torch nor torchlens.
    if isinstance(subject, (str, os.PathLike)):
        return [os.fspath(subject)], None
    if isinstance(subject, dict) and subject.get("format") in ("tl-trace", "tl-bundle"):
        return [_json_bytes(subject)], None
    if _is_live_bundle(subject):
        from tl_export import export_bundle

        return [_json_bytes(export_bundle(subject))], None
    if _is_live_trace(subject):
        from tl_export import export_trace

        return [_json_bytes(export_trace(subject))], None
    if isinstance(subject, Sequence) and subject and not isinstance(subject, (bytes, bytearray)):
        documents: list[Document] = []
        names: list[str] = []
        for index, member in enumerate(subject):
            name = None
            if isinstance(member, tuple) and len(member) == 2 and isinstance(member[0], str):
                name, member = member
            member_documents, _ = documents_of(member)
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
