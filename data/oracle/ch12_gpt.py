"""Chapter 12: a decoder-only model (GPT) — its forward pass, loss and gradients on tiny
configurations, written with modern.py's pieces (the same attention, norms, positions and
feed-forward net as chapter 10's hand-written model), one causal stack, the output projection
tied to the embedding; AdamW's steps under the chapter's cosine schedule; and the baselines
(unigram, Kneser-Ney of orders 2 to 5: kneser_ney.py) on a small seeded corpus; the verse
measures (tones, rhymes, doubled characters: verse.py) on ten poems and a small pronunciation
table. The chapter's training on the Tang poems, and its poems, are measurements, not goldens.
"""
import math
import os

import torch

import verse
import modern
from common import T, SplitMix64
from kneser_ney import KneserNey


def gpt_weights(c, seed):
    """Every tensor of the configuration under our state_dict names, from torch's generator."""
    w = modern.Draw(c, seed)
    w.mat("embedding.weight", c["vocab"], c["d_model"])
    if c["positions"] == "learned":
        w.mat("positions.weight", c["max_positions"], c["d_model"])
    for i in range(c["n_layers"]):
        L = f"layers.{i}"
        w.attn(L + ".self_attn")
        w.ffn(L)
        w.norm(L + ".norm1")
        w.norm(L + ".norm2")
    w.norm("norm")
    if not c.get("tied_output", True):  # an output table of its own
        w.mat("output.weight", c["vocab"], c["d_model"])
    return {k: v.tolist() for k, v in w.p.items()}


def gpt_logits(p, c, ids, probe=None, stream=None):
    """One sequence: logits (len(ids), vocab); row t scores the token after ids[t].
    Chapter 14 looks inside: probe(layer, weights, heads) as modern.attention's probe, and the
    residual stream (after the embedding, then after each layer) appended to stream."""
    scheme = c["positions"]
    inside = scheme if scheme in ("rope", "alibi") else None
    x = p["embedding.weight"][torch.tensor(ids)] * math.sqrt(c["d_model"])
    if scheme == "sinusoidal":
        x = x + modern.sinusoidal(len(ids), c["d_model"])
    elif scheme == "learned":
        x = x + p["positions.weight"][: len(ids)]
    # a <pad> key is hidden from every query, as in every self-attention of the C++ (who_attends.h)
    hide = modern.hidden(len(ids), len(ids), causal=True, key_padding=[t == c["pad_id"] for t in ids])
    if stream is not None:
        stream.append(x)
    for i in range(c["n_layers"]):
        L = f"layers.{i}"
        look = None if probe is None else (lambda w, h, i=i: probe(i, w, h))
        x = modern.sublayer(
            x, lambda z: modern.attention(z, z, p, L + ".self_attn", c, hide, inside, look), p,
            L + ".norm1", c)
        x = modern.sublayer(x, lambda z: modern.feed_forward(z, p, L), p, L + ".norm2", c)
        if stream is not None:
            stream.append(x)
    return readout(p, c, x)


def readout(p, c, x):
    """The final norm and the output projection (the tied embedding, or the output table of an
    untied model): logits from the stream."""
    table = p["output.weight"] if "output.weight" in p else p["embedding.weight"]
    return modern.norm(x, p, "norm", c) @ table.T


# What chapter 12 trains on, the model's shape and its training: chapter 13 reads the same poet
CORPUS = {"source": "quantangshi", "heldout_every": 10, "validation_every": 10,
          "validation_max": 300, "min_count": 2, "vocabulary": 3000}
# An output table of its own (tied_output false): the tied table read the character just read
# straight back out, the larger part of the model's preference to write it again (chapter 14);
# untied, the model stutters a quarter as often and reads the validation poems better
# (chapters/README.md, chapter 12: the training-side tries).
MODEL = {"d_model": 96, "n_heads": 4, "n_kv_heads": 2, "d_ff": 256, "n_layers": 4,
         "norm": "rms", "positions": "rope", "norm_first": True, "layer_norm_eps": 1e-5,
         "tied_output": False}
