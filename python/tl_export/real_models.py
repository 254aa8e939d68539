"""Real architectures at their real sizes, with random weights and no downloads.

These are the models users draw (GPT-2, BERT, ViT, ResNet, MobileNet, DenseNet, UNet), built
from ``transformers`` configs, ``torchvision`` constructors or by hand, so that benchmarks and
fidelity tests see what users see: thousands of operations, key/value caches returned as
outputs, masks that feed every block. ``python -m tl_export real-models OUT_DIR`` traces and
exports them, with TorchLens's own DOT of each default drawing in ``OUT_DIR/reference``
(``cargo xtask fixtures`` writes ``fixtures/real``); ``time-draw`` times TorchLens's own
drawing of the same traces (``cargo xtask bench-compare``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
import torchlens as tl
from torch import nn

#: Tokens fed to the language models (GPT-2, BERT).
TOKENS = 16


@dataclass
class RealModel:
    """One real architecture: how to build it and its input, and what it is."""

    name: str
    description: str
    build: Callable[[], tuple[nn.Module, Any]]
    #: Whether the fixtures carry TorchLens's own DOT of it (not for the depth variants,
    #: which exist for the benchmarks' growth curve).
    reference: bool = True


def cache_tensors(cache: Any) -> list[torch.Tensor]:
    """A ``transformers`` cache's tensors in layer order, key then value (a ``DynamicCache``'s
    layers, or the older tuple of ``(key, value)`` pairs), as a user's wrapper unpacks it."""
    tensors: list[torch.Tensor] = []
    if hasattr(cache, "layers"):
        for layer in cache.layers:
            tensors += [layer.keys, layer.values]
    else:
        for keys, values in cache:
            tensors += [keys, values]
    return tensors


class CausalLMWithCache(nn.Module):
    """A ``transformers`` causal language model returning its logits and every layer's key
    and value cache tensors as separate outputs (1 + 2 x layers, the cache tensors made
    inside the blocks). ``transformers`` 5 returns the cache as a ``DynamicCache`` object;
    unpacking it keeps the outputs plain tensors, as a user's own ``(logits, presents)``
    wrapper does. The model is registered as ``name``: its module addresses start with it."""

    def __init__(self, name: str, model: nn.Module):
        super().__init__()
        self.add_module(name, model)
        self.model_name = name

    def forward(self, input_ids: torch.Tensor) -> tuple[torch.Tensor, ...]:
        out = getattr(self, self.model_name)(input_ids, use_cache=True)
        return (out.logits, *cache_tensors(out.past_key_values))


class GPT2WithCache(CausalLMWithCache):
    """GPT-2 (``transformers`` ``GPT2LMHeadModel``, width 768) with its cache as outputs."""

    def __init__(self, layers: int):
        from transformers import GPT2Config, GPT2LMHeadModel

        super().__init__("gpt2", GPT2LMHeadModel(GPT2Config(n_layer=layers)))


def _gpt2(layers: int) -> Callable[[], tuple[nn.Module, Any]]:
    def build() -> tuple[nn.Module, Any]:
        return GPT2WithCache(layers), torch.randint(0, 50257, (1, TOKENS))

    return build


class LlamaWithCache(CausalLMWithCache):
    """A Llama-style decoder (``transformers`` ``LlamaForCausalLM``: grouped key/value heads,
    rotary embedding, SwiGLU) with its cache as outputs. Width 512 (8 heads, 2 key/value
    heads), not Llama-2 7B's 4096: its 28 GB of weights do not fit this machine; the graph
    is the same."""

    def __init__(self, layers: int):
        from transformers import LlamaConfig, LlamaForCausalLM

        config = LlamaConfig(
            num_hidden_layers=layers,
            hidden_size=512,
            intermediate_size=1376,
            num_attention_heads=8,
            num_key_value_heads=2,
            vocab_size=32000,
        )
        super().__init__("llama", LlamaForCausalLM(config))


def _llama(layers: int) -> Callable[[], tuple[nn.Module, Any]]:
    def build() -> tuple[nn.Module, Any]:
        return LlamaWithCache(layers), torch.randint(0, 32000, (1, TOKENS))

    return build


