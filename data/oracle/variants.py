"""Other data files of the same schemas, with other sizes and values (tests/data/).
"""
from ch01_dictionary_lookup import ch01_inputs
from ch02_self_attention import ch02_inputs
from ch05_positional_encoding import ch05_inputs
import torch

from ch06_encoder_decoder import ch06_config, ch06_inputs
from ch07_training import ch07_inputs
from ch09_decoding import ch09_config
import ch10_modern_attention as ch10
import ch11_long_sequences as ch11
import ch12_gpt as ch12
import modern
from common import SplitMix64
from model import Seq2Seq, weights_of
from numerals import NUMERALS_TRAINING


# Other data files of the same schemas, with other sizes and values: the test suite runs each
# chapter on them too, so nothing in the C++ may depend on the shipped example's sizes.
def variants():
    rng = SplitMix64(42)
    pick = lambda rows, cols: [[round(rng.normal(), 3) for _ in range(cols)] for _ in range(rows)]
    ch01 = ch01_inputs()
    ch01.update(
        {
            "keys": ["cat", "dog", "car", "bus"],
            "values": [1.5, 2.5, -4, 7],
            "fruit_weights": [0.25, 0.25, 0.25, 0.25],
            "key_vectors": pick(4, 5),
            "queries": ["pet", "vehicle", "thing"],
            "query_vectors": pick(3, 5),
            "sweep_query": 2,
        }
    )
    ch02 = ch02_inputs()
    ch02.update(
        {
            "tokens": ["我", "爱", "吃", "苹果"],
            "X": pick(4, 6),
            "W_Q": pick(6, 2),
            "W_K": pick(6, 2),
            "W_V": pick(6, 4),
            "why_scale": {"seed": 7, "d_k": [1, 8, 100], "trials": 50, "keys": 3},
        }
    )
    ch03 = {
        "tokens": ["a", "b", "c", "d", "e", "f", "g"],
        "X": pick(7, 3),
        "key_padding": [False] * 4 + [True] * 3,
        "left_key_padding": [True, True] + [False] * 5,
    }
    d = 12
    ch04 = {
        "tokens": ["t0", "t1", "t2"],
        "n_heads": 3,
        "x": pick(3, d),
        "key_padding": [False, False, True],
        "source_tokens": ["s0", "s1", "s2", "s3", "s4", "s5", "s6"],
        "source": pick(7, d),
        "source_key_padding": [False] * 5 + [True] * 2,
        "W_Q": pick(d, d),
        "W_K": pick(d, d),
        "W_V": pick(d, d),
        "W_O": pick(d, d),
        "b_Q": pick(1, d)[0],
        "b_K": pick(1, d)[0],
        "b_V": pick(1, d)[0],
        "b_O": pick(1, d)[0],
        "shape_example": {
            "n_heads": 2,
            "x": pick(3, 5),
            "W_Q": pick(5, 6),
            "W_K": pick(5, 6),
            "W_V": pick(5, 4),
            "W_O": pick(4, 5),
        },
    }
    ch05 = ch05_inputs()
    ch05.update(
        {
            "d_model": 6,
            "embedding": pick(5, 6),
            "vocabulary": ["a", "b", "c", "d", "e"],
            "token_ids": [4, 4, 0, 1, 3],
            "permutation": [4, 3, 2, 1, 0],
            "pe_positions": 12,
            "odd_d_model": 5,
            "scaled_lengths": [2, 5, 7],
            "binary_bits": 3,
            "offsets": [3],
            "positions": [0, 1, 2, 6],
        }
    )
    c6 = dict(
        ch06_config(),
        d_model=12,
        n_heads=3,
        d_ff=7,
        n_encoder_layers=1,
        n_decoder_layers=3,
        src_vocab=13,
        tgt_vocab=11,
        pad_id=10,
        bos_id=0,
        eos_id=9,
    )
    ch06 = ch06_inputs(
        c6,
        seed=60,
        source=[[1, 2, 3], [12, 11, 4], [5, 10, 10]],
        target=[[3, 2, 1, 4, 9, 10, 10], [4, 4, 9, 10, 10, 10, 10], [5, 5, 5, 5, 5, 5, 9]],
    )
    return [
        ("ch06_encoder_decoder", "other", ch06),
        ("ch05_positional_encoding", "other", ch05),
        ("ch01_dictionary_lookup", "other", ch01),
        ("ch02_self_attention", "other", ch02),
        ("ch03_masked_attention", "other", ch03),
        ("ch04_multi_head_attention", "other", ch04),
        ("ch10_modern_attention", "other", ch10_other()),
        ("ch13_precision", "other", ch13_other()),
        ("ch14_inside_the_poet", "other", ch14_other()),
    ]


