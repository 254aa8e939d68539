"""The small real PyTorch models behind the committed fixtures (one per guide drawing).

Every model is built with a fixed seed, random initialisation and tiny inputs, so the
traces are small enough to commit and the guide's numbers hold (12 operations and 1.61K
parameters for ConvNet, 44 nodes for the 8-block stack, ...).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class ConvBlock(nn.Module):
    def __init__(self, cin: int, cout: int):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


class ConvNet(nn.Module):
    """The guide's first drawing: two ConvBlocks in ``features``, then pool and head."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(ConvBlock(3, 8), ConvBlock(8, 16))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(self.pool(x), 1)
        return torch.softmax(self.fc(x), dim=1)


class Branching(nn.Module):
    """The guide's IF/THEN drawing."""

    def __init__(self):
        super().__init__()
        self.pos = nn.Linear(4, 4)
        self.neg = nn.Linear(4, 4)

    def forward(self, x):
        if x.mean() > 0:
            return torch.relu(self.pos(x))
        return -self.neg(x)


class Recurrent(nn.Module):
    """One cell run three times: ``h = tanh(inp(x) + rec(h))``."""

    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(4, 4)
        self.rec = nn.Linear(4, 4)

    def forward(self, x):
        h = torch.zeros_like(x)
        for _ in range(3):
            h = torch.tanh(self.inp(x) + self.rec(h))
        return h


class LongLoop(nn.Module):
    """A cell run twenty times, each step damped: ``h = 0.9 * tanh(inp(x) + rec(h))``, a
    loop too long to read pass by pass."""

    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(4, 4)
        self.rec = nn.Linear(4, 4)
        self.out = nn.Linear(4, 2)

    def forward(self, x):
        h = torch.zeros_like(x)
        for _ in range(20):
            h = torch.tanh(self.inp(x) + self.rec(h)) * 0.9
        return self.out(h)


class CellLoop(nn.Module):
    """An ``nn.LSTMCell`` run over three time steps, fed its own ``(h, c)``: a leaf module
    with two outputs, called with a tuple argument."""

    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(4, 8)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        h = torch.zeros(x.shape[1], 8)
        c = torch.zeros(x.shape[1], 8)
        for t in range(x.shape[0]):
            h, c = self.cell(x[t], (h, c))
        return self.head(h)


class MLP(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        self.fc1 = nn.Linear(width, 2 * width)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(2 * width, width)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class Block(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.mlp = MLP(width)

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class Stack(nn.Module):
    """Embedding, then residual blocks (layer norm + MLP submodule + add), then a head."""

    def __init__(self, num_blocks: int, width: int = 8):
        super().__init__()
        self.embed = nn.Linear(4, width)
        self.blocks = nn.ModuleList(Block(width) for _ in range(num_blocks))
        self.head = nn.Linear(width, 2)

    def forward(self, x):
        x = self.embed(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


class TwoLayer(nn.Module):
    """``fc1 -> relu -> fc2``: the guide's edit, backward and bundle examples."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class PartlyFrozen(nn.Module):
    """A frozen layer (``weight [8, 8]``) and a layer with a frozen weight but trainable bias."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 8)
        self.fc2 = nn.Linear(8, 4)
        self.fc1.requires_grad_(False)
        self.fc2.weight.requires_grad_(False)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class Scaled(nn.Module):
    """A custom buffer (``register_buffer("scale", ...)``) that stays visible by default."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.register_buffer("scale", torch.full((4,), 0.5))

    def forward(self, x):
        return self.fc(x) * self.scale


class TinyCNN(nn.Module):
    """A small image classifier traced from a photo."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, stride=2, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        return self.fc(torch.flatten(self.pool(x), 1))


class CausalSelfAttention(nn.Module):
    def __init__(self, width: int, heads: int):
        super().__init__()
        self.heads = heads
        self.c_attn = nn.Linear(width, 3 * width)
        self.c_proj = nn.Linear(width, width)

    def forward(self, x):
        batch, seq, width = x.shape
        q, k, v = self.c_attn(x).split(width, dim=2)
        shape = (batch, seq, self.heads, width // self.heads)
        q, k, v = (t.view(shape).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(batch, seq, width)
        return self.c_proj(y)


class GPTMLP(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        self.c_fc = nn.Linear(width, 4 * width)
        self.c_proj = nn.Linear(4 * width, width)

    def forward(self, x):
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))


class GPTBlock(nn.Module):
    def __init__(self, width: int, heads: int):
        super().__init__()
        self.ln_1 = nn.LayerNorm(width)
        self.attn = CausalSelfAttention(width, heads)
        self.ln_2 = nn.LayerNorm(width)
        self.mlp = GPTMLP(width)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPTTransformer(nn.Module):
    def __init__(self, vocab: int, context: int, width: int, layers: int, heads: int):
        super().__init__()
        self.wte = nn.Embedding(vocab, width)
        self.wpe = nn.Embedding(context, width)
        self.drop = nn.Dropout(0.0)
        self.h = nn.ModuleList(GPTBlock(width, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(width)

    def forward(self, idx):
        positions = torch.arange(idx.shape[1], device=idx.device)
        x = self.drop(self.wte(idx) + self.wpe(positions))
        for block in self.h:
            x = block(x)
        return self.ln_f(x)


class GPT2LMHeadModel(nn.Module):
    """A GPT-2-style transformer (named like Hugging Face's) with real attention modules."""

    def __init__(self, vocab: int = 64, context: int = 16, width: int = 32, layers: int = 2, heads: int = 4):
        super().__init__()
        self.transformer = GPTTransformer(vocab, context, width, layers, heads)
        self.lm_head = nn.Linear(width, vocab, bias=False)

    def forward(self, idx):
        return self.lm_head(self.transformer(idx))


class ControlFlow(nn.Module):
    """Python control flow on tensors of every kind TorchLens records: a ``while`` test (four
    times: three iterations, then false), a conditional expression, an ``assert``, an ``if``
    on ``bool(...)`` and a comprehension filter."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.gate = nn.Linear(4, 4)

    def forward(self, x):
        h = self.fc(x)
        steps = 0
        while h.norm() > 1.0 and steps < 3:
            h = h * 0.5
            steps += 1
        h = self.gate(h) if h.mean() > -10 else h
        assert h.abs().max() < 1e6
        if bool(h.sum() > -1e9):
            h = torch.relu(h)
        parts = [p for p in h.split(1, dim=1) if p.mean() > -1e9]
        return torch.cat(parts, dim=1)
