"""Exports the ONNX fixtures (dynamo exporter, torch's default), weights in external data."""
import os, sys, time, warnings
warnings.filterwarnings("ignore")
import torch, torchvision
from torch import nn
out = sys.argv[1]
torch.manual_seed(0)

class Gate(nn.Module):
    """A model with data-dependent control flow, exported as an ONNX If (torch.cond)."""
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(16, 16)
        self.down = nn.Linear(16, 16)
        self.head = nn.Linear(16, 4)
    def forward(self, x):
        def grow(x):
            return torch.relu(self.up(x))
        def shrink(x):
            return torch.tanh(self.down(x))
        y = torch.cond(x.sum() > 0, grow, shrink, (x,))
        return self.head(y)

def models():
    yield "resnet18", torchvision.models.resnet18().eval(), (torch.randn(1, 3, 224, 224),)
    from transformers import GPT2Config, GPT2LMHeadModel, BertConfig, BertModel
    class GPT2Logits(nn.Module):
        def __init__(self):
            super().__init__()
            self.gpt2 = GPT2LMHeadModel(GPT2Config())
        def forward(self, ids):
            return self.gpt2(ids, use_cache=False).logits
    yield "gpt2_small", GPT2Logits().eval(), (torch.randint(0, 50257, (1, 16)),)
    class BertHidden(nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = BertModel(BertConfig())
        def forward(self, ids):
            return self.bert(ids).last_hidden_state
    yield "bert_base", BertHidden().eval(), (torch.randint(0, 30522, (1, 16)),)
    yield "gate_if", Gate().eval(), (torch.randn(2, 16),)

only = set(sys.argv[2:])
for name, model, args in models():
    if only and name not in only:
        continue
    t = time.time()
    path = os.path.join(out, f"{name}.onnx")
    try:
        torch.onnx.export(model, args, path, dynamo=True, external_data=True)
        print(name, round(time.time() - t, 1), "s", os.path.getsize(path), flush=True)
    except Exception as e:
        print(name, "FAILED", type(e).__name__, str(e)[:300], flush=True)
