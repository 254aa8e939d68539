"""Checks an installed tl_draw wheel on its own, as `cargo xtask wheel` runs it.

    python wheel_check.py draw-hidden FIXTURES OUT  # the wheel's python, system cairo hidden
    python wheel_check.py draw FIXTURES OUT         # the source build, for comparison
    python wheel_check.py compare OURS THEIRS       # any python with Pillow: the PNGs agree

`draw` draws the guide's first model and GPT-2 small to PDF, PNG, SVG and HTML;
`draw-hidden` first makes sure that nothing of the system's drawing stack is visible (cairo,
the fonts) and that tl_draw is the installed wheel. `compare` checks that each PNG of OURS
looks like the one of the same name in THEIRS.
"""

from __future__ import annotations

import ctypes
import os
import sys
import time
from pathlib import Path

MODELS = {"convnet": "convnet.json", "gpt2_small": "real/gpt2_small.json"}
FORMATS = ("pdf", "png", "svg", "html")
# A pixel differs when a channel moves by more than this; at most this share may differ.
CHANNEL_TOLERANCE = 64
MAX_DIFFERING_SHARE = 0.005


def hidden_system() -> None:
    """Fails unless the system's cairo and fonts are out of sight."""
    try:
        ctypes.CDLL("libcairo.so.2")
    except OSError:
        pass
    else:
        sys.exit("wheel_check: the system's libcairo.so.2 is visible; run this with it hidden")
    for folder in ("/usr/share/fonts", "/etc/fonts"):
        if os.path.isdir(folder) and os.listdir(folder):
            sys.exit(f"wheel_check: {folder} is visible; run this with it hidden")


def draw(fixtures: Path, out: Path, *, installed: bool) -> None:
    started = time.perf_counter()
    import tl_draw

    where = Path(tl_draw.__file__).resolve()
    if installed and "site-packages" not in where.parts:
        sys.exit(f"wheel_check: tl_draw was imported from {where}, not from the installed wheel")
    out.mkdir(parents=True, exist_ok=True)
    for stem, fixture in MODELS.items():
        for file_format in FORMATS:
            path = out / f"{stem}.{file_format}"
            tl_draw.draw(str(fixtures / fixture), str(path))
            if path.stat().st_size == 0:
                sys.exit(f"wheel_check: {path} is empty")
    print(f"wheel_check: drew {len(MODELS) * len(FORMATS)} files in {time.perf_counter() - started:.1f} s")


def differing_share(ours: Path, theirs: Path) -> float:
    from PIL import Image, ImageChops

    a = Image.open(ours).convert("RGB")
    b = Image.open(theirs).convert("RGB")
    if a.size != b.size:
        return 1.0
    red, green, blue = ImageChops.difference(a, b).split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    differing = sum(largest.histogram()[CHANNEL_TOLERANCE + 1 :])
    return differing / (a.size[0] * a.size[1])


def compare(ours: Path, theirs: Path) -> None:
    for stem in MODELS:
        share = differing_share(ours / f"{stem}.png", theirs / f"{stem}.png")
        print(f"wheel_check: {stem}.png differs in {share:.4%} of its pixels")
        if share > MAX_DIFFERING_SHARE:
            sys.exit(f"wheel_check: {stem}.png from the wheel does not look like the source build's")
        # With the system's fonts hidden, tl-draw's own PDF writer set the text in the
        # wheel's fonts and embedded them (cairo would have written the file otherwise).
        pdf = (ours / f"{stem}.pdf").read_bytes()
        if b"/Producer (tl-draw)" not in pdf or b"+NimbusSans-Regular" not in pdf:
            sys.exit(f"wheel_check: {stem}.pdf from the wheel does not embed the wheel's fonts")


if __name__ == "__main__":
    task, first, second = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    if task == "draw-hidden":
        hidden_system()
        draw(first, second, installed=True)
    elif task == "draw":
        draw(first, second, installed=False)
    elif task == "compare":
        compare(first, second)
    else:
        sys.exit(f"wheel_check: unknown task {task!r}; draw or compare")
