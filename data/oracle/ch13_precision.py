"""Chapter 13: numbers in fewer bits. Written here with PyTorch's own dtypes, independently of
the C++ (src/core/number_formats.h rounds on bit patterns; here torch's .to(dtype) does it):

- the formats' facts from torch.finfo, and a list of values rounded by .to(float32 / bfloat16 /
  float16), as bit patterns (ties, subnormals, overflow, infinities, NaN included);
- 01's hand-calculated example (笔/记/本) in each format, and in 8-bit groups;
- where attention breaks in float16: each case computed with float16 tensors, every operation's
  result rounded to float16 (float32 inside each operation: exact for one addition or product,
  since float32 holds 2·11 + 2 bits);
- a small decoder-only model, trained here for a few steps on chapter 12's seeded Markov text,
  then read in each format — weights rounded by .to(dtype), or in 8-bit groups of 32 along each
  output's inputs (a float32 scale per 32) — with float32 arithmetic: its held-out loss, its greedy
  tokens against float64's, the bytes of its weights.
"""
import math

import torch

import ch12_gpt as ch12
from common import SplitMix64, T

FORMATS = {"float64": torch.float64, "float32": torch.float32, "bfloat16": torch.bfloat16,
           "float16": torch.float16}
F = torch.float32


# --- values to round: ties, subnormals, overflow, the specials ------------------------------------
def rounding_values():
    v = [0.0, -0.0, 1.0, -1.0, math.pi, math.e, 0.1, 1 / 3, 11 / math.sqrt(5), -9 / math.sqrt(5)]
    v += [1 + 2**-8, 1 + 3 * 2**-8, 1 - 2**-9, 1 + 2**-8 + 2**-30]  # bfloat16: ties, twice rounded
    v += [1 + 2**-11, 1 + 3 * 2**-11, 2048 + 1, 2048 + 3, 1 + 2**-24, 1 + 3 * 2**-24]  # float16, 32
    v += [2**-24, 2**-25, 3 * 2**-25, 6e-8, 1e-5, 6.1e-5, 2**-14, 1e-40, 1e-45, 2**-149, 2**-150]
    v += [65504.0, 65519.0, 65520.0, 70000.0, 1e9, -1e9, 3.4e38, 3.5e38, 1e39, 1e300]
    v += [float("inf"), float("-inf"), float("nan")]
    rng = SplitMix64(1313)
    v += [(rng.uniform() * 2 - 1) * 2.0 ** int(rng.uniform() * 60 - 30) for _ in range(20)]
    return [float(x).hex() if math.isfinite(x) else repr(float(x)) for x in v]


def bits(values, dtype):
    """The bit patterns .to(dtype) gives; -1 for a NaN, whose sign and payload IEEE 754 leaves to
    the implementation (PyTorch writes a bfloat16 NaN as 0x7fc0 when it converts one number and
    as 0xffff inside a longer tensor: only being a NaN is compared)."""
    t = T([float.fromhex(x) if x not in ("inf", "-inf", "nan") else float(x) for x in values])
    r = t.to(dtype)
    mask = 0xFFFFFFFF if dtype == torch.float32 else 0xFFFF
    view = r.view(torch.int32 if dtype == torch.float32 else torch.int16).tolist()
    return [-1 if math.isnan(float(x)) else b & mask for x, b in zip(r.tolist(), view)]


def facts():
    out = {"format_largest": [], "format_smallest_normal": [], "format_smallest_subnormal": [],
           "format_unit_roundoff": []}
    for dtype in FORMATS.values():
        f = torch.finfo(dtype)
        out["format_largest"].append(f.max)
        out["format_smallest_normal"].append(f.tiny)
        out["format_smallest_subnormal"].append(f.tiny * f.eps)  # 2^(1 - bias - mantissa bits)
        out["format_unit_roundoff"].append(f.eps / 2)
    return out


