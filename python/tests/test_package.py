"""The Python package around the Rust core: inputs, keywords, errors, callables, the Drawing,
files, inline display in a notebook, and the GIL released while a drawing is laid out."""

from __future__ import annotations

import json
import re
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import torch
import torchlens as tl

import tl_draw
from tl_export import export_trace, models

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def written(drawing: tl_draw.Drawing) -> Path:
    """The file ``draw(..., outpath)`` wrote."""
    assert drawing.path is not None
    return drawing.path


@pytest.fixture(scope="module")
def convnet() -> Any:
    torch.manual_seed(0)
    return tl.trace(models.ConvNet().train(), torch.randn(1, 3, 8, 8))


def test_a_live_trace_and_its_exported_file_draw_the_same(convnet: Any, tmp_path: Path) -> None:
    path = tmp_path / "convnet.json"
    path.write_text(json.dumps(export_trace(convnet)))
    assert tl_draw.draw(convnet).dot == tl_draw.draw(path).dot == tl_draw.draw(str(path)).dot


def test_value_summaries_are_converted_only_for_drawings_that_read_them(convnet: Any, tmp_path: Path) -> None:
    from tl_draw._convert import needs_value_stats

    assert not needs_value_stats(None, {}) and not needs_value_stats("m.svg", {"collapse": "auto"})
    assert needs_value_stats(None, {"view": "debug"}) and needs_value_stats(None, {"color_by": "magnitude"})
    assert needs_value_stats("m.html", {}) and needs_value_stats(None, {"file_format": "HTML"})
    assert not needs_value_stats(None, {"color_by": lambda node: 1.0}), "a function reads the live record"
    # Left out or not, the drawing is the file's (which has them).
    path = tmp_path / "convnet.json"
    path.write_text(json.dumps(export_trace(convnet)))
    cases: list[tl_draw.DrawKeywords] = [{}, {"collapse": "auto"}, {"view": "debug"}, {"color_by": "magnitude"}]
    for keywords in cases:
        assert tl_draw.draw(convnet, **keywords).dot == tl_draw.draw(path, **keywords).dot, keywords


def test_a_misspelt_keyword_is_a_type_error_naming_the_closest(convnet: Any) -> None:
    with pytest.raises(tl_draw.DrawKeywordError) as raised:
        tl_draw.draw(convnet, colapse="auto")  # type: ignore[call-arg]
    assert raised.value.code == "draw_keyword_unknown"
    assert "did you mean collapse=?" in str(raised.value)
    assert isinstance(raised.value, TypeError)


def test_a_bad_value_is_a_draw_error_with_the_rust_code(convnet: Any) -> None:
    with pytest.raises(ValueError) as raised:
        tl_draw.draw(convnet, collapse=1.5)
    assert isinstance(raised.value, tl_draw.DrawError)
    assert raised.value.code == "collapse_level_invalid"
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(convnet, module="no.such.module")
    assert raised.value.code and "no.such.module" in str(raised.value)
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(convnet, depth="two")  # type: ignore[arg-type]
    assert raised.value.code == "keyword_value_invalid"


