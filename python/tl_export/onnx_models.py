"""The ONNX fixtures (``fixtures/onnx``): ResNet-18, GPT-2 small, BERT-base and a model that
branches on its data (an ONNX ``If``), exported by ``torch.onnx.export`` with torch's default
(dynamo) exporter, random weights, no downloads.

The weights go to external data files (``<name>.onnx.data``), which are not committed: the
reader never reads weights. The exporter needs ``onnx`` and ``onnxscript``, which the
adapter's environment installs (``cargo xtask setup``)::

    python -m tl_export.onnx_models fixtures/onnx [NAME ...]
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import torch
from torch import nn


class Gate(nn.Module):
    """Data-dependent control flow, exported as an ONNX ``If`` (``torch.cond``): one branch
    grows the input, the other shrinks it."""

    def __init__(self) -> None:
        super().__init__()
        self.up = nn.Linear(16, 16)
        self.down = nn.Linear(16, 16)
        self.head = nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        def grow(x: torch.Tensor) -> torch.Tensor:
            return torch.relu(self.up(x))

        def shrink(x: torch.Tensor) -> torch.Tensor:
            return torch.tanh(self.down(x))

        y = torch.cond(x.sum() > 0, grow, shrink, (x,))
        return self.head(y)


class GPT2Logits(nn.Module):
    """GPT-2 small (``transformers``) returning its logits, without the key/value cache."""

    def __init__(self) -> None:
        super().__init__()
        from transformers import GPT2Config, GPT2LMHeadModel

        self.gpt2 = GPT2LMHeadModel(GPT2Config())

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.gpt2(ids, use_cache=False).logits


class BertHidden(nn.Module):
    """BERT-base (``transformers``) returning its last hidden state."""

    def __init__(self) -> None:
        super().__init__()
        from transformers import BertConfig, BertModel

        self.bert = BertModel(BertConfig())

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.bert(ids).last_hidden_state


def _resnet18() -> tuple[nn.Module, tuple[Any, ...]]:
    import torchvision

    return torchvision.models.resnet18(), (torch.randn(1, 3, 224, 224),)


MODELS: dict[str, Callable[[], tuple[nn.Module, tuple[Any, ...]]]] = {
    "resnet18": _resnet18,
    "gpt2_small": lambda: (GPT2Logits(), (torch.randint(0, 50257, (1, 16)),)),
    "bert_base": lambda: (BertHidden(), (torch.randint(0, 30522, (1, 16)),)),
    "gate_if": lambda: (Gate(), (torch.randn(2, 16),)),
}


def export(out_dir: str, names: list[str] | None = None) -> Iterator[str]:
    """Exports the models named (all by default) into ``out_dir``; yields the files written."""
    warnings.filterwarnings("ignore")
    for name, build in MODELS.items():
        if names and name not in names:
            continue
        torch.manual_seed(0)
        model, args = build()
        path = os.path.join(out_dir, f"{name}.onnx")
        torch.onnx.export(model.eval(), args, path, dynamo=True, external_data=True)
        yield path


if __name__ == "__main__":
    for written in export(sys.argv[1], sys.argv[2:]):
        print(written)
