"""Chapter 12: a decoder-only model (GPT) — its forward pass, loss and gradients on tiny
configurations, written with modern.py's pieces (the same attention, norms, positions and
feed-forward net as chapter 10's hand-written model), one causal stack, the output projection
tied to the embedding. The chapter's training, baselines and poems are measurements, not goldens.
"""
import math

import torch

import modern
from common import T


def gpt_weights(c, seed):
    """Every tensor of the configuration under our state_dict names, from torch's generator."""
    w = modern.Draw(c, seed)
    w.mat("embedding.weight", c["vocab"], c["d_model"])
    if c["positions"] == "learned":
        w.mat("positions.weight", c["max_positions"], c["d_model"])
    for i in range(c["n_layers"]):
        L = f"layers.{i}"
        w.attn(L + ".self_attn")
        w.ffn(L)
        w.norm(L + ".norm1")
        w.norm(L + ".norm2")
    w.norm("norm")
    return {k: v.tolist() for k, v in w.p.items()}


def gpt_logits(p, c, ids):
    """One sequence: logits (len(ids), vocab); row t scores the token after ids[t]."""
    scheme = c["positions"]
    inside = scheme if scheme in ("rope", "alibi") else None
    x = p["embedding.weight"][torch.tensor(ids)] * math.sqrt(c["d_model"])
    if scheme == "sinusoidal":
        x = x + modern.sinusoidal(len(ids), c["d_model"])
    elif scheme == "learned":
        x = x + p["positions.weight"][: len(ids)]
    hide = modern.hidden(len(ids), len(ids), causal=True)
    for i in range(c["n_layers"]):
        L = f"layers.{i}"
        x = modern.sublayer(
            x, lambda z: modern.attention(z, z, p, L + ".self_attn", c, hide, inside), p, L + ".norm1", c
        )
        x = modern.sublayer(x, lambda z: modern.feed_forward(z, p, L), p, L + ".norm2", c)
    return modern.norm(x, p, "norm", c) @ p["embedding.weight"].T


def tiny_variants():
    base = dict(d_model=8, n_heads=2, d_ff=12, n_layers=2, vocab=11, layer_norm_eps=1e-5,
                norm_first=True, pad_id=0, bos_id=1, eos_id=2, max_positions=0)
    return [
        {"name": "rope_rms_mqa", "config": dict(base, norm="rms", positions="rope", n_kv_heads=1), "seed": 121},
        {"name": "learned_layer", "config": dict(base, norm="layer", positions="learned", n_kv_heads=2,
                                                 max_positions=8), "seed": 122},
    ]


def ch12_inputs():
    variants = []
    for v in tiny_variants():
        variants.append({"name": v["name"], "config": v["config"], "weights": gpt_weights(v["config"], v["seed"])})
    return {
        "tiny": {
            # two sequences of different lengths, stacked: <bos> … and the tokens that follow
            "inputs": [[1, 5, 6, 7, 8, 4, 3], [1, 9, 10, 5]],
            "targets": [[5, 6, 7, 8, 4, 3, 2], [9, 10, 5, 2]],
            "variants": variants,
            # steps of AdamW (decoupled weight decay on the matrices) with the warm-up schedule,
            # on the batch above, the first variant: against torch.optim.AdamW
            "adamw": {"steps": 4, "lr_factor": 1.0, "warmup": 2, "weight_decay": 0.5, "smoothing": 0.1},
        },
        "corpus": {"path": "/usr/share/games/fortunes/tang300", "heldout_every": 10, "min_count": 2},
        "model": {
            "d_model": 96, "n_heads": 4, "n_kv_heads": 2, "d_ff": 256, "n_layers": 4,
            "norm": "rms", "positions": "rope", "norm_first": True, "layer_norm_eps": 1e-5,
        },
        "training": {
            "max_steps": 1500, "batch": 16, "context": 64,
            "lr_factor": 1.0, "warmup": 200, "smoothing": 0.1, "weight_decay": 3.0, "seed": 12,
        },
        "sampling": {
            "poems": 100, "temperature": 0.3, "top_k": 40, "top_p": 0.8, "max_length": 160,
            "seed": 2026, "shown": 5, "prompts": ["《春晓》", "《静夜思》", "《登高》", "《月夜》", "《送别》"],
        },
        "attention": {"block": 3},
    }


def adamw_losses(v, tiny):
    """The losses of tiny["adamw"]["steps"] steps of torch.optim.AdamW: weight decay on the 2-D
    tensors only, the paper's learning rate lr(step) = factor·d^-0.5·min(step^-0.5,
    step·warmup^-1.5), label smoothing in the loss."""
    a, c = tiny["adamw"], v["config"]
    p = {k: T(x).requires_grad_(True) for k, x in v["weights"].items()}
    groups = [
        {"params": [t for t in p.values() if t.dim() == 2], "weight_decay": a["weight_decay"]},
        {"params": [t for t in p.values() if t.dim() == 1], "weight_decay": 0.0},
    ]
    opt = torch.optim.AdamW(groups, lr=1.0, betas=(0.9, 0.98), eps=1e-9)
    rate = lambda step: a["lr_factor"] * c["d_model"] ** -0.5 * min(
        (step + 1) ** -0.5, (step + 1) * a["warmup"] ** -1.5)
    schedule = torch.optim.lr_scheduler.LambdaLR(opt, rate)
    labels = torch.tensor([t for ts in tiny["targets"] for t in ts])
    losses = []
    for _ in range(a["steps"]):
        opt.zero_grad()
        logits = torch.cat([gpt_logits(p, c, s) for s in tiny["inputs"]])
        loss = torch.nn.CrossEntropyLoss(ignore_index=c["pad_id"], label_smoothing=a["smoothing"])(
            logits, labels)
        loss.backward()
        opt.step()
        schedule.step()
        losses.append(float(loss))
    return losses


def ch12_expected(i):
    out = {}
    tiny = i["tiny"]
    if "adamw" in tiny:
        out["adamw_losses"] = [adamw_losses(tiny["variants"][0], tiny)]
    for v in tiny["variants"]:
        c = v["config"]
        p = {k: T(x).requires_grad_(True) for k, x in v["weights"].items()}
        rows = [gpt_logits(p, c, s) for s in tiny["inputs"]]
        logits = torch.cat(rows)
        labels = torch.tensor([t for ts in tiny["targets"] for t in ts])
        loss = torch.nn.CrossEntropyLoss(ignore_index=c["pad_id"])(logits, labels)
        loss.backward()
        out[f"logits_{v['name']}"] = logits.detach()
        out[f"loss_{v['name']}"] = float(loss)
        for name, t in p.items():
            out[f"grad_{v['name']}/" + name.replace(".", "/")] = t.grad.detach()
    return out


ABOUT = (
    "A decoder-only model (chapter 12). tiny: two small configurations with their weights under "
    "state_dict names (embedding.weight is also the output projection), a batch of two "
    "sequences (inputs, and the targets that follow each position); expected: logits, loss and "
    "autograd's gradients (grad_<variant>/<name with / for .>). corpus: the Three Hundred Tang "
    "Poems of Debian's fortunes-zh (one poem in heldout_every held out); model, training, "
    "sampling: what the chapter trains and how it writes."
)
INPUTS, EXPECTED, TUTORIAL = ch12_inputs, ch12_expected, lambda: {}