class MambaWithCache(nn.Module):
    """A Mamba language model (``transformers`` ``MambaForCausalLM``, Mamba-130m's shape: 24
    layers, width 768, state 16) on the slow path (no CUDA kernels), returning its logits and
    every layer's convolution and state cache tensors."""

    def __init__(self) -> None:
        super().__init__()
        from transformers import MambaConfig, MambaForCausalLM

        config = MambaConfig(vocab_size=50280, hidden_size=768, num_hidden_layers=24, state_size=16)
        self.mamba = MambaForCausalLM(config)

    def forward(self, input_ids: torch.Tensor) -> tuple[torch.Tensor, ...]:
        out = self.mamba(input_ids, use_cache=True)
        tensors: list[torch.Tensor] = []
        for layer in out.cache_params.layers:
            tensors += [layer.conv_states, layer.recurrent_states]
        return (out.logits, *tensors)


def _mamba() -> tuple[nn.Module, Any]:
    return MambaWithCache(), torch.randint(0, 50280, (1, TOKENS))


class T5WithCache(nn.Module):
    """T5-small (``transformers`` ``T5ForConditionalGeneration`` with its default config: 6
    encoder and 6 decoder layers, width 512) on 16 source and 8 target tokens, returning its
    logits, every decoder layer's self- and cross-attention key and value caches, and the
    encoder's last hidden state, as ``transformers`` returns them."""

    def __init__(self) -> None:
        super().__init__()
        from transformers import T5Config, T5ForConditionalGeneration

        self.t5 = T5ForConditionalGeneration(T5Config())

    def forward(self, input_ids: torch.Tensor, decoder_input_ids: torch.Tensor) -> tuple[torch.Tensor, ...]:
        out = self.t5(input_ids=input_ids, decoder_input_ids=decoder_input_ids, use_cache=True)
        return (out.logits, *encoder_decoder_cache(out), out.encoder_last_hidden_state)


def encoder_decoder_cache(out: Any) -> list[torch.Tensor]:
    """An encoder-decoder's self-attention then cross-attention cache tensors."""
    cache = out.past_key_values
    return cache_tensors(cache.self_attention_cache) + cache_tensors(cache.cross_attention_cache)


def _t5() -> tuple[nn.Module, Any]:
    return T5WithCache(), (torch.randint(0, 32128, (1, TOKENS)), torch.randint(0, 32128, (1, 8)))


def _bert() -> tuple[nn.Module, Any]:
    from transformers import BertConfig, BertModel

    return BertModel(BertConfig()), torch.randint(0, 30522, (1, TOKENS))


def _torchvision(name: str, size: int) -> Callable[[], tuple[nn.Module, Any]]:
    def build() -> tuple[nn.Module, Any]:
        import torchvision

        return torchvision.models.get_model(name, weights=None), torch.randn(1, 3, size, size)

    return build


