// tiled_attention.h — attention computed block by block, so that the n × m matrices of scores
// and weights never exist (chapter 11; Dao et al. 2022, FlashAttention), and its backward pass
// by recomputation.
//
// The queries are cut into blocks of `tiles.queries` rows and the keys into blocks of
// `tiles.keys`. For one block of queries, the key blocks are read one after another; each row
// keeps the online softmax's running maximum m and sum l (online_softmax.h) and an accumulator
// of its output, acc = Σ exp(s_j − m)·v_j. When a block raises a row's maximum, the sum and the
// accumulator are scaled down by exp(m − m') before the block's own terms are added, exactly as
// the one-pass softmax does for a single score. At the end, output = acc / l: the same weighted
// average of the values as attention.h computes, in a different order of additions.
//
// What is kept: the output (n x d_v) and, per query, the log-sum-exp L = m + log l of its
// scores. The backward pass needs the weights P = softmax(S); it recomputes them block by block
// from S and L (P_ij = exp(S_ij − L_i)), which costs the forward's multiplications once more
// and saves the n × m memory — the trade FlashAttention makes.
//
// Shapes as in attention.h: Q (n x d_k), K (m x d_k), V (m x d_v).
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "model/attention/online_softmax.h"

struct AttentionGrads;  // attention.h

struct Tiles {
    std::size_t queries = 64, keys = 64;  // rows of a query block, of a key block
};

// Which keys a query may see, stated without an n × m matrix: a causal rule (query i sees keys
// j ≤ i), padded keys (true = hidden), and, when given, an additive mask (n x m: 0 or −inf).
struct KeyRule {
    bool causal = false;
    std::vector<bool> padding = {};  // empty, or one entry per key
    Matrix mask = {};                // empty: none
};

struct TiledAttention {
    Matrix output;                // (n x d_v)
    std::vector<double> lse;      // per query, log Σ_j exp(S_ij): −inf when every key is hidden
    double scale = 1.0;           // the factor the scores were multiplied by
    std::size_t blocks_done = 0;  // (query block, key block) pairs computed
    std::size_t blocks_skipped = 0;  // pairs skipped: every key hidden (above the causal
                                     // diagonal, or all padding)
};

// The running numbers of one query row after each key block (for chapter 11's picture).
struct RowTrace {
    std::size_t row = 0;
    std::vector<RunningSum> after_block;  // one entry per key block, skipped ones included
};

// softmax(Q·Kᵀ·scale + hidden) · V, block by block; scale 1/√d_k (attention_scale).
TiledAttention tiled_attention(const Matrix& Q, const Matrix& K, const Matrix& V,
                               const KeyRule& rule = {}, Tiles tiles = {},
                               RowTrace* trace = nullptr);

// dQ, dK, dV from dL/d(output), block by block, recomputing the weights from the saved
// log-sum-exp; no n × m matrix either.
AttentionGrads tiled_attention_backward(const Matrix& d_output, const Matrix& Q, const Matrix& K,
                                        const Matrix& V, const TiledAttention& forward,
                                        const KeyRule& rule = {}, Tiles tiles = {});