# --- 01's example in each format ---------------------------------------------------------------------
def q8(x):
    """Groups of 32 along the last dimension: scale = max|x| / 127 (float32), q = round half away."""
    x = x.to(F)
    n = x.shape[-1]
    q, s = torch.zeros_like(x), []
    for first in range(0, n, 32):
        g = x[..., first:first + 32]
        scale = g.abs().amax(-1, keepdim=True) / torch.tensor(127.0, dtype=F)
        safe = torch.where(scale == 0, torch.ones_like(scale), scale)
        r = g / safe
        q[..., first:first + 32] = torch.where(scale == 0, torch.zeros_like(r),
                                               torch.sign(r) * torch.floor(r.abs() + 0.5))
        s.append(scale)
    return q, torch.cat(s, -1)


def dequantized(x):
    q, s = q8(x)
    n = x.shape[-1]
    out = torch.zeros_like(q)
    for k, first in enumerate(range(0, n, 32)):
        out[..., first:first + 32] = q[..., first:first + 32] * s[..., k:k + 1]
    return out


def tutorial_expected(t):
    X = T(t["X"])
    scores = X @ X.T / math.sqrt(X.shape[1])
    out = {}
    for name, dtype in FORMATS.items():
        rounded = scores.to(dtype).double()
        out[f"tutorial_scores_{name}"] = rounded
        out[f"tutorial_weights_{name}"] = torch.softmax(rounded, -1).to(dtype).double()
    Xq = dequantized(X).double()
    out["tutorial_X_int8"] = Xq
    out["tutorial_scores_int8"] = (Xq @ Xq.T / math.sqrt(X.shape[1])).to(F).double()
    return out


# --- where attention breaks in float16 ----------------------------------------------------------------
H = torch.float16


def half(x):
    """A tensor's values rounded to float16 (and back to float32 for the next operation)."""
    return x.to(F).to(H).to(F)


def softmax_half(s, subtract_max):
    s = half(s)
    e = half(torch.exp(s - s.max()) if subtract_max else torch.exp(s))
    return half(e / half(e.sum()))


def breaking_expected(b):
    out = {}
    scores = torch.tensor(b["scores"], dtype=F)
    out["exp_overflow_float16"] = math.log(65520.0)  # exp(x) rounds to inf in float16 above it
    out["softmax_float16_stable"] = softmax_half(scores, True).double()
    out["softmax_float16_naive_finite"] = float(torch.isfinite(softmax_half(scores, False)).sum())
    out["mask_value_bits"] = [torch.tensor([b["mask_value"]], dtype=torch.float64).to(d).view(torch.int16).item() & 0xFFFF
                              for d in (torch.bfloat16, torch.float16)]
    row = torch.arange(1, b["masked_row"] + 1, dtype=F)
    lowest = torch.finfo(H).min
    out["masked_row_lowest"] = softmax_half(half(row + lowest), True).double()
    out["masked_row_infinite_finite"] = float(
        torch.isfinite(softmax_half(row + float("-inf"), True)).sum())
    # a dot product of length d: float16 inputs, summed in float16 or in float32
    rng = SplitMix64(b["seed"])
    err16, err32 = [], []
    for d in b["dot_lengths"]:
        a = half(torch.tensor([rng.uniform() * 2 - 1 for _ in range(d)], dtype=F))
        c = half(torch.tensor([rng.uniform() * 2 - 1 for _ in range(d)], dtype=F))
        exact = float((a.double() * c.double()).sum())
        s16 = torch.zeros((), dtype=F)
        s32 = torch.zeros((), dtype=F)
        for x, y in zip(a, c):
            s16 = half(s16 + half(x * y))
            s32 = s32 + x * y
        # relative to the exact sum; where that is 0 (a product of zeros), the error itself
        relative = lambda s: abs(float(s) - exact) / abs(exact) if exact != 0 else abs(float(s))
        err16.append(relative(s16))
        err32.append(relative(s32))
    out["dot_error_float16_sum"], out["dot_error_float32_sum"] = err16, err32
    # the 1/√d_k scale: scores of seeded normal queries and keys, without and with it
    rng = SplitMix64(b["seed"] + 1)
    n, d_k = b["scale_rows"], b["d_k"]
    q = torch.tensor([[rng.normal() for _ in range(d_k)] for _ in range(n)], dtype=torch.float64)
    k = torch.tensor([[rng.normal() for _ in range(d_k)] for _ in range(n)], dtype=torch.float64)
    raw = q @ k.T
    out["scale_largest_score"] = [float(raw.abs().max()), float((raw / math.sqrt(d_k)).abs().max())]
    out["scale_exp_overflows"] = [float((raw > math.log(65520.0)).sum()),
                                  float((raw / math.sqrt(d_k) > math.log(65520.0)).sum())]
    # LayerNorm's variance of a row far from 0, in float16: one pass (E[x²] − E[x]²) and two
    x = torch.tensor([b["norm_offset"] + s for s in b["norm_spread"]], dtype=torch.float64)
    out["norm_variance_float64"] = float(((x - x.mean()) ** 2).mean())
    xh = half(x)
    d = torch.tensor(float(len(b["norm_spread"])), dtype=F)
    mean = half(half(xh.sum()) / d)
    out["norm_variance_two_pass"] = float(half(half(half((xh - mean) ** 2).sum()) / d))
    squares = half(half(half(xh * xh).sum()) / d)
    out["norm_variance_one_pass_finite"] = float(torch.isfinite(half(squares - half(mean * mean))))
    return out


