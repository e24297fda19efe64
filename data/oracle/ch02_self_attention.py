"""Chapter 2: self-attention on 笔/记/本, and the √d_k measurement.
"""
import math

import torch

from common import SplitMix64, T


# --- ch02 self-attention -----------------------------------------------------------------------
def ch02_inputs():
    return {
        "tokens": ["笔", "记", "本"],
        "X": [[1, 2, 1, 2, 1], [1, 1, 1, 2, 1], [3, 2, 1, 1, 1]],
        "W_Q": [
            [0.2, -0.1, 0.3],
            [0.5, 0.1, -0.2],
            [-0.3, 0.4, 0.1],
            [0.1, 0.2, 0.4],
            [0.0, -0.5, 0.2],
        ],
        "W_K": [
            [0.3, 0.2, -0.1],
            [-0.2, 0.4, 0.1],
            [0.1, -0.1, 0.5],
            [0.4, 0.0, 0.2],
            [0.2, 0.3, -0.3],
        ],
        "W_V": [
            [0.1, 0.4, -0.2],
            [0.3, -0.1, 0.2],
            [-0.1, 0.2, 0.3],
            [0.2, 0.1, 0.1],
            [0.5, -0.3, 0.0],
        ],
        "why_scale": {"seed": 2017, "d_k": [4, 16, 64, 256, 512], "trials": 400, "keys": 8},
    }


def why_scale(cfg):
    """Unit-variance q and k: variance of q·k, and the mean largest softmax weight."""
    rng = SplitMix64(cfg["seed"])
    rows = []
    for d_k in cfg["d_k"]:
        all_scores, max_plain, max_scaled = [], [], []
        for _ in range(cfg["trials"]):
            q = T([[rng.normal() for _ in range(d_k)]])
            K = T([[rng.normal() for _ in range(d_k)] for _ in range(cfg["keys"])])
            s = q @ K.T
            all_scores.append(s)
            max_plain.append(torch.softmax(s, dim=-1).max())
            max_scaled.append(torch.softmax(s / math.sqrt(d_k), dim=-1).max())
        scores = torch.cat(all_scores, dim=1)
        rows.append(
            [
                d_k,
                float(scores.var(unbiased=False)),
                float(torch.stack(max_plain).mean()),
                float(torch.stack(max_scaled).mean()),
            ]
        )
    return rows


def ch02_expected(i):
    X = T(i["X"])
    d_k = X.shape[1]
    XXt = X @ X.T
    soft = torch.softmax(XXt, dim=-1)
    scaled = XXt / math.sqrt(d_k)
    Q, K, V = X @ T(i["W_Q"]), X @ T(i["W_K"]), X @ T(i["W_V"])
    proj_scores = Q @ K.T / math.sqrt(Q.shape[1])
    proj_weights = torch.softmax(proj_scores, dim=-1)
    return {
        "Xt": X.T,
        "XXt": XXt,
        "softmax_XXt": soft,
        "output_unscaled": soft @ X,
        "scores_scaled": scaled,
        "softmax_scaled": torch.softmax(scaled, dim=-1),
        "output_scaled": torch.softmax(scaled, dim=-1) @ X,
        "Q": Q,
        "K": K,
        "V": V,
        "scores_projected": proj_scores,
        "weights_projected": proj_weights,
        "output_projected": proj_weights @ V,
        "why_scale": why_scale(i["why_scale"]),
    }


def ch02():
    return {
        "inputs": {"X": ch02_inputs()["X"]},
        "printed": {
            "Xt": [
                ["1", "1", "3"],
                ["2", "1", "2"],
                ["1", "1", "1"],
                ["2", "2", "1"],
                ["1", "1", "1"],
            ],
            "XXt": [["11", "9", "11"], ["9", "8", "9"], ["11", "9", "16"]],
            "softmax_XXt": [
                ["0.468", "0.064", "0.468"],
                ["0.422", "0.156", "0.422"],
                ["0.0069", "9.05E-04", "0.992"],
            ],
            "output_unscaled": [
                ["1.94", "1.94", "1", "1.53", "1"],
                ["1.84", "1.84", "1", "1.58", "1"],
                ["2.98", "2", "1", "1.01", "1"],
            ],
        },
    }


# --- what the data file says it holds, and how it is made ---------------------------------------
ABOUT = (
    "Self-attention on 笔/记/本 (tutorial 01's hand calculation; 02's six steps; 03 §2.1.3-2.1.4). "
    "W_Q, W_K, W_V are ours, chosen small so the projected example is easy to follow."
)
INPUTS, EXPECTED, TUTORIAL = ch02_inputs, ch02_expected, ch02
