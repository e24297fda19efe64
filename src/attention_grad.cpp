// attention_grad.cpp — attention and multi-head attention, forward with cache and backward.
#include "attention_grad.h"

#include <cmath>

#include "layers.h"
#include "layers_grad.h"

AttentionGrads attention_backward(const Matrix& d_output, const Matrix& Q, const Matrix& K, const Matrix& V,
                                  const Matrix& weights, double scale_factor) {
    AttentionGrads g;
    g.dV = matmul_at(weights, d_output);                   // output = P·V     -> dV = Pᵀ·dO
    const Matrix dP = matmul_bt(d_output, V);               //                  -> dP = dO·Vᵀ
    const Matrix dS = softmax_rows_backward(dP, weights);   // P = softmax(S)
    g.dQ = scale(matmul(dS, K), scale_factor);              // S = Q·Kᵀ·s + M  -> dQ = dS·K·s
    g.dK = scale(matmul_at(dS, Q), scale_factor);           //                  -> dK = dSᵀ·Q·s
    return g;
}

// Writes block into the columns first.. of m.
static void set_columns(Matrix& m, std::size_t first, const Matrix& block) {
    for (std::size_t r = 0; r < block.rows; ++r)
        for (std::size_t c = 0; c < block.cols; ++c) m(r, first + c) = block(r, c);
}

MultiHeadInputGrads multi_head_backward(const Matrix& d_output, const MultiHeadWeights& w, const MultiHeadCache& c,
                                        MultiHeadWeights& grad) {
    const std::size_t d_k = w.d_k(), d_v = w.d_v();
    const double s = 1.0 / std::sqrt(static_cast<double>(d_k));
    // output = concat·W_O + b_O
    const Matrix d_concat = linear_backward(d_output, c.concat, w.W_O, grad.W_O, grad.b_O);
    // each head, from its block of columns
    Matrix dQ(c.Q.rows, c.Q.cols), dK(c.K.rows, c.K.cols), dV(c.V.rows, c.V.cols);
    for (std::size_t i = 0; i < w.n_heads; ++i) {
        const AttentionGrads g = attention_backward(column_block(d_concat, i * d_v, d_v), column_block(c.Q, i * d_k, d_k),
                                                    column_block(c.K, i * d_k, d_k), column_block(c.V, i * d_v, d_v),
                                                    c.weights[i], s);
        set_columns(dQ, i * d_k, g.dQ);
        set_columns(dK, i * d_k, g.dK);
        set_columns(dV, i * d_v, g.dV);
    }
    // Q = x_q·W_Q + b_Q;  K = x_kv·W_K + b_K;  V = x_kv·W_V + b_V
    MultiHeadInputGrads in;
    in.dx_q = linear_backward(dQ, c.x_q, w.W_Q, grad.W_Q, grad.b_Q);
    in.dx_kv = linear_backward(dK, c.x_kv, w.W_K, grad.W_K, grad.b_K);
    add_to(in.dx_kv, linear_backward(dV, c.x_kv, w.W_V, grad.W_V, grad.b_V));
    return in;
}