# A peak of 0.008 falling to 5% of it (measured against other peaks, floors and batch sizes in
# chapters/README.md, chapter 12), for 5,000 steps: validation still falls there, and a little
# further at 8,000 (the same table), but the defined run is sized to a few minutes on two cores.
TRAINING = {"steps": 5000, "batch": 16, "context": 64, "peak_lr": 0.008, "warmup": 100,
            "final_fraction": 0.05, "smoothing": 0.0, "weight_decay": 0.1, "seed": 12}


def tiny_variants():
    base = dict(d_model=8, n_heads=2, d_ff=12, n_layers=2, vocab=11, layer_norm_eps=1e-5,
                norm_first=True, pad_id=0, bos_id=1, eos_id=2, max_positions=0)
    return [
        {"name": "rope_rms_mqa", "config": dict(base, norm="rms", positions="rope", n_kv_heads=1), "seed": 121},
        {"name": "learned_layer", "config": dict(base, norm="layer", positions="learned", n_kv_heads=2,
                                                 max_positions=8), "seed": 122},
        {"name": "untied", "config": dict(base, norm="rms", positions="rope", n_kv_heads=2,
                                          tied_output=False), "seed": 123},
    ]


def ch12_inputs():
    variants = []
    for v in tiny_variants():
        variants.append({"name": v["name"], "config": v["config"], "weights": gpt_weights(v["config"], v["seed"])})
    return {
        "tiny": {
            # two sequences of different lengths, stacked: <bos> … and the tokens that follow
            "inputs": [[1, 5, 6, 7, 8, 4, 3], [1, 9, 10, 5]],
            "targets": [[5, 6, 7, 8, 4, 3, 2], [9, 10, 5, 2]],
            "variants": variants,
            # steps of AdamW (decoupled weight decay on the matrices) with the chapter's schedule
            # (a linear warm-up to the peak, then a cosine decay to final_fraction of it at the
            # last step), on the batch above, the first variant: against torch.optim.AdamW
            "adamw": {"steps": 5, "peak_lr": 0.01, "warmup": 2, "final_fraction": 0.1,
                      "weight_decay": 0.5, "smoothing": 0.1},
            # the held-out measure: every token predicted from up to `context` tokens before it,
            # sequences longer than one window
            # the penalty on repeating the token just read, weighted, on a batch that holds a
            # doubling (6 after 6: not penalised there) and a <pad> target (not counted)
            "unlikelihood": {"weight": 0.5, "inputs": [[1, 5, 6, 6, 7, 4], [1, 9, 9]],
                             "targets": [[5, 6, 6, 7, 4, 2], [9, 9, 0]]},
            "sliding": {"sequences": [[1, 5, 6, 7, 8, 4, 3, 2], [1, 9, 10, 5, 2]], "context": 3,
                        # the repeat correction: β for 叠字 and for a stutter, and each predicted
                        # token's kind (token j ≥ 1 of each sequence)
                        "repeat": {"beta": [0.375, 1.75],
                                   "kinds": [[1, 0, 1, 1, 0, 1, 1], [1, 1, 0, 1]]}},
        },
        "baselines": baseline_corpus(),
        "verse": verse_inputs(),
        # the poems: the regulated poems of the complete Tang poems (build/corpus/quantangshi.txt,
        # which make prepares), or "tang300", or a file; every heldout_every-th poem held out,
        # then validation poems carved out of the rest; the vocabulary: the `vocabulary` most
        # frequent characters seen at least min_count times in the training poems
        "corpus": CORPUS,
        "model": MODEL,
        "training": dict(TRAINING, validate_every=100, patience=5,
                         # the weight of the penalty on repeating the character just read
                         # (model/gpt/unlikelihood.h): 0, none; the table of training runs in
                         # chapters/README.md measures what it does
                         unlikelihood=0.0,
                         # the Three Hundred Tang Poems, 80 times less text, are learned by heart
                         # within a few hundred steps: more weight decay, and a validation every
                         # 25 steps (chapters/README.md, chapter 12)
                         for_corpus={"tang300": {"weight_decay": 3.0, "validate_every": 25}}),
        "sampling": {
            # the settings written with are chosen among these candidates by measurement, 100
            # poems each: with 30, a stutter in a thousand characters was noise enough to choose
            # colder sampling, which stutters more (chapters/README.md, chapter 12)
            "temperatures": [0.6, 0.8, 1.0], "top_ps": [0.9, 1.0], "choice_poems": 100,
            "poems": 1000, "max_new": 100, "seed": 2026, "shown": 5,
            "prompts": ["《春晓》", "《静夜思》", "《登高》", "《月夜》", "《送别》"],
        },
    }


