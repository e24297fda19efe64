// multi_head.h — multi-head attention: h attentions side by side, concatenated, projected;
// and its backward pass.
//
//   MultiHead(x_q, x_kv) = Concat(head_1, …, head_h) · W_O + b_O
//   head_i = Attention(x_q·W_Q^i + b_Q^i, x_kv·W_K^i + b_K^i, x_kv·W_V^i + b_V^i)
//
// Shapes (x·W convention: a row vector times a matrix; names as in core/notation.h):
//   x_q (n x d_model) queries; x_kv (m x d_model) keys and values (x_kv = x_q: self-attention)
//   W_Q, W_K (d_model x h·d_k)   W_V (d_model x h·d_v)   W_O (h·d_v x d_model)
//   head i uses the column block i·d_k … (i+1)·d_k − 1 of W_Q and W_K, and block i of W_V:
//   the fused matrix is the per-head matrices side by side.
// PyTorch's nn.MultiheadAttention stores in_proj_weight (3·d_model x d_model) and applies it
// as x·Wᵀ: W_Q = in_proj_weight[0 : d_model]ᵀ, W_K the next d_model rows transposed, W_V the
// last; W_O = out_proj.weightᵀ. It requires d_k = d_v = d_model / h; we allow any d_k, d_v.
//
// Grouped-query attention (chapter 10; Ainslie et al. 2023): the keys and values may have fewer
// heads than the queries, n_kv dividing h. Query head i then reads key/value head i / (h / n_kv):
// W_K is (d_model x n_kv·d_k), W_V (d_model x n_kv·d_v), and the KV cache shrinks by h / n_kv.
// n_kv = h is multi-head attention, n_kv = 1 multi-query attention (Shazeer 2019).
//
// Positions may also act inside attention (chapter 10): RoPE rotates every head's queries and
// keys by their positions after the projection (model/2_positions/rotary.h); ALiBi adds to
// each head's scores a bias that grows with the distance (model/2_positions/alibi.h).
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "model/1_attention/attention.h"
#include "model/3_multi_head/stacking.h"

struct MultiHeadWeights {
    std::size_t n_heads = 1;
    Matrix W_Q, W_K, W_V, W_O;
    Matrix b_Q, b_K, b_V, b_O;   // (1 x columns of the matching W), or empty (0x0): no bias
    std::size_t n_kv_heads = 0;  // heads of W_K and W_V; 0: n_heads
    std::size_t kv_heads() const { return n_kv_heads ? n_kv_heads : n_heads; }
    std::size_t d_k() const { return W_Q.cols / n_heads; }
    std::size_t d_v() const { return W_V.cols / kv_heads(); }
    std::size_t d_model() const { return W_Q.rows; }
};

// Throws std::invalid_argument naming the weight and the shape it should have.
void check_multi_head(const MultiHeadWeights& w);

// How positions act inside attention: not at all (added to the embeddings before, or none),
// by rotating queries and keys (RoPE), or by a bias on the scores (ALiBi).
enum class InAttention { None, Rope, Alibi };

// Who attends to whom when the queries and the keys are stacks of sequences (stacking.h): the
// queries of sequence s (its rows of x_q) see only the keys of sequence s (its rows of x_kv),
// through masks[s] — additive, (q.length(s) x kv.length(s)), or empty for none.
// For RoPE and ALiBi, the keys of a sequence are at positions 0, 1, … and its queries at
// q_first, q_first + 1, …: 0 for whole sequences; decoding one token at a time, the number of
// tokens before it.
// With tile > 0, each head attends block by block (model/1_attention/tiled_attention.h, chapter
// 11): blocks of `tile` queries and `tile` keys, the same numbers to rounding, no weights kept.
struct Attending {
    Stacking q, kv;
    std::vector<Matrix> masks;
    InAttention positions = InAttention::None;
    std::size_t q_first = 0;
    std::size_t tile = 0;
};

// One sequence of n queries and m keys, with an additive (n x m) mask or none.
Attending within_one(std::size_t n, std::size_t m, const Matrix& mask = Matrix());

// What the forward pass computed on the way: for a reader (each head's weights) and for the
// backward pass.
struct MultiHeadCache {
    Matrix x_q, x_kv;                    // the inputs
    Matrix Q, K, V;                      // (n x h·d_k), (m x h·d_k), (m x h·d_v): all heads
    std::vector<AttentionResult> heads;  // head i of sequence s at [s·h + i]: weights (n_s x m_s)
    Matrix concat;                       // (n x h·d_v): the heads' outputs side by side
    Attending who;
    std::vector<std::size_t> q_positions, k_positions;  // RoPE: the rows' positions
};

// The fused form: one matmul per projection for all heads, then the product is split into
// column blocks, one per head (what nn.MultiheadAttention and the tutorial's code do).
// mask: additive (n x m), applied in every head, or empty. Returns (n x d_model).
Matrix multi_head_attention(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
                            const Matrix& mask = Matrix(), MultiHeadCache* cache = nullptr);

// Keys and values kept from one call to the next: the KV cache of chapter 9, which decodes one
// token at a time. A call with kept appends the keys and values of x_kv's rows to it and
// attends over every row kept so far — the same numbers, row for row, as one call on all of
// x_kv at once. A fixed one (the memory's keys and values in cross-attention, computed once)
// is only read: x_kv is then not used.
struct KeptKV {
    Matrix K, V;         // (m x n_kv·d_k), (m x n_kv·d_v): every key and value so far (RoPE:
                         // the keys rotated by their positions, 0 … m − 1)
    bool fixed = false;  // true: computed once, never grown
};

// x_kv's keys and values, all heads side by side: x_kv·W_K + b_K, x_kv·W_V + b_V (before any
// rotation by position).
KeptKV keys_values(const Matrix& x_kv, const MultiHeadWeights& w);

// The same over stacks of sequences: the projections run on every row at once, attention on
// each sequence's rows alone. With kept, the keys and values are kept's (see KeptKV) and who.kv
// describes them.
Matrix multi_head_attention(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
                            const Attending& who, MultiHeadCache* cache = nullptr,
                            KeptKV* kept = nullptr);

// The heads' part of the fused form, on queries, keys and values already projected (all heads
// side by side; K and V may have fewer heads, see grouped-query attention above): each
// sequence's queries attend to its own keys, head by head, with ALiBi's bias when who says so.
// -> concat (n x h·d_v); each head's result goes into heads when given.
Matrix attend_heads(const Matrix& Q, const Matrix& K, const Matrix& V, std::size_t n_heads,
                    const Attending& who, std::vector<AttentionResult>* heads = nullptr);

struct MultiHeadInputGrads {
    Matrix dx_q, dx_kv;  // for self-attention (x_q = x_kv) the caller adds the two
};

// Adds the weights' gradients into grad (same shapes as w); returns the inputs' gradients.
MultiHeadInputGrads multi_head_attention_backward(const Matrix& d_output, const MultiHeadWeights& w,
                                                  const MultiHeadCache& cache,
                                                  MultiHeadWeights& grad);

// The per-head reading of the formula: each head projects with its own W_Q^i, W_K^i, W_V^i.
// The same numbers as the fused form (chapter 4 checks it); fills the cache's heads and concat.
Matrix multi_head_attention_per_head(const Matrix& x_q, const Matrix& x_kv,
                                     const MultiHeadWeights& w, const Matrix& mask = Matrix(),
                                     MultiHeadCache* cache = nullptr);

std::size_t parameter_count(const MultiHeadWeights& w);
