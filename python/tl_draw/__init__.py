"""tl-draw: TorchLens's model-graph drawing on a Rust core.

    import torchlens as tl
    import tl_draw

    tl_draw.install()                 # trace.draw(...) and bundle.draw(...) now use tl-draw
    trace = tl.trace(model, x)
    trace.draw("my_model")            # writes my_model.pdf; returns a Drawing
    trace.draw(collapse="auto")       # in a notebook, shows the drawing inline

    tl_draw.draw(trace, "model.svg", depth=2)   # the same without install()
    tl_draw.draw("model.json", "model.png")     # a trace file exported earlier

Every keyword of the TorchLens drawing guide is accepted with its spelling and values;
errors are ``DrawError`` (a ``ValueError`` with the Rust error's ``code``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import _native
from ._convert import documents_of, needs_value_stats
from ._drawing import Drawing, ScheduleStop
from ._errors import DrawError, DrawKeywordError
from ._hooks import Node, NodeSpec, Record, node_spec_hook, record_lookup, value_hook
from ._install import install, installed, uninstall
from ._keywords import DrawKeywords

if TYPE_CHECKING:  # Unpack is in typing from Python 3.11; annotations are never evaluated.
    from typing_extensions import Unpack

__all__ = [
    "DrawError",
    "DrawKeywordError",
    "DrawKeywords",
    "Drawing",
    "Node",
    "NodeSpec",
    "Record",
    "ScheduleStop",
    "draw",
    "install",
    "installed",
    "keywords",
    "uninstall",
]

__version__: str = _native.__version__

# The wheel ships the fonts drawings use, so that they look the same on every machine and
# draw where no fonts are installed; a source install uses the system's.
_FONTS = os.path.join(os.path.dirname(__file__), "fonts")
if os.path.isdir(_FONTS):
    _native.use_fonts(_FONTS)

_DRAW_KEYWORDS, _BUNDLE_KEYWORDS = _native.keyword_names()
_CALLABLE_KEYWORDS = ("node_spec_fn",)  # wired by the binding itself


def keywords() -> tuple[str, ...]:
    """Every keyword ``draw`` takes, in the guide's order (bundle keywords last)."""
    return (*_DRAW_KEYWORDS, *_CALLABLE_KEYWORDS, *_BUNDLE_KEYWORDS)


def _live_trace(subject: Any) -> Any:
    """The live TorchLens trace whose records callables are asked about, if there is one."""
    if hasattr(subject, "ops") and hasattr(subject, "model_class_name"):
        return subject
    return None


def _prepared(subject: Any, keywords: Mapping[str, Any]) -> dict[str, Any]:
    """The keywords as the core takes them: callables adapted, records named."""
    prepared = dict(keywords)
    lookup = record_lookup(_live_trace(subject))
    module = prepared.get("module")
    if module is not None and not isinstance(module, str):
        # A Module record: its address.
        address = getattr(module, "address", None) or getattr(module, "module_address", None)
        if not isinstance(address, str):
            raise TypeError(f"module= takes a module address or a Module record; got {type(module).__name__}")
        prepared["module"] = address
    spec_fn = prepared.get("node_spec_fn")
    if spec_fn is not None:
        if not callable(spec_fn):
            raise TypeError("node_spec_fn= takes a function (layer, spec) -> spec | None, or (node) -> dict | None")
        prepared["node_spec_fn"] = node_spec_hook(spec_fn, lookup)
    for channel in ("color_by", "size_by"):
        source = prepared.get(channel)
        if callable(source):
            prepared[channel] = value_hook(source, lookup)
    # trace.batch_render = "shape_only" (a capture option TorchLens keeps on the trace).
    batch_render = getattr(subject, "batch_render", None)
    if "batch_render" not in prepared and isinstance(batch_render, str):
        prepared["batch_render"] = batch_render
    return prepared


def draw(
    subject: Any,
    outpath: str | os.PathLike[str] | None = None,
    **keywords: Unpack[DrawKeywords],
) -> Drawing:
    """Draws ``subject`` and returns the ``Drawing``; with ``outpath``, also writes it.

    ``subject`` is a TorchLens ``Trace`` (an edited fork included), a ``tl.Bundle``, a list of
    traces (drawn as their union), a ``torch.export.ExportedProgram`` (or its saved ``.pt2``),
    or a path to a trace or bundle file or a saved ONNX model (``.onnx``). The format is
    ``file_format=`` if given, else the extension of ``outpath``, else PDF. Keywords are the
    guide's: ``collapse="auto"``, ``depth=2``, ``module="blocks.1"``, ``view="speed"``,
    ``theme="dark"``, ``color_by="time"`` (or a function of a node), ``node_spec_fn=``, ...
    """
    # Before any work: a misspelt keyword is a DrawKeywordError naming the closest one.
    _native.check_keywords(list(keywords))
    value_stats = needs_value_stats(outpath, keywords)
    documents, names = documents_of(subject, value_stats)
    prepared = _prepared(subject, keywords)
    native = _native.draw(documents, prepared, names)

    def with_value_stats() -> _native.NativeDrawing:
        documents, names = documents_of(subject, True)
        return _native.draw(documents, prepared, names)

    drawing = Drawing(native, with_value_stats=None if value_stats else with_value_stats)
    if outpath is not None:
        drawing.save(outpath, keywords.get("file_format"))
    return drawing
