"""The encoder-decoder as PyTorch computes it (nn.Transformer), with the state_dict names our
model files use, and what chapters 6, 7 and 9 do with it: greedy decoding, the batch loss,
the paper's learning-rate schedule.
"""
import math

import torch

from ch05_positional_encoding import sinusoidal
from common import T


SIZES = ("d_model", "n_heads", "d_ff", "n_encoder_layers", "n_decoder_layers", "src_vocab", "tgt_vocab")


def base_config(**given):
    """The one base configuration of the encoder-decoder oracles (ch06, ch09, ch10): the sizes the
    caller gives (every one of SIZES), the paper's choices — post-norm, separate embeddings,
    LayerNorm's eps 1e-5, <pad> 0, <bos> 1, <eos> 2 — and anything else given, in that order (the
    order the data files write them in)."""
    c = {k: given.pop(k) for k in SIZES}
    c.update(norm_first=False, share_embeddings=False, layer_norm_eps=1e-5, pad_id=0, bos_id=1, eos_id=2)
    c.update(given)
    return c


# The shape chapter 7 trains, for the reversal task and the numerals task alike: 2+2 pre-norm layers
# of width 32, chosen by measurement (chapters/README.md, chapter 7).
TRAINED_SHAPE = {"d_model": 32, "n_heads": 4, "d_ff": 64, "n_encoder_layers": 2, "n_decoder_layers": 2, "norm_first": True}


class Seq2Seq(torch.nn.Module):
    """Embeddings × sqrt(d_model) + PE, nn.Transformer, an output Linear: the model of ch06,
    with the state_dict names our weights files use."""

    def __init__(self, c, norm_first):
        super().__init__()
        d = c["d_model"]
        self.c = c
        self.src_embedding = torch.nn.Embedding(c["src_vocab"], d)
        self.tgt_embedding = torch.nn.Embedding(c["tgt_vocab"], d)
        self.transformer = torch.nn.Transformer(
            d,
            c["n_heads"],
            c["n_encoder_layers"],
            c["n_decoder_layers"],
            c["d_ff"],
            dropout=0.0,
            batch_first=True,
            norm_first=norm_first,
            layer_norm_eps=c["layer_norm_eps"],
        )
        self.output = torch.nn.Linear(d, c["tgt_vocab"])

    def embed(self, table, ids):
        d = self.c["d_model"]
        return table(ids) * math.sqrt(d) + sinusoidal(ids.shape[1], d)

    def forward(self, src, tgt):
        pad = self.c["pad_id"]
        # grad enabled on purpose: PyTorch's inference fast path (nested tensors) would zero the
        # padded rows of the memory; the plain path computes what the paper describes
        out = self.transformer(
            self.embed(self.src_embedding, src),
            self.embed(self.tgt_embedding, tgt),
            tgt_mask=self.transformer.generate_square_subsequent_mask(tgt.shape[1]),
            src_key_padding_mask=src == pad,
            tgt_key_padding_mask=tgt == pad,
            memory_key_padding_mask=src == pad,
        )
        return self.output(out)


def weights_of(model):
    return {k: v.detach().tolist() for k, v in model.state_dict().items()}


def greedy(model, src, max_length):
    """Greedy decoding; <pad> and <bos> are never generated (they are masked out of the argmax)."""
    c = model.c
    out = [c["bos_id"]]
    while len(out) <= max_length:
        logits = model(src[None], torch.tensor([out]))[0, -1].clone()
        logits[[c["pad_id"], c["bos_id"]]] = float("-inf")
        out.append(int(logits.argmax()))
        if out[-1] == c["eos_id"]:
            break
    return out


def placements(i):
    """The data file's model in each norm placement: (name, model), post-norm first."""
    for placement, norm_first in (("post_norm", False), ("pre_norm", True)):
        model = Seq2Seq(dict(i["config"], norm_first=norm_first), norm_first)
        model.load_state_dict({k: T(v) for k, v in i["weights"].items()})
        yield placement, model


def padded(rows, pad):
    width = max(len(r) for r in rows)
    return torch.tensor([r + [pad] * (width - len(r)) for r in rows])


def batch_loss(model, batch, smoothing):
    c = model.c
    src = padded([s for s, _ in batch], c["pad_id"])
    tgt = padded([t for _, t in batch], c["pad_id"])
    dec_in = padded([[c["bos_id"]] + t[:-1] for _, t in batch], c["pad_id"])
    logits = model(src, dec_in)
    loss = torch.nn.CrossEntropyLoss(ignore_index=c["pad_id"], label_smoothing=smoothing)
    return loss(logits.reshape(-1, logits.shape[-1]), tgt.reshape(-1))


def schedule(a, step):
    return a["factor"] * a["d_model"] ** -0.5 * min(step**-0.5, step * a["warmup"] ** -1.5)
