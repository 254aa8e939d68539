"""The typed surface matches what runs: ``DrawKeywords`` names every keyword the core takes,
and the stub of ``tl_draw._native`` names what the extension module has."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import get_type_hints

import tl_draw
from tl_draw import _native


def test_draw_keywords_are_the_keywords_draw_takes() -> None:
    typed = list(get_type_hints(tl_draw.DrawKeywords))
    assert typed == list(tl_draw.keywords())


def test_the_native_stub_names_what_the_module_has() -> None:
    stub = ast.parse((Path(tl_draw.__file__).parent / "_native.pyi").read_text())
    functions = {node.name for node in stub.body if isinstance(node, ast.FunctionDef)}
    classes = {node.name: node for node in stub.body if isinstance(node, ast.ClassDef)}
    public = {name for name in dir(_native) if not name.startswith("_")}
    assert functions | set(classes) == public
    methods = {node.name for node in classes["NativeDrawing"].body if isinstance(node, ast.FunctionDef)}
    assert methods == {name for name in dir(_native.NativeDrawing) if not name.startswith("_")}
