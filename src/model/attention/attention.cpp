// attention.cpp — scaled dot-product attention in the paper's steps, and undone.
#include "model/attention/attention.h"

#include <cmath>
#include <stdexcept>

#include "core/matmul.h"

double attention_scale(std::size_t d_k) { return 1.0 / std::sqrt(static_cast<double>(d_k)); }

AttentionResult attention(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask) {
    return attention_with_scale(Q, K, V, attention_scale(K.cols), mask);
}

AttentionResult attention_with_scale(const Matrix& Q, const Matrix& K, const Matrix& V,
                                     double scale_factor, const Matrix& mask) {
    if (Q.cols != K.cols)
        throw std::invalid_argument("attention: Q " + shape_of(Q) + " and K " + shape_of(K) +
                                    ": queries and keys must have the same width d_k");
    if (K.rows != V.rows)
        throw std::invalid_argument("attention: K " + shape_of(K) + " and V " + shape_of(V) +
                                    ": need one value per key");
    AttentionResult r;
    r.scale = scale_factor;
    // (n x d_k)·(m x d_k)ᵀ -> (n x m): score(i, j) = q_i · k_j, how well query i matches key j
    r.scores = matmul_bt(Q, K);
    for (double& s : r.scores.data) s *= scale_factor;
    // masked positions get −inf, which the softmax turns into a weight of exactly 0
    if (!mask.empty()) add_to(r.scores, mask);
    r.weights = softmax_rows(r.scores);
    // (n x m)·(m x d_v) -> (n x d_v): each output row is a weighted average of the value rows
    r.output = matmul(r.weights, V);
    return r;
}

AttentionGrads attention_backward(const Matrix& d_output, const Matrix& Q, const Matrix& K,
                                  const Matrix& V, const AttentionResult& forward) {
    const Matrix& P = forward.weights;
    const double s = forward.scale;
    AttentionGrads g;
    g.dV = matmul_at(P, d_output);                   // output = P·V       -> dV = Pᵀ·dO
    const Matrix dP = matmul_bt(d_output, V);        //                    -> dP = dO·Vᵀ
    const Matrix dS = softmax_rows_backward(dP, P);  // P = softmax(S)
    g.dQ = scale(matmul(dS, K), s);                  // S = Q·Kᵀ·s + mask  -> dQ = dS·K·s
    g.dK = scale(matmul_at(dS, Q), s);               //                    -> dK = dSᵀ·Q·s
    return g;
}
