"""Chapter 10: attention since 2017, one switch at a time — RMSNorm, RoPE, ALiBi, grouped-query
and sliding-window attention — each computed here by modern.py's independent route.
"""
import math

import torch

import modern
from ch05_positional_encoding import sinusoidal
from ch07_training import ch07_inputs
from common import SplitMix64, T
from model import base_config, Seq2Seq


def rounded(rng, rows, cols, scale=1.0, offset=0.0):
    return [[round(offset + scale * rng.normal(), 2) for _ in range(cols)] for _ in range(rows)]


VARIANTS = [  # the small model's switches, one combination each (names as the data file keys)
    {"name": "paper", "norm": "layer", "norm_first": False, "positions": "sinusoidal", "n_kv_heads": 4, "window": 0},
    {"name": "rms_pre_rope_gqa", "norm": "rms", "norm_first": True, "positions": "rope", "n_kv_heads": 2, "window": 0},
    {"name": "alibi_mqa_window", "norm": "layer", "norm_first": False, "positions": "alibi", "n_kv_heads": 1, "window": 3},
    {"name": "rms_learned_window", "norm": "rms", "norm_first": False, "positions": "learned", "n_kv_heads": 4, "window": 2, "max_positions": 8},
    {"name": "pre_none_gqa", "norm": "layer", "norm_first": True, "positions": "none", "n_kv_heads": 2, "window": 0},
]


def small_config():
    return base_config(
        d_model=8,
        n_heads=4,
        d_ff=16,
        n_encoder_layers=2,
        n_decoder_layers=2,
        src_vocab=10,
        tgt_vocab=10,
    )


def variant_config(v):
    return dict(small_config(), **{k: x for k, x in v.items() if k != "name"})


def gqa_weights(seed, d, h):
    """One attention layer's weights with h key/value heads (in_proj stacked as PyTorch's)."""
    g = torch.Generator().manual_seed(seed)
    return {
        "in_proj_weight": (torch.randn(3 * d, d, generator=g) / math.sqrt(d)).tolist(),
        "in_proj_bias": (0.1 * torch.randn(3 * d, generator=g)).tolist(),
        "out_proj_weight": (torch.randn(d, d, generator=g) / math.sqrt(d)).tolist(),
        "out_proj_bias": (0.1 * torch.randn(d, generator=g)).tolist(),
    }


def pooled(w, d, h, kv):
    """The layer with kv key/value heads made from its h, as the GQA paper converts a checkpoint:
    the key (and value) heads of each group of h / kv averaged into one."""
    W, b = T(w["in_proj_weight"]), T(w["in_proj_bias"])
    d_k, group = d // h, h // kv

    def pool(rows, bias):
        heads = rows.view(h, d_k, d)
        bheads = bias.view(h, d_k)
        return (
            heads.view(kv, group, d_k, d).mean(1).reshape(kv * d_k, d),
            bheads.view(kv, group, d_k).mean(1).reshape(kv * d_k),
        )

    Wk, bk = pool(W[d : 2 * d], b[d : 2 * d])
    Wv, bv = pool(W[2 * d :], b[2 * d :])
    return {
        "name.in_proj_weight": torch.cat([W[:d], Wk, Wv]),
        "name.in_proj_bias": torch.cat([b[:d], bk, bv]),
        "name.out_proj.weight": T(w["out_proj_weight"]),
        "name.out_proj.bias": T(w["out_proj_bias"]),
    }


