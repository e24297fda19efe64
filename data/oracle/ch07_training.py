"""Chapter 7: gradients against autograd, Adam against torch.optim.Adam, the training tasks.
"""
import torch

from ch06_encoder_decoder import ch06_config, ch06_inputs
from common import SplitMix64
from model import TRAINED_SHAPE, batch_loss, placements, schedule
from numerals import numeral_reading_ids, numerals_inputs


# --- ch07 training -------------------------------------------------------------------------------
def random_reversal(rng, lo, hi):
    """One example of the reversal task, drawn exactly as src/reverse_task.cpp draws it."""
    length = lo + rng.next() % (hi - lo + 1)
    digits = [3 + rng.next() % 10 for _ in range(length)]
    return digits + [2], digits[::-1] + [2]


def ch07_inputs():
    c = dict(
        ch06_config(),
        src_vocab=13,
        tgt_vocab=13,
        vocabulary=["<pad>", "<bos>", "<eos>"] + [str(d) for d in range(10)],
    )
    tiny = ch06_inputs(c, seed=7, source=[[0]], target=[[0]])
    rng = SplitMix64(7)
    return {
        "config": tiny["config"],
        "weights": tiny["weights"],
        "smoothing": 0.1,
        "gradient_batch": [list(random_reversal(rng, 1, 10)) for _ in range(4)],
        "adam": {"factor": 1.0, "warmup": 4, "d_model": 8, "steps": 10, "batch_size": 8, "seed": 8},
        # chosen by measurement (chapters/README.md, chapter 7): small batches and a short warm-up;
        # the run is deterministic, and other seeds move its held-out figure by a few sequences.
        "training": dict(
            TRAINED_SHAPE,
            batch_size=16,
            factor=1.0,
            warmup=100,
            smoothing=0.1,
            max_steps=3000,
            min_length=1,
            max_length=10,
            seed=1,
            heldout=1000,
            heldout_seed=1234,
            check_steps=20,
        ),
        "numerals": numerals_inputs(),
    }


def ch07_expected(i):
    out = {}
    for placement, model in placements(i):
        batch = [(s, t) for s, t in i["gradient_batch"]]
        loss = batch_loss(model, batch, i["smoothing"])
        model.zero_grad()
        loss.backward()
        out[f"loss_{placement}"] = float(loss)
        for name, p in model.named_parameters():
            out[
                f"grad_{placement}/" + name.replace(".", "/")
            ] = p.grad.detach().clone()  # Adam reuses .grad
        # ten Adam steps with the paper's schedule, each on a fresh batch
        a = i["adam"]
        optimiser = torch.optim.Adam(model.parameters(), lr=0.0, betas=(0.9, 0.98), eps=1e-9)
        rng = SplitMix64(a["seed"])
        losses = []
        for step in range(1, a["steps"] + 1):
            batch = [random_reversal(rng, 1, 10) for _ in range(a["batch_size"])]
            for g in optimiser.param_groups:
                g["lr"] = schedule(a, step)
            optimiser.zero_grad()
            loss = batch_loss(model, batch, i["smoothing"])
            loss.backward()
            optimiser.step()
            losses.append(float(loss))
        out[f"first_losses_{placement}"] = losses
    out["numeral_reading_ids"] = numeral_reading_ids(i["numerals"]["check_numbers"])
    return out


# --- what the data file says it holds, and how it is made ---------------------------------------
ABOUT = (
    "Training: gradients of a tiny model (PyTorch autograd, nn.CrossEntropyLoss(ignore_index=pad, "
    "label_smoothing)) for both norm placements, and the losses of ten torch.optim.Adam steps with "
    "the "
    "paper's schedule on reversal batches drawn with SplitMix64. Gradients are keyed "
    "grad_<placement>/<state_dict name with / for .>, in PyTorch's layout."
)
INPUTS, EXPECTED, TUTORIAL = ch07_inputs, ch07_expected, lambda: {}
