"""Chapter 9: greedy decoding, a KV cache's logits, beam search and sampling on a half-trained
numerals model.
"""
import torch

from common import SplitMix64, T
from model import base_config, Seq2Seq, batch_loss, greedy, schedule, weights_of
from numerals import NUMERAL_TARGETS, NUMERALS_TRAINING, chinese_reading, numeral_ids


# --- ch09 decoding: KV cache, beam search, sampling -----------------------------------------------
# A small model of the numerals task, trained here in PyTorch for a few hundred steps only: half
# trained, so that greedy decoding still makes mistakes and beam search has something to find.
def ch09_config():
    return base_config(
        d_model=16,
        n_heads=2,
        d_ff=32,
        n_encoder_layers=1,
        n_decoder_layers=2,
        src_vocab=13,
        tgt_vocab=len(NUMERAL_TARGETS),
        vocabulary=NUMERAL_TARGETS,
        source_vocabulary=["<pad>", "<bos>", "<eos>"] + [str(d) for d in range(10)],
    )


def numeral_source(n):
    return [3 + int(ch) for ch in str(n)] + [2]


def random_numeral(r, max_digits):
    digits = r.randint(1, max_digits)
    return r.randrange(10 ** (digits - 1) if digits > 1 else 0, 10**digits)


def half_trained_model(steps=400, seed=9):
    import random

    c = ch09_config()
    torch.manual_seed(seed)
    model = Seq2Seq(c, norm_first=False)
    a = {"factor": 1.0, "warmup": 100, "d_model": c["d_model"]}
    optimiser = torch.optim.Adam(model.parameters(), lr=0.0, betas=(0.9, 0.98), eps=1e-9)
    r = random.Random(seed)
    for step in range(1, steps + 1):
        batch = [
            (numeral_source(n), numeral_ids(chinese_reading(n)))
            for n in (random_numeral(r, 6) for _ in range(32))
        ]
        for g in optimiser.param_groups:
            g["lr"] = schedule(a, step)
        optimiser.zero_grad()
        batch_loss(model, batch, 0.1).backward()
        optimiser.step()
    model.eval()
    return model


def next_log_probs(model, src, prefix):
    """log-softmax of the logits after prefix: the whole prefix recomputed (no cache)."""
    return torch.log_softmax(model(torch.tensor([src]), torch.tensor([prefix]))[0, -1], -1)


def beam_search(model, src, beam, alpha, max_length, stop="none_can_beat"):
    """The rules of src/model/beam_search.h, written again: fairseq's ranking, the length penalty
    of Wu et al. 2016, and either stopping rule: "first_finished" (stop once `beam` hypotheses
    have finished) or "none_can_beat" (stop once no alive hypothesis, even at max_length, could
    score above the worst finished one). Returns the finished hypotheses, best score first:
    (tokens, log P, score)."""
    c = model.c
    lp = lambda n: ((5 + n) / 6) ** alpha
    alive, finished = [([c["bos_id"]], 0.0)], []

    def keep(tokens, logp):  # the `beam` best scores, best first, ties in order of arrival
        finished.append((tokens, logp, logp / lp(len(tokens) - 1)))
        finished.sort(key=lambda h: -h[2])
        del finished[beam:]

    for _ in range(max_length):
        if not alive:
            break
        if len(finished) >= beam:
            best_possible = max(logp for _, logp in alive) / lp(max_length)
            if stop == "first_finished" or best_possible <= finished[-1][2]:
                break
        cands = []
        for a, (tokens, logp) in enumerate(alive):
            step = next_log_probs(model, src, tokens).tolist()
            cands += [
                (logp + step[v], a, v)
                for v in range(len(step))
                if v not in (c["pad_id"], c["bos_id"])
            ]
        cands.sort(key=lambda x: (-x[0], x[1], x[2]))
        new_alive = []
        for rank, (logp, a, v) in enumerate(cands[: 2 * beam]):
            tokens = alive[a][0] + [v]
            if v == c["eos_id"]:
                if rank < beam:
                    keep(tokens, logp)
            elif len(new_alive) < beam:
                new_alive.append((tokens, logp))
        alive = new_alive
    # cut off at max_length with the search not over: the alive ones scored as they are, kept
    # like finished ones (a better score pushes the worst out)
    over = not alive or (
        len(finished) >= beam
        and (
            stop == "first_finished"
            or max(logp for _, logp in alive) / lp(max_length) <= finished[-1][2]
        )
    )
    if not over:
        for tokens, logp in alive:
            keep(tokens, logp)
    return finished


