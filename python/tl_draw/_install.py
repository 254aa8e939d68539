"""``install()``: TorchLens's own ``Trace.draw`` and ``Bundle.draw`` draw with tl-draw, so the
guide's lines (``trace.draw(collapse="auto")``, ``bundle.draw(graph="diff")``) run verbatim."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ._keywords import DrawKeywords

_ORIGINALS: dict[tuple[type, str], Any] = {}


def _trace_draw(self: Any, outpath: str | os.PathLike[str] | None = None, **keywords: Unpack[DrawKeywords]) -> Any:
    """Draws this trace with tl-draw (``tl_draw.install()``): ``trace.draw(path, **keywords)``
    as the drawing guide reads; returns a ``tl_draw.Drawing``."""
    from . import draw

    return draw(self, outpath, **keywords)


def _trace_annotate(self: Any, selector: Any, *args: Any, image: Any = None, **keywords: Any) -> Any:
    """TorchLens's ``trace.annotate``, keeping a PIL image given as ``image=`` (TorchLens keeps
    only its text) so that the drawing can show it (``tl_draw.install()``)."""
    import torchlens

    original = _ORIGINALS.get((torchlens.Trace, "annotate")) or _inherited(torchlens.Trace, "annotate")
    target = original(self, selector, *args, image=image, **keywords)
    if image is not None and not isinstance(image, (str, os.PathLike)):
        from tl_export.pictures import KEPT_IMAGES

        owner = target if target is not None else self
        owner.__dict__.setdefault(KEPT_IMAGES, {})[str(image)] = image
    return target


def _inherited(cls: type, name: str) -> Any:
    """``cls.name`` as it is without this package's patch (from a base class)."""
    for base in cls.__mro__[1:]:
        if name in base.__dict__:
            return base.__dict__[name]
    raise AttributeError(f"{cls.__name__} has no {name}")


def _patches() -> list[tuple[type, str, Any]]:
    import torchlens

    return [
        (torchlens.Trace, "draw", _trace_draw),
        (torchlens.Bundle, "draw", _trace_draw),
        (torchlens.Trace, "annotate", _trace_annotate),
    ]


def install() -> None:
    """Makes ``torchlens.Trace.draw`` and ``torchlens.Bundle.draw`` draw with tl-draw (for
    every trace, edited forks included), and ``Trace.annotate`` keep a PIL image given as
    ``image=`` for the drawing. ``uninstall()`` puts TorchLens's own back."""
    for cls, name, patch in _patches():
        key = (cls, name)
        if key not in _ORIGINALS:
            _ORIGINALS[key] = cls.__dict__.get(name)
        setattr(cls, name, patch)


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
