#!/usr/bin/python3
"""The same work as build/bench, in PyTorch float64 on one thread; prints one JSON object.

Run by `make bench` (with OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 in its
environment, so that no BLAS quietly uses a second core). Reuses the oracle's model code.
"""
import json
import math
import os
import statistics
import sys
import time
import warnings

import torch

warnings.filterwarnings("ignore")  # the prototype nested-tensor notice of nn.Transformer's fast path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data"))
import oracle  # noqa: E402  (Seq2Seq, batch_loss, random_reversal, SplitMix64)

torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


def median_time(f, runs):
    f()  # warm up
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def matmul_gflops():
    a, b = torch.randn(512, 512), torch.randn(512, 512)
    return 2 * 512 ** 3 / median_time(lambda: a @ b, 7) / 1e9


def forward_base_seconds():
    vocab, d = 37000, 512
    model = oracle.Seq2Seq(dict(oracle.ch06_config(), d_model=d, n_heads=8, d_ff=2048, n_encoder_layers=6,
                                n_decoder_layers=6, src_vocab=vocab, tgt_vocab=vocab), norm_first=False)
    model.tgt_embedding = model.src_embedding  # shared, as in the paper and our --config base
    model.output.weight = model.src_embedding.weight
    model.eval()
    g = torch.Generator().manual_seed(0)
    src = torch.randint(3, vocab, (1, 64), generator=g)
    tgt = torch.randint(3, vocab, (1, 64), generator=g)
    with torch.no_grad():
        return median_time(lambda: model(src, tgt), 3)


def train_step_seconds(training):
    c = dict(oracle.ch06_config(), d_model=training["d_model"], n_heads=training["n_heads"], d_ff=training["d_ff"],
             n_encoder_layers=training["n_encoder_layers"], n_decoder_layers=training["n_decoder_layers"],
             src_vocab=13, tgt_vocab=13)
    model = oracle.Seq2Seq(c, norm_first=training["norm_first"])
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    rng = oracle.SplitMix64(training["seed"])
    batch = [oracle.random_reversal(rng, training["min_length"], training["max_length"]) for _ in range(training["batch_size"])]

    def step():
        optimiser.zero_grad()
        oracle.batch_loss(model, batch, training["smoothing"]).backward()
        optimiser.step()
    return median_time(step, 20)


def blas_library():
    """The BLAS library this process really loaded (Debian's torch calls libblas.so.3, which the
    system's alternatives point at the reference BLAS or at OpenBLAS)."""
    with open("/proc/self/maps") as maps:
        libs = sorted({line.split()[-1] for line in maps if "blas" in line.split()[-1]})
    return os.path.realpath(libs[0]) if libs else "unknown"


def main():
    with open(os.path.join(os.path.dirname(oracle.__file__), "ch07_training.json"), encoding="utf-8") as f:
        training = json.load(f)["inputs"]["training"]
    print(json.dumps({
        "torch_version": torch.__version__,
        "torch_blas": blas_library(),
        "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE"),
        "matmul_gflops": matmul_gflops(),
        "forward_base_seconds": forward_base_seconds(),
        "train_step_seconds": train_step_seconds(training),
    }))


if __name__ == "__main__":
    main()
