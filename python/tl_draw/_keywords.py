"""The keywords of ``draw()`` and ``trace.draw()``, typed for checkers and editors.

The core declares the keywords (``tl_draw.keywords()`` lists them, in the guide's order);
this is their Python typing, kept equal to that list by ``tests/test_types.py``. Every value
is also checked by the core when ``draw()`` is called.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, TypedDict

#: ``"none"``, ``"auto"``, ``"max"`` or a level from 0.0 to 1.0.
Collapse = Literal["none", "auto", "max"] | float
#: A value name (``"time"``, ``"bytes"``, a TorchLens layer field, a numeric op field) or a
#: function of the node returning a number or ``None``.
ValueSource = str | Callable[..., float | None]


class DrawKeywords(TypedDict, total=False):
    """Every keyword ``draw`` takes; all are optional."""

    file_format: str
    """Output format, overriding the extension: pdf, png, svg, svgz, ps, eps, dot, json,
    xdot, plain or html."""
    dpi: float
    """Resolution of PNG output (96 when not given)."""
    view: str
    """A ready-made view: debug, speed, memory, compute, transformer, sequence, interventions."""
    graph: Literal["forward", "backward", "combined", "diff"]
    """Which graph (``"diff"``: a bundle's differences)."""
    depth: int
    """Modules at this level of the module tree are drawn as one box each (0: never box)."""
    collapse: Collapse
    """How much to fold."""
    fold_repeats: bool
    """Fold runs of identical blocks into one capsule."""
    module: str | Any
    """Draw only this module (an address such as ``"blocks.1"``, or a Module record)."""
    rolled: bool
    """Draw each layer once, with its passes (recurrent models)."""
    direction: Literal["bottomup", "topdown", "leftright", "rightleft"]
    """Which way the graph flows."""
    node_style: Literal["default", "profiling"]
    """What node labels show."""
    node_label_fields: Sequence[str]
    """The fields each node's label lists, in order."""
    theme: str
    """A colour theme: torchlens (the default), paper, dark, colorblind or high_contrast."""
    show_buffers: Literal["never", "meaningful", "always"]
    """Which buffers are drawn."""
    show_legend: bool
    """Draw the key."""
    color_by: ValueSource
    """Fill nodes from a colour scale by this value."""
    size_by: ValueSource
    """Scale node area by this value."""
    size_scale: Literal["sqrt", "linear"]
    """How ``size_by`` values map to area."""
    show_cone: bool
    """Shade what an edit could change (an edited fork)."""
    show_saved_for_backward: bool
    """Mark what each op saved for the backward pass."""
    show_redundant_args: bool
    """Show arguments equal to their defaults."""
    show_edge_shapes: bool
    """Label arrows with tensor shapes."""
    show_module_paths: bool
    """Write the module path under each node."""
    show_grad_values: bool
    """Show gradient summaries on backward drawings."""
    layout_engine: Literal["auto", "embedded", "layered", "dot"]
    """The embedded layout engine, or the system's Graphviz ``dot``."""
    batch_render: Literal["auto", "shape_only"]
    """How batched values are drawn."""
    max_nodes: int
    """Refuse a layout of more nodes than this."""
    max_layout_cost: int
    """Refuse a layout whose estimated cost is over this."""
    force: bool
    """Lay out however large the drawing is."""
    node_spec_fn: Callable[..., Any]
    """Restyle nodes: ``(layer, spec) -> spec | None`` as TorchLens, or ``(node) -> dict | None``."""
    metric: str
    """A bundle's metric to draw (``graph="diff"``)."""
    on: Literal["out", "grad"]
    """Compare outputs or gradients (a bundle)."""
    members: Sequence[str]
    """The bundle members to compare."""
