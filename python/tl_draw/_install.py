"""``install()``: TorchLens's own ``Trace.draw`` and ``Bundle.draw`` draw with tl-draw, so the
guide's lines (``trace.draw(collapse="auto")``, ``bundle.draw(graph="diff")``) run verbatim."""

from __future__ import annotations

import os
from typing import Any

_ORIGINALS: dict[tuple[type, str], Any] = {}


def _trace_draw(self: Any, outpath: str | os.PathLike[str] | None = None, **keywords: Any) -> Any:
    """Draws this trace with tl-draw (``tl_draw.install()``): ``trace.draw(path, **keywords)``
    as the drawing guide reads; returns a ``tl_draw.Drawing``."""
    from . import draw

    return draw(self, outpath, **keywords)


def _classes() -> list[type]:
    import torchlens

    return [torchlens.Trace, torchlens.Bundle]


def install() -> None:
    """Makes ``torchlens.Trace.draw`` and ``torchlens.Bundle.draw`` draw with tl-draw (for
    every trace, edited forks included). ``uninstall()`` puts TorchLens's own back."""
    for cls in _classes():
        key = (cls, "draw")
        if key not in _ORIGINALS:
            _ORIGINALS[key] = cls.__dict__.get("draw")
        cls.draw = _trace_draw  # type: ignore[attr-defined]


def uninstall() -> None:
    """Undoes ``install()``."""
    for (cls, name), original in list(_ORIGINALS.items()):
        if original is None:
            delattr(cls, name)
        else:
            setattr(cls, name, original)
        del _ORIGINALS[(cls, name)]


def installed() -> bool:
    """Whether ``install()`` is in effect."""
    return bool(_ORIGINALS)
