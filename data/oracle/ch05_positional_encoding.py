"""Chapter 5: positional encodings.
"""
import math

import torch

from common import SplitMix64, T, rounded_normals


# --- ch05 positional encoding -------------------------------------------------------------------
def ch05_inputs():
    rng = SplitMix64(5)
    d = 8
    return {
        "d_model": d,
        "vocabulary": ["【PAD】", "我", "爱", "吃", "苹果", "香蕉"],
        # nn.Embedding initialised with std d_model^-0.5, as when its weight is shared with the
        # output projection (the paper's §3.4)
        "embedding": [
            [round(v / math.sqrt(d), 4) for v in row] for row in rounded_normals(rng, 6, d, 6)
        ],
        "token_ids": [1, 2, 3, 4],
        "permutation": [2, 0, 3, 1],
        "pe_positions": 16,
        "odd_d_model": 7,
        "scaled_lengths": [3, 10],
        "binary_bits": 4,
        "offsets": [1, 2, 5],
        "positions": [0, 3, 10],
    }


def sinusoidal(n, d):
    """The usual PyTorch formulation (an independent route from the C++'s pow)."""
    pe = torch.zeros(n, d)
    position = torch.arange(n, dtype=torch.float64).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-math.log(10000.0) / d))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term[: d // 2])
    return pe


def rotation(k, d):
    m = torch.zeros(d, d)
    for c in range(0, d - 1, 2):
        a = k * math.exp(c * (-math.log(10000.0) / d))
        m[c : c + 2, c : c + 2] = T([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return m


def ch05_expected(i):
    d, n = i["d_model"], i["pe_positions"]
    E, ids = T(i["embedding"]), i["token_ids"]
    pe = sinusoidal(n, d)
    X = E[ids] * math.sqrt(d)
    perm = i["permutation"]
    att = lambda x: torch.softmax(x @ x.T / math.sqrt(d), dim=-1) @ x
    with_pe = X + pe[: len(ids)]
    out = {
        "pe": pe,
        "pe_odd": sinusoidal(n, i["odd_d_model"]),
        "attention_plain": att(X),
        "attention_permuted": att(X[perm]),
        "attention_with_pe": att(with_pe),
        "attention_permuted_with_pe": att(X[perm] + pe[: len(ids)]),
        "embedded": with_pe,
        "integer_positions": torch.arange(n, dtype=torch.float64).reshape(-1, 1),
        "binary_positions": T([[(p >> b) & 1 for b in range(i["binary_bits"])] for p in range(n)]),
        "binary_neighbour_distances": None,
        "pe_norms": pe.norm(dim=1).reshape(-1, 1),
        "pe_neighbour_distances": (pe[1:] - pe[:-1]).norm(dim=1).reshape(-1, 1),
    }
    b = out["binary_positions"]
    out["binary_neighbour_distances"] = (b[1:] - b[:-1]).norm(dim=1).reshape(-1, 1)
    for length in i["scaled_lengths"]:
        out[f"scaled_positions_{length}"] = torch.linspace(
            0, 1, length, dtype=torch.float64
        ).reshape(-1, 1)
    residual = []
    for k in i["offsets"]:
        M = rotation(k, d)
        residual.append([float((pe[p] @ M - pe[p + k]).abs().max()) for p in i["positions"]])
    out["rotation_residual"] = residual
    out["dot_by_offset"] = [[float(pe[p] @ pe[p + k]) for k in range(5)] for p in range(n - 4)]
    return out


# --- what the data file says it holds, and how it is made ---------------------------------------
ABOUT = (
    "Positional encodings (tutorial 02 位置编码; 04 位置编码). PE from the usual PyTorch formulation "
    "exp(arange(0, d, 2) * -ln(10000) / d)."
)
INPUTS, EXPECTED, TUTORIAL = ch05_inputs, ch05_expected, lambda: {}