class DoubleConv(nn.Module):
    """Two 3x3 convolutions, each with batch norm and ReLU (the UNet paper's block)."""

    def __init__(self, cin: int, cout: int):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class Down(nn.Module):
    def __init__(self, cin: int, cout: int):
        super().__init__()
        self.pool = nn.MaxPool2d(2)
        self.conv = DoubleConv(cin, cout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(self.pool(x))


class Up(nn.Module):
    def __init__(self, cin: int, cout: int):
        super().__init__()
        self.up = nn.ConvTranspose2d(cin, cin // 2, 2, stride=2)
        self.conv = DoubleConv(cin, cout)

    def forward(self, x: torch.Tensor, skip: torch.Tensor) -> torch.Tensor:
        return self.conv(torch.cat([skip, self.up(x)], dim=1))


class UNet(nn.Module):
    """The original UNet (Ronneberger et al. 2015): widths 64 to 1024, four skip joins."""

    def __init__(self, channels: int = 3, classes: int = 2):
        super().__init__()
        self.inc = DoubleConv(channels, 64)
        self.down1, self.down2 = Down(64, 128), Down(128, 256)
        self.down3, self.down4 = Down(256, 512), Down(512, 1024)
        self.up1, self.up2 = Up(1024, 512), Up(512, 256)
        self.up3, self.up4 = Up(256, 128), Up(128, 64)
        self.outc = nn.Conv2d(64, classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        x4 = self.down3(x3)
        x = self.down4(x4)
        x = self.up1(x, x4)
        x = self.up2(x, x3)
        x = self.up3(x, x2)
        x = self.up4(x, x1)
        return self.outc(x)


def _unet() -> tuple[nn.Module, Any]:
    return UNet(), torch.randn(1, 3, 128, 128)


class SequenceClassifier(nn.Module):
    """A two-layer LSTM and a GRU over 32 steps of 64-wide embeddings, then a linear head:
    the recurrent families (each ``nn.LSTM``/``nn.GRU`` call a leaf with several outputs)."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(1000, 64)
        self.lstm = nn.LSTM(64, 256, num_layers=2, batch_first=True)
        self.gru = nn.GRU(256, 128, batch_first=True)
        self.head = nn.Linear(128, 5)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x, _ = self.lstm(self.embed(tokens))
        x, h = self.gru(x)
        return self.head(h[-1])


def _sequence_classifier() -> tuple[nn.Module, Any]:
    return SequenceClassifier(), torch.randint(0, 1000, (2, 32))


class CellLoop(nn.Module):
    """An ``nn.LSTMCell`` stepped by a Python loop over 64 time steps (one module called 64
    times, each call fed the last call's ``(h, c)``), then a linear head on the last state."""

    def __init__(self) -> None:
        super().__init__()
        self.cell = nn.LSTMCell(64, 128)
        self.head = nn.Linear(128, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x.new_zeros(x.shape[0], 128)
        c = x.new_zeros(x.shape[0], 128)
        for step in range(x.shape[1]):
            h, c = self.cell(x[:, step], (h, c))
        return self.head(h)


def _cell_loop() -> tuple[nn.Module, Any]:
    return CellLoop(), torch.randn(2, 64, 64)


class DictVAE(nn.Module):
    """A convolutional VAE for 64x64 images whose forward returns a dict (reconstruction,
    mean, log-variance), as many research codebases write it."""

    def __init__(self, latent: int = 128) -> None:
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 32, 4, 2, 1),
            nn.ReLU(),
            nn.Conv2d(32, 64, 4, 2, 1),
            nn.ReLU(),
            nn.Conv2d(64, 128, 4, 2, 1),
            nn.ReLU(),
            nn.Flatten(),
        )
        self.mean = nn.Linear(128 * 8 * 8, latent)
        self.log_var = nn.Linear(128 * 8 * 8, latent)
        self.project = nn.Linear(latent, 128 * 8 * 8)
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(128, 64, 4, 2, 1),
            nn.ReLU(),
            nn.ConvTranspose2d(64, 32, 4, 2, 1),
            nn.ReLU(),
            nn.ConvTranspose2d(32, 3, 4, 2, 1),
            nn.Sigmoid(),
        )

    def forward(self, x: torch.Tensor) -> dict[str, torch.Tensor]:
        features = self.encoder(x)
        mean, log_var = self.mean(features), self.log_var(features)
        z = mean + torch.randn_like(mean) * torch.exp(0.5 * log_var)
        reconstruction = self.decoder(self.project(z).view(-1, 128, 8, 8))
        return {"reconstruction": reconstruction, "mean": mean, "log_var": log_var}


def _dict_vae() -> tuple[nn.Module, Any]:
    return DictVAE(), torch.randn(2, 3, 64, 64)


class MixtralWithCache(CausalLMWithCache):
    """A Mixtral-style mixture-of-experts decoder (``transformers`` ``MixtralForCausalLM``: 8
    experts, 2 per token, grouped key/value heads, rotary embedding) with its cache as
    outputs. Each layer's experts run in a Python loop over the experts its tokens were
    routed to: ``transformers``' eager experts, its reference code and what releases before
    5 always ran (5 picks one grouped matrix product where torch has it). 4 layers of width
    512, not Mixtral 8x7B's 32 of 4096 (its 94 GB of weights do not fit this machine); the
    graph of a layer is the same."""

    def __init__(self, layers: int):
        from transformers import MixtralConfig, MixtralForCausalLM

        config = MixtralConfig(
            num_hidden_layers=layers,
            hidden_size=512,
            intermediate_size=1024,
            num_attention_heads=8,
            num_key_value_heads=2,
            num_local_experts=8,
            num_experts_per_tok=2,
            vocab_size=32000,
            experts_implementation="eager",
        )
        super().__init__("mixtral", MixtralForCausalLM(config))


def _mixtral() -> tuple[nn.Module, Any]:
    return MixtralWithCache(4), torch.randint(0, 32000, (1, TOKENS))


class WhisperWithCache(nn.Module):
    """Whisper tiny (``transformers`` ``WhisperForConditionalGeneration`` with its default
    config: 4 encoder and 4 decoder layers, width 384) on 30 s of 80-bin log-mel features and
    8 target tokens, returning its logits, the decoder's self- and cross-attention caches and
    the encoder's last hidden state, as ``transformers`` returns them."""

    def __init__(self) -> None:
        super().__init__()
        from transformers import WhisperConfig, WhisperForConditionalGeneration

        self.whisper = WhisperForConditionalGeneration(WhisperConfig())

    def forward(self, input_features: torch.Tensor, decoder_input_ids: torch.Tensor) -> tuple[torch.Tensor, ...]:
        out = self.whisper(input_features=input_features, decoder_input_ids=decoder_input_ids, use_cache=True)
        return (out.logits, *encoder_decoder_cache(out), out.encoder_last_hidden_state)


def _whisper() -> tuple[nn.Module, Any]:
    return WhisperWithCache(), (torch.randn(1, 80, 3000), torch.randint(0, 51865, (1, 8)))


REAL_MODELS = [
    RealModel("gpt2_small", "GPT-2 small (12 layers, width 768, 16 tokens), key/value cache as outputs", _gpt2(12)),
    RealModel("gpt2_6", "GPT-2 with 6 layers (width 768), cache as outputs", _gpt2(6), reference=False),
    RealModel("gpt2_24", "GPT-2 with 24 layers (GPT-2 medium's depth), cache as outputs", _gpt2(24), reference=False),
    RealModel("gpt2_48", "GPT-2 with 48 layers (GPT-2 XL's depth), cache as outputs", _gpt2(48), reference=False),
    RealModel("llama_4", "Llama-style decoder (4 layers, width 512, GQA, rotary), cache as outputs", _llama(4)),
    RealModel("llama_32", "Llama-style decoder (32 layers, as Llama-2 7B, width 512), cache as outputs", _llama(32)),
    RealModel("bert_base", "BERT-base (12 layers, width 768, 16 tokens)", _bert),
    RealModel("vit_b_16", "torchvision ViT-B/16, 224x224", _torchvision("vit_b_16", 224)),
    RealModel("resnet50", "torchvision ResNet-50, 224x224", _torchvision("resnet50", 224)),
    RealModel("mobilenet_v3_large", "torchvision MobileNetV3-Large, 224x224", _torchvision("mobilenet_v3_large", 224)),
    RealModel("densenet121", "torchvision DenseNet-121, 224x224", _torchvision("densenet121", 224)),
    RealModel("unet", "UNet (64-1024 channels, four skip joins), 128x128", _unet),
    RealModel("lstm_gru", "2-layer LSTM (256) and a GRU (128) over 32 tokens, linear head", _sequence_classifier),
    RealModel("t5_small", "T5-small (6 + 6 layers, width 512), caches and encoder state as outputs", _t5),
    RealModel("mamba", "Mamba (24 layers, width 768, state 16: Mamba-130m's shape), cache as outputs", _mamba),
    RealModel("vae_dict", "a convolutional VAE (64x64, latent 128) returning a dict", _dict_vae),
    RealModel(
        "mixtral_4", "Mixtral-style MoE decoder (4 layers, width 512, 8 experts, top 2), cache as outputs", _mixtral
    ),
    RealModel(
        "whisper_tiny", "Whisper tiny (4 + 4 layers, width 384, 30 s of audio), caches and encoder state", _whisper
    ),
    RealModel("lstmcell_64", "an LSTMCell (64 to 128) stepped over 64 time steps by a loop, linear head", _cell_loop),
]

BY_NAME = {model.name: model for model in REAL_MODELS}


def trace_real(name: str) -> dict[str, Any]:
    """Builds (seed 0, eval mode) and traces one real model; returns the trace and model."""
    torch.manual_seed(0)
    model, x = BY_NAME[name].build()
    model = model.eval()
    with torch.no_grad():
        trace = tl.trace(model, x)
    return {"trace": trace, "model": model}