# --- a small trained model in each format ---------------------------------------------------------------
def model_inputs():
    c = dict(d_model=32, n_heads=4, n_kv_heads=2, d_ff=64, n_layers=2, vocab=20, layer_norm_eps=1e-5,
             norm="rms", positions="rope", norm_first=True, pad_id=0, bos_id=1, eos_id=2,
             max_positions=0)
    corpus = ch12.baseline_corpus()
    p = {k: T(x).requires_grad_(True) for k, x in ch12.gpt_weights(c, 1313).items()}
    groups = [{"params": [t for t in p.values() if t.dim() == 2], "weight_decay": 0.1},
              {"params": [t for t in p.values() if t.dim() == 1], "weight_decay": 0.0}]
    opt = torch.optim.AdamW(groups, lr=0.01, betas=(0.9, 0.98), eps=1e-9)
    train = corpus["training"]
    for step in range(120):  # a few steps on batches of 8 sequences, in turn
        batch = [train[(step * 8 + i) % len(train)] for i in range(8)]
        opt.zero_grad()
        logits = torch.cat([ch12.gpt_logits(p, c, s[:-1]) for s in batch])
        labels = torch.tensor([t for s in batch for t in s[1:]])
        loss = torch.nn.functional.cross_entropy(logits, labels)
        loss.backward()
        opt.step()
    weights = {k: v.detach().tolist() for k, v in p.items()}
    return {"config": c, "weights": weights, "heldout": corpus["heldout"],
            "prompts": [[1], [1, 5], [1, 9, 4], [1, 12, 7, 4], [1, 17]], "new_tokens": 10}


def lowered_weights(p, fmt):
    """The weights as a model in `fmt` keeps them, in float32: rounded, or 8-bit groups along
    each output's inputs (the rows of state_dict's (out x in) matrices); biases and gains in the
    float format (float32 with int8)."""
    out = {}
    for k, v in p.items():
        if fmt == "int8" and v.dim() == 2:
            out[k] = dequantized(v)  # (out x in): groups along `in`
        elif fmt in FORMATS:
            out[k] = v.to(FORMATS[fmt]).to(F)
        else:  # int8's vectors, float32 too
            out[k] = v.to(F)
    return out