def ch10_inputs():
    rng = SplitMix64(10)
    lengths = ch07_inputs()["training"]
    training = {k: v for k, v in lengths.items()}
    return {
        "norms": {"x": rounded(rng, 4, 8, 2.0, 1.0)},
        "rope": {
            "d_k": 8,
            "q": rounded(rng, 1, 8)[0],
            "k": rounded(rng, 1, 8)[0],
            # pairs (m, n) of query and key positions: three distances, each at several places
            "pairs": [[2, 0], [5, 3], [40, 38], [100, 98], [3, 3], [17, 17], [0, 4], [9, 13], [60, 64]],
            "positions": [0, 1, 2, 5],
        },
        "frequencies": {"d_model": 32, "d_k": 8},
        "alibi": {"heads": [8, 6], "n": 6},
        "gqa": {
            "d_model": 16,
            "n_heads": 8,
            "kv_heads": [8, 4, 2, 1],
            "x": rounded(rng, 5, 16),
            "weights": gqa_weights(11, 16, 8),
        },
        "kv_bytes": {
            "models": [
                {"name": "Transformer base", "layers": 6, "n_heads": 8, "d_model": 512, "n_kv_heads": 8},
                {"name": "LLaMA-2-7B", "layers": 32, "n_heads": 32, "d_model": 4096, "n_kv_heads": 32},
                {"name": "LLaMA-2-70B", "layers": 80, "n_heads": 64, "d_model": 8192, "n_kv_heads": 8},
            ],
            "bytes_per_number": [8, 2],
        },
        "timing": {"d_model": 64, "n_heads": 8, "d_ff": 128, "layers": 2, "kv_heads": [8, 4, 2, 1], "tokens": 192},
        "window": {"n": 16, "window": 4, "layers": [1, 2, 3, 4, 5, 6]},
        "models": {
            "variants": [
                {
                    "name": v["name"],
                    "config": variant_config(v),
                    "weights": {
                        k: x.tolist()
                        for k, x in modern.random_weights(variant_config(v), 100 + n).items()
                    },
                }
                for n, v in enumerate(VARIANTS)
            ],
            "batch": [[[3, 4, 5, 6, 2], [6, 5, 4, 3, 2]], [[7, 8, 2], [8, 7, 2]], [[9, 3, 4, 5, 6, 7, 2], [7, 6, 5, 4, 3, 9, 2]]],
            "smoothing": 0.1,
        },
        # the reversal task of chapter 7 under each position scheme: trained on lengths 1-10, then
        # read on longer ones. A measurement on models the oracle does not train: nothing expected.
        "length_generalization": {
            "training": training,
            "schemes": ["sinusoidal", "learned", "rope", "alibi", "none"],
            "seeds": [1, 2, 3],
            "test_lengths": [8, 9, 10, 11, 12, 13, 14, 15, 16],
            "per_length": 200,
            "test_seed": 77,
            "max_positions": 64,
        },
    }


