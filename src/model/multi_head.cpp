// multi_head.cpp — the fused and the per-head form of multi-head attention, and the backward
// pass of the fused form.
#include "model/multi_head.h"

#include <stdexcept>
#include <string>

#include "model/layers.h"

static void require(bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument(what);
}

static std::string split_problem(const char* name, const Matrix& W, std::size_t h) {
    return std::string(name) + ": " + std::to_string(W.cols) + " columns cannot be split into " +
           std::to_string(h) + " heads";
}

void check_multi_head(const MultiHeadWeights& w) {
    const std::size_t d = w.W_Q.rows, h = w.n_heads;
    require(h >= 1, "n_heads: expected at least 1");
    require(w.W_Q.cols % h == 0, split_problem("W_Q", w.W_Q, h));
    require(w.W_V.cols % h == 0, split_problem("W_V", w.W_V, h));
    require(
        w.W_K.rows == d && w.W_K.cols == w.W_Q.cols,
        "W_K: expected " + shape_of(Matrix(d, w.W_Q.cols)) + " like W_Q, got " + shape_of(w.W_K));
    require(w.W_V.rows == d,
            "W_V: expected " + std::to_string(d) + " rows (d_model), got " + shape_of(w.W_V));
    require(w.W_O.rows == w.W_V.cols && w.W_O.cols == d,
            "W_O: expected " + shape_of(Matrix(w.W_V.cols, d)) + " (h·d_v x d_model), got " +
                shape_of(w.W_O));
    const Matrix* biases[] = {&w.b_Q, &w.b_K, &w.b_V, &w.b_O};
    const Matrix* weights[] = {&w.W_Q, &w.W_K, &w.W_V, &w.W_O};
    const char* names[] = {"b_Q", "b_K", "b_V", "b_O"};
    for (int i = 0; i < 4; ++i)
        require(
            biases[i]->empty() || (biases[i]->rows == 1 && biases[i]->cols == weights[i]->cols),
            std::string(names[i]) + ": expected " + std::to_string(weights[i]->cols) + " values");
}

static void check_inputs(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
                         const Matrix& mask) {
    check_multi_head(w);
    require(x_q.cols == w.d_model() && x_kv.cols == w.d_model(),
            "multi-head attention: inputs " + shape_of(x_q) + " and " + shape_of(x_kv) +
                " need d_model = " + std::to_string(w.d_model()) + " columns");
    require(mask.empty() || (mask.rows == x_q.rows && mask.cols == x_kv.rows),
            "mask: expected " + shape_of(Matrix(x_q.rows, x_kv.rows)) + " (queries x keys), got " +
                shape_of(mask));
}

Matrix multi_head_attention(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
                            const Matrix& mask, MultiHeadCache* cache) {
    check_inputs(x_q, x_kv, w, mask);
    const std::size_t d_k = w.d_k(), d_v = w.d_v();
    MultiHeadCache local;
    MultiHeadCache& c = cache ? *cache : local;
    c.x_q = x_q;
    c.x_kv = x_kv;
    // one projection for all heads: (n x d_model)·(d_model x h·d_k) -> (n x h·d_k)
    c.Q = linear(x_q, w.W_Q, w.b_Q);
    c.K = linear(x_kv, w.W_K, w.b_K);
    c.V = linear(x_kv, w.W_V, w.b_V);
    c.heads.clear();
    std::vector<Matrix> outputs;
    for (std::size_t i = 0; i < w.n_heads; ++i) {
        // head i reads its own block of columns: PyTorch's view(n, h, d_k).transpose(0, 1)
        c.heads.push_back(attention(column_block(c.Q, i * d_k, d_k),
                                    column_block(c.K, i * d_k, d_k),
                                    column_block(c.V, i * d_v, d_v), mask));
        outputs.push_back(c.heads.back().output);
    }
    c.concat = concat_columns(outputs);      // (n x h·d_v)
    return linear(c.concat, w.W_O, w.b_O);  // (n x d_model)
}

MultiHeadInputGrads multi_head_attention_backward(const Matrix& d_output, const MultiHeadWeights& w,
                                                  const MultiHeadCache& c, MultiHeadWeights& grad) {
    const std::size_t d_k = w.d_k(), d_v = w.d_v();
    // output = concat·W_O + b_O
    const Matrix d_concat = linear_backward(d_output, c.concat, w.W_O, grad.W_O, grad.b_O);
    // concat = [head_0 … head_h−1]; head_i = attention(its column blocks of Q, K, V)
    Matrix dQ(c.Q.rows, c.Q.cols), dK(c.K.rows, c.K.cols), dV(c.V.rows, c.V.cols);
    for (std::size_t i = 0; i < w.n_heads; ++i) {
        const AttentionGrads g = attention_backward(
            column_block(d_concat, i * d_v, d_v), column_block(c.Q, i * d_k, d_k),
            column_block(c.K, i * d_k, d_k), column_block(c.V, i * d_v, d_v), c.heads[i]);
        set_column_block(dQ, i * d_k, g.dQ);
        set_column_block(dK, i * d_k, g.dK);
        set_column_block(dV, i * d_v, g.dV);
    }
    // Q = x_q·W_Q + b_Q;  K = x_kv·W_K + b_K;  V = x_kv·W_V + b_V
    MultiHeadInputGrads in;
    in.dx_q = linear_backward(dQ, c.x_q, w.W_Q, grad.W_Q, grad.b_Q);
    in.dx_kv = linear_backward(dK, c.x_kv, w.W_K, grad.W_K, grad.b_K);
    add_to(in.dx_kv, linear_backward(dV, c.x_kv, w.W_V, grad.W_V, grad.b_V));
    return in;
}

// Head i's slice of a bias row, or an empty matrix when there is no bias.
static Matrix bias_block(const Matrix& b, std::size_t first, std::size_t count) {
    return b.empty() ? Matrix() : column_block(b, first, count);
}

Matrix multi_head_attention_per_head(const Matrix& x_q, const Matrix& x_kv,
                                     const MultiHeadWeights& w, const Matrix& mask,
                                     MultiHeadCache* cache) {
    check_inputs(x_q, x_kv, w, mask);
    const std::size_t d_k = w.d_k(), d_v = w.d_v();
    MultiHeadCache local;
    MultiHeadCache& c = cache ? *cache : local;
    c.heads.clear();
    std::vector<Matrix> outputs;
    for (std::size_t i = 0; i < w.n_heads; ++i) {
        // W_Q^i (d_model x d_k): x_q·W_Q^i is head i's own projection
        const Matrix Q_i =
            linear(x_q, column_block(w.W_Q, i * d_k, d_k), bias_block(w.b_Q, i * d_k, d_k));
        const Matrix K_i =
            linear(x_kv, column_block(w.W_K, i * d_k, d_k), bias_block(w.b_K, i * d_k, d_k));
        const Matrix V_i =
            linear(x_kv, column_block(w.W_V, i * d_v, d_v), bias_block(w.b_V, i * d_v, d_v));
        c.heads.push_back(attention(Q_i, K_i, V_i, mask));
        outputs.push_back(c.heads.back().output);
    }
    c.concat = concat_columns(outputs);
    return linear(c.concat, w.W_O, w.b_O);
}

std::size_t parameter_count(const MultiHeadWeights& w) {
    std::size_t n = 0;
    for (const Matrix* m : {&w.W_Q, &w.W_K, &w.W_V, &w.W_O, &w.b_Q, &w.b_K, &w.b_V, &w.b_O})
        n += m->data.size();
    return n;
}
