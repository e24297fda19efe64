"""Chapter 14: what the poet's heads learned — on a small poet this file trains itself (chapter
12's kind of model, on the ten poems of tests/data): where each head looks, the loss with each
head taken out, the induction test, and the residual stream read after every layer.

Everything is read from ch12.gpt_logits's probe (each head's weights and outputs, and the
outputs replaced to take a head out) and its residual stream; the C++ edits the output
projection's weights instead, so the two agree only if taking a head out is what both say.

A poem reads <bos> 《 title 》 \\n clause ， clause 。 \\n …; the body starts after the first line
break; a clause (句) is a run of characters between punctuation marks (PUNCTUATION, the line
break among them) or specials; <unk> is a character.
"""
import math
import os

import torch

import ch12_gpt as ch12
import verse
from common import SplitMix64

PUNCTUATION = ["，", "。", "？", "！", "；", "：", "、", "《", "》", "\n"]
SPECIALS = ["<pad>", "<bos>", "<eos>", "<unk>", "\n"]
BOS, EOS, UNK = 1, 2, 3

SMALL = dict(d_model=24, n_heads=4, n_kv_heads=2, d_ff=48, n_layers=2, norm="rms", positions="rope",
             norm_first=True, layer_norm_eps=1e-5, pad_id=0, bos_id=1, eos_id=2, max_positions=0)
FAMOUS = "《静夜思》\n床前明月光，疑是地上霜。\n举头望明月，低头思故乡。"


def encode(names, text):
    ids = {n: i for i, n in enumerate(names)}
    return [BOS] + [ids.get(ch, UNK) for ch in text] + [EOS]


def clauses_of(names, ids):
    """The clauses of a poem's body, each the list of its characters' positions."""
    out, current, body = [], [], False
    for t, i in enumerate(ids):
        if not body:
            body = names[i] == "\n"
            continue
        if i in (0, BOS, EOS) or names[i] in PUNCTUATION:
            if current:
                out.append(current)
            current = []
        else:
            current.append(t)
    if current:
        out.append(current)
    return out


def read_poem(p, c, ids, context, probe=None, stream=None):
    """A poem's first `context` inputs (or fewer) and the targets after them."""
    n = min(len(ids) - 1, context)
    return ch12.gpt_logits(p, c, ids[:n], probe, stream), ids[1 : n + 1]


def attention_of(p, c, ids, context):
    """Each layer's weights (h, n, n) on a poem's inputs."""
    kept = {}

    def probe(layer, w, h):
        kept[layer] = w
        return h

    read_poem(p, c, ids, context, probe)
    return [kept[l] for l in range(c["n_layers"])]


def even_weights(ids, context):
    """One head that spreads its weight evenly over the keys before each query: (1, n, n)."""
    n = min(len(ids) - 1, context)
    w = torch.tril(torch.ones(n, n))
    return (w / w.sum(-1, keepdim=True))[None]