def ch10_expected(i):
    out = {}
    # RMSNorm beside LayerNorm, gain 1 and bias 0
    x = T(i["norms"]["x"])
    d = x.shape[1]
    out["layer_norm"] = torch.nn.functional.layer_norm(x, (d,), torch.ones(d), torch.zeros(d), 1e-5)
    out["rms_norm"] = modern.rms_norm(x, torch.ones(d), 1e-5)
    # RoPE: q and k rotated; scores depend on m - n only
    r = i["rope"]
    q, k = T(r["q"]), T(r["k"])
    out["rope_rotated_q"] = modern.rope(q.repeat(len(r["positions"]), 1)[None], r["positions"])[0]
    scores = []
    for m, n in r["pairs"]:
        qm = modern.rope(q[None, None], [m])[0, 0]
        kn = modern.rope(k[None, None], [n])[0, 0]
        scores.append(float(qm @ kn))
    out["rope_scores"] = scores
    by_distance = {}
    for (m, n), s in zip(r["pairs"], scores):
        by_distance.setdefault(m - n, []).append(s)
    out["rope_relative_max_diff"] = max(max(v) - min(v) for v in by_distance.values())
    # the same pairs with chapter 5's table added to q and k instead: absolute positions remain
    pe = sinusoidal(max(max(pair) for pair in r["pairs"]) + 1, r["d_k"])
    out["added_scores"] = [float((q + pe[m]) @ (k + pe[n])) for m, n in r["pairs"]]
    f = i["frequencies"]
    out["rope_frequencies"] = modern.rope_frequencies(f["d_k"])
    out["sinusoidal_frequencies"] = [10000 ** (-2 * j / f["d_model"]) for j in range(f["d_model"] // 2)]
    # ALiBi
    a = i["alibi"]
    for h in a["heads"]:
        out[f"alibi_slopes_{h}"] = modern.alibi_slopes(h)
    slopes = modern.alibi_slopes(a["heads"][0])
    pos = list(range(a["n"]))
    out["alibi_bias_first_head"] = modern.alibi_bias(slopes[0], pos, pos)
    out["alibi_bias_last_head"] = modern.alibi_bias(slopes[-1], pos, pos)
    # grouped-query attention: the same layer with 8, 4, 2, 1 key/value heads
    g = i["gqa"]
    xg = T(g["x"])
    for kv in g["kv_heads"]:
        p = pooled(g["weights"], g["d_model"], g["n_heads"], kv)
        c = {"n_heads": g["n_heads"], "d_model": g["d_model"], "n_kv_heads": kv}
        hide = torch.zeros(xg.shape[0], xg.shape[0], dtype=torch.bool)
        out[f"gqa_output_kv{kv}"] = modern.attention(xg, xg, p, "name", c, hide, None)
    # with all 8 key/value heads it is nn.MultiheadAttention, PyTorch's own
    mha = torch.nn.MultiheadAttention(g["d_model"], g["n_heads"], batch_first=True)
    mha.load_state_dict(
        {
            "in_proj_weight": T(g["weights"]["in_proj_weight"]),
            "in_proj_bias": T(g["weights"]["in_proj_bias"]),
            "out_proj.weight": T(g["weights"]["out_proj_weight"]),
            "out_proj.bias": T(g["weights"]["out_proj_bias"]),
        }
    )
    out["gqa_mha_output"] = mha(xg[None], xg[None], xg[None], need_weights=False)[0][0].detach()
    out["gqa_equals_mha_max_abs_diff"] = 0.0  # the specification: the same sums, bit for bit
    # KV-cache bytes per token: every layer keeps one key and one value row of n_kv·d_k numbers
    kb = i["kv_bytes"]
    out["kv_bytes_per_token"] = [
        [m["layers"] * 2 * m["n_kv_heads"] * (m["d_model"] // m["n_heads"]) * b for b in kb["bytes_per_number"]]
        for m in kb["models"]
    ]
    # the sliding window: its mask on top of the causal one, and how far the last position reaches
    w = i["window"]
    out["window_mask_hidden"] = modern.hidden(w["n"], w["n"], causal=True, window=w["window"]).double()
    reach = []
    seen = ~modern.hidden(w["n"], w["n"], causal=True, window=w["window"])  # who reads whom, one layer
    for layers in w["layers"]:
        r_ = torch.eye(w["n"], dtype=torch.bool)
        for _ in range(layers):
            r_ = (seen.double() @ r_.double()) > 0
        reach.append(int(r_[-1].sum()))
    out["window_reach"] = reach
    # the small model under each combination of switches: logits, loss, autograd's gradients
    mo = i["models"]
    batch = [(s, t) for s, t in mo["batch"]]
    for v in mo["variants"]:
        c = v["config"]
        p = {k: T(x).requires_grad_(True) for k, x in v["weights"].items()}
        rows = [modern.logits(p, c, s, [c["bos_id"]] + t[:-1]) for s, t in batch]
        out[f"logits_{v['name']}"] = torch.cat(rows).detach()
        loss = modern.batch_loss(p, c, batch, mo["smoothing"])
        loss.backward()
        out[f"loss_{v['name']}"] = float(loss)
        for name, t in p.items():
            out[f"grad_{v['name']}/" + name.replace(".", "/")] = t.grad.detach()
        if v["name"] == "paper":  # modern.py is nn.Transformer when every switch is the paper's
            check = Seq2Seq(c, c["norm_first"])
            check.load_state_dict({k: x.detach() for k, x in p.items()})
            for s, t in batch:
                a = check(torch.tensor([s]), torch.tensor([[c["bos_id"]] + t[:-1]]))[0]
                b = modern.logits(p, c, s, [c["bos_id"]] + t[:-1])
                assert (a - b).abs().max() < 1e-12, "modern.py differs from nn.Transformer"
    out["kv_cache_max_abs_diff"] = [0.0] * len(mo["variants"])  # the specification
    return out


ABOUT = (
    "Attention since 2017: RMSNorm beside LayerNorm, RoPE (LLaMA's complex form) and its "
    "relative scores, ALiBi's slopes and biases, grouped-query attention by repeated key/value "
    "heads (the GQA paper's mean-pooled heads), KV-cache sizes, the sliding window's reach, and a "
    "small encoder-decoder under five combinations of the switches with autograd's gradients "
    "(data/oracle/modern.py, checked equal to nn.Transformer for the paper's settings). Gradients "
    "are keyed grad_<variant>/<state_dict name with / for .>."
)
INPUTS, EXPECTED, TUTORIAL = ch10_inputs, ch10_expected, lambda: {}
