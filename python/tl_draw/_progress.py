"""The progress of a long drawing, shown where the user works: a bar in a Jupyter notebook's
output, a line redrawn on a terminal's stderr, nothing elsewhere (a log, a pipe).

The Rust core makes one ``Display`` per drawing call that has taken a second (most never
do; ``SHOW_AFTER`` changes the second), calls its ``report`` on the calling thread about
every 50 ms and ``finish`` when the drawing ends; the text is the core's. A display that
fails is dropped: progress never stops a drawing.
"""

from __future__ import annotations

import html
import importlib
import sys
from typing import Any

SHOW_AFTER: float | None = None
"""Seconds a drawing runs before its progress shows; ``None``: the core's (a second)."""


def _notebook_display() -> Any:
    """A display to update in place in the running notebook cell, or ``None`` outside one."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return None
    shell = ipython.get_ipython()
    if shell is None or not hasattr(shell, "kernel"):
        return None
    display = importlib.import_module("IPython.display").display
    return display(_bundle(""), raw=True, display_id=True)


def _bundle(text_html: str, text: str = "") -> dict[str, str]:
    """The output as published: a saved notebook keeps its last state, empty once done."""
    return {"text/html": text_html, "text/plain": text}


def _bar_html(fraction: float, text: str) -> str:
    percent = int(max(0.0, min(1.0, fraction)) * 100)
    return (
        '<div class="tl-draw-progress" style="font-family: sans-serif; font-size: 0.9em">'
        f'<progress value="{percent}" max="100" style="width: 16em; vertical-align: middle">'
        f"</progress> {percent}% {html.escape(text)}</div>"
    )


class Display:
    """One drawing's progress: a notebook output updated in place, or a terminal line."""

    def __init__(self) -> None:
        self._handle = _notebook_display()
        self._on_terminal = self._handle is None and sys.stderr is not None and sys.stderr.isatty()

    def report(self, fraction: float, text: str, line: str) -> None:
        """Shows the drawing ``fraction`` (0 to 1) done, ``text`` saying what it does (in a
        notebook) or ``line`` (a terminal's bar)."""
        if self._handle is not None:
            self._handle.update(_bundle(_bar_html(fraction, text), text), raw=True)
        elif self._on_terminal:
            sys.stderr.write(f"\r{line}\x1b[K")
            sys.stderr.flush()

    def finish(self) -> None:
        """Removes what ``report`` showed: the bar is only for while the drawing runs."""
        if self._handle is not None:
            self._handle.update(_bundle(""), raw=True)
        elif self._on_terminal:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
