// multi_head_weights.h — the weights of one multi-head attention (chapter 4): what a layer
// holds, apart from the functions that compute with them (multi_head.h), so that a file that
// holds a model need not compile those.
//
// Shapes (x·W convention, names as in core/notation.h): W_Q, W_K (d_model x h·d_k), W_V
// (d_model x h·d_v), W_O (h·d_v x d_model); with grouped-query heads (heads.h) W_K is
// (d_model x n_kv·d_k) and W_V (d_model x n_kv·d_v). multi_head.h says how PyTorch stores them.
#pragma once
#include <cstddef>

#include "core/matrix.h"

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

// Grouped-query heads: n_kv key/value heads serve n_heads query heads when they divide them (the
// one rule, read by configs too).
inline bool kv_heads_fit(std::size_t n_heads, std::size_t n_kv) {
    return n_kv >= 1 && n_kv <= n_heads && n_heads % n_kv == 0;
}

// Throws std::invalid_argument naming the weight and the shape it should have.
void check_multi_head(const MultiHeadWeights& w);

std::size_t parameter_count(const MultiHeadWeights& w);
