"""The ``Drawing`` that ``draw`` returns: DOT source, collapse schedule, files, inline display."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import _native


@dataclass(frozen=True)
class ScheduleStop:
    """One stop of the collapse schedule: the ``level`` (0.0 is ``"none"``, 1.0 is
    ``"max"``), how many ``nodes`` it draws, what it ``folds`` beyond the previous stop, and
    whether it is the stop ``"auto"`` picks and the one this drawing shows."""

    level: float
    nodes: int
    folds: tuple[str, ...]
    is_auto: bool
    is_drawn: bool

    def __str__(self) -> str:
        marks = "".join((" [auto]" if self.is_auto else "", " [drawn]" if self.is_drawn else ""))
        folded = f"  {'; '.join(self.folds)}" if self.folds else ""
        return f"t={self.level:.6f} {self.nodes:>5} nodes{marks}{folded}"


class Drawing:
    """A drawing of a trace. ``dot`` is the Graphviz source; ``collapse_schedule`` lists the
    folding steps; ``save`` writes a file by the guide's rules; in a notebook the drawing
    displays itself as an interactive viewer, or as a picture where scripts cannot run."""

    def __init__(
        self,
        native: _native.NativeDrawing,
        path: Path | None = None,
        warnings: tuple[str, ...] = (),
        with_value_stats: Callable[[], _native.NativeDrawing] | None = None,
    ) -> None:
        self._native = native
        # Drawn from a live trace converted without the activations' summaries: the
        # interactive page, which shows every field, draws it again with them.
        self._with_value_stats = with_value_stats
        self.path = path
        """The file written by ``draw(..., outpath)`` (or the last ``save``), else ``None``."""
        self.warnings = warnings
        """What the user should know about the last file written (scaled down, ...)."""
        self._svg: str | None = None
        self._notebook: dict[str, Any] | None = None

    @property
    def dot(self) -> str:
        """The Graphviz DOT source."""
        return self._native.dot

    @property
    def collapse_schedule(self) -> list[ScheduleStop]:
        """The stops of the collapse schedule of this drawing's trace, from ``"none"`` to
        ``"max"`` (empty for bundle drawings)."""
        return [
            ScheduleStop(level, nodes, tuple(folds), is_auto, is_drawn)
            for level, nodes, folds, is_auto, is_drawn in self._native.schedule()
        ]

    @property
    def node_count(self) -> int:
        """How many nodes are drawn (the key not counted)."""
        return self._native.node_count

    @property
    def header(self) -> list[str]:
        """The header lines at the top left, top to bottom."""
        return self._native.header

    @property
    def node_rows(self) -> list[list[str]]:
        """The text rows of every drawn node, in drawing order."""
        return self._native.node_rows

    @property
    def census(self) -> str | None:
        """The record ``view="interventions"`` writes beside the image, if any."""
        return self._native.census

    def render(self, file_format: str = "svg") -> bytes:
        """The drawing's bytes in ``file_format``: ``svg``, ``png``, ``pdf``, ``svgz``, ``ps``,
        ``eps``, ``dot``, ``json``, ``xdot``, ``plain`` or ``html`` (the interactive page)."""
        data, _warnings = self._native_for(file_format).render(file_format)
        return data

    def _native_for(self, file_format: str | None, path: str | os.PathLike[str] | None = None) -> _native.NativeDrawing:
        """The native drawing that writes ``file_format`` (or ``path``'s extension)."""
        if file_format is None and path is not None:
            file_format = os.path.splitext(os.fspath(path))[1].lstrip(".")
        if self._with_value_stats is not None and isinstance(file_format, str) and file_format.lower() == "html":
            self._native, self._with_value_stats = self._with_value_stats(), None
        return self._native

    def svg(self) -> str:
        """The SVG text (laid out once, then kept)."""
        if self._svg is None:
            self._svg = self.render("svg").decode("utf-8")
        return self._svg

    def save(
        self,
        path: str | os.PathLike[str],
        file_format: str | None = None,
        dpi: float | None = None,
    ) -> Path:
        """Writes the drawing atomically: ``file_format`` wins, else the extension picks the
        format (pdf, png, svg, dot), else PDF; returns the path written."""
        written, warnings = self._native_for(file_format, path).save(os.fspath(path), file_format, dpi)
        self.path, self.warnings = Path(os.path.abspath(written)), tuple(warnings)
        return self.path

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """The notebook output: an interactive viewer (zoom, search, fields, the schedule's
        stops, boxes that open) where the notebook runs scripts, and a picture where it does
        not (an untrusted notebook, GitHub, nbviewer); kept once made."""
        if self._notebook is None:
            html, png, _caption = self._native_for("html").notebook()
            self._notebook = {"text/html": html, "image/png": png}
        return {**self._notebook, "text/plain": repr(self)}

    def __repr__(self) -> str:
        where = f", written to {str(self.path)!r}" if self.path else ""
        return f"<tl_draw.Drawing: {self.node_count} nodes{where}>"
