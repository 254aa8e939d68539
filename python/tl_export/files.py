"""Writing exported documents: UTF-8 JSON in the canonical layout of ``tl-trace`` files,
atomically (a temporary file in the same folder, then a rename)."""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any


def write_json(document: dict[str, Any], path: str) -> None:
    """Write a document as UTF-8 JSON in the canonical layout, atomically."""
    write_text(path, canonical_json(document))


def canonical_json(document: dict[str, Any]) -> str:
    """The canonical layout of ``tl-trace`` files (docs/trace-format.md): the document is
    laid open down to its lists, two spaces per level (and a bundle's members like traces);
    each element of a list is a record, written compactly on its own line. Large traces in
    this layout load fastest: tl-draw cuts the ops list between two lines."""

    def compact(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))

    def laid_open(value: Any, level: int, open_elements: bool = False) -> str:
        if not isinstance(value, (dict, list)) or not value:
            return compact(value)
        inner = "\n" + "  " * (level + 1)
        if isinstance(value, dict):
            entries = [
                f"{compact(key)}: {laid_open(item, level + 1, level == 0 and key == 'members')}"
                for key, item in value.items()
            ]
            brackets = "{}"
        else:
            entries = [laid_open(item, level + 1) if open_elements else compact(item) for item in value]
            brackets = "[]"
        return brackets[0] + inner + ("," + inner).join(entries) + "\n" + "  " * level + brackets[1]

    return laid_open(document, 0)


def write_text(path: str, text: str) -> None:
    """Write text atomically (temp file in the same folder, then rename), ending in a newline."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text if text.endswith("\n") else text + "\n")
    # mkstemp makes the file readable by its owner only; a written trace is an ordinary file.
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temp, 0o666 & ~umask)
    os.replace(temp, path)