def test_a_broken_trace_file_is_refused_with_its_code(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "tl-trace", "version": 1, "ops": [')
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(path)
    assert raised.value.code == "trace_truncated"


def test_the_path_extension_or_file_format_picks_the_format(convnet: Any, tmp_path: Path) -> None:
    assert tl_draw.draw(convnet, tmp_path / "a").path == tmp_path / "a.pdf"
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")
    assert written(tl_draw.draw(convnet, tmp_path / "b.svg")).read_text().lstrip().startswith(("<?xml", "<svg"))
    assert tl_draw.draw(convnet, tmp_path / "c", file_format="png").path == tmp_path / "c.png"
    assert written(tl_draw.draw(convnet, tmp_path / "d.dot")).read_text().startswith("// Computational graph")


def _page_data(page: str) -> dict[str, Any]:
    start = page.index('id="tl-data">') + len('id="tl-data">')
    data: dict[str, Any] = json.loads(page[start : page.index("</script>", start)])
    return data


def test_html_writes_the_interactive_page_of_the_live_trace(convnet: Any, tmp_path: Path) -> None:
    page = written(tl_draw.draw(convnet, tmp_path / "m.html")).read_text()
    assert page.startswith("<!DOCTYPE html>") and "default-src 'none'" in page
    data = _page_data(page)
    stops = tl_draw.draw(convnet, collapse="auto").collapse_schedule
    assert [stop["nodes"] for stop in data["stops"]] == [stop.nodes for stop in stops]
    assert data["records"] and len(data["states"]) >= len(stops)
    # The same page from file_format=, from save and from render; the same bytes each time.
    again = tl_draw.draw(convnet, tmp_path / "n", file_format="html").path
    assert again == tmp_path / "n.html" and again.read_text() == page
    drawing = tl_draw.draw(convnet)
    assert drawing.save(tmp_path / "o.html").read_text() == page
    assert drawing.render("html").decode() == page


def test_a_drawing_saves_again_in_any_format_and_resolution(convnet: Any, tmp_path: Path) -> None:
    drawing = tl_draw.draw(convnet)
    assert drawing.path is None  # no path: nothing written
    small = drawing.save(tmp_path / "small.png", dpi=48).read_bytes()
    large = drawing.save(tmp_path / "large.png", dpi=192).read_bytes()
    width = lambda png: int.from_bytes(png[16:20], "big")  # noqa: E731 - the IHDR width
    assert width(large) > 3 * width(small)
    with pytest.raises(tl_draw.DrawError) as raised:
        drawing.save(tmp_path / "bad.png", dpi=-1)
    assert raised.value.code == "dpi_invalid"


def test_the_collapse_schedule_lists_the_stops_and_marks_auto_and_the_drawn_one(convnet: Any) -> None:
    stops = tl_draw.draw(convnet, collapse="max").collapse_schedule
    assert stops[0].level == 0.0 and stops[-1].level == 1.0
    assert [s.nodes for s in stops] == sorted((s.nodes for s in stops), reverse=True)
    assert sum(s.is_auto for s in stops) == 1 and stops[-1].is_drawn
    assert sum(s.is_drawn for s in stops) == 1
    # Each stop draws the count it names.
    for stop in stops:
        assert tl_draw.draw(convnet, collapse=stop.level).node_count == stop.nodes
    # A drawing without collapse= still lists the steps.
    assert [s.nodes for s in tl_draw.draw(convnet).collapse_schedule] == [s.nodes for s in stops]


def test_inline_display_is_the_viewer_with_a_picture_where_scripts_cannot_run(convnet: Any) -> None:
    drawing = tl_draw.draw(convnet)
    bundle = drawing._repr_mimebundle_()
    assert bundle["image/png"].startswith(b"\x89PNG")
    html = bundle["text/html"]
    # The picture a sanitizer keeps (it does not check src), then the viewer's script.
    assert html.startswith('<div class="tl-draw-output"><img src="data:image/png;base64,')
    assert "frame.srcdoc = " in html and "allow-scripts" in html
    # The viewer holds every recorded field (drawn with the activations' summaries).
    assert "tl-data" in html
    assert drawing._repr_mimebundle_()["text/html"] is html, "made once"


#: A page's data saying it holds fewer stops than the schedule, as the output's HTML quotes it.
THINNED = '\\"thinned\\":{\\"held\\":'


def test_inline_display_of_gpt2_at_full_detail_fits_its_budget() -> None:
    drawing = tl_draw.draw(FIXTURES / "real" / "gpt2_small.json")
    bundle = drawing._repr_mimebundle_()
    size = len(bundle["text/html"]) + len(bundle["image/png"])
    assert size <= 12 * 1024 * 1024, size
    assert "folded picture" in bundle["text/html"]
    assert THINNED not in bundle["text/html"], "every stop fits"


@pytest.mark.parametrize("model", ["gpt2_48", "llama_32", "mamba"])
def test_inline_display_of_the_deepest_models_thins_its_stops_to_fit_its_budget(model: str) -> None:
    # Their schedules box one block a stop: every stop held came to 15-22 MB.
    bundle = tl_draw.draw(FIXTURES / "real" / f"{model}.json")._repr_mimebundle_()
    size = len(bundle["text/html"]) + len(bundle["image/png"])
    assert size <= 12 * 1024 * 1024, size
    assert THINNED in bundle["text/html"]


@pytest.mark.parametrize(
    ("key", "value"), [("metric", 3), ("on", 5), ("on", "sideways"), ("members", 7), ("members", [1, 2])]
)
def test_bundle_keywords_of_the_wrong_kind_name_their_keyword(key: str, value: object) -> None:
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(FIXTURES / "bundle.json", **{key: value})  # type: ignore[arg-type]
    assert raised.value.code == "keyword_value_invalid"
    assert f"{key}=" in str(raised.value)


def test_node_spec_fn_in_torchlens_form_drops_the_double_border(convnet: Any) -> None:
    assert "peripheries=2" in tl_draw.draw(convnet).dot

    def single_border(layer: object, spec: tl_draw.NodeSpec) -> None:
        spec.extra_attrs["peripheries"] = "1"

    assert "peripheries=2" not in tl_draw.draw(convnet, node_spec_fn=single_border).dot


def test_node_spec_fn_of_one_node_returns_changes(convnet: Any) -> None:
    seen: list[str] = []

    def paint_relus(node: tl_draw.Node) -> dict[str, Any] | None:
        seen.append(node.kind)
        if node.label and node.label.startswith("relu"):
            assert node.record is not None and node.record.layer_label.startswith("relu")
            return {"fillcolor": "#ff00aa", "lines": [*node.spec.lines, "checked"]}
        return None

    dot = tl_draw.draw(convnet, node_spec_fn=paint_relus).dot
    assert dot.count("#ff00aa") == 2 and dot.count("checked") == 2
    assert "op" in seen


@pytest.mark.parametrize(("key", "value"), [("width", float("inf")), ("height", -1.0), ("penwidth", float("nan"))])
def test_node_spec_fn_numbers_out_of_range_are_refused(convnet: Any, key: str, value: float) -> None:
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(convnet, node_spec_fn=lambda node: {key: value})
    assert raised.value.code == "node_spec_value_invalid"
    assert key in str(raised.value) and "finite number" in str(raised.value)


@pytest.mark.parametrize(("key", "value"), [("lines", 3), ("tooltip", 4.5), ("fillcolor", 1), ("width", "wide")])
def test_node_spec_fn_values_of_the_wrong_kind_name_their_attribute(convnet: Any, key: str, value: object) -> None:
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(convnet, node_spec_fn=lambda node: {key: value})
    assert raised.value.code == "node_spec_value_invalid"
    assert f"{key}=" in str(raised.value)


def test_an_exception_in_a_callable_is_raised_with_the_node_named(convnet: Any) -> None:
    def broken(node: tl_draw.Node) -> None:
        if node.label and node.label.startswith("relu"):
            raise KeyError("no such field")

    with pytest.raises(KeyError) as raised:
        tl_draw.draw(convnet, node_spec_fn=broken)
    assert any("node_spec_fn" in note and "relu_1_" in note for note in getattr(raised.value, "__notes__", []))
    with pytest.raises(ZeroDivisionError):
        tl_draw.draw(convnet, color_by=lambda layer: 1 / 0)


def test_color_by_and_size_by_take_a_function_of_a_node(convnet: Any) -> None:
    def activation(layer: object) -> float | None:
        out = getattr(layer, "out", None)
        # A tensor converts.
        return out.abs().mean() if isinstance(out, torch.Tensor) else None  # type: ignore[return-value]

    dot = tl_draw.draw(convnet, color_by=activation, size_by=lambda layer: 1.0).dot
    assert "activation" in dot  # the key names the function
    with pytest.raises(tl_draw.DrawError):
        tl_draw.draw(convnet, color_by="no_such_field")


def test_bundles_and_lists_of_traces_draw(tmp_path: Path) -> None:
    torch.manual_seed(0)
    model = models.TwoLayer()
    x = torch.randn(2, 8)
    a, b = tl.trace(model, x), tl.trace(model, x + 1)
    union = tl_draw.draw([("clean", a), ("shifted", b)])
    assert union.node_count >= 5 and "clean" in union.dot
    assert tl_draw.draw(tl.Bundle({"clean": a, "shifted": b}), graph="diff").node_count >= 5
    with pytest.raises(tl_draw.DrawError) as raised:
        tl_draw.draw(a, metric="cosine")
    assert raised.value.code == "bundle_option_without_bundle"


def test_install_makes_torchlens_draw_use_tl_draw_and_uninstall_restores_it(convnet: Any) -> None:
    original = tl.Trace.draw  # type: ignore[attr-defined]
    tl_draw.install()
    try:
        assert tl_draw.installed()
        assert isinstance(convnet.draw(collapse="auto"), tl_draw.Drawing)
    finally:
        tl_draw.uninstall()
    restored = tl.Trace.draw  # type: ignore[attr-defined]
    assert restored is original and not hasattr(tl.Bundle, "draw") and not tl_draw.installed()


def test_layout_runs_without_the_gil() -> None:
    """A thread of Python keeps running while another lays out a large drawing."""
    drawing = tl_draw.draw(FIXTURES / "stack40.json")
    drawing.render("svg")  # warm up
    # Each render lays out anew (a layout of the same DOT is remembered otherwise).
    tl_draw._native.forget_recent_layouts()
    started = time.perf_counter()
    drawing.render("svg")
    alone = time.perf_counter() - started
    done = threading.Event()

    def lay_out() -> None:
        for _ in range(3):
            tl_draw._native.forget_recent_layouts()
            drawing.render("svg")
        done.set()

    ticks = 0
    worker = threading.Thread(target=lay_out)
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    # With the GIL held for the whole layout this loop would barely tick (a few times per
    # layout); released, it ticks about once a millisecond.
    assert ticks > 3 * alone * 1000 * 0.2, (ticks, alone)


def test_a_notebook_shows_the_drawing_inline(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.read(Path(__file__).with_name("first_drawing.ipynb"), as_version=4)
    nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    pages = [o["data"]["text/html"] for o in outputs if "data" in o and "text/html" in o["data"]]
    assert pages and "tl-draw-output" in pages[-1] and "ConvNet" in pages[-1]


def _fnv1a(data: bytes) -> int:
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def _node_line(dot: str, name: str) -> str:
    return next(line for line in dot.splitlines() if f"<B>{name}</B>" in line)


def test_feature_map_grids_from_torchlens_draw_inside_their_nodes(convnet: Any) -> None:
    """The guide: "tl.viz.feature_maps renders a saved activation as an image grid" in the
    node: TorchLens's own producer, spec.replace(image=...) and its placement hints."""
    tl.viz.feature_map_evolution(convnet)
    drawing = tl_draw.draw(convnet, node_spec_fn=tl.viz.feature_map_node_spec())
    conv = _node_line(drawing.dot, "conv2d_1_1")
    assert "<IMG" in conv and "shape=box" in conv and "rounded" in conv
    assert "@features.0.conv" not in conv, "TorchLens's producer keeps only the caption row"
    assert not drawing.render("png").startswith(b"<")
    assert drawing.svg().count("data:image/png;base64,") == drawing.dot.count("<IMG") >= 4


def test_an_mds_scatter_of_a_layer_draws_inside_its_node() -> None:
    """The guide: node_spec_fn is "how a plot of a layer's representation (an MDS scatter, an
    RDM) ends up inside its node"."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    trace = tl.trace(model, torch.randn(10, 6))
    tl.repgeom.mds_evolution(trace)
    drawing = tl_draw.draw(trace, node_spec_fn=tl.repgeom.mds_scatter_node_spec())
    assert "<IMG" in _node_line(drawing.dot, "relu_1_2")
    assert drawing.dot.count("<IMG") == drawing.node_count


def test_a_hook_puts_any_picture_in_a_node_png_as_is(convnet: Any, tmp_path: Path) -> None:
    from PIL import Image

    png = tmp_path / "plot.png"
    Image.new("RGB", (40, 30), (10, 120, 200)).save(png)
    jpeg = tmp_path / "plot.jpg"
    Image.new("RGB", (50, 20), (200, 120, 10)).save(jpeg)
    pictures = {"conv2d_1_1": str(png), "relu_1_4": str(jpeg), "linear_1_11": Image.new("L", (16, 16), 128)}

    def picture(layer: Any, spec: tl_draw.NodeSpec) -> tl_draw.NodeSpec | None:
        image = pictures.get(layer.layer_label)
        return None if image is None else spec.replace(image=image)

    drawing = tl_draw.draw(convnet, node_spec_fn=picture)
    for name in pictures:
        line = _node_line(drawing.dot, name)
        assert "<IMG" in line and "shape=box" in line, f"{name}: a box with its picture"
    # Pictures are named by an FNV-1a hash of their bytes: the PNG file's own bytes.
    assert f"tl-picture-{_fnv1a(png.read_bytes()):016x}.png" in _node_line(drawing.dot, "conv2d_1_1")
    assert f"tl-picture-{_fnv1a(jpeg.read_bytes()):016x}.png" not in drawing.dot, "a JPEG is copied"

    def broken(layer: object, spec: tl_draw.NodeSpec) -> tl_draw.NodeSpec:
        return spec.replace(image=str(tmp_path / "notes.txt"))

    (tmp_path / "notes.txt").write_text("not a picture")
    with pytest.raises(Exception, match="cannot identify image file|not a picture"):
        tl_draw.draw(convnet, node_spec_fn=broken)


def test_ctrl_c_stops_a_drawing_at_once_and_writes_nothing(tmp_path: Path) -> None:
    # Full detail: about a second to paint (a GPT-2 small PNG now takes less than the
    # interrupt's delay). The first save lays it out; the ones after paint only, as the
    # interrupted one does, so the second is timed.
    drawing = tl_draw.draw(FIXTURES / "real" / "llama_32.json")
    drawing.save(tmp_path / "first.png")
    start = time.monotonic()
    drawing.save(tmp_path / "whole.png")
    whole = time.monotonic() - start
    after = whole / 4
    interrupted = tmp_path / "interrupted.png"
    threading.Timer(after, signal.raise_signal, (signal.SIGINT,)).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        drawing.save(interrupted)
    stopped = time.monotonic() - start
    assert stopped < after + whole / 2, (stopped, whole)
    # The drawing left running finishes on its own and replaces nothing, leaves nothing.
    time.sleep(whole + 1.0)
    assert not interrupted.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first.png", "whole.png"]


def test_a_long_drawing_shows_its_progress_in_a_notebook_then_removes_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """In a notebook, a drawing that takes over a second shows a bar in the cell's output,
    updated in place while the Rust core works, and emptied when it is done (the steps of
    one layout are the command line's test's)."""
    ipython = pytest.importorskip("IPython")
    import IPython.display

    import tl_draw._progress

    class Kernel:
        kernel = object()

    updates: list[str] = []

    class Handle:
        def update(self, shown: dict[str, str], raw: bool) -> None:
            assert raw and (shown["text/plain"].startswith("laying out") or shown["text/plain"] == "")
            updates.append(shown["text/html"])

    monkeypatch.setattr(ipython, "get_ipython", lambda: Kernel())
    monkeypatch.setattr(IPython.display, "display", lambda *args, **kwargs: Handle())
    # Shown at once rather than after a second: how long the page takes is not the point.
    monkeypatch.setattr(tl_draw._progress, "SHOW_AFTER", 0.0)
    # DenseNet-121's page: tens of drawings, about a second to lay out.
    tl_draw._native.forget_recent_layouts()
    tl_draw.draw(FIXTURES / "real" / "densenet121.json").save(tmp_path / "densenet.html")
    bars = updates[:-1]
    assert bars and all("<progress" in bar and "the page&#x27;s drawings" in bar for bar in bars), updates[:3]
    counts = [re.search(r"(\d+) of (\d+) done", bar) for bar in bars]
    assert all(counts), bars
    done = [int(count.group(1)) for count in counts if count]
    assert done == sorted(done), "the bar never goes back"
    assert len({count.group(2) for count in counts if count}) == 1, "one batch: the page's drawings"
    assert updates[-1] == "", "the bar is removed when the drawing is done"
    # A quick drawing shows nothing.
    monkeypatch.setattr(tl_draw._progress, "SHOW_AFTER", None)
    updates.clear()
    tl_draw.draw(FIXTURES / "convnet.json").render("svg")
    assert updates == []
