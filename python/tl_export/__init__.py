"""Export TorchLens 2.36.x traces and bundles to tl-draw's ``tl-trace`` v1 JSON format.

    import torchlens as tl
    from tl_export import export_trace, write_json

    trace = tl.trace(model, x)
    write_json(export_trace(trace), "model.json")

Then draw it with ``tl-draw draw model.json -o model.pdf``.
"""

from .bundle import export_bundle
from .convert import FORMAT_VERSION, export_trace
from .files import write_json

__all__ = ["FORMAT_VERSION", "export_bundle", "export_trace", "write_json"]
