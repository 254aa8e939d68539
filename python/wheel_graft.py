"""Grafts into a repaired wheel the libraries the manylinux policy leaves to the system.

    python wheel_graft.py WHEEL

maturin's repair bundles cairo and most of what it loads, but leaves out what the manylinux
policy assumes every Linux has (libX11, libXext, libXrender, libz, libexpat). Slim
containers (python:3.x-slim) and headless servers have no X11 libraries, and cairo cannot
load without them; so this copies every library that is not part of glibc or libgcc into
the wheel's ``tl_draw.libs`` too, under a name of its own (``libX11-<hash>.so.6``), and
points the libraries that load it there, as auditwheel does for the others. The wheel keeps
its manylinux tag: bundling more is always allowed. Needs ``patchelf`` and ``ldd``.
"""

from __future__ import annotations

import base64
import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

LIBS = "tl_draw.libs"
MODULE = "tl_draw/_native.abi3.so"
# Part of every glibc system (and of the manylinux policy's core): never bundled.
CORE = re.compile(r"^(libc|libm|libdl|librt|libpthread|libresolv|libutil|libnsl|libgcc_s|ld-linux[-\w]*)\.so")
# auditwheel's names: libfoo-<8 hex>.so.N
HASHED = re.compile(r"-[0-9a-f]{8}(\.so)")


def patchelf(*args: str) -> str:
    return subprocess.run(["patchelf", *args], check=True, capture_output=True, text=True).stdout


def system_paths(elf: Path) -> dict[str, Path]:
    """What ``ldd`` resolves each needed library of ``elf`` to (bundled ones included)."""
    listing = subprocess.run(["ldd", str(elf)], check=True, capture_output=True, text=True).stdout
    paths: dict[str, Path] = {}
    for line in listing.splitlines():
        name, arrow, rest = line.strip().partition(" => ")
        if arrow and rest.startswith("/"):
            paths[name] = Path(rest.split()[0])
    return paths


def graft(root: Path) -> list[str]:
    """Bundles what the module and its libraries still load from the system; returns the names."""
    libs = root / LIBS
    bundled = {HASHED.sub(r"\1", path.name): path.name for path in libs.iterdir()}
    grafted: list[str] = []
    pending = [root / MODULE, *sorted(libs.iterdir())]
    while pending:
        elf = pending.pop()
        found = system_paths(elf)
        for needed in patchelf("--print-needed", str(elf)).split():
            if CORE.match(needed) or needed in bundled.values():
                continue
            if needed not in bundled:
                source = found.get(needed)
                if source is None:
                    sys.exit(f"wheel_graft: {elf.name} needs {needed}, which ldd does not find")
                digest = hashlib.sha256(source.read_bytes()).hexdigest()[:8]
                stem, _, version = needed.partition(".so")
                name = f"{stem}-{digest}.so{version}"
                copy = libs / name
                shutil.copyfile(source, copy)
                copy.chmod(0o755)
                patchelf("--set-soname", name, str(copy))
                patchelf("--set-rpath", "$ORIGIN", str(copy))
                bundled[needed] = name
                grafted.append(name)
                pending.append(copy)
            if bundled[needed] != needed:
                patchelf("--replace-needed", needed, bundled[needed], str(elf))
    return grafted


def record_line(root: Path, path: Path) -> str:
    data = path.read_bytes()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path.relative_to(root).as_posix()},sha256={digest},{len(data)}"


def rezip(root: Path, wheel: Path) -> None:
    """Writes the wheel anew with a RECORD of every file (RECORD itself last, unhashed)."""
    record = next(root.glob("*.dist-info/RECORD"))
    files = sorted(path for path in root.rglob("*") if path.is_file() and path != record)
    lines = [record_line(root, path) for path in files]
    lines.append(f"{record.relative_to(root).as_posix()},,")
    record.write_text("\n".join(lines) + "\n")
    partial = wheel.with_suffix(".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in [*files, record]:
            archive.write(path, path.relative_to(root).as_posix())
    partial.replace(wheel)


def main(wheel: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(root)
        for path in [root / MODULE, *(root / LIBS).iterdir()]:
            path.chmod(0o755)
        grafted = graft(root)
        rezip(root, wheel)
    print(f"wheel_graft: bundled {', '.join(grafted) or 'nothing more'}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
