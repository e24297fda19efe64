"""Chapter 3: causal and padding masks.
"""
import math

import torch

from common import SplitMix64, T, rounded_normals


# --- ch03 masked attention ---------------------------------------------------------------------
def ch03_inputs():
    rng = SplitMix64(3)
    return {
        "tokens": ["【BOS】", "I", "like", "you", "【EOS】"],
        "X": rounded_normals(rng, 5, 4),
        "key_padding": [False, False, False, True, True],
        "left_key_padding": [True, False, False, False, False],
    }


def masked_softmax(scores, additive):
    """softmax(scores + mask), with our convention for a row whose keys are all hidden:
    zero weights (PyTorch's softmax gives NaN there)."""
    w = torch.softmax(scores + additive, dim=-1)
    return torch.nan_to_num(w, nan=0.0)


def causal(n):
    # the tutorial's construction: full of -inf, keep the strict upper triangle
    return torch.triu(torch.full((n, n), float("-inf")), diagonal=1)


def additive_from_bool(hide):
    return torch.zeros(hide.shape).masked_fill(hide, float("-inf"))


def ch03_expected(i):
    X = T(i["X"])
    n, d = X.shape
    scores = X @ X.T / math.sqrt(d)
    pad = torch.tensor(i["key_padding"]).reshape(1, -1).expand(n, n)
    left = torch.tensor(i["left_key_padding"]).reshape(1, -1).expand(n, n)
    causal_bool = torch.ones(n, n, dtype=torch.bool).triu(diagonal=1)
    out = {}
    cases = {
        "causal": causal_bool,
        "padding": pad,
        "both": causal_bool | pad,
        "left_padded_causal": causal_bool | left,
    }
    for name, hide in cases.items():
        additive = causal(n) if name == "causal" else additive_from_bool(hide)
        w = masked_softmax(scores, additive)
        # the boolean form (masked_fill) must agree with the additive form
        w_bool = torch.nan_to_num(
            torch.softmax(scores.masked_fill(hide, float("-inf")), dim=-1), nan=0.0
        )
        assert torch.equal(w, w_bool), name
        if name == "causal":
            out["causal_hidden"] = causal_bool.double()
        out["weights_" + name] = w
        out["output_" + name] = w @ X
    # row t of causal attention = attention of token t over the prefix 0..t alone
    prefix = []
    for t in range(n):
        P = X[: t + 1]
        prefix.append((torch.softmax(X[t : t + 1] @ P.T / math.sqrt(d), dim=-1) @ P)[0])
    out["prefix_outputs"] = torch.stack(prefix)
    # tutorial 01's code hides with -1e9 instead of -inf: a fully hidden row becomes uniform
    first_row = torch.softmax(scores[0].masked_fill((causal_bool | left)[0], -1e9), dim=-1)
    out["left_padded_row0_with_minus_1e9"] = first_row
    return out


# --- what the data file says it holds, and how it is made ---------------------------------------
ABOUT = (
    "Masked self-attention on 【BOS】 I like you 【EOS】 (tutorial 03 §2.1.5; 02's masked attention). "
    "Q = K = V = X, scaled by 1/sqrt(d_k). key_padding: true = that key is padding."
)
INPUTS, EXPECTED, TUTORIAL = ch03_inputs, ch03_expected, lambda: {}
