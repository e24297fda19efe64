"""Other data files of the same schemas, with other sizes and values (tests/data/).
"""
from ch01_dictionary_lookup import ch01_inputs
from ch02_self_attention import ch02_inputs
from ch05_positional_encoding import ch05_inputs
from ch06_encoder_decoder import ch06_config, ch06_inputs
from common import SplitMix64


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
    ]
