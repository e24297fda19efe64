"""Chapter 4: multi-head attention, matched to nn.MultiheadAttention.
"""
import math

import torch

from ch03_masked_attention import causal
from common import SplitMix64, T, rounded_normals


# --- ch04 multi-head attention ------------------------------------------------------------------
def ch04_inputs():
    rng = SplitMix64(4)
    d = 8
    # entries of standard deviation 1/sqrt(d), like a trained layer's, so no head saturates
    w = lambda rows, cols: [
        [round(v / math.sqrt(d), 3) for v in row] for row in rounded_normals(rng, rows, cols, 6)
    ]
    return {
        "tokens": ["【BOS】", "I", "like", "you", "【EOS】"],
        "n_heads": 2,
        "x": rounded_normals(rng, 5, d),
        "key_padding": [False, False, False, False, True],
        "source_tokens": ["我", "爱", "你", "【PAD】"],
        "source": rounded_normals(rng, 4, d),
        "source_key_padding": [False, False, False, True],
        "W_Q": w(d, d),
        "W_K": w(d, d),
        "W_V": w(d, d),
        "W_O": w(d, d),
        "b_Q": w(1, d)[0],
        "b_K": w(1, d)[0],
        "b_V": w(1, d)[0],
        "b_O": w(1, d)[0],
        "shape_example": {
            "n_heads": 8,
            "x": w(2, 4),
            "W_Q": w(4, 24),
            "W_K": w(4, 24),
            "W_V": w(4, 24),
            "W_O": w(24, 4),
        },
    }


def torch_mha(i, bias=True):
    d, h = len(i["W_Q"]), i["n_heads"]
    mha = torch.nn.MultiheadAttention(d, h, bias=bias, batch_first=True, dropout=0.0)
    mha.eval()
    with torch.no_grad():
        # nn.MultiheadAttention computes x·Wᵀ: its in_proj_weight rows are our W columns
        mha.in_proj_weight.copy_(torch.cat([T(i["W_Q"]).T, T(i["W_K"]).T, T(i["W_V"]).T]))
        mha.out_proj.weight.copy_(T(i["W_O"]).T)
        if bias:
            mha.in_proj_bias.copy_(torch.cat([T(i["b_Q"]), T(i["b_K"]), T(i["b_V"])]))
            mha.out_proj.bias.copy_(T(i["b_O"]))
    return mha


def run_mha(mha, xq, xkv, attn_mask=None, key_padding=None):
    with torch.no_grad():
        out, w = mha(
            xq[None],
            xkv[None],
            xkv[None],
            attn_mask=attn_mask,
            key_padding_mask=None if key_padding is None else torch.tensor([key_padding]),
            need_weights=True,
            average_attn_weights=False,
        )
    return out[0], w[0]


def ch04_expected(i):
    x, src = T(i["x"]), T(i["source"])
    n = x.shape[0]
    mha = torch_mha(i)
    out = {}
    o, w = run_mha(mha, x, x)
    out["output_self"] = o
    for h in range(w.shape[0]):
        out[f"weights_self_head{h}"] = w[h]
    o, w = run_mha(mha, x, x, attn_mask=causal(n), key_padding=i["key_padding"])
    o_bool, _ = run_mha(
        mha,
        x,
        x,
        attn_mask=torch.ones(n, n, dtype=torch.bool).triu(1),
        key_padding=i["key_padding"],
    )
    assert torch.allclose(o, o_bool, rtol=0, atol=1e-15), "additive and boolean masks disagree"
    out["output_masked"] = o
    for h in range(w.shape[0]):
        out[f"weights_masked_head{h}"] = w[h]
    o, w = run_mha(mha, x, src, key_padding=i["source_key_padding"])
    out["output_cross"] = o
    for h in range(w.shape[0]):
        out[f"weights_cross_head{h}"] = w[h]
    out["output_nobias"] = run_mha(torch_mha(i, bias=False), x, x)[0]
    # the shape example: per-head matrices of width d_k = d_v = 3 (nn.MultiheadAttention cannot
    # express d_k != d_model / h, so this one is the formula written out in torch)
    e = i["shape_example"]
    ex, h = T(e["x"]), e["n_heads"]
    Wq, Wk, Wv = T(e["W_Q"]), T(e["W_K"]), T(e["W_V"])
    dk, dv = Wq.shape[1] // h, Wv.shape[1] // h
    heads = []
    for k in range(h):
        q, kk, v = (
            ex @ Wq[:, k * dk : (k + 1) * dk],
            ex @ Wk[:, k * dk : (k + 1) * dk],
            ex @ Wv[:, k * dv : (k + 1) * dv],
        )
        heads.append(torch.softmax(q @ kk.T / math.sqrt(dk), dim=-1) @ v)
    out["shape_example_output"] = torch.cat(heads, dim=1) @ T(e["W_O"])
    return out


# --- what the data file says it holds, and how it is made ---------------------------------------
ABOUT = (
    "Multi-head attention matched to torch.nn.MultiheadAttention (tutorial 03 §2.1.6; 04). "
    "x·W convention: W_Q = in_proj_weight[0:d_model]^T, W_K = in_proj_weight[d_model:2*d_model]^T, "
    "W_V = in_proj_weight[2*d_model:]^T, W_O = out_proj.weight^T; b_Q, b_K, b_V = the thirds of "
    "in_proj_bias, b_O = out_proj.bias."
)
INPUTS, EXPECTED, TUTORIAL = ch04_inputs, ch04_expected, lambda: {}
