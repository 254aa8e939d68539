"""Times TorchLens 2.36.1's own ``draw`` (for ``cargo xtask bench-compare``).

Each model (a fixture or a real architecture of ``real_models``) is traced once (not timed)
and, with ``export_dir``, exported there as ``<name>.json`` so tl-draw draws the very trace
that was timed; then ``trace.draw(..., vis_fileformat="svg")`` (or the format asked) is
timed for each collapse mode, median of ``runs`` runs, beside the ``tl-draw`` program on the
exported trace when one is given. The trace is in memory, so the time is the drawing alone:
planning, DOT, Graphviz layout and the file (SVG, or the format asked). Each result also
says how TorchLens laid the drawing out (``dot``, or its ``rank`` fallback for costly
layouts).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
import warnings
from collections.abc import Iterator
from typing import Any

from . import real_models
from .convert import export_trace
from .files import write_json
from .fixtures import FIXTURES, REPO_ROOT


def _layout_path(trace: Any) -> str:
    """How TorchLens laid out its last drawing: ``dot``, or ``rank`` (its own positions drawn
    by ``neato -n`` with straight lines, chosen above an estimated layout cost of 20,000)."""
    record = getattr(trace, "_last_render_geometry", None)
    return str(getattr(record, "layout_path", "unknown"))


def known_names() -> list[str]:
    """Every model ``time_draws`` can trace: the fixtures, then the real architectures."""
    return [fixture.name for fixture in FIXTURES] + [model.name for model in real_models.REAL_MODELS]


def build(name: str) -> dict[str, Any]:
    """The traced model called ``name`` (a real architecture, or a fixture)."""
    if name in real_models.BY_NAME:
        return real_models.trace_real(name)
    return {fixture.name: fixture for fixture in FIXTURES}[name].build()


def time_draws(
    names: list[str],
    modes: list[str],
    runs: int,
    export_dir: str | None = None,
    file_format: str = "svg",
    program: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Median seconds of TorchLens's drawing to ``file_format`` per model and collapse mode.

    With ``program`` (the ``tl-draw`` program) and ``export_dir``, each of TorchLens's runs
    sits between two runs of ``program draw DIR/<name>.json --collapse MODE --force -o
    <file>``, timed from start to exit (``program_seconds``, the median of those): this
    machine's speed moves in phases of minutes, so the two programs are timed side by side
    rather than a model's worth of drawings apart.
    """
    warnings.filterwarnings("ignore")
    for name in names:
        built = build(name)
        trace = built["trace"]
        exported = None
        if export_dir is not None:
            os.makedirs(export_dir, exist_ok=True)
            document = export_trace(trace, source_root=REPO_ROOT, model=built["model"])
            exported = os.path.join(export_dir, f"{name}.json")
            write_json(document, exported)
        ops = len(trace.layer_list)
        for mode in modes:
            seconds: list[float] = []
            program_seconds: list[float] = []
            with tempfile.TemporaryDirectory() as folder:
                path = os.path.join(folder, name)
                command = None
                if program is not None and exported is not None:
                    output = os.path.join(folder, f"{name}_program.{file_format}")
                    command = [program, "draw", exported, "--collapse", mode, "--force", "-o", output]
                for _ in range(runs):
                    if command is not None:
                        program_seconds.append(_run_seconds(command))
                    start = time.perf_counter()
                    trace.draw(vis_outpath=path, vis_save_only=True, vis_fileformat=file_format, collapse=mode)
                    seconds.append(time.perf_counter() - start)
                    if command is not None:
                        program_seconds.append(_run_seconds(command))
            result = {
                "name": name,
                "format": file_format,
                "collapse": mode,
                "seconds": statistics.median(seconds),
                "ops": ops,
                "engine": _layout_path(trace),
            }
            if program_seconds:
                result["program_seconds"] = statistics.median(program_seconds)
            yield result


def _run_seconds(command: list[str]) -> float:
    """Seconds ``command`` takes from start to exit; a failure raises with its output."""
    start = time.perf_counter()
    finished = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if finished.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({finished.returncode}): {finished.stderr.strip()}")
    return seconds


def compare_in_process(
    names: list[str], modes: list[str], runs: int, file_format: str = "svg"
) -> Iterator[dict[str, Any]]:
    """TorchLens's own ``trace.draw`` against ``tl_draw.draw`` of the same live trace, in one
    process, to ``file_format`` (``svg``, ``pdf`` or ``png``), end to end (tl-draw's side
    includes converting the live trace).

    ``cold``: each run draws a freshly traced model once with each program, so neither has
    anything cached (what a first ``trace.draw()`` costs). ``warm``: the same trace drawn
    ``runs`` times by each (TorchLens keeps its collapse plan per trace; tl-draw keeps the
    trace's conversion while the trace is unchanged, and the last few layouts by their DOT
    source). Medians.
    """
    import tl_draw
    from tl_draw import _native
    from tl_draw._cache import forget

    warnings.filterwarnings("ignore")
    with tempfile.TemporaryDirectory() as folder:
        torchlens_path = os.path.join(folder, "torchlens")
        tl_draw_path = os.path.join(folder, f"tl_draw.{file_format}")

        def both(trace: Any, mode: str) -> tuple[float, float]:
            start = time.perf_counter()
            trace.draw(vis_outpath=torchlens_path, vis_save_only=True, vis_fileformat=file_format, collapse=mode)
            middle = time.perf_counter()
            tl_draw.draw(trace, tl_draw_path, collapse=mode)
            return middle - start, time.perf_counter() - middle

        for name in names:
            cold: dict[str, list[tuple[float, float]]] = {mode: [] for mode in modes}
            for _ in range(runs):
                trace = build(name)["trace"]
                for mode in modes:
                    # A first drawing: nothing kept from the runs before (the same model
                    # traced again makes the same DOT, whose layout would be remembered).
                    _native.forget_recent_layouts()
                    forget(trace)
                    cold[mode].append(both(trace, mode))
            for mode in modes:
                warm = [both(trace, mode) for _ in range(runs)]
                for kind, pairs in (("cold", cold[mode]), ("warm", warm)):
                    torchlens = statistics.median(p[0] for p in pairs)
                    ours = statistics.median(p[1] for p in pairs)
                    yield {
                        "name": name,
                        "format": file_format,
                        "collapse": mode,
                        "cache": kind,
                        "torchlens_s": torchlens,
                        "tl_draw_s": ours,
                        "ratio": torchlens / ours,
                        "runs": runs,
                    }
