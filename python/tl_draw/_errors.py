"""The package's exceptions: each carries the stable ``code`` of the Rust error it reports."""

from __future__ import annotations

import errno
import os


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


# The kinds of Rust's std::io::ErrorKind the file system reports, as errno numbers: OSError
# picks its subclass (FileNotFoundError, PermissionError, ...) from the number.
_ERRNO_OF_KIND = {
    "NotFound": errno.ENOENT,
    "PermissionDenied": errno.EACCES,
    "AlreadyExists": errno.EEXIST,
    "IsADirectory": errno.EISDIR,
    "NotADirectory": errno.ENOTDIR,
    "ReadOnlyFilesystem": errno.EROFS,
    "StorageFull": errno.ENOSPC,
    "FileTooLarge": errno.EFBIG,
    "InvalidFilename": errno.ENAMETOOLONG,
}


def file_error(code: str, message: str, kind: str, path: str | os.PathLike[str]) -> OSError:
    """The ``OSError`` for a read or write the file system refused: the subclass of ``kind``
    (``FileNotFoundError`` for ``NotFound``, ...), naming ``path``, with the Rust error's
    stable ``code`` as an attribute (raised by the binding)."""
    error = OSError(_ERRNO_OF_KIND.get(kind, errno.EIO), message, os.fspath(path))
    error.code = code  # type: ignore[attr-defined]
    return error