def log_prob_of(model, src, tokens):
    return sum(
        float(next_log_probs(model, src, tokens[: t + 1])[tokens[t + 1]])
        for t in range(len(tokens) - 1)
    )


def sampling_distribution(logits, c, temperature, top_k):
    z = logits / temperature
    z[[c["pad_id"], c["bos_id"]]] = float("-inf")
    if top_k:
        order = sorted(range(len(z)), key=lambda v: (-float(z[v]), v))
        z[order[top_k:]] = float("-inf")
    return torch.softmax(z, -1)


def draw_token(probs, rng):
    u, total, last = rng.uniform(), 0.0, 0
    for v, p in enumerate(probs.tolist()):
        if p == 0.0:
            continue
        total, last = total + p, v
        if total > u:
            return v
    return last


def ch09_inputs():
    model = half_trained_model()
    c = model.c
    # sources: the first number (of a fixed stream) where beam search finds the right reading, of
    # higher probability than greedy decoding's wrong one; then three where it finds nothing better
    import random

    r, beaten, plain = random.Random(2026), [], []
    while not beaten or len(plain) < 3:
        n = random_numeral(r, 6)
        src, right = numeral_source(n), [c["bos_id"]] + numeral_ids(chinese_reading(n))
        greedy_out = greedy(model, torch.tensor(src), 20)
        best = beam_search(model, src, 4, 0.6, 20)[0]
        better = best[1] > log_prob_of(model, src, greedy_out) + 1e-6
        if better and best[0] == right and greedy_out != right and not beaten:
            beaten.append(src)
        elif not better and len(plain) < 3:
            plain.append(src)
    return {
        "config": c,
        "weights": weights_of(model),
        "sources": beaten + plain,
        "max_length": 20,
        # a decoder input with a <pad> inside: the KV cache must hide it as the full pass does
        "kv_cache_padded": [1, 7, 0, 9, 4],
        "beam": {"beam": 4, "alpha": 0.6},
        # searches cut off by a short max_length while an unfinished hypothesis still scores
        # above the worst finished one (found by trying numbers): it must take that one's place
        "beam_cutoff": {"sources": [numeral_source(10), numeral_source(303)], "max_lengths": [3, 5]},
        "sampling": {
            "settings": [[0.5, 0], [1.0, 0], [2.0, 0], [1.0, 3]],
            "seed": 9,
            "samples": 4,
            "sample_settings": [[1.0, 0], [0.7, 3]],
        },
        "memory_lengths": [128, 512, 2048, 8192],
        "timing_lengths": [64, 128, 256, 512],
        # sequences decoded one at a time and in one batch, timed (the batch's tokens: the same)
        "batch_sizes": [1, 4, 16, 64],
        # beam search's two stopping rules, compared on chapter 7's fully trained numerals model
        # (trained by the chapter with this plan when the reader has not saved one): a
        # measurement on a model the oracle does not have, so nothing here is expected
        "stopping": {"numbers": stopping_numbers(), "training": NUMERALS_TRAINING},
        "training": {"task": "numerals", "steps": 400},
    }


def stopping_numbers():
    """500 numbers of 1 to 8 digits (the count uniform), drawn with Python's generator."""
    import random

    r = random.Random(1706)
    return [random_numeral(r, 8) for _ in range(500)]


