"""Pictures drawn inside nodes: any image as a PNG (thumbnailed), and an activation as a grid
of its channels."""

from __future__ import annotations

import base64
import io
import os
from typing import Any

import torch

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: The input photo is drawn as "a small thumbnail": its longest side in pixels.
_THUMBNAIL_SIDE = 128


#: Where ``tl_draw.install()`` keeps the images passed to ``trace.annotate(image=<PIL image>)``
#: on the trace: TorchLens itself keeps only their text form (``str(image)``), so the
#: picture is found again by that text.
KEPT_IMAGES = "_tl_draw_annotation_images"


class PictureError(ValueError):
    """A node's picture cannot be read: ``node`` is the op's label."""

    def __init__(self, node: str, image: Any, reason: str) -> None:
        super().__init__(f"the picture annotated on {node} cannot be read ({reason}); {_remedy(image)}")
        self.node = node


def _remedy(image: Any) -> str:
    if isinstance(image, str) and image.startswith("<PIL."):
        return (
            "TorchLens keeps only the text of a PIL image: call tl_draw.install() before "
            "trace.annotate(..., image=...) so that tl-draw keeps the image, or save it and pass its path"
        )
    return "pass the path of an image file Pillow can open, or a PIL image"


def kept_image(trace: Any, image: Any) -> Any:
    """The image ``trace.annotate`` was given, where TorchLens kept only ``image``, its text:
    looked up on the trace and the traces it was forked from."""
    seen = 0
    while trace is not None and seen < 64:
        kept = getattr(trace, "__dict__", {}).get(KEPT_IMAGES)
        if isinstance(kept, dict) and image in kept:
            return kept[image]
        trace = getattr(trace, "parent_trace", None)
        seen += 1
    return image


def annotation_picture(node: str, trace: Any, image: Any) -> dict[str, Any] | None:
    """The picture of ``trace.annotate(..., image=image)`` on ``node``; a ``PictureError``
    naming the node when it cannot be read."""
    if isinstance(image, str):
        image = kept_image(trace, image)
    try:
        return _png_picture(image, "annotation")
    except (OSError, ValueError) as error:  # PIL's UnidentifiedImageError is an OSError
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise PictureError(node, image, reason) from error


def _picture_record(source: str, width: int, height: int, png: bytes) -> dict[str, Any]:
    return {
        "source": source,
        "width": width,
        "height": height,
        "png_base64": base64.b64encode(png).decode("ascii"),
    }


def png_of(image: Any, thumbnail: int | None = None) -> tuple[bytes, int, int] | None:
    """A picture as PNG bytes and its size: a path to an image file or a PIL image. Drawn at
    its own size, a PNG file (or a PIL image opened from one) is its own bytes, the guide's
    "a PNG file is drawn as it is", and anything else a PNG copy (transparency kept); with
    ``thumbnail``, a copy whose longest side is at most that. None when it is no image."""
    from PIL import Image

    path = image if isinstance(image, (str, os.PathLike)) else None
    if isinstance(image, Image.Image) and image.format == "PNG":
        path = getattr(image, "filename", None) or None
    if thumbnail is None and path is not None and os.path.isfile(path):
        with open(path, "rb") as file:
            data = file.read()
        if data.startswith(_PNG_SIGNATURE):
            with Image.open(io.BytesIO(data)) as opened:
                return data, opened.width, opened.height
    if isinstance(image, (str, os.PathLike)):
        image = Image.open(image)
    if not isinstance(image, Image.Image):
        return None
    image = image.convert("RGBA" if "A" in image.getbands() else "RGB")
    if thumbnail is not None:
        image.thumbnail((thumbnail, thumbnail))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue(), image.width, image.height


def _png_picture(image: Any, source: str) -> dict[str, Any] | None:
    """A node picture record: an annotation as :func:`png_of` draws it, the input photo
    ("a small thumbnail") and feature-map grids as thumbnails (longest side 128 px)."""
    if image is None:
        return None
    png = png_of(image, None if source == "annotation" else _THUMBNAIL_SIDE)
    if png is None:
        return None
    data, width, height = png
    return _picture_record(source, width, height, data)


def _feature_map_picture(activation: Any, max_channels: int = 16) -> dict[str, Any] | None:
    """A saved activation ``(N, C, H, W)`` as a grid of its first channels (batch item 0),
    each scaled to its own range, dark low and light high: what ``tl.viz.feature_maps``
    draws inside a node."""
    import numpy as np
    from PIL import Image

    if not isinstance(activation, torch.Tensor) or activation.dim() != 4:
        return None
    maps = activation[0, :max_channels].detach().float().cpu().numpy()
    channels, height, width = maps.shape
    columns = int(np.ceil(np.sqrt(channels)))
    rows = int(np.ceil(channels / columns))
    cell = max(1, 32 // max(height, width)) if max(height, width) < 32 else 1
    tile_h, tile_w = height * cell, width * cell
    grid = np.full((rows * (tile_h + 1) + 1, columns * (tile_w + 1) + 1), 255, dtype=np.uint8)
    for index, channel in enumerate(maps):
        low, high = float(channel.min()), float(channel.max())
        scaled = (channel - low) / (high - low) if high > low else np.zeros_like(channel)
        tile = np.kron((scaled * 230).astype(np.uint8), np.ones((cell, cell), dtype=np.uint8))
        top = 1 + (index // columns) * (tile_h + 1)
        left = 1 + (index % columns) * (tile_w + 1)
        grid[top : top + tile_h, left : left + tile_w] = tile
    return _png_picture(Image.fromarray(grid, mode="L"), "visualizer")
