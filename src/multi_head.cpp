// multi_head.cpp — the fused and the per-head form of multi-head attention.
#include "multi_head.h"

#include <stdexcept>
#include <string>

#include "attention.h"
#include "layers.h"

static void require(bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument(what);
}

void check_shapes(const MultiHeadWeights& w) {
    const std::size_t d = w.W_Q.rows, h = w.n_heads;
    require(h >= 1, "n_heads: expected at least 1");
    require(w.W_Q.cols % h == 0, "W_Q: " + std::to_string(w.W_Q.cols) + " columns cannot be split into " +
                                     std::to_string(h) + " heads");
    require(w.W_V.cols % h == 0, "W_V: " + std::to_string(w.W_V.cols) + " columns cannot be split into " +
                                     std::to_string(h) + " heads");
    const std::string dd = std::to_string(d);
    require(w.W_K.rows == d && w.W_K.cols == w.W_Q.cols, "W_K: expected " + shape_of(Matrix(d, w.W_Q.cols)) + " like W_Q, got " + shape_of(w.W_K));
    require(w.W_V.rows == d, "W_V: expected " + dd + " rows (d_model), got " + shape_of(w.W_V));
    require(w.W_O.rows == w.W_V.cols && w.W_O.cols == d,
            "W_O: expected " + shape_of(Matrix(w.W_V.cols, d)) + " (h·d_v x d_model), got " + shape_of(w.W_O));
    auto bias_ok = [](const Matrix& b, const Matrix& W) { return b.data.empty() || (b.rows == 1 && b.cols == W.cols); };
    require(bias_ok(w.b_Q, w.W_Q), "b_Q: expected " + std::to_string(w.W_Q.cols) + " values");
    require(bias_ok(w.b_K, w.W_K), "b_K: expected " + std::to_string(w.W_K.cols) + " values");
    require(bias_ok(w.b_V, w.W_V), "b_V: expected " + std::to_string(w.W_V.cols) + " values");
    require(bias_ok(w.b_O, w.W_O), "b_O: expected " + std::to_string(w.W_O.cols) + " values");
}

// Head i's slice of a bias row, or an empty matrix when there is no bias.
static Matrix bias_block(const Matrix& b, std::size_t first, std::size_t count) {
    return b.data.empty() ? Matrix() : column_block(b, first, count);
}

static void check_inputs(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w, const Matrix& mask) {
    check_shapes(w);
    require(x_q.cols == w.d_model() && x_kv.cols == w.d_model(),
            "multi-head attention: inputs " + shape_of(x_q) + " and " + shape_of(x_kv) + " need d_model = " +
                std::to_string(w.d_model()) + " columns");
    require(mask.data.empty() || (mask.rows == x_q.rows && mask.cols == x_kv.rows),
            "mask: expected " + shape_of(Matrix(x_q.rows, x_kv.rows)) + " (queries x keys), got " + shape_of(mask));
}

Matrix multi_head_forward(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w, const Matrix& mask,
                          MultiHeadCache& cache) {
    check_inputs(x_q, x_kv, w, mask);
    const std::size_t d_k = w.d_k(), d_v = w.d_v();
    cache.x_q = x_q;
    cache.x_kv = x_kv;
    // one projection for all heads: (n x d_model)·(d_model x h·d_k) -> (n x h·d_k)
    cache.Q = linear(x_q, w.W_Q, w.b_Q);
    cache.K = linear(x_kv, w.W_K, w.b_K);
    cache.V = linear(x_kv, w.W_V, w.b_V);
    cache.weights.clear();
    std::vector<Matrix> heads;
    for (std::size_t i = 0; i < w.n_heads; ++i) {
        // head i reads its own block of columns: PyTorch's view(n, h, d_k).transpose(0, 1)
        const AttentionResult a = attention(column_block(cache.Q, i * d_k, d_k), column_block(cache.K, i * d_k, d_k),
                                            column_block(cache.V, i * d_v, d_v), mask);
        cache.weights.push_back(a.weights);
        heads.push_back(a.output);
    }
    cache.concat = concat_columns(heads);       // (n x h·d_v)
    return linear(cache.concat, w.W_O, w.b_O);  // (n x d_model)
}

MultiHeadResult multi_head_attention(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
                                     const Matrix& mask) {
    MultiHeadCache cache;
    MultiHeadResult r;
    r.output = multi_head_forward(x_q, x_kv, w, mask, cache);
    r.head_weights = cache.weights;
    r.concat = cache.concat;
    for (std::size_t i = 0; i < w.n_heads; ++i) r.head_outputs.push_back(column_block(cache.concat, i * w.d_v(), w.d_v()));
    return r;
}

MultiHeadResult multi_head_attention_per_head(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
                                              const Matrix& mask) {
    check_inputs(x_q, x_kv, w, mask);
    const std::size_t d_k = w.d_k(), d_v = w.d_v();
    MultiHeadResult r;
    for (std::size_t i = 0; i < w.n_heads; ++i) {
        // W_Q^i (d_model x d_k): x_q·W_Q^i is head i's own projection
        const Matrix Q_i = linear(x_q, column_block(w.W_Q, i * d_k, d_k), bias_block(w.b_Q, i * d_k, d_k));
        const Matrix K_i = linear(x_kv, column_block(w.W_K, i * d_k, d_k), bias_block(w.b_K, i * d_k, d_k));
        const Matrix V_i = linear(x_kv, column_block(w.W_V, i * d_v, d_v), bias_block(w.b_V, i * d_v, d_v));
        const AttentionResult a = attention(Q_i, K_i, V_i, mask);
        r.head_weights.push_back(a.weights);
        r.head_outputs.push_back(a.output);
    }
    r.concat = concat_columns(r.head_outputs);
    r.output = linear(r.concat, w.W_O, w.b_O);
    return r;
}

std::size_t parameter_count(const MultiHeadWeights& w) {
    std::size_t n = 0;
    for (const Matrix* m : {&w.W_Q, &w.W_K, &w.W_V, &w.W_O, &w.b_Q, &w.b_K, &w.b_V, &w.b_O}) n += m->data.size();
    return n;
}
