"""Chapter 1: attention as a soft dictionary lookup.
"""
import torch

from common import T


# --- ch01 dictionary lookup ----------------------------------------------------------------------
def ch01_inputs():
    return {
        "keys": ["apple", "banana", "chair"],
        "values": [10, 5, 2],
        "fruit_weights": [0.6, 0.4, 0],
        "key_vectors": [[2.0, 0.5, 0.0], [2.0, -0.5, 0.0], [-1.0, 0.0, 2.0]],
        "queries": ["fruit", "apple"],
        "query_vectors": [[1.0, 0.2, -1.0], [1.0, 1.0, 0.0]],
        "sweep_query": 1,
        "sweep_scales": [0.5, 1, 2, 4, 8, 16, 32, 64],
    }


def ch01_expected(i):
    values = T(i["values"]).reshape(-1, 1)  # (m x 1)
    K, Q = T(i["key_vectors"]), T(i["query_vectors"])  # (m x d), (n x d)
    one_hot = (torch.arange(len(i["keys"])) == 0).double().reshape(1, -1)
    scores = Q @ K.T
    weights = torch.softmax(scores, dim=-1)
    q = scores[i["sweep_query"]]
    sweep = []
    for s in i["sweep_scales"]:
        w = torch.softmax(s * q, dim=-1)
        sweep.append([s] + w.tolist() + [float(w @ values[:, 0])])
    return {
        "exact_lookup": float(one_hot @ values),
        "fruit_lookup": float(T(i["fruit_weights"]) @ values[:, 0]),
        "scores": scores,
        "weights": weights,
        "attention_lookup": (weights @ values)[:, 0],
        "sweep": sweep,
    }


def ch01():
    own = ch01_inputs()
    return {
        "inputs": {"values": own["values"], "fruit_weights": own["fruit_weights"]},
        "printed": {"fruit_lookup": "8"},
    }


# --- what the data file says it holds, and how it is made ---------------------------------------
ABOUT = "Attention as a soft dictionary lookup (tutorial 03 §2.1.2; the shop-search analogy in 01)."
INPUTS, EXPECTED, TUTORIAL = ch01_inputs, ch01_expected, ch01