def baseline_corpus():
    """A small corpus for the baselines' goldens: 120 sequences from a seeded Markov chain over
    20 tokens (ids 5 … 19 the 'characters', 4 the line break), <bos> … <eos> as the poems are,
    skewed so that many pairs and triples come once, twice, three and four times; the last 20
    held out. The same shapes as the chapter's, so every case of the formulas is reached."""
    rng = SplitMix64(1212)
    vocab, first = 20, 4
    follow = [[rng.uniform() ** 3 for _ in range(vocab - first)] for _ in range(vocab)]
    seqs = []
    for _ in range(120):
        s, length = [1], 6 + int(rng.uniform() * 20)
        while len(s) < length:
            w = follow[s[-1]]
            u = rng.uniform() * sum(w)
            k = 0
            while k + 1 < len(w) and u >= w[k]:
                u -= w[k]
                k += 1
            s.append(first + k)
        seqs.append(s + [2])
    return {"vocab": vocab, "training": seqs[:100], "heldout": seqs[100:]}


def cosine_rate(a, step):
    """The chapter's schedule at step (from 1): linear warm-up, then cosine decay to the last."""
    if step <= a["warmup"]:
        return a["peak_lr"] * step / a["warmup"]
    span = max(a["steps"], a["warmup"] + 1) - a["warmup"]  # at least one step of decay
    progress = min(1.0, (step - a["warmup"]) / span)
    f = a["final_fraction"]
    return a["peak_lr"] * (f + (1 - f) * 0.5 * (1 + math.cos(math.pi * progress)))


def adamw_losses(v, tiny):
    """The losses of tiny["adamw"]["steps"] steps of torch.optim.AdamW: weight decay on the 2-D
    tensors only, the chapter's cosine schedule (cosine_rate), label smoothing in the loss."""
    a, c = tiny["adamw"], v["config"]
    p = {k: T(x).requires_grad_(True) for k, x in v["weights"].items()}
    groups = [
        {"params": [t for t in p.values() if t.dim() == 2], "weight_decay": a["weight_decay"]},
        {"params": [t for t in p.values() if t.dim() == 1], "weight_decay": 0.0},
    ]
    opt = torch.optim.AdamW(groups, lr=1.0, betas=(0.9, 0.98), eps=1e-9)
    schedule = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: cosine_rate(a, step + 1))
    labels = torch.tensor([t for ts in tiny["targets"] for t in ts])
    losses = []
    for _ in range(a["steps"]):
        opt.zero_grad()
        logits = torch.cat([gpt_logits(p, c, s) for s in tiny["inputs"]])
        loss = torch.nn.CrossEntropyLoss(ignore_index=c["pad_id"], label_smoothing=a["smoothing"])(
            logits, labels)
        loss.backward()
        opt.step()
        schedule.step()
        losses.append(float(loss))
    return losses


