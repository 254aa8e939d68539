"""The package's exceptions: each carries the stable ``code`` of the Rust error it reports."""

from __future__ import annotations


class DrawError(ValueError):
    """A drawing was refused or failed. ``code`` is the stable error code (the command
    line's ``error[code]``); the message names the problem and what to do."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        return (type(self), (self.code, self.message))


class DrawKeywordError(DrawError, TypeError):
    """``draw()`` got a keyword it does not take (code ``draw_keyword_unknown``); the message
    names the closest keyword. A ``TypeError``, as Python's own unexpected keywords are."""
