"""Chapter 8: the paper's Table 1, counted.
"""
import torch


# --- ch08 cost --------------------------------------------------------------------------------
def ch08_inputs():
    return {
        "ns": [64, 128, 256, 512],
        "ds": [32, 64, 128],
        "fixed_d": 128,
        "fixed_n": 256,
        "kernel": 3,
        "seed": 8,
        "memory_ns": [512, 2048, 8192, 32768],
        "min_seconds_per_point": 0.1,
    }


def conv_path_length(n, k):
    """Stacked nn.Conv1d layers (kernel k, zero padding k//2 on both sides, as our layer) until
    the last position's output depends on the first position's input: a signal of ones from
    position 0, pushed through layer after layer of all-one kernels."""
    conv = torch.nn.Conv1d(1, 1, k, padding=k // 2, bias=False)
    with torch.no_grad():
        conv.weight.fill_(1.0)
        y = torch.zeros(1, 1, n)
        y[0, 0, 0] = 1.0
        layers = 0
        while y[0, 0, n - 1] == 0:
            y = conv(y)
            layers += 1
    return layers


def ch08_expected(i):
    """The paper's Table 1 as exact counts for our three layers (formulas, not our C++), and the
    convolution's path length measured with PyTorch's own convolution."""
    ns, ds, k = i["ns"], i["ds"], i["kernel"]
    return {
        "attention_multiply_adds": [[2 * n * n * d for d in ds] for n in ns],
        "recurrent_multiply_adds": [[2 * n * d * d for d in ds] for n in ns],
        "convolution_multiply_adds": [[k * n * d * d for d in ds] for n in ns],
        "sequential_steps": [[1, n, 1] for n in ns],
        "maximum_path_length": [[1, n, conv_path_length(n, k)] for n in ns],
        "attention_matrix_bytes": [n * n * 8 for n in i["memory_ns"]],
    }


# --- what the data file says it holds, and how it is made ---------------------------------------
ABOUT = (
    "What attention costs: the paper's Table 1 (complexity per layer, sequential operations, "
    "maximum path length) as exact counts for self-attention, a tanh RNN and a 1-D convolution of "
    "kernel k; "
    "sequential_steps and maximum_path_length columns: self-attention, recurrent, convolution."
)
INPUTS, EXPECTED, TUTORIAL = ch08_inputs, ch08_expected, lambda: {}