def ch14_other():
    # another small poet: three blocks of three heads (one key/value head each, grouped), LayerNorm,
    # sinusoidal positions, a shorter window; 《春晓》 read layer by layer, its first clause
    import ch14_inside_the_poet as ch14
    shape = dict(ch14.SMALL, d_model=12, n_heads=3, n_kv_heads=1, d_ff=20, n_layers=3, norm="layer",
                 positions="sinusoidal")
    famous = "《春晓》\n春眠不觉晓，处处闻啼鸟。\n夜来风雨声，花落知多少？"
    return {"punctuation": ch14.PUNCTUATION,
            "small": ch14.small_poet(shape, seed=1415, steps=80, context=20, famous=famous, lens_clause=0,
                                     induction={"sequences": 3, "length": 7, "seed": 7}),
            "poet": ch14.poet_settings()}


def ch13_other():
    # 01's example with rows wider than one 8-bit group: 46 numbers a row, so each row has a
    # group of 32 and one of 14, each with its own scale (-0.91796875 the largest of a second one)
    rng = SplitMix64(13)
    X = [[round(rng.normal(), 3) for _ in range(46)] for _ in range(3)]
    X[2] = [max(-0.9, min(0.9, x)) for x in X[2]]
    X[2][40] = -0.91796875
    return dict(ch13_smallest(), tutorial={"tokens": ["笔", "记", "本"], "X": X})


def ch10_model(name, config, seed):
    return {
        "name": name,
        "config": config,
        "weights": {k: x.tolist() for k, x in modern.random_weights(config, seed).items()},
    }


def ch10_other():
    """Other widths: six heads (ALiBi's rule for a head count that is no power of 2), d_k 6,
    grouped-query attention in thirds, a window of 3, other combinations of the switches."""
    i = ch10.ch10_inputs()
    rng = SplitMix64(1010)
    pick = lambda rows, cols: [[round(rng.normal(), 3) for _ in range(cols)] for _ in range(rows)]
    base = dict(ch10.small_config(), d_model=12, n_heads=6, d_ff=8, n_encoder_layers=1, n_decoder_layers=3, src_vocab=7, tgt_vocab=9)
    i.update(
        {
            "norms": {"x": pick(3, 5)},
            "rope": {"d_k": 6, "q": pick(1, 6)[0], "k": pick(1, 6)[0], "pairs": [[7, 1], [12, 6], [1, 7], [0, 6]], "positions": [3, 0]},
            "frequencies": {"d_model": 12, "d_k": 6},
            "alibi": {"heads": [6, 3, 1], "n": 4},
            "gqa": {"d_model": 12, "n_heads": 6, "kv_heads": [6, 3, 2, 1], "x": pick(3, 12), "weights": ch10.gqa_weights(12, 12, 6)},
            "window": {"n": 10, "window": 3, "layers": [2, 5]},
            "models": {
                "variants": [
                    ch10_model("rms_post_alibi", dict(base, norm="rms", positions="alibi", n_kv_heads=3, window=0), 201),
                    ch10_model("pre_rope_mqa_window", dict(base, norm_first=True, positions="rope", n_kv_heads=1, window=2), 202),
                    ch10_model("learned", dict(base, positions="learned", n_kv_heads=6, window=0, max_positions=9), 203),
                ],
                "batch": [[[3, 4, 2], [5, 6, 7, 2]], [[6, 5, 4, 3, 2], [8, 2]]],
                "smoothing": 0.2,
            },
        }
    )
    return i


