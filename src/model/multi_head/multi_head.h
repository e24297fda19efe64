// multi_head.h — multi-head attention (chapter 4): h attentions side by side, concatenated,
// projected; and its backward pass.
//
//   MultiHead(x_q, x_kv) = Concat(head_1, …, head_h) · W_O + b_O
//   head_i = Attention(x_q·W_Q^i + b_Q^i, x_kv·W_K^i + b_K^i, x_kv·W_V^i + b_V^i)
//
// Shapes (x·W convention: a row vector times a matrix; names as in core/notation.h):
//   x_q (n x d_model) queries; x_kv (m x d_model) keys and values (x_kv = x_q: self-attention)
//   W_Q, W_K (d_model x h·d_k)   W_V (d_model x h·d_v)   W_O (h·d_v x d_model)
//   head i uses the column block i·d_k … (i+1)·d_k − 1 of W_Q and W_K, and block i of W_V:
//   the fused matrix is the per-head matrices side by side. With grouped-query heads (heads.h)
//   W_K is (d_model x n_kv·d_k) and W_V (d_model x n_kv·d_v).
// PyTorch's nn.MultiheadAttention stores in_proj_weight (3·d_model x d_model) and applies it
// as x·Wᵀ: W_Q = in_proj_weight[0 : d_model]ᵀ, W_K the next d_model rows transposed, W_V the
// last; W_O = out_proj.weightᵀ. It requires d_k = d_v = d_model / h; we allow any d_k, d_v.
//
// The heads themselves — each head's attention, which key/value head it reads — are the head
// loop of heads.h, written once. This file adds what is around it: the projections, RoPE's
// rotations of queries and keys, keys and values kept from one call to the next (the KV cache,
// attending.h), stacks of sequences, and the backward pass.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "model/multi_head/attending.h"  // exports: the calls take who attends to whom
#include "model/multi_head/multi_head_weights.h"  // exports: the calls take the weights

struct AttentionResult;  // model/attention/attention.h: what a reader of a head's weights includes

// What the forward pass computed on the way: for a reader (each head's weights) and for the
// backward pass.
// Its members' types are complete in multi_head.cpp, which defines its constructors, so a file
// that holds one need not include attention.h (one that reads heads[i] does).
struct MultiHeadCache {
    MultiHeadCache();
    MultiHeadCache(const MultiHeadCache&);
    MultiHeadCache(MultiHeadCache&&) noexcept;
    MultiHeadCache& operator=(const MultiHeadCache&);
    MultiHeadCache& operator=(MultiHeadCache&&) noexcept;
    ~MultiHeadCache();
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

// The same over stacks of sequences (attending.h): the projections run on every row at once,
// attention on each sequence's rows alone. With kept (decoding, one new row): the keys and values
// are kept's (see KeptKV), grown by x_kv's row, and who.kv describes them — one step of the
// batch below.
Matrix multi_head_attention(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
                            const Attending& who, MultiHeadCache* cache = nullptr,
                            KeptKV* kept = nullptr);

// Decoding several sequences at once, as an inference server batches its requests: row b of x
// is sequence b's newest token, which attends over its own keys and values, kept[b] (grown by
// its row, unless fixed: a memory's, for cross-attention), under who[b] (its mask over them, its
// position q_first). The projections run on every row at once — each weight read once for all
// the sequences — the attention on each sequence alone. Row b is, bit for bit, what the step of
// sequence b alone gives (each output element is the same sum in the same order).
Matrix multi_head_attention_steps(const Matrix& x, const MultiHeadWeights& w,
                                  const std::vector<KeptKV*>& kept,
                                  const std::vector<Attending>& who);

struct MultiHeadInputGrads {
    Matrix dx_q, dx_kv;  // for self-attention (x_q = x_kv) the caller adds the two
};

// Adds the weights' gradients into grad (same shapes as w); returns the inputs' gradients.
MultiHeadInputGrads multi_head_attention_backward(const Matrix& d_output, const MultiHeadWeights& w,
                                                  const MultiHeadCache& cache,
                                                  MultiHeadWeights& grad);

// The per-head reading of the formula: each head projects with its own W_Q^i, W_K^i, W_V^i (its
// block of columns), and the head loop reads the heads' projections side by side. The same
// numbers as the fused form, whose one product per projection is those blocks side by side
// (chapter 4 checks it); fills the cache's heads and concat.
Matrix multi_head_attention_per_head(const Matrix& x_q, const Matrix& x_kv,
                                     const MultiHeadWeights& w, const Matrix& mask = Matrix(),
                                     MultiHeadCache* cache = nullptr);


// x_kv's keys and values, all heads side by side: x_kv·W_K + b_K, x_kv·W_V + b_V (before any
// rotation by position).
KeptKV keys_values(const Matrix& x_kv, const MultiHeadWeights& w);
