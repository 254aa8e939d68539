"""The converted form of live traces, kept while the trace is unchanged, so that drawing the
same trace again skips the conversion (about 60 ms of GPT-2 small's 90 ms at ``auto``).

What a conversion depends on can change only through TorchLens, and TorchLens records each
kind of change where this module reads it; the trace's *revision* is all of them together:

- edits, replays, reruns, hooks, appends and forks are appended to ``trace.state_history``;
- a backward pass counts in ``num_backward_passes``;
- annotations go through ``Trace._mark_annotations_mutated`` (TorchLens's own invalidation
  of its render caches), which this module wraps to count them;
- a direct write to an op's saved output sets ``_has_direct_writes``: such a trace is
  converted anew every time, until a rerun or replay clears the flag;
- an edited fork is compared with the trace it was forked from: that trace's revision is
  part of the fork's;
- a saved output or gradient changed in place (``op.out.mul_(2)``) bumps the tensor's own
  version counter: the versions of every tensor the conversion read are kept with it.

A TorchLens without these hooks (another version) gets no cache: every drawing converts.
The cache holds the converted bytes of a trace for as long as the trace lives (weakly keyed).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

#: Per ``value_stats`` flag: the revision a document was converted at, the tensors the
#: conversion read with their version counters, and the document.
_Entry = dict[bool, tuple[tuple[Any, ...], list[tuple[weakref.ref[Any], int]], bytes]]
_CONVERTED: weakref.WeakKeyDictionary[Any, _Entry] = weakref.WeakKeyDictionary()
#: Where the wrapper of ``_mark_annotations_mutated`` counts annotation changes.
_ANNOTATIONS = "_tl_draw_annotation_revision"
#: How far up the chain of forks a revision looks.
_MAX_ANCESTORS = 64


def _watch_annotations(trace_type: type) -> bool:
    """Makes ``trace_type`` count its annotation changes; False when it has no such hook."""
    owner = next((cls for cls in trace_type.__mro__ if "_mark_annotations_mutated" in cls.__dict__), None)
    if owner is None:
        return False
    original = owner.__dict__["_mark_annotations_mutated"]
    if getattr(original, "_tl_draw_counts", False):
        return True

    def counted(self: Any) -> None:
        original(self)
        self.__dict__[_ANNOTATIONS] = self.__dict__.get(_ANNOTATIONS, 0) + 1

    counted._tl_draw_counts = True  # type: ignore[attr-defined]
    owner._mark_annotations_mutated = counted  # type: ignore[attr-defined]
    return True


def revision(trace: Any) -> tuple[Any, ...] | None:
    """What the trace's conversion depends on, as one comparable value; ``None`` when that
    cannot be known (the trace must be converted anew)."""
    parts: list[Any] = []
    while trace is not None and len(parts) < _MAX_ANCESTORS:
        history = getattr(trace, "state_history", None)
        if not isinstance(history, list) or getattr(trace, "_has_direct_writes", True):
            return None
        if not _watch_annotations(type(trace)):
            return None
        last = history[-1].get("timestamp") if history and isinstance(history[-1], dict) else None
        parts.append(
            (
                id(trace),
                str(getattr(trace, "state", None)),
                len(history),
                last,
                getattr(trace, "_spec_revision", None),
                getattr(trace, "_out_recipe_revision", None),
                getattr(trace, "num_backward_passes", None),
                trace.__dict__.get(_ANNOTATIONS, 0),
            )
        )
        trace = getattr(trace, "parent_trace", None)
    return tuple(parts)


def converted(trace: Any, value_stats: bool, convert: Callable[[], bytes]) -> bytes:
    """The trace's converted document: kept from an earlier call while its revision is the
    same, else ``convert()`` (and kept)."""
    # Watching starts before the first revision is read: no annotation can go uncounted.
    now = revision(trace)
    if now is None:
        return convert()
    try:
        entry = _CONVERTED.setdefault(trace, {})
    except TypeError:  # not weakly referable or not hashable: nothing is kept
        return convert()
    kept = entry.get(value_stats)
    if kept is not None and kept[0] == now and _unchanged(kept[1]):
        return kept[2]
    from tl_export.values import tensors_read

    with tensors_read() as read:
        document = convert()
    # A conversion reads and never changes the trace: the revision before it still holds.
    entry[value_stats] = (now, [(weakref.ref(tensor), tensor._version) for tensor in read], document)
    return document


def _unchanged(tensors: list[tuple[weakref.ref[Any], int]]) -> bool:
    """Whether every tensor a conversion read is still there and unchanged in place (a
    tensor's version counter counts its in-place changes)."""
    for reference, version in tensors:
        tensor = reference()
        if tensor is None or tensor._version != version:
            return False
    return True


def forget(trace: Any) -> None:
    """Drops what is kept for ``trace`` (for tests)."""
    _CONVERTED.pop(trace, None)