# The smallest legal shapes of every chapter's data file (tests/data/chNN_*.smallest.json): one
# token, one head, d_k = 1, one layer, a source and a target of one word, max_length 1, one
# sample of everything. No narration may assume a second token, head or row exists.
def smallest():
    rng = SplitMix64(1)
    one = lambda: round(rng.normal(), 3)
    ch01 = {
        "keys": ["apple"],
        "values": [10],
        "fruit_weights": [1],
        "key_vectors": [[one()]],
        "queries": ["fruit"],
        "query_vectors": [[one()]],
        "sweep_query": 0,
        "sweep_scales": [1],
    }
    ch02 = {
        "tokens": ["笔"],
        "X": [[one()]],
        "W_Q": [[one()]],
        "W_K": [[one()]],
        "W_V": [[one()]],
        "why_scale": {"seed": 7, "d_k": [1], "trials": 1, "keys": 1},
    }
    ch03 = {"tokens": ["a"], "X": [[one()]], "key_padding": [False], "left_key_padding": [True]}
    square = lambda: [[one()]]
    ch04 = {
        "tokens": ["t0"],
        "n_heads": 1,
        "x": square(),
        "key_padding": [False],
        "source_tokens": ["s0"],
        "source": square(),
        "source_key_padding": [False],
        "W_Q": square(),
        "W_K": square(),
        "W_V": square(),
        "W_O": square(),
        "b_Q": [one()],
        "b_K": [one()],
        "b_V": [one()],
        "b_O": [one()],
        "shape_example": {
            "n_heads": 1,
            "x": square(),
            "W_Q": square(),
            "W_K": square(),
            "W_V": square(),
            "W_O": square(),
        },
    }
    ch05 = {
        "d_model": 1,
        "vocabulary": ["a"],
        "embedding": [[one()]],
        "token_ids": [0],
        "permutation": [0],
        "pe_positions": 5,
        "odd_d_model": 1,
        "scaled_lengths": [1],
        "binary_bits": 1,
        "offsets": [0],
        "positions": [0],
    }
    tiny = dict(d_model=1, n_heads=1, d_ff=1, n_encoder_layers=1, n_decoder_layers=1)
    c6 = dict(ch06_config(), **tiny, src_vocab=4, tgt_vocab=4)
    ch06 = ch06_inputs(c6, seed=61, source=[[3]], target=[[3]])
    ch06["max_length"] = 1
    # BatchNorm needs a batch of two positions at least (as nn.BatchNorm1d in training mode)
    ch06["add_norm"] = {"sequences": 1, "x": [[one()], [one()]], "sublayer": [[one()], [one()]]}
    return [
        ("ch01_dictionary_lookup", ch01),
        ("ch02_self_attention", ch02),
        ("ch03_masked_attention", ch03),
        ("ch04_multi_head_attention", ch04),
        ("ch05_positional_encoding", ch05),
        ("ch06_encoder_decoder", ch06),
        ("ch07_training", ch07_smallest(tiny)),
        ("ch08_cost", ch08_smallest()),
        ("ch09_decoding", ch09_smallest(tiny)),
        ("ch10_modern_attention", ch10_smallest()),
        ("ch11_long_sequences", ch11_smallest()),
        ("ch12_gpt", ch12_smallest()),
        ("ch13_precision", ch13_smallest()),
        ("ch14_inside_the_poet", ch14_smallest()),
    ]


def ch14_smallest():
    # one block of width 2, one head, d_k 2; one poem of one character, read to one input (no
    # query to measure, no clause); the induction test at its shortest (length 2, one sequence)
    import ch14_inside_the_poet as ch14
    shape = dict(ch14.SMALL, d_model=2, n_heads=1, n_kv_heads=1, d_ff=1, n_layers=1)
    return {"punctuation": ch14.PUNCTUATION,
            "small": ch14.small_poet(shape, seed=14, steps=1, context=1, famous="春", lens_clause=0,
                                     induction={"sequences": 1, "length": 2, "seed": 1}, texts=["春"]),
            "poet": ch14.poet_settings(sample_poems=1, induction={"sequences": 1, "length": 2, "seed": 1})}