def verse_inputs():
    """The verse measures' inputs: the ten poems of tests/data and poems made to cross the rules
    (a doubled and a tripled character, a character missing from the tables, a line out of form;
    a regulated quatrain of seven, a rhyme character twice, three level tones at the end, a lone
    level tone and its remedy, a character of several readings at the rhyme, one whose table
    knows its tone alone, a first verse ending level without rhyming, place names in the middle
    couplets; a poem for each licence: 特拗, 大拗 with and without its 救, 首句借韵 and a first
    verse that cannot borrow; a poem for each word that reads a character otherwise, 重阳 and 三更,
    and one with 重 by itself), each table's readings of their characters (the Mandarin table's
    first, every Tang reading of a line; 鍪 left out of the Tang table, a character it lacks) and
    its words found in the poems, and readings that cross every rule of the rhyme groups and
    every heading of 平水韵."""
    here = os.path.dirname(os.path.abspath(__file__))
    tests = os.path.join(here, "..", "..", "tests", "data")
    table_words, tang_words = {}, {}
    table = verse.read_pinyin(os.path.join(tests, "tang_sample.pinyin.txt"), table_words)
    tang = verse.read_tang(os.path.join(tests, "tang_sample.tang.txt"), tang_words)
    poems = verse.read_fortune(os.path.join(tests, "tang_sample.txt")) + [
        "《叠》\n春春眠不觉，处处闻啼鸟。\n夜来风雨声，花落知多少。",
        "《三》\n春春春不觉，处处闻啼鸟。",
        "《缺》\n床前明月光，疑是地上鍪。\n举头望明月，低头思故乡。",
        "《散》\n床前明月光\n疑是地上霜。",
        "《绝句》\n两个黄鹂鸣翠柳，一行白鹭上青天。\n窗含西岭千秋雪，门泊东吴万里船。",
        "《重》\n白日依山尽，黄河入海流。\n欲穷千里目，更上一层流。",
        "《三平》\n白日依山尽，黄河东南流。\n欲穷千里目，更上一层楼。",
        "《孤》\n白日依山尽，古河入海流。\n欲穷千里目，更上一层楼。",
        "《救》\n白日依山尽，古河清海流。\n欲穷千里目，更上一层楼。",
        "《行》\n春风吹柳绿，人在远方行。\n明月照归路，东风送客城。",
        "《魂》\n春风吹柳绿，何处招归魂。\n明月照归路，东风送客门。",
        "《首》\n春风吹柳花，人在远方行。\n明月照归路，东风送客城。",
        "《停》\n风雨声处处中闻，春眠不觉晓来多。",
        "《顿》\n春处处眠晓，夜来风雨声。",
        "《登高》\n风急天高猿啸哀，渚清沙白鸟飞回。\n无边落木萧萧下，不尽长江滚滚来。"
        "\n万里悲秋常作客，百年多病独登台。\n艰难苦恨繁霜鬓，潦倒新停浊酒杯。",
        "《对》\n白日依山尽，黄河入海流。\n千山鸟飞绝，万径人踪灭。"
        "\n红豆生南国，春来发几枝。\n欲穷千里目，更上一层楼。",
        "《地》\n白日依山尽，黄河入海流。\n洞庭发几枝，巫峡千里目。\n吴山望明月，楚水思故乡。"
        "\n红豆生南国，更上一层楼。",
        # the licences, each poem passing by its own only: 特拗, 大拗 made up, 大拗 not made up,
        # 首句借韵 (微 beside 支), and a first verse in a group no neighbour of the rhyme's
        "《特拗》\n白日依山尽，黄河入海流。\n欲穷里千目，更上一层楼。",
        "《大拗》\n白日依里尽，黄河千海流。\n欲穷千里目，更上一层楼。",
        "《拗》\n白日依里尽，黄河入海流。\n欲穷千里目，更上一层楼。",
        "《借》\n红豆鸟南飞，春来发几枝。\n愿君多采撷，此物最相思。",
        "《不借》\n红豆鸟南流，春来发几枝。\n愿君多采撷，此物最相思。",
        # a word decides a reading: each of the first two passes with 重 or 更 read by itself
        # (either tone) and fails with the word's — 重阳: 重 level, a 三平尾 at the end; 三更: 更
        # level, the 2nd and 4th of 三更读书传 both level (三更读: the word read first takes 更,
        # 更读 is no word); 杯重把: 重 by itself, level, passes
        "《重阳》\n青山依海尽，还是重阳津。\n白日依山尽，东风送客人。",
        "《三更》\n青山依海尽，三更读书传。\n白日依山尽，东风送客船。",
        "《重》\n白日依山尽，黄河入海流。\n几时杯重把，更上一层楼。",
    ]
    used = sorted({ch for text in poems for ch in text if ch in table})
    used_tang = sorted({ch for text in poems for ch in text if ch in tang and ch != "鍪"})
    in_poems = lambda w: any(w in text for text in poems)
    return {"poems": poems, "pronunciations": {ch: table[ch] for ch in used},
            "pronunciation_words": {w: r for w, r in sorted(table_words.items()) if in_poems(w)},
            "tang": {ch: " ".join(tang[ch]) for ch in used_tang},
            "tang_words": {w: r for w, r in sorted(tang_words.items()) if in_poems(w)},
            "readings": verse.EXAMPLE_READINGS,
            "tang_readings": list(verse.HEADINGS + verse.TONE_WORDS),
            "training_poems": 10}


