"""Chapter 10's encoder-decoder written out by hand in PyTorch, each switch its own way and
independently of the C++ (which rotates pairs with cos and sin, builds masks, repeats nothing):

- RMSNorm by its formula, x * rsqrt(mean(x^2) + eps) * weight (LLaMA's RMSNorm);
- RoPE as LLaMA writes it: pairs of columns as complex numbers, multiplied by e^(i·p·theta);
- ALiBi as an explicit bias matrix per head, with the slopes of the paper's own code;
- grouped-query attention by repeating each key/value head (repeat_interleave);
- learned positions as rows of a table, the sliding window as a boolean mask.

The weights are a dict of tensors under the state_dict names our model files use. With every
switch at the paper's setting this is the model of model.py (nn.Transformer): ch10 checks that
before it writes anything.
"""
import math

import torch

from ch05_positional_encoding import sinusoidal


# --- the pieces --------------------------------------------------------------------------------
def rms_norm(x, weight, eps):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


def norm(x, p, name, c):
    if c.get("norm", "layer") == "rms":
        return rms_norm(x, p[name + ".weight"], c["layer_norm_eps"])
    return torch.nn.functional.layer_norm(
        x, (x.shape[-1],), p[name + ".weight"], p[name + ".bias"], c["layer_norm_eps"]
    )


