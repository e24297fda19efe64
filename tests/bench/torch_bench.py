#!/usr/bin/python3
"""The same work as build/bench, in PyTorch float64; prints one JSON object.

    torch_bench.py [THREADS]            (default 1) every figure
    torch_bench.py THREADS --matmul     only the products (512³ and 1024³) and the kernel

make bench runs the second form once for each BLAS kernel this CPU can run (tests/bench/
peers.cpp: OpenBLAS told its kernel by OPENBLAS_CORETYPE, BLIS put first by LD_LIBRARY_PATH),
keeps the fastest, and runs the first form with it.

Run by `make bench` once with 1 and once with every core, with OMP_NUM_THREADS,
OPENBLAS_NUM_THREADS and MKL_NUM_THREADS set to the same number in its environment, so that
PyTorch and its BLAS use exactly that many. Reuses the oracle's model code.
"""
import json
import math
import os
import sys
import time
import warnings

import torch

warnings.filterwarnings("ignore")  # the prototype nested-tensor notice of nn.Transformer's fast path

ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "oracle")
sys.path.insert(0, ORACLE)
import model as oracle_model  # noqa: E402  (the oracle's pieces: Seq2Seq, batch_loss)
from ch06_encoder_decoder import ch06_config  # noqa: E402
from ch07_training import random_reversal  # noqa: E402
from common import SplitMix64  # noqa: E402

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 1
torch.set_num_threads(THREADS)
torch.set_default_dtype(torch.float64)


def best_time(f, runs):
    """The shortest of `runs` timed calls after a warm-up, as build/bench takes its own: on a
    machine shared with other work a disturbed run is slower, never faster."""
    f()  # warm up
    best = None
    for _ in range(runs):
        t = time.perf_counter()
        f()
        elapsed = time.perf_counter() - t
        best = elapsed if best is None else min(best, elapsed)
    return best


def matmul_gflops(n=512, runs=9):
    a, b = torch.randn(n, n), torch.randn(n, n)
    return 2 * n ** 3 / best_time(lambda: a @ b, runs) / 1e9


def forward_base_seconds():
    vocab, d = 37000, 512
    model = oracle_model.Seq2Seq(dict(ch06_config(), d_model=d, n_heads=8, d_ff=2048, n_encoder_layers=6,
                                n_decoder_layers=6, src_vocab=vocab, tgt_vocab=vocab), norm_first=False)
    model.tgt_embedding = model.src_embedding  # shared, as in the paper and our --config base
    model.output.weight = model.src_embedding.weight
    model.eval()
    g = torch.Generator().manual_seed(0)
    src = torch.randint(3, vocab, (1, 64), generator=g)
    tgt = torch.randint(3, vocab, (1, 64), generator=g)
    with torch.no_grad():
        return best_time(lambda: model(src, tgt), 5)


def train_step_seconds(training):
    c = dict(ch06_config(), d_model=training["d_model"], n_heads=training["n_heads"], d_ff=training["d_ff"],
             n_encoder_layers=training["n_encoder_layers"], n_decoder_layers=training["n_decoder_layers"],
             src_vocab=13, tgt_vocab=13)
    model = oracle_model.Seq2Seq(c, norm_first=training["norm_first"])
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    rng = SplitMix64(training["seed"])
    batch = [random_reversal(rng, training["min_length"], training["max_length"]) for _ in range(training["batch_size"])]

    def step():
        optimiser.zero_grad()
        oracle_model.batch_loss(model, batch, training["smoothing"]).backward()
        optimiser.step()
    return best_time(step, 41)