def verse_expected(v):
    tang = verse.Table(tang={c: r.split() for c, r in v["tang"].items()}, words=v.get("tang_words"))
    mandarin = verse.Table(mandarin=v["pronunciations"], words=v.get("pronunciation_words"))
    return {
        "verse_reading_groups": [verse.group(r) for r in v["readings"]],
        "verse_reading_tones": [verse.tone(r) for r in v["readings"]],
        "verse_measures": verse.measure(v["poems"], v["pronunciations"], v.get("pronunciation_words")),
        "verse_tang_reading_tones": [verse.tang_sound(r)[0] for r in v["tang_readings"]],
        "verse_tang_reading_groups": [verse.tang_sound(r)[1] for r in v["tang_readings"]],
        "verse_tang_measures": verse.measure_table(v["poems"], tang),
        "verse_regulated": verse.regulated(v["poems"], tang),
        "verse_regulated_mandarin": verse.regulated(v["poems"], mandarin),
        "verse_tang_rates": verse.rates(v["poems"], tang),
        "verse_mandarin_rates": verse.rates(v["poems"], mandarin),
        "verse_doubled_pairs": len(verse.doubled_pairs(v["poems"][: v["training_poems"]])),
        "verse_doublings": verse.doublings(
            v["poems"], verse.doubled_pairs(v["poems"][: v["training_poems"]])),
    }


def baselines_expected(b):
    """The baselines on the small corpus: add-one unigram, Kneser-Ney of orders 2 to 5
    (held-out nats per token), and the trigram's and 5-gram's three discounts at each order."""
    train, held, vocab = b["training"], b["heldout"], b["vocab"]
    counts = [0] * vocab
    for s in train:
        for t in s[1:]:
            counts[t] += 1
    total = sum(counts)
    unigram = -sum(math.log((counts[t] + 1) / (total + vocab)) for s in held for t in s[1:])
    unigram /= sum(len(s) - 1 for s in held)
    trigram, fivegram = KneserNey(train, vocab, 3), KneserNey(train, vocab, 5)
    return {
        "baseline_unigram_loss": unigram,
        "baseline_kn_bigram_loss": KneserNey(train, vocab, 2).loss(held),
        "baseline_kn_trigram_loss": trigram.loss(held),
        "baseline_kn_trigram_discounts": [list(trigram.d[k]) for k in (1, 2, 3)],
        "baseline_kn_4gram_loss": KneserNey(train, vocab, 4).loss(held),
        "baseline_kn_5gram_loss": fivegram.loss(held),
        "baseline_kn_5gram_discounts": [list(fivegram.d[k]) for k in (1, 2, 3, 4, 5)],
    }


def ch12_expected(i):
    out = {}
    if "baselines" in i:
        out.update(baselines_expected(i["baselines"]))
    if "verse" in i:
        out.update(verse_expected(i["verse"]))
    tiny = i["tiny"]
    if "adamw" in tiny:
        out["adamw_losses"] = [adamw_losses(tiny["variants"][0], tiny)]
    for v in tiny["variants"]:
        c = v["config"]
        p = {k: T(x).requires_grad_(True) for k, x in v["weights"].items()}
        rows = [gpt_logits(p, c, s) for s in tiny["inputs"]]
        logits = torch.cat(rows)
        labels = torch.tensor([t for ts in tiny["targets"] for t in ts])
        loss = torch.nn.CrossEntropyLoss(ignore_index=c["pad_id"])(logits, labels)
        loss.backward()
        out[f"logits_{v['name']}"] = logits.detach()
        out[f"loss_{v['name']}"] = float(loss)
        for name, t in p.items():
            out[f"grad_{v['name']}/" + name.replace(".", "/")] = t.grad.detach()
        if "unlikelihood" in tiny:
            out.update(unlikelihood_expected(v, tiny["unlikelihood"]))
        if "sliding" in tiny:
            out[f"sliding_loss_{v['name']}"] = sliding_loss(p, c, tiny["sliding"])
            if "repeat" in tiny["sliding"]:
                out[f"repeat_loss_{v['name']}"] = sliding_loss(p, c, tiny["sliding"],
                                                               tiny["sliding"]["repeat"])
    return out


