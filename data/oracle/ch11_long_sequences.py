"""Chapter 11: attention without the n x n matrix — the online softmax and tiled attention.

The reference is the standard attention in PyTorch (softmax of the whole score matrix, its
gradients by autograd). Beside it, the tiled forward pass is written here a second time, as a
loop over blocks in PyTorch's own operations, independently of the C++ (src/model/attention/
tiled_attention.cpp): its output must equal the reference to 1e-12 before anything is written,
and its running maximum and sum of one query row are the goldens of the chapter's picture.
"""
import math

import torch

from common import SplitMix64, T, rounded_normals


def case(rng, n, m, d_k, d_v, tiles, causal=False, padding=None):
    c = {
        "causal": causal,
        "key_padding": padding if padding is not None else [False] * m,
        "tiles": tiles,
        "Q": rounded_normals(rng, n, d_k),
        "K": rounded_normals(rng, m, d_k),
        "V": rounded_normals(rng, m, d_v),
        "dO": rounded_normals(rng, n, d_v),
    }
    return c


def ch11_inputs():
    rng = SplitMix64(11)
    return {
        "online": {"tokens": ["笔", "记", "本"], "query": "本", "scores": [11, 9, 16]},
        "cases": {
            "self": case(rng, 7, 7, 4, 4, [3, 2]),
            "causal": case(rng, 9, 9, 4, 4, [4, 3], causal=True),
            "padding": case(rng, 6, 6, 3, 3, [2, 4], padding=[False] * 4 + [True] * 2),
            "cross": case(rng, 5, 11, 4, 3, [2, 4], padding=[False] * 8 + [True] * 3),
            "left_padded_causal": case(
                rng, 6, 6, 2, 2, [2, 2], causal=True, padding=[True] * 3 + [False] * 3
            ),
            "long": case(rng, 48, 48, 8, 8, [16, 8]),
        },
        "trace": {"case": "long", "row": 0},
        "memory": {
            "lengths": [256, 512, 1024, 2048, 4096, 8192, 16384],
            "d_k": 64,
            "tile": 64,
            "seed": 11,
        },
    }


def hidden_of(c):
    """Which keys each query may not see: True = hidden (padding, or later than the query)."""
    n, m = len(c["Q"]), len(c["K"])
    hide = torch.tensor(c["key_padding"]).reshape(1, m).expand(n, m).clone()
    if c["causal"]:
        hide |= torch.ones(n, m, dtype=torch.bool).triu(diagonal=1)
    return hide


def reference(Q, K, V, hide):
    """softmax(Q Kᵀ/√d_k) V with hidden keys; a row whose keys are all hidden gets weights 0
    (our convention; PyTorch's softmax would give NaN) — written so that autograd goes through."""
    S = Q @ K.T / math.sqrt(Q.shape[1])
    visible = S.masked_fill(hide, float("-inf"))
    row_max = visible.max(dim=1, keepdim=True).values.detach()
    row_max = torch.where(torch.isinf(row_max), torch.zeros_like(row_max), row_max)
    E = torch.exp(S - row_max).masked_fill(hide, 0.0)
    total = E.sum(dim=1, keepdim=True)
    P = E / torch.where(total == 0, torch.ones_like(total), total)
    if not hide.all(dim=1).any():  # PyTorch's own softmax agrees where it is defined
        assert torch.allclose(P, torch.softmax(visible, dim=1), rtol=0, atol=1e-15)
    return P @ V


def tiled(Q, K, V, hide, bq, bk, trace_row=None):
    """The forward pass block by block: per query row a running maximum mx, a running sum l and
    an accumulator acc, rescaled when a block raises the maximum."""
    n, m = hide.shape
    out = torch.zeros(n, V.shape[1])
    done = skipped = 0
    trace = []
    scale = 1 / math.sqrt(Q.shape[1])
    for q0 in range(0, n, bq):
        rows = slice(q0, min(q0 + bq, n))
        r = rows.stop - rows.start
        mx = torch.full((r,), float("-inf"))
        l = torch.zeros(r)
        acc = torch.zeros(r, V.shape[1])
        for k0 in range(0, m, bk):
            cols = slice(k0, min(k0 + bk, m))
            if hide[rows, cols].all():
                skipped += 1
            else:
                done += 1
                s = (Q[rows] @ K[cols].T * scale).masked_fill(hide[rows, cols], float("-inf"))
                new = torch.maximum(mx, s.max(dim=1).values)
                live = ~torch.isinf(new)  # rows that have seen a visible key
                safe = torch.where(live, new, torch.zeros_like(new))
                alpha = torch.where(live, torch.exp(mx - safe), torch.ones_like(new))
                p = torch.exp(s - safe[:, None]).masked_fill(hide[rows, cols], 0.0)
                l = alpha * l + p.sum(dim=1)
                acc = alpha[:, None] * acc + p @ V[cols]
                mx = new
            if trace_row is not None and rows.start <= trace_row < rows.stop:
                i = trace_row - rows.start
                trace.append((mx[i].item(), l[i].item()))
        nonzero = l > 0
        out[rows] = torch.where(
            nonzero[:, None], acc / torch.where(nonzero, l, torch.ones_like(l))[:, None], acc
        )
    return out, done, skipped, trace


def ch11_expected(i):
    out = {}
    scores = [float(x) for x in i["online"]["scores"]]
    mx, l, maxes, sums = float("-inf"), 0.0, [], []
    for x in scores:  # the running numbers, one score at a time
        new = max(mx, x)
        l = l * (math.exp(mx - new) if mx != float("-inf") else 0.0) + math.exp(x - new)
        mx = new
        maxes.append(mx)
        sums.append(l)
    out["online_max"] = maxes
    out["online_sum"] = sums
    out["online_weights"] = torch.softmax(T(scores), dim=0).reshape(1, -1)
    trace_case, trace_row = i["trace"]["case"], i["trace"]["row"]
    for name, c in i["cases"].items():
        Q, K, V, dO = (T(c[k]) for k in ("Q", "K", "V", "dO"))
        hide = hidden_of(c)
        Q.requires_grad_(True)
        K.requires_grad_(True)
        V.requires_grad_(True)
        O = reference(Q, K, V, hide)
        (O * dO).sum().backward()
        with torch.no_grad():
            bq, bk = c["tiles"]
            row = trace_row if name == trace_case else None
            O_tiled, done, skipped, trace = tiled(Q, K, V, hide, bq, bk, row)
            assert (O_tiled - O).abs().max().item() <= 1e-12, name
        out[name + "_output"] = O.detach()
        out[name + "_dQ"] = Q.grad
        out[name + "_dK"] = K.grad
        out[name + "_dV"] = V.grad
        out[name + "_blocks"] = [done, skipped]
        if row is not None:
            out["trace_max"] = [t[0] for t in trace]
            out["trace_sum"] = [t[1] for t in trace]
            S = Q[row] @ K.T / math.sqrt(Q.shape[1])
            out["trace_weights"] = torch.softmax(S.masked_fill(hide[row], float("-inf")), dim=0).detach()
    return out


ABOUT = (
    "Attention without the n x n matrix (chapter 11): the online softmax on the row of 本 from "
    "01's hand calculation (unscaled scores), and tiled attention on cases of queries Q, keys K, "
    "values V with a causal rule and padded keys (key_padding: true = hidden), blocks of "
    "tiles = [queries, keys]; dO is dL/d(output) for the backward pass. memory: the lengths at "
    "which the chapter counts the bytes of one attention call (d_k = d_v, blocks of tile)."
)
INPUTS, EXPECTED, TUTORIAL = ch11_inputs, ch11_expected, lambda: {}
