"""Times TorchLens 2.36.1's own ``draw`` of the fixture models (for ``cargo xtask bench-compare``).

Each model is traced once (not timed); then ``trace.draw(..., vis_fileformat="svg")`` is timed
for each collapse mode, median of ``runs`` runs. The trace is in memory, so the time is the
drawing alone: planning, DOT, Graphviz layout and the SVG file.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
import warnings
from typing import Any

from .fixtures import FIXTURES


def time_draws(names: list[str], modes: list[str], runs: int) -> list[dict[str, Any]]:
    """Median seconds of TorchLens's SVG drawing per fixture and collapse mode."""
    warnings.filterwarnings("ignore")
    results = []
    by_name = {fixture.name: fixture for fixture in FIXTURES}
    for name in names:
        built = by_name[name].build()
        trace = built["trace"]
        for mode in modes:
            seconds = []
            with tempfile.TemporaryDirectory() as folder:
                path = os.path.join(folder, name)
                for _ in range(runs):
                    start = time.perf_counter()
                    trace.draw(vis_outpath=path, vis_save_only=True, vis_fileformat="svg", collapse=mode)
                    seconds.append(time.perf_counter() - start)
            results.append({"name": name, "collapse": mode, "seconds": statistics.median(seconds)})
    return results