def head_patterns(p, c, names, poems, context, weights_of=None):
    """Per head (layer-major) the mean share of attention from a query on: the token before it,
    <bos>, punctuation, the latest punctuation at or before it (where its clause began), the
    same place of the clause before (a body character's), the last
    character of the even clause before (from the character that predicts a rhyme); and the
    mean entropy of its weights (nats). Queries: every position but the first."""
    weights_of = weights_of or (lambda ids: torch.cat(attention_of(p, c, ids, context)))
    heads = weights_of(poems[0]).shape[0]
    sums = {k: torch.zeros(heads) for k in ("previous", "bos", "punctuation", "start", "line", "rhyme",
                                            "entropy")}
    counts = {"all": 0, "start": 0, "line": 0, "rhyme": 0}
    for ids in poems:
        W = weights_of(ids)  # (L·h, n, n)
        n = W.shape[1]
        clauses = clauses_of(names, ids)
        punct = torch.tensor([names[i] in PUNCTUATION for i in ids[:n]])
        marks = [k for k in range(n) if punct[k]]
        for q in range(1, n):
            latest = [k for k in marks if k <= q]
            if latest:
                sums["start"] += W[:, q, latest[-1]]
                counts["start"] += 1
            sums["previous"] += W[:, q, q - 1]
            sums["bos"] += W[:, q, 0]
            sums["punctuation"] += W[:, q, : q + 1][:, punct[: q + 1]].sum(-1)
            sums["entropy"] += torch.special.entr(W[:, q, : q + 1]).sum(-1)
            counts["all"] += 1
        for j in range(1, len(clauses), 2):  # a couplet's second verse against its first
            for k, q in enumerate(clauses[j]):
                if q < n and k < len(clauses[j - 1]):
                    sums["line"] += W[:, q, clauses[j - 1][k]]
                    counts["line"] += 1
        for j in range(3, len(clauses), 2):  # the even clauses (2nd, 4th, …) from the 4th
            if len(clauses[j]) >= 2 and clauses[j][-2] < n:
                sums["rhyme"] += W[:, clauses[j][-2], clauses[j - 2][-1]]
                counts["rhyme"] += 1

    def mean(k, n):
        return (sums[k] / n).tolist() if n else [0.0] * heads

    return {
        "head_previous": mean("previous", counts["all"]), "head_bos": mean("bos", counts["all"]),
        "head_punctuation": mean("punctuation", counts["all"]),
        "head_clause_start": mean("start", counts["start"]),
        "head_previous_line": mean("line", counts["line"]), "head_rhyme": mean("rhyme", counts["rhyme"]),
        "head_entropy": mean("entropy", counts["all"]),
        "head_queries": [counts["all"], counts["start"], counts["line"], counts["rhyme"]],
    }


def losses(logits, targets):
    return -torch.log_softmax(logits, -1)[torch.arange(len(targets)), torch.tensor(targets)]


def replacing(replacement):
    """A probe that puts replacement[(layer, head)] (zeros or a mean, (d_k)) in place of those
    heads' outputs."""
    def probe(layer, w, heads):
        heads = heads.clone()
        for (l, i), value in replacement.items():
            if l == layer:
                heads[i] = value
        return heads
    return probe


def ablations(p, c, names, poems, context):
    """The loss on the poems (nats per predicted token) as the model is, and with each head (and
    each layer's heads) zeroed or replaced by its mean output over every input position of the
    poems; the standard error of each change over poems; the chance the model gives a body
    character's repeating (P(next = this one)), as it is and with each head zeroed."""
    h, L = c["n_heads"], c["n_layers"]
    d_k = c["d_model"] // h
    # each head's mean output
    total, rows = torch.zeros(L, h, d_k), 0

    def add(layer, w, heads):
        total[layer] += heads.sum(1)
        return heads

    for ids in poems:
        read_poem(p, c, ids, context, add)
        rows += min(len(ids) - 1, context)
    means = total / rows

    def per_poem(probe):
        out = []
        for ids in poems:
            logits, targets = read_poem(p, c, ids, context, probe)
            ell = losses(logits, targets)
            placed = {q for cl in clauses_of(names, ids) for q in cl if q < len(targets)}
            chance = [float(torch.softmax(logits[q], -1)[ids[q]]) for q in sorted(placed)]
            out.append((ell, chance))
        return out

    def summary(runs, base):
        n = sum(len(e) for e, _ in runs)
        loss = sum(float(e.sum()) for e, _ in runs) / n
        if base is None:
            return loss, 0.0
        d = [float((e - b).sum()) for (e, _), (b, _) in zip(runs, base)]
        change = sum(d) / n
        counts = [len(e) for e, _ in runs]
        se = math.sqrt(sum((di - change * ni) ** 2 for di, ni in zip(d, counts))) / n
        return loss, se

    def repeat(runs):
        chances = [x for _, ch in runs for x in ch]
        return sum(chances) / len(chances) if chances else 0.0

    base = per_poem(None)
    out = {"ablation_loss": summary(base, None)[0], "repeat_probability": repeat(base)}
    repeats = [ids[q + 1] == ids[q] for ids in poems for cl in clauses_of(names, ids)
               for q in cl if q < min(len(ids) - 1, context)]
    out["repeat_rate"] = sum(repeats) / len(repeats) if repeats else 0.0
    for kind in ("zero", "mean"):
        value = (lambda l, i: torch.zeros(d_k)) if kind == "zero" else (lambda l, i: means[l, i])
        heads = [per_poem(replacing({(l, i): value(l, i)})) for l in range(L) for i in range(h)]
        layers = [per_poem(replacing({(l, i): value(l, i) for i in range(h)})) for l in range(L)]
        out[f"ablation_{kind}_loss"] = [summary(r, base)[0] for r in heads]
        out[f"ablation_{kind}_error"] = [summary(r, base)[1] for r in heads]
        out[f"ablation_layer_{kind}_loss"] = [summary(r, base)[0] for r in layers]
        out[f"ablation_layer_{kind}_error"] = [summary(r, base)[1] for r in layers]
        if kind == "zero":
            out["repeat_probability_zero"] = [repeat(r) for r in heads]
    return out


