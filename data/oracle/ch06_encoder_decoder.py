"""Chapter 6: the encoder-decoder, matched to nn.Transformer.
"""
import torch

from common import SplitMix64, T
from model import base_config, Seq2Seq, greedy, placements, weights_of


# --- ch06 the encoder-decoder ---------------------------------------------------------------------
def ch06_config():
    return base_config(
        d_model=8,
        n_heads=2,
        d_ff=16,
        n_encoder_layers=2,
        n_decoder_layers=2,
        src_vocab=10,
        tgt_vocab=10,
    )


def ch06_inputs(c=None, seed=6, source=None, target=None):
    c = c or ch06_config()
    torch.manual_seed(seed)
    model = Seq2Seq(c, norm_first=False)
    with torch.no_grad():  # biases and gains away from 0 and 1, so that every one is tested
        for p in model.parameters():
            p.add_(0.1 * torch.randn(p.shape))
    return {
        "config": c,
        "source": source or [[3, 4, 5, 6, 7], [8, 9, 3, 0, 0]],
        "target": target or [[7, 6, 5, 4, 3, 2], [3, 9, 8, 2, 0, 0]],
        "max_length": 6,
        "weights": weights_of(model),
        "add_norm": add_norm_inputs(seed),
    }


def add_norm_inputs(seed):
    """A small batch for Add & Norm: 2 sequences x 3 positions, 4 features, stacked into 6 rows;
    the features on different scales, so that normalising rows and columns visibly differ."""
    rng = SplitMix64(seed + 1000)
    scales = [1, 3, 0.5, 10]
    x = [[round(rng.normal() * s, 2) for s in scales] for _ in range(6)]
    sublayer = [[round(rng.normal() * s / 2, 2) for s in scales] for _ in range(6)]
    return {"sequences": 2, "x": x, "sublayer": sublayer}


def ch06_expected(i):
    out = {}
    for placement, model in placements(i):
        c = model.c
        model.eval()
        for b, (src, tgt) in enumerate(zip(i["source"], i["target"])):
            decoder_input = [c["bos_id"]] + tgt[:-1]  # the target shifted right
            src_t = torch.tensor(src)
            out[f"logits_{placement}_{b}"] = model(src_t[None], torch.tensor([decoder_input]))[
                0
            ].detach()
            out[f"greedy_{placement}_{b}"] = greedy(model, src_t, i["max_length"])
    core = torch.nn.Transformer(
        i["config"]["d_model"],
        i["config"]["n_heads"],
        i["config"]["n_encoder_layers"],
        i["config"]["n_decoder_layers"],
        i["config"]["d_ff"],
    )
    out["small_core_parameter_count"] = sum(p.numel() for p in core.parameters())
    out["small_parameter_count"] = sum(p.numel() for p in model.parameters())
    # Add & Norm on a small batch: LayerNorm (each position over its features), beside what
    # BatchNorm (each feature over the batch's positions, training mode) computes
    r = T(i["add_norm"]["x"]) + T(i["add_norm"]["sublayer"])
    out["add_norm_layer_norm"] = torch.nn.functional.layer_norm(r, (r.shape[1],), eps=1e-5)
    out["add_norm_batch_norm"] = torch.nn.functional.batch_norm(
        r, None, None, training=True, eps=1e-5
    )
    # the paper's base model; embeddings shared between source, target and the output projection
    base = torch.nn.Transformer(512, 8, 6, 6, 2048)
    out["core_parameter_count"] = sum(p.numel() for p in base.parameters())
    out["parameter_count"] = out["core_parameter_count"] + BASE_VOCAB * 512 + BASE_VOCAB
    return out


BASE_VOCAB = 37000  # the paper's shared source-target byte-pair vocabulary


# --- what the data file says it holds, and how it is made ---------------------------------------
ABOUT = (
    "The encoder-decoder matched to torch.nn.Transformer (float64, batch_first, dropout 0, ReLU, "
    "layer_norm_eps 1e-5), post-norm and pre-norm with the same weights. Weights are a state_dict "
    "of a "
    "module with src_embedding, tgt_embedding (nn.Embedding), transformer (nn.Transformer), output "
    "(nn.Linear). The decoder input is the target shifted right: [bos] + target[:-1]."
)
INPUTS, EXPECTED, TUTORIAL = ch06_inputs, ch06_expected, lambda: {}
