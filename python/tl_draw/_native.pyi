"""Types of the Rust extension module ``tl_draw._native`` (``crates/py``)."""

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

__version__: str

#: A document: JSON bytes built in memory, or the path of a trace or bundle file.
_Source = bytes | str | os.PathLike[str]

class NativeDrawing:
    """A drawing, laid out and painted when it is first rendered or saved."""

    @property
    def dot(self) -> str: ...
    @property
    def node_count(self) -> int: ...
    @property
    def header(self) -> list[str]: ...
    @property
    def node_rows(self) -> list[list[str]]: ...
    @property
    def census(self) -> str | None: ...
    def schedule(self) -> list[tuple[float, int, list[str], bool, bool]]: ...
    def render(self, file_format: str) -> tuple[bytes, list[str]]: ...
    def notebook(self) -> tuple[str, bytes, str | None]: ...
    def save(
        self,
        path: str | os.PathLike[str],
        file_format: str | None = None,
        dpi: float | None = None,
    ) -> tuple[Path, list[str]]: ...

def draw(
    documents: Sequence[_Source],
    keywords: Mapping[str, Any],
    names: Sequence[str] | None = None,
) -> NativeDrawing: ...
def keyword_names() -> tuple[list[str], list[str]]: ...
def check_keywords(names: Sequence[str]) -> None: ...
def use_fonts(folder: str | os.PathLike[str]) -> None: ...
def forget_recent_layouts() -> None: ...
def write_ops(
    fields: list[dict[str, Any]],
    children: list[list[str]],
    sites: dict[int, bytes | None],
    export_one: Callable[[int], bytes],
) -> tuple[bytes, int, int]: ...
def fill_column(
    records: list[dict[str, Any]],
    rows: list[int],
    cells: list[Any],
    name: str,
    missing: object,
    marked_class: type | None,
    marked_value: object | None,
    resolve: Callable[[int, Any], Any],
    fid: int | None = None,
) -> None: ...