def induction_sequences(names, count, length, seed):
    """count sequences <bos> r r: r, `length` characters drawn uniformly from the vocabulary's
    characters (not specials, not punctuation) by the seeded generator, next() mod their number."""
    chars = [i for i in range(len(SPECIALS), len(names)) if names[i] not in PUNCTUATION]
    rng = SplitMix64(seed)
    out = []
    for _ in range(count):
        r = [chars[rng.next() % len(chars)] for _ in range(length)]
        out.append([BOS] + r + r)
    return out


def induction(p, c, sequences, length):
    """The loss on the first copy's tokens r[1 …] and the second copy's (the same tokens); each
    head's prefix-matching score (from the second copy's t, the weight on the token after the
    first copy's same token, t − length + 1); both copies' losses with each head zeroed (what a
    head's zeroing does to copying is the change in first − second: zeroing any head harms both)."""
    h, L = c["n_heads"], c["n_layers"]
    d_k = c["d_model"] // h
    first, second = range(1, length), range(length + 1, 2 * length)

    def copies(probe=None):
        a = b = 0.0
        for s in sequences:
            ell = losses(ch12.gpt_logits(p, c, s[:-1], probe), s[1:])
            a += float(ell[list(first)].sum())
            b += float(ell[list(second)].sum())
        n = len(sequences) * (length - 1)
        return a / n, b / n

    score = torch.zeros(L * h)
    for s in sequences:
        W = torch.cat(attention_of(p, c, s, 2 * length))
        for t in second:
            score += W[:, t, t - length + 1]
    one, two = copies()
    zeroed = [copies(replacing({(l, i): torch.zeros(d_k)})) for l in range(L) for i in range(h)]
    return {"induction_sequences": sequences, "induction_first_loss": one, "induction_second_loss": two,
            "induction_prefix_matching": (score / (len(sequences) * (length - 1))).tolist(),
            "induction_first_loss_zero": [z[0] for z in zeroed],
            "induction_second_loss_zero": [z[1] for z in zeroed]}


def top5(row):
    """The five likeliest tokens of a logit row, likeliest first (ties: the lower id)."""
    prob = torch.softmax(row, -1).tolist()
    order = sorted(range(len(prob)), key=lambda i: (-prob[i], i))[:5]
    return order, [prob[i] for i in order]


def logit_lens(p, c, poems, famous, context):
    """The residual stream after the embedding and after each layer, read out through the final
    norm and the output projection: the loss on the poems at each, and the famous poem's top five
    next tokens at each position, at each."""
    L = c["n_layers"]
    total, n = [0.0] * (L + 1), 0
    for ids in poems:
        stream = []
        _, targets = read_poem(p, c, ids, context, None, stream)
        for l, x in enumerate(stream):
            total[l] += float(losses(ch12.readout(p, c, x), targets).sum())
        n += len(targets)
    stream = []
    read_poem(p, c, famous, context, None, stream)
    ids, probs = [], []
    for x in stream:
        for row in ch12.readout(p, c, x):
            i, pr = top5(row)
            ids.append(i)
            probs.append(pr)
    return {"lens_loss": [t / n for t in total], "lens_top_ids": ids, "lens_top_probabilities": probs}