def rope(x, positions, base=10000.0):
    """x (heads, n, d_k) at the given positions: LLaMA's precompute_freqs_cis and
    apply_rotary_emb, pairs (2i, 2i + 1) as the complex number x_2i + i·x_2i+1."""
    d_k = x.shape[-1]
    freqs = 1.0 / (base ** (torch.arange(0, d_k, 2, dtype=torch.float64)[: d_k // 2] / d_k))
    angles = torch.outer(torch.tensor(positions, dtype=torch.float64), freqs)
    cis = torch.polar(torch.ones_like(angles), angles)  # e^(i·angle)
    pairs = torch.view_as_complex(x.reshape(*x.shape[:-1], d_k // 2, 2).contiguous())
    return torch.view_as_real(pairs * cis).flatten(-2)


def rope_frequencies(d_k, base=10000.0):
    return (1.0 / (base ** (torch.arange(0, d_k, 2, dtype=torch.float64)[: d_k // 2] / d_k))).tolist()


def alibi_slopes(n):
    """The slopes of ALiBi's reference code (Press et al., get_slopes)."""

    def power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + alibi_slopes(2 * closest)[0::2][: n - closest]


def alibi_bias(slope, q_positions, k_positions):
    q = torch.tensor(q_positions, dtype=torch.float64)[:, None]
    k = torch.tensor(k_positions, dtype=torch.float64)[None, :]
    return -slope * (q - k).abs()


def hidden(n, m, causal=False, window=0, key_padding=None):
    """Which keys each query may not see (True = hidden), as a boolean (n, m) matrix."""
    i = torch.arange(n)[:, None]
    j = torch.arange(m)[None, :]
    h = torch.zeros(n, m, dtype=torch.bool)
    if causal:
        h |= j > i
    if window:
        h |= (i - j).abs() >= window
    if key_padding is not None:
        h |= torch.tensor(key_padding)[None, :]
    return h


def attention(x_q, x_kv, p, name, c, hide, positions, probe=None):
    """Multi-head attention with grouped-query heads; positions: None, "rope" or "alibi".
    probe(weights (h, n, m), heads (h, n, d_k)) sees each head's weights and output, and returns
    the outputs to use (chapter 14 reads them, and replaces one to take a head out)."""
    h, d = c["n_heads"], c["d_model"]
    kv_heads = c.get("n_kv_heads", h)
    d_k = d // h
    W, b = p[name + ".in_proj_weight"], p[name + ".in_proj_bias"]
    kv = kv_heads * d_k
    Wq, Wk, Wv = W[:d], W[d : d + kv], W[d + kv :]
    bq, bk, bv = b[:d], b[d : d + kv], b[d + kv :]
    n, m = x_q.shape[0], x_kv.shape[0]
    q = (x_q @ Wq.T + bq).view(n, h, d_k).transpose(0, 1)  # (h, n, d_k)
    k = (x_kv @ Wk.T + bk).view(m, kv_heads, d_k).transpose(0, 1)  # (kv_heads, m, d_k)
    v = (x_kv @ Wv.T + bv).view(m, kv_heads, d_k).transpose(0, 1)
    if positions == "rope":
        q, k = rope(q, list(range(n))), rope(k, list(range(m)))
    k = k.repeat_interleave(h // kv_heads, dim=0)  # each key/value head serves h / kv_heads
    v = v.repeat_interleave(h // kv_heads, dim=0)
    scores = q @ k.transpose(-1, -2) / math.sqrt(d_k)
    if positions == "alibi":
        bias = [alibi_bias(s, list(range(n)), list(range(m))) for s in alibi_slopes(h)]
        scores = scores + torch.stack(bias)
    scores = scores.masked_fill(hide, float("-inf"))
    weights = torch.softmax(scores, -1)
    weights = torch.where(hide.all(-1, keepdim=True), torch.zeros_like(weights), weights)
    heads = weights @ v
    if probe is not None:
        heads = probe(weights, heads)
    out = heads.transpose(0, 1).reshape(n, d)
    return out @ p[name + ".out_proj.weight"].T + p[name + ".out_proj.bias"]


def feed_forward(x, p, name):
    hidden_ = torch.relu(x @ p[name + ".linear1.weight"].T + p[name + ".linear1.bias"])
    return hidden_ @ p[name + ".linear2.weight"].T + p[name + ".linear2.bias"]


def sublayer(x, f, p, name, c):
    if c["norm_first"]:
        return x + f(norm(x, p, name, c))
    return norm(x + f(x), p, name, c)


def embed(ids, table, p, which, c):
    d = c["d_model"]
    x = table[torch.tensor(ids)] * math.sqrt(d)
    scheme = c.get("positions", "sinusoidal")
    if scheme == "sinusoidal":
        x = x + sinusoidal(len(ids), d)
    elif scheme == "learned":
        x = x + p[which + "_positions.weight"][: len(ids)]
    return x


# --- the model -----------------------------------------------------------------------------------
def logits(p, c, src, tgt):
    """One source and one (shifted) target: logits (len(tgt), tgt_vocab)."""
    scheme = c.get("positions", "sinusoidal")
    inside = scheme if scheme in ("rope", "alibi") else None
    window = c.get("window", 0)
    pad = c["pad_id"]
    src_pad = [t == pad for t in src]
    x = embed(src, p["src_embedding.weight"], p, "src", c)
    enc_hide = hidden(len(src), len(src), window=window, key_padding=src_pad)
    for i in range(c["n_encoder_layers"]):
        L = f"transformer.encoder.layers.{i}"
        x = sublayer(x, lambda z: attention(z, z, p, L + ".self_attn", c, enc_hide, inside), p, L + ".norm1", c)
        x = sublayer(x, lambda z: feed_forward(z, p, L), p, L + ".norm2", c)
    memory = norm(x, p, "transformer.encoder.norm", c)
    shared = c.get("share_embeddings", False)
    table = p["src_embedding.weight"] if shared else p["tgt_embedding.weight"]
    y = embed(tgt, table, p, "tgt", c)
    tgt_pad = [t == pad for t in tgt]
    self_hide = hidden(len(tgt), len(tgt), causal=True, window=window, key_padding=tgt_pad)
    cross_hide = hidden(len(tgt), len(src), key_padding=src_pad)
    for i in range(c["n_decoder_layers"]):
        L = f"transformer.decoder.layers.{i}"
        y = sublayer(y, lambda z: attention(z, z, p, L + ".self_attn", c, self_hide, inside), p, L + ".norm1", c)
        y = sublayer(
            y,
            lambda z: attention(z, memory, p, L + ".multihead_attn", c, cross_hide, None),
            p,
            L + ".norm2",
            c,
        )
        y = sublayer(y, lambda z: feed_forward(z, p, L), p, L + ".norm3", c)
    y = norm(y, p, "transformer.decoder.norm", c)
    W = p["src_embedding.weight"] if shared else p["output.weight"]
    return y @ W.T + p["output.bias"]


def batch_loss(p, c, batch, smoothing):
    """The label-smoothed cross-entropy of a batch of (source, target) pairs, averaged over
    every target token that is not padding (as nn.CrossEntropyLoss with ignore_index)."""
    rows, labels = [], []
    for src, tgt in batch:
        rows.append(logits(p, c, src, [c["bos_id"]] + tgt[:-1]))
        labels += tgt
    loss = torch.nn.CrossEntropyLoss(ignore_index=c["pad_id"], label_smoothing=smoothing)
    return loss(torch.cat(rows), torch.tensor(labels))


class Draw:
    """Tensors drawn in turn from torch's generator into the dict p under their state_dict
    names: N(0, 1)/sqrt(fan) matrices, gains and biases near 1 and 0; a layer's attention (with
    grouped-query heads), feed-forward net and norm. Chapter 12's decoder-only model draws its
    weights with it too."""

    def __init__(self, c, seed):
        self.g = torch.Generator().manual_seed(seed)
        self.d, self.ff = c["d_model"], c["d_ff"]
        self.kv = c.get("n_kv_heads", c["n_heads"]) * (self.d // c["n_heads"])
        self.rms = c.get("norm", "layer") == "rms"
        self.p = {}

    def mat(self, name, rows, cols):
        self.p[name] = torch.randn(rows, cols, generator=self.g) / math.sqrt(cols)

    def vec(self, name, n, around=0.0):
        self.p[name] = around + 0.1 * torch.randn(n, generator=self.g)

    def norm(self, name):
        self.vec(name + ".weight", self.d, 1.0)
        if not self.rms:
            self.vec(name + ".bias", self.d)

    def attn(self, name):
        d, kv = self.d, self.kv
        self.mat(name + ".in_proj_weight", d + 2 * kv, d)
        self.vec(name + ".in_proj_bias", d + 2 * kv)
        self.mat(name + ".out_proj.weight", d, d)
        self.vec(name + ".out_proj.bias", d)

    def ffn(self, name):
        d, ff = self.d, self.ff
        self.mat(name + ".linear1.weight", ff, d)
        self.vec(name + ".linear1.bias", ff)
        self.mat(name + ".linear2.weight", d, ff)
        self.vec(name + ".linear2.bias", d)


def random_weights(c, seed):
    """Weights of every tensor the configuration has, under our state_dict names, drawn from
    torch's generator: N(0, 1)/sqrt(fan) matrices, gains and biases near 1 and 0."""
    w = Draw(c, seed)
    d, p = c["d_model"], w.p
    mat, vec, norm_, attn, ffn = w.mat, w.vec, w.norm, w.attn, w.ffn
    mat("src_embedding.weight", c["src_vocab"], d)
    mat("tgt_embedding.weight", c["tgt_vocab"], d)
    if c.get("positions") == "learned":
        mat("src_positions.weight", c["max_positions"], d)
        mat("tgt_positions.weight", c["max_positions"], d)
    for i in range(c["n_encoder_layers"]):
        L = f"transformer.encoder.layers.{i}"
        attn(L + ".self_attn")
        ffn(L)
        norm_(L + ".norm1")
        norm_(L + ".norm2")
    norm_("transformer.encoder.norm")
    for i in range(c["n_decoder_layers"]):
        L = f"transformer.decoder.layers.{i}"
        attn(L + ".self_attn")
        attn(L + ".multihead_attn")
        ffn(L)
        for k in (1, 2, 3):
            norm_(f"{L}.norm{k}")
    norm_("transformer.decoder.norm")
    mat("output.weight", c["tgt_vocab"], d)
    vec("output.bias", c["tgt_vocab"])
    return p