def unlikelihood_expected(v, u):
    """The cross-entropy plus weight × the mean over counted positions of −log(1 − p(token just
    read)), a position whose target is that token not penalised; and autograd's gradients."""
    c = v["config"]
    p = {k: T(x).requires_grad_(True) for k, x in v["weights"].items()}
    logits = torch.cat([gpt_logits(p, c, s) for s in u["inputs"]])
    read = torch.tensor([t for ts in u["inputs"] for t in ts])
    labels = torch.tensor([t for ts in u["targets"] for t in ts])
    counted = labels != c["pad_id"]
    ce = torch.nn.functional.cross_entropy(logits, labels, ignore_index=c["pad_id"], reduction="sum")
    others = logits.clone()
    others[torch.arange(len(read)), read] = float("-inf")
    # −log(1 − p_read) = logsumexp(all) − logsumexp(all but the token read)
    term = torch.logsumexp(logits, -1) - torch.logsumexp(others, -1)
    penalised = counted & (labels != read)
    loss = (ce + u["weight"] * term[penalised].sum()) / counted.sum()
    loss.backward()
    out = {f"unlikelihood_loss_{v['name']}": float(loss)}
    for name, t in p.items():
        out[f"grad_unlikelihood_{v['name']}/" + name.replace(".", "/")] = t.grad.detach()
    return out


def sliding_loss(p, c, sliding, repeat=None):
    """Mean −log P of every token after the first, each from at most `context` tokens before
    it: a sequence's first context + 1 tokens as one window, then each later token as the last
    of a window of the context tokens before it. With `repeat`, the logit of the token before
    each predicted one is lowered by the β of that place's kind first (the repeat correction)."""
    total, n, C = 0.0, 0, sliding["context"]

    def corrected(row, seq, j):  # the logits predicting token j of seq
        if repeat is None:
            return row
        row = row.clone()
        row[seq[j - 1]] -= repeat["beta"][repeat["kinds"][k][j - 1]]
        return row

    with torch.no_grad():
        for k, s in enumerate(sliding["sequences"]):
            first = min(len(s), C + 1)
            logits = gpt_logits(p, c, s[: first - 1])
            for t in range(first - 1):
                logp = torch.log_softmax(corrected(logits[t], s, t + 1), -1)
                total -= float(logp[s[t + 1]])
                n += 1
            for j in range(first, len(s)):
                logp = torch.log_softmax(corrected(gpt_logits(p, c, s[j - C : j])[-1], s, j), -1)
                total -= float(logp[s[j]])
                n += 1
    return total / n


ABOUT = (
    "A decoder-only model (chapter 12). tiny: three small configurations with their weights under "
    "state_dict names (embedding.weight is also the output projection, except where "
    "config.tied_output is false: then output.weight), a batch of two "
    "sequences (inputs, and the targets that follow each position); expected: logits, loss and "
    "autograd's gradients (grad_<variant>/<name with / for .>); tiny.adamw: AdamW steps under "
    "the cosine schedule; tiny.unlikelihood: the loss with a weighted penalty on repeating the "
    "token just read, on its own batch (unlikelihood_loss_<variant>, "
    "grad_unlikelihood_<variant>/…); tiny.sliding: sequences scored with a sliding window of `context` "
    "tokens (sliding_loss_<variant>). baselines: a small seeded corpus of token ids; expected: "
    "the add-one unigram's and interpolated modified Kneser-Ney's held-out loss at orders 2 to "
    "5, and the trigram's and 5-gram's discounts (kneser_ney.py). verse: poems, the Mandarin and "
    "the Tang pronunciation tables and readings of each; expected: each reading's rhyme group and "
    "tone, the poems' verse measures by both tables, the whole regulated-verse check and the rates "
    "with their standard errors over poems (verse.py). corpus: the poems the chapter trains on (the "
    "regulated poems of the complete Tang poems, or tang300); model, training, sampling: what "
    "the chapter trains and how it writes."
)
INPUTS, EXPECTED, TUTORIAL = ch12_inputs, ch12_expected, lambda: {}