def gpt_train_step_seconds(dtype=torch.float64):
    """One training step of chapter 12's poet at its defined shape (data/ch12_gpt.json's model:
    d_model 96, 4 heads over 2 key/value heads, d_ff 256, 4 pre-norm layers, RMSNorm, RoPE, an
    output table of its own; 3,005 characters), a batch of 16 windows of 64 tokens, and
    torch.optim.AdamW as the chapter steps it (weight decay 0.1 on the matrices) — written
    batched, as PyTorch code is, every tensor in dtype. The same work as build/bench's."""
    V, B, T, d, h, kv, ff, L = 3005, 16, 64, 96, 4, 2, 256, 4
    dk = d // h
    g = torch.Generator().manual_seed(12)

    def w(*shape):
        return (torch.randn(*shape, generator=g) * 0.02).to(dtype).requires_grad_()

    def vec(n, value):
        return torch.full((n,), value, dtype=dtype).requires_grad_()
    emb, out = w(V, d), w(V, d)
    layers = [dict(qkv=w(d + 2 * kv * dk, d), qkv_b=vec(d + 2 * kv * dk, 0.0), o=w(d, d), o_b=vec(d, 0.0),
                   up=w(ff, d), up_b=vec(ff, 0.0), down=w(d, ff), down_b=vec(d, 0.0), n1=vec(d, 1.0),
                   n2=vec(d, 1.0)) for _ in range(L)]
    final = vec(d, 1.0)
    matrices = [emb, out] + [L_[k] for L_ in layers for k in ("qkv", "o", "up", "down")]
    vectors = [final] + [L_[k] for L_ in layers for k in ("qkv_b", "o_b", "up_b", "down_b", "n1", "n2")]
    opt = torch.optim.AdamW([{"params": matrices, "weight_decay": 0.1}, {"params": vectors, "weight_decay": 0.0}],
                            lr=0.008 / 100, betas=(0.9, 0.98), eps=1e-9)
    windows = torch.randint(3, V, (B, T + 1), generator=g)
    ids, targets = windows[:, :-1], windows[:, 1:].reshape(-1)
    inv = 1.0 / 10000 ** (torch.arange(0, dk, 2, dtype=torch.float64) / dk)
    angles = torch.arange(T, dtype=torch.float64)[:, None] * inv[None, :]
    cos, sin = angles.cos().to(dtype), angles.sin().to(dtype)  # (T x dk/2)
    causal = torch.ones(T, T, dtype=torch.bool).triu(1)

    def rms(x, weight):
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-5) * weight

    def rope(x):  # (B, heads, T, dk): pairs (2i, 2i+1) rotated by their position
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack((a * cos - b * sin, a * sin + b * cos), -1).flatten(-2)

    def step():
        opt.zero_grad()
        x = emb[ids] * math.sqrt(d)
        for L_ in layers:
            z = rms(x, L_["n1"]) @ L_["qkv"].T + L_["qkv_b"]
            q = z[..., :d].view(B, T, h, dk).transpose(1, 2)
            k = z[..., d:d + kv * dk].view(B, T, kv, dk).transpose(1, 2)
            v = z[..., d + kv * dk:].view(B, T, kv, dk).transpose(1, 2)
            q, k = rope(q), rope(k)
            k, v = k.repeat_interleave(h // kv, dim=1), v.repeat_interleave(h // kv, dim=1)
            scores = (q @ k.transpose(-1, -2) / math.sqrt(dk)).masked_fill(causal, float("-inf"))
            heads = torch.softmax(scores, -1) @ v
            x = x + heads.transpose(1, 2).reshape(B, T, d) @ L_["o"].T + L_["o_b"]
            x = x + torch.relu(rms(x, L_["n2"]) @ L_["up"].T + L_["up_b"]) @ L_["down"].T + L_["down_b"]
        logits = (rms(x, final) @ out.T).reshape(B * T, V)
        torch.nn.functional.cross_entropy(logits, targets).backward()
        opt.step()
    return best_time(step, 11)


# llama2.c's stories15M shape: dim 288, 6 layers, 6 heads, sequence 256, vocabulary 32,000, the
# classifier shared with the embedding; our feed-forward net has 2 matrices (768 wide), llama's 3.
STORIES15M = dict(dim=288, hidden=768, layers=6, heads=6, seq=256, vocab=32000)


def decode_tokens_per_second(dtype=torch.float64):
    """Greedy decoding of 256 tokens with a key/value cache, one token per step, the same model
    as build/bench decodes (pre-norm RMSNorm, rotary positions, ReLU feed-forward net); every
    tensor in dtype (float64, float32, bfloat16: PyTorch's own kernels for each)."""
    s = STORIES15M
    d, h, n = s["dim"], s["heads"], s["seq"]
    dk = d // h
    g = torch.Generator().manual_seed(15)

    def w(*shape):
        return (torch.randn(*shape, generator=g) * 0.02).to(dtype)
    emb = w(s["vocab"], d)
    layers = [dict(qkv=w(3 * d, d), out=w(d, d), up=w(s["hidden"], d), down=w(d, s["hidden"]),
                   n1=torch.ones(d, dtype=dtype), n2=torch.ones(d, dtype=dtype))
              for _ in range(s["layers"])]
    final = torch.ones(d, dtype=dtype)
    inv = 1.0 / 10000 ** (torch.arange(0, dk, 2) / dk)
    angles = torch.arange(n)[:, None] * inv[None, :]
    cos, sin = angles.cos().to(dtype), angles.sin().to(dtype)  # (seq x dk/2)

    def rms(x, weight):
        return x * torch.rsqrt((x * x).mean() + 1e-5) * weight

    def rope(x, t):  # x: (heads x dk), pairs (2i, 2i+1) rotated by position t
        a, b = x[:, 0::2], x[:, 1::2]
        out = torch.empty_like(x)
        out[:, 0::2] = a * cos[t] - b * sin[t]
        out[:, 1::2] = a * sin[t] + b * cos[t]
        return out

    def generate():
        keys = [torch.zeros(h, n, dk, dtype=dtype) for _ in layers]
        values = [torch.zeros(h, n, dk, dtype=dtype) for _ in layers]
        token = 1
        for t in range(n):
            x = emb[token] * math.sqrt(d)
            for i, L in enumerate(layers):
                q, k, v = (L["qkv"] @ rms(x, L["n1"])).view(3, h, dk)
                keys[i][:, t] = rope(k, t)
                values[i][:, t] = v
                scores = (keys[i][:, : t + 1] @ rope(q, t)[:, :, None])[:, :, 0] / math.sqrt(dk)
                mixed = (torch.softmax(scores, dim=-1)[:, None, :] @ values[i][:, : t + 1])[:, 0]
                x = x + L["out"] @ mixed.reshape(d)
                x = x + L["down"] @ torch.relu(L["up"] @ rms(x, L["n2"]))
            token = int(torch.argmax(emb @ rms(x, final)))
        return n
    with torch.no_grad():
        return n / best_time(generate, 5)


def blas_library():
    """The BLAS library this process really loaded (Debian's torch calls libblas.so.3, which the
    system's alternatives point at the reference BLAS or at OpenBLAS)."""
    with open("/proc/self/maps") as maps:
        libs = sorted({line.split()[-1] for line in maps if "blas" in line.split()[-1]})
    return os.path.realpath(libs[0]) if libs else "unknown"


def blas_kernel():
    """The kernel the loaded BLAS really runs, asked of the library itself: OpenBLAS names its
    core (openblas_get_corename: what OPENBLAS_CORETYPE chose, or what it detected), BLIS its
    sub-configuration (bli_arch_string); the reference BLAS has one."""
    import ctypes
    path = blas_library()
    try:
        lib = ctypes.CDLL(path)
    except OSError:
        return "unknown"
    if hasattr(lib, "openblas_get_corename"):
        lib.openblas_get_corename.restype = ctypes.c_char_p
        return "OpenBLAS " + lib.openblas_get_corename().decode()
    folder = os.path.dirname(path)
    for name in os.listdir(folder):
        if name.startswith("libblis.so"):
            blis = ctypes.CDLL(os.path.join(folder, name))
            blis.bli_arch_string.restype = ctypes.c_char_p
            return "BLIS " + blis.bli_arch_string(blis.bli_arch_query_id()).decode()
    return "reference BLAS" if "/blas/" in path else "unknown"


def main():
    if "--matmul" in sys.argv:
        print(json.dumps({"torch_blas": blas_library(), "kernel": blas_kernel(), "threads": THREADS,
                          "matmul_gflops": matmul_gflops(), "matmul_gflops_1024": matmul_gflops(1024, 5)}))
        return
    with open(os.path.join(ORACLE, "..", "ch07_training.json"), encoding="utf-8") as f:
        training = json.load(f)["inputs"]["training"]
    print(json.dumps({
        "torch_version": torch.__version__,
        "torch_blas": blas_library(),
        "kernel": blas_kernel(),
        "threads": torch.get_num_threads(),
        "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE"),
        "matmul_gflops": matmul_gflops(),
        "forward_base_seconds": forward_base_seconds(),
        "train_step_seconds": train_step_seconds(training),
        "gpt_train_step_seconds": gpt_train_step_seconds(),
        "gpt_train_step_seconds_float32": gpt_train_step_seconds(torch.float32),
        "decode_tokens_per_second": decode_tokens_per_second(),
        "decode_tokens_per_second_float32": decode_tokens_per_second(torch.float32),
        "decode_tokens_per_second_bfloat16": decode_tokens_per_second(torch.bfloat16),
    }))


if __name__ == "__main__":
    main()