def ch13_smallest():
    # one number to round; a 1 x 1 X; one score, one masked key, a dot product of one term, d_k 1;
    # a model of one block of width 2 and one head, one held-out pair, one prompt, one token
    import ch13_precision as ch13
    config = dict(d_model=2, n_heads=1, n_kv_heads=1, d_ff=1, n_layers=1, vocab=6,
                  layer_norm_eps=1e-5, norm="rms", positions="rope", norm_first=True, pad_id=0,
                  bos_id=1, eos_id=2, max_positions=0)
    return {
        "rounding": {"values": [float(1 / 3).hex()]},
        "tutorial": {"tokens": ["笔"], "X": [[2]]},
        "breaking": {"scores": [0.5], "mask_value": -1e9, "masked_row": 1, "dot_lengths": [1],
                     "seed": 1, "d_k": 1, "scale_rows": 1, "norm_offset": 1.0, "norm_spread": [0.0]},
        "model": {"config": config, "weights": ch12.gpt_weights(config, 13), "heldout": [[1, 5]],
                  "prompts": [[1]], "new_tokens": 1},
        "readings": ch13.NAMES,
        "poems": dict(ch13.ch13_inputs_poems(), heldout_poems=1, new_tokens=1),
    }


def ch12_smallest():
    # one block of width 2, one head, one token; ten poems of tests/data (one held out, none
    # left for validation: the last step is kept)
    shape = dict(d_model=2, n_heads=1, n_kv_heads=1, d_ff=1, n_layers=1, norm="layer",
                 positions="sinusoidal", norm_first=True, layer_norm_eps=1e-5)
    config = dict(shape, vocab=6, max_positions=0, pad_id=0, bos_id=1, eos_id=2)
    return {
        "tiny": {
            "inputs": [[1]],
            "targets": [[5]],
            "variants": [{"name": "one", "config": config, "weights": ch12.gpt_weights(config, 1)}],
            "adamw": {"steps": 1, "peak_lr": 0.01, "warmup": 1, "final_fraction": 0.1,
                      "weight_decay": 0.5, "smoothing": 0.0},
            # one token read, another to follow: penalised once
            "unlikelihood": {"weight": 1.0, "inputs": [[5]], "targets": [[4]]},
            # a window of one token, sliding over three
            "sliding": {"sequences": [[1, 5, 4, 2]], "context": 1,
                        "repeat": {"beta": [0.5, 2.0], "kinds": [[1, 0, 1]]}},
        },
        # one sequence of one character, trained on and held out
        "baselines": {"vocab": 6, "training": [[1, 5, 2]], "heldout": [[1, 5, 2]]},
        # one poem of one couplet, one reading (the Tang table's readings as
        # tests/data/tang_sample.tang.txt has them)
        "verse": {"poems": ["《晓》\n春眠不觉晓，处处闻啼鸟。"],
                  "pronunciations": {"春": "chun1", "眠": "mian2", "不": "bu4", "觉": "jue2",
                                     "晓": "xiao3", "处": "chu4", "闻": "wen2", "啼": "ti2",
                                     "鸟": "niao3"},
                  "tang": {"春": "真", "眠": "先", "不": "尤 有 物", "觉": "效 觉", "晓": "筱",
                           "处": "语 御", "闻": "文 问", "啼": "齐", "鸟": "筱"},
                  "readings": ["chun1"], "tang_readings": ["东"], "training_poems": 1},
        "corpus": {"source": "tests/data/tang_sample.txt", "heldout_every": 10, "validation_every": 10,
                   "validation_max": 300, "min_count": 1, "vocabulary": 3000},
        "model": shape,
        "training": {"steps": 2, "batch": 1, "context": 1, "peak_lr": 0.01, "warmup": 1,
                     "final_fraction": 0.1, "weight_decay": 0.0, "smoothing": 0.0, "seed": 1,
                     "validate_every": 1, "patience": 0},
        "sampling": {"temperatures": [1.0], "top_ps": [1.0], "choice_poems": 1, "poems": 1,
                     "max_new": 3, "seed": 1, "shown": 1, "prompts": [""]},
    }


def ch11_smallest():
    # one score; one query attending to one key of width 1, in blocks of one; two lengths only
    rng = SplitMix64(111)
    return {
        "online": {"tokens": ["a"], "query": "a", "scores": [0.5]},
        "cases": {"one": ch11.case(rng, 1, 1, 1, 1, [1, 1])},
        "trace": {"case": "one", "row": 0},
        "memory": {"lengths": [1, 2], "d_k": 1, "tile": 1, "seed": 1},
    }