def small_poet(shape=None, seed=1414, steps=150, context=30, famous=FAMOUS, lens_clause=1,
               induction=None, texts=None):
    """Chapter 12's kind of model, small, trained here on the ten poems of tests/data (or
    `texts`): `steps` steps of AdamW on all of them (their first `context` inputs), enough for
    its heads to take a shape."""
    here = os.path.dirname(os.path.abspath(__file__))
    if texts is None:
        texts = verse.read_fortune(os.path.join(here, "..", "..", "tests", "data", "tang_sample.txt"))
    names = SPECIALS + sorted({ch for t in texts for ch in t if ch != "\n"})
    c = dict(shape or SMALL, vocab=len(names))
    p = {k: torch.tensor(v).requires_grad_(True) for k, v in ch12.gpt_weights(c, seed).items()}
    groups = [{"params": [t for t in p.values() if t.dim() == 2], "weight_decay": 0.1},
              {"params": [t for t in p.values() if t.dim() == 1], "weight_decay": 0.0}]
    opt = torch.optim.AdamW(groups, lr=0.01, betas=(0.9, 0.98), eps=1e-9)
    poems = [encode(names, t) for t in texts]
    for _ in range(steps):
        opt.zero_grad()
        logits, targets = zip(*(read_poem(p, c, ids, context) for ids in poems))
        loss = torch.nn.functional.cross_entropy(torch.cat(logits), torch.tensor(sum(targets, [])))
        loss.backward()
        opt.step()
    return {"config": c, "weights": {k: v.detach().tolist() for k, v in p.items()}, "vocabulary": names,
            "poems": texts, "context": context, "famous": famous, "lens_clause": lens_clause,
            "induction": induction or {"sequences": 6, "length": 10, "seed": 1414}}


def poet_settings(**changes):
    """Chapter 12's poet (build/ch12_gpt_model.json; where none is saved, trained here for 300
    steps): patterns on every held-out poem, the rest on sample_poems of them drawn at random
    with sample_seed (the first ones in the corpus's order are early-Tang court poets)."""
    return dict({"corpus": ch12.CORPUS, "model": ch12.MODEL, "training": dict(ch12.TRAINING, steps=300),
                 "sample_poems": 300, "sample_seed": 2026, "context": ch12.TRAINING["context"],
                 "famous": FAMOUS,
                 "lens_clause": 1, "induction": {"sequences": 100, "length": 30, "seed": 14}}, **changes)


def ch14_inputs():
    return {"punctuation": PUNCTUATION, "small": small_poet(), "poet": poet_settings()}


def ch14_expected(i):
    s = i["small"]
    c, names, context = s["config"], s["vocabulary"], s["context"]
    p = {k: torch.tensor(v) for k, v in s["weights"].items()}
    poems = [encode(names, t) for t in s["poems"]]
    famous = encode(names, s["famous"])
    with torch.no_grad():
        out = head_patterns(p, c, names, poems, context)
        even = head_patterns(p, c, names, poems, context, lambda ids: even_weights(ids, context))
        out["head_even"] = [even[k][0] for k in ("head_previous", "head_bos", "head_punctuation",
                                                 "head_clause_start", "head_previous_line",
                                                 "head_rhyme", "head_entropy")]
        out["famous_attention"] = torch.cat(attention_of(p, c, famous, context)).flatten(0, 1)
        out.update(ablations(p, c, names, poems, context))
        k = s["induction"]
        seqs = induction_sequences(names, k["sequences"], k["length"], k["seed"])
        out.update(induction(p, c, seqs, k["length"]))
        out.update(logit_lens(p, c, poems, famous, context))
    return out


ABOUT = (
    "What the poet's heads learned (chapter 14). punctuation: the tokens that count as "
    "punctuation (and end a clause). small: a small model of chapter 12's kind the oracle trained "
    "on the ten poems of tests/data (config, weights, vocabulary), the poems it is measured on "
    "(their first `context` inputs), one famous poem, and the induction test's random sequences "
    "(count, length, seed); expected: each head's share of attention on the token before, <bos>, "
    "punctuation, the same place of the clause before, the rhyme before, and its entropy "
    "(head_*, layer-major, and the queries each is over); the famous poem's weights; the loss "
    "with each head and each layer's heads zeroed or mean-replaced, with standard errors over "
    "poems, and the chance of a repeated character; the induction test's losses and "
    "prefix-matching scores; the logit lens's loss per layer and the famous poem's top five "
    "tokens per layer and position. poet: chapter 12's poet, read from its saved file, and how "
    "much of the held-out set each measure reads."
)
INPUTS, EXPECTED, TUTORIAL = ch14_inputs, ch14_expected, lambda: {}