def lowered_logits(p, c, ids, half_all, quantized_x):
    """Chapter 12's model in float32 on p (already in its format), operation by operation as the
    C++ step does; with half_all every result rounded to float16, with quantized_x the inputs
    of every product put in 8-bit groups first."""
    settle = half if half_all else (lambda x: x)
    d, h, kv = c["d_model"], c["n_heads"], c["n_kv_heads"]
    d_k = d // h
    n = len(ids)

    def linear(x, name):
        if quantized_x:
            x = dequantized(x)
        return settle(x @ p[name + ".weight"].T + p[name + ".bias"])

    def norm(x, name):
        inv = 1.0 / torch.sqrt((x * x).sum(-1, keepdim=True) / d + c["layer_norm_eps"])
        return settle(x * inv * p[name + ".weight"])

    def rope(x):  # (n, heads·d_k): pairs rotated by position, cos and sin from float64
        freqs = torch.tensor(ch12.modern.rope_frequencies(d_k), dtype=torch.float64)
        angles = torch.outer(torch.arange(n, dtype=torch.float64), freqs)
        cos, sin = torch.cos(angles).to(F), torch.sin(angles).to(F)
        y = x.clone().view(n, -1, d_k // 2, 2)
        a, b = y[..., 0], y[..., 1]
        return settle(torch.stack((a * cos[:, None] - b * sin[:, None],
                                   a * sin[:, None] + b * cos[:, None]), -1).view(n, -1))

    x = settle(p["embedding.weight"][torch.tensor(ids)] * torch.tensor(math.sqrt(d), dtype=F))
    hide = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
    for i in range(c["n_layers"]):
        L = f"layers.{i}"
        z = norm(x, L + ".norm1")
        W, bias = p[L + ".self_attn.in_proj_weight"], p[L + ".self_attn.in_proj_bias"]
        qz = dequantized(z) if quantized_x else z
        q = settle(qz @ W[:d].T + bias[:d])
        k = settle(qz @ W[d:d + kv * d_k].T + bias[d:d + kv * d_k])
        v = settle(qz @ W[d + kv * d_k:].T + bias[d + kv * d_k:])
        q, k = rope(q), rope(k)
        heads = []
        for head in range(h):
            j = head // (h // kv)
            qh, kh, vh = q[:, head * d_k:(head + 1) * d_k], k[:, j * d_k:(j + 1) * d_k], v[:, j * d_k:(j + 1) * d_k]
            s = settle((qh @ kh.T) * torch.tensor(1 / math.sqrt(d_k), dtype=F))
            s = s.masked_fill(hide, float("-inf"))
            w = settle(torch.softmax(s, -1))
            heads.append(settle(w @ vh))
        x = settle(x + linear(torch.cat(heads, -1), L + ".self_attn.out_proj"))
        z = norm(x, L + ".norm2")
        x = settle(x + linear(torch.relu(linear(z, L + ".linear1")), L + ".linear2"))
    y = norm(x, "norm")
    table = p["embedding.weight"]
    return settle((dequantized(y) if quantized_x else y) @ table.T)


READINGS = [("float64", False, False), ("float32", False, False), ("bfloat16", False, False),
            ("float16", False, False), ("int8", False, False), ("float16", True, False),
            ("int8", False, True)]
NAMES = ["float64", "float32", "bfloat16", "float16", "int8", "float16 throughout",
         "int8 × int8"]


def greedy(logits_of, prompt, count, c, margin_check):
    ids = list(prompt)
    for _ in range(count):
        row = logits_of(ids)[-1].double()
        row[[c["pad_id"], c["bos_id"]]] = float("-inf")
        top = torch.topk(row, 2).values
        assert not margin_check or float(top[0] - top[1]) > 1e-3, "a near tie: choose other prompts"
        ids.append(int(row.argmax()))
        if ids[-1] == c["eos_id"]:
            break
    return ids[len(prompt):]


def model_expected(m):
    c, held = m["config"], m["heldout"]
    p64 = {k: T(v) for k, v in m["weights"].items()}
    losses, agree, worst, sizes = [], [], [], []
    reference = None
    for fmt, half_all, quantized_x in READINGS:
        if fmt == "float64":
            logits_of = lambda ids: ch12.gpt_logits(p64, c, ids)
        else:
            pf = lowered_weights(p64, fmt)
            logits_of = lambda ids, pf=pf, ha=half_all, qx=quantized_x: lowered_logits(pf, c, ids, ha, qx)
        total, count = 0.0, 0
        for s in held:
            lp = torch.log_softmax(logits_of(s[:-1]).double(), -1)
            total -= float(lp[torch.arange(len(s) - 1), torch.tensor(s[1:])].sum())
            count += len(s) - 1
        losses.append(total / count)
        written = [greedy(logits_of, pr, m["new_tokens"], c, True) for pr in m["prompts"]]
        if reference is None:
            reference = written
        same = 0
        for ours, ref in zip(written, reference):
            k = 0
            while k < min(len(ours), len(ref)) and ours[k] == ref[k]:
                k += 1
            same += k
        agree.append(same / sum(len(r) for r in reference))
        if fmt == "float64":
            worst.append(0.0)
        else:
            pf = lowered_weights(p64, fmt)
            worst.append(max(float((pf[k].double() - v).abs().max() / v.abs().max()) for k, v in p64.items()))
    # the five formats, then the two other readings under their own names
    return {"heldout_loss_by_format": losses[:5], "greedy_tokens_unchanged_by_format": agree[:5],
            "largest_relative_error_by_format": worst[:5],
            "heldout_loss_float16_throughout": losses[5], "heldout_loss_int8_activations": losses[6],
            "greedy_tokens_unchanged_float16_throughout": agree[5],
            "greedy_tokens_unchanged_int8_activations": agree[6]}


def ch13_inputs():
    return {
        "rounding": {"values": rounding_values()},
        "tutorial": {"tokens": ["笔", "记", "本"], "X": [[1, 2, 1, 2, 1], [1, 1, 1, 2, 1], [3, 2, 1, 1, 1]]},
        "breaking": {"scores": [8.0, 10.0, 12.0], "mask_value": -1e9, "masked_row": 4,
                     "dot_lengths": [16, 64, 256, 1024, 4096], "seed": 131, "d_k": 64, "scale_rows": 16,
                     "norm_offset": 1000.0, "norm_spread": [-1.5, -0.5, 0.25, 0.5, 1.25]},
        "model": model_inputs(),
        "readings": NAMES,
        "poems": ch13_inputs_poems(),
    }


def ch13_inputs_poems():
    """Chapter 12's poet: its corpus and shape; where none is saved, trained here for 300 steps."""
    return {"corpus": ch12.CORPUS, "model": ch12.MODEL, "training": dict(ch12.TRAINING, steps=300),
            "heldout_poems": 300, "prompts": ["《春晓》", "《静夜思》", "《登高》", "《月夜》", "《送别》"],
            "new_tokens": 24}


def ch13_expected(i):
    out = facts()
    values = i["rounding"]["values"]
    out["rounding_float32_bits"] = bits(values, torch.float32)
    out["rounding_bfloat16_bits"] = bits(values, torch.bfloat16)
    out["rounding_float16_bits"] = bits(values, torch.float16)
    out.update(tutorial_expected(i["tutorial"]))
    out.update(breaking_expected(i["breaking"]))
    out.update(model_expected(i["model"]))
    return out


ABOUT = (
    "Numbers in fewer bits (chapter 13). rounding.values: float64 numbers as hexadecimal (and "
    "inf, -inf, nan), expected: their bit patterns after PyTorch's .to(float32 / bfloat16 / "
    "float16); format_*: torch.finfo's facts for float64, float32, bfloat16, float16. tutorial: "
    "01's 笔/记/本 and its scaled scores in each format and in 8-bit groups. breaking: where "
    "attention breaks in float16 (every result rounded to float16). model: a small decoder-only "
    "model the oracle trained for 120 steps, read in each of `readings` — weights rounded "
    "(int8: groups of 32, scale max/127, round half away), arithmetic in float32 — its held-out "
    "loss, its greedy tokens before the first that differs from float64's, its largest weight "
    "error relative to each tensor's largest weight."
)
INPUTS, EXPECTED, TUTORIAL = ch13_inputs, ch13_expected, lambda: {}