def ch10_smallest():
    """One of everything; RoPE needs d_k = 2, the smallest even width."""
    i = ch10.ch10_inputs()
    c = dict(ch10.small_config(), d_model=2, n_heads=1, d_ff=1, n_encoder_layers=1, n_decoder_layers=1, src_vocab=4, tgt_vocab=4)
    run = dict(d_model=2, n_heads=1, d_ff=1, n_encoder_layers=1, n_decoder_layers=1, batch_size=1, max_steps=1, check_steps=1, heldout=1, min_length=1, max_length=1)
    i.update(
        {
            "norms": {"x": [[1.5]]},
            "rope": {"d_k": 2, "q": [0.5, -1.0], "k": [2.0, 0.25], "pairs": [[1, 0]], "positions": [0]},
            "frequencies": {"d_model": 2, "d_k": 2},
            "alibi": {"heads": [1], "n": 1},
            "gqa": {"d_model": 1, "n_heads": 1, "kv_heads": [1], "x": [[0.5]], "weights": ch10.gqa_weights(13, 1, 1)},
            "kv_bytes": {"models": [{"name": "one", "layers": 1, "n_heads": 1, "d_model": 1, "n_kv_heads": 1}], "bytes_per_number": [8]},
            "timing": {"d_model": 2, "n_heads": 1, "d_ff": 1, "layers": 1, "kv_heads": [1], "tokens": 1},
            "window": {"n": 1, "window": 1, "layers": [1]},
            "models": {
                "variants": [ch10_model("rope_rms", dict(c, norm="rms", positions="rope", n_kv_heads=1, window=1), 301)],
                "batch": [[[3, 2], [3, 2]]],
                "smoothing": 0.1,
            },
            "length_generalization": {
                "training": dict(i["length_generalization"]["training"], **run),
                "schemes": ["rope"],
                "seeds": [1],
                "test_lengths": [1],
                "per_length": 1,
                "test_seed": 77,
                "max_positions": 2,
            },
        }
    )
    return i


def ch07_smallest(tiny):
    i = ch07_inputs()
    c = dict(i["config"], **tiny)
    model = ch06_inputs(c, seed=71, source=[[0]], target=[[0]])
    run = dict(tiny, norm_first=True, batch_size=1, max_steps=1, check_steps=1, heldout=1)
    i.update(
        {
            "config": c,
            "weights": model["weights"],
            "gradient_batch": [[[3, 2], [3, 2]]],
            "adam": dict(i["adam"], d_model=1, steps=1, batch_size=1, warmup=1),
            "training": dict(i["training"], **run, min_length=1, max_length=1),
        }
    )
    i["numerals"] = dict(
        i["numerals"],
        check_numbers=[0],
        training=dict(i["numerals"]["training"], **run, max_digits=3),
    )
    return i


def ch08_smallest():
    return {
        "ns": [2],
        "ds": [1],
        "fixed_d": 1,
        "fixed_n": 2,
        "kernel": 2,
        "seed": 8,
        "memory_ns": [1],
        "min_seconds_per_point": 0.001,
    }


def ch09_smallest(tiny):
    c = dict(ch09_config(), **tiny)
    torch.manual_seed(91)
    model = Seq2Seq(c, norm_first=False)
    return {
        "config": c,
        "weights": weights_of(model),
        "sources": [[3, 2]],
        "max_length": 1,
        "kv_cache_padded": [1, 0],
        "beam": {"beam": 1, "alpha": 0.6},
        "beam_cutoff": {"sources": [[3, 2]], "max_lengths": [1]},
        "sampling": {
            "settings": [[1.0, 0]],
            "seed": 9,
            "samples": 1,
            "sample_settings": [[1.0, 0]],
        },
        "memory_lengths": [1],
        "timing_lengths": [2],
        "batch_sizes": [1],
        "stopping": {
            "numbers": [7],
            "training": dict(
                NUMERALS_TRAINING,
                **tiny,
                batch_size=1,
                max_steps=1,
                check_steps=1,
                heldout=1,
                max_digits=3
            ),
        },
        "training": {"task": "numerals", "steps": 0},
    }