def ch09_expected(i):
    c = i["config"]
    model = Seq2Seq(c, c["norm_first"])
    model.load_state_dict({k: T(v) for k, v in i["weights"].items()})
    model.eval()
    L, pad = i["max_length"], c["pad_id"]
    fill = lambda rows: [r + [pad] * (L + 1 - len(r)) for r in rows]
    out, greedy_rows, greedy_log_probs, hyps, scores, logps = {}, [], [], [], [], []
    for src in i["sources"]:
        g = greedy(model, torch.tensor(src), L)
        greedy_rows.append(g)
        greedy_log_probs.append(log_prob_of(model, src, g))
        found = beam_search(model, src, i["beam"]["beam"], i["beam"]["alpha"], L)
        hyps += [h[0] for h in found]
        scores.append([h[2] for h in found])
        logps.append([h[1] for h in found])
    out["greedy_tokens"], out["greedy_log_probs"] = fill(greedy_rows), greedy_log_probs
    out["beam_hypotheses"], out["beam_scores"], out["beam_log_probs"] = fill(hyps), scores, logps
    # the simpler stopping rule (stop once `beam` have finished), on the same sources
    first = [
        beam_search(model, src, i["beam"]["beam"], i["beam"]["alpha"], L, stop="first_finished")
        for src in i["sources"]
    ]
    out["beam_first_finished_hypotheses"] = fill([h[0] for f in first for h in f])
    out["beam_first_finished_scores"] = [[h[2] for h in f] for f in first]
    # searches cut off at a short max_length
    cut, cut_rows, cut_scores = i["beam_cutoff"], [], []
    width = max(cut["max_lengths"]) + 1
    for src, length in zip(cut["sources"], cut["max_lengths"]):
        found = beam_search(model, src, i["beam"]["beam"], i["beam"]["alpha"], length)
        cut_rows += [h[0] + [pad] * (width - len(h[0])) for h in found]
        cut_scores.append([h[2] for h in found])
    out["beam_cutoff_hypotheses"], out["beam_cutoff_scores"] = cut_rows, cut_scores
    # every greedy step's logits for the first source, the whole prefix recomputed each time
    src, g = i["sources"][0], greedy_rows[0]
    out["kv_cache_logits"] = torch.stack(
        [model(torch.tensor([src]), torch.tensor([g[: t + 1]]))[0, -1] for t in range(len(g) - 1)]
    ).detach()
    out["kv_cache_max_abs_diff"] = 0.0  # the specification: a cache changes no bit
    # the specification: a sequence decoded in a batch is the sequence decoded alone
    out["batch_greedy_tokens"] = out["greedy_tokens"]
    first = model(torch.tensor([src]), torch.tensor([[c["bos_id"]]]))[0, -1].detach()
    out["sampling_distributions"] = torch.stack(
        [sampling_distribution(first.clone(), c, t, k) for t, k in i["sampling"]["settings"]]
    )
    rng, samples = SplitMix64(i["sampling"]["seed"]), []
    for t, k in i["sampling"]["sample_settings"]:
        for _ in range(i["sampling"]["samples"]):
            tokens = [c["bos_id"]]
            while len(tokens) <= L and tokens[-1] != c["eos_id"]:
                logits = model(torch.tensor([src]), torch.tensor([tokens]))[0, -1].detach()
                tokens.append(draw_token(sampling_distribution(logits, c, t, k), rng))
            samples.append(tokens)
    out["sampled_tokens"] = fill(samples)
    # the paper's base model (6 decoder layers, d_model 512): keys and values of n target and n
    # source tokens, float64
    out["kv_cache_bytes_base"] = [6 * (n + n) * (512 + 512) * 8 for n in i["memory_lengths"]]
    return out


# --- what the data file says it holds, and how it is made ---------------------------------------
ABOUT = (
    "Decoding as real models do, on a small numerals model trained for 400 steps in PyTorch: "
    "greedy decoding's step logits with the whole prefix recomputed (the KV cache must give them "
    "bit for bit), "
    "beam search with fairseq's rules and the length penalty ((5 + |Y|) / 6)^alpha, the next-token "
    "distribution at several temperatures and top-k, and tokens drawn with SplitMix64 by inverse "
    "transform. Token rows are padded with pad_id to max_length + 1."
)
INPUTS, EXPECTED, TUTORIAL = ch09_inputs, ch09_expected, lambda: {}
