// attention.cpp — scaled dot-product attention in the paper's steps.
#include "attention.h"

#include <cmath>
#include <stdexcept>

AttentionResult attention_with_scale(const Matrix& Q, const Matrix& K, const Matrix& V,
                                     double scale_factor, const Matrix& mask) {
    if (Q.cols != K.cols)
        throw std::invalid_argument("attention: Q " + shape_of(Q) + " and K " + shape_of(K) +
                                    ": queries and keys must have the same width d_k");
    if (K.rows != V.rows)
        throw std::invalid_argument("attention: K " + shape_of(K) + " and V " + shape_of(V) +
                                    ": need one value per key");
    AttentionResult r;
    // (n x d_k)·(d_k x m) -> (n x m): score(i, j) = q_i · k_j, how well query i matches key j
    r.scores = scale(matmul(Q, transpose(K)), scale_factor);
    // masked positions get -inf, which the softmax turns into a weight of exactly 0
    if (mask.rows || mask.cols) r.scores = add(r.scores, mask);
    r.weights = softmax_rows(r.scores);
    // (n x m)·(m x d_v) -> (n x d_v): each output row is a weighted average of the value rows
    r.output = matmul(r.weights, V);
    return r;
}

AttentionResult attention(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask) {
    // 1/√d_k keeps the scores' variance near 1 whatever d_k is (chapter 2 measures why)
    return attention_with_scale(Q, K, V, 1.0 / std::sqrt(static_cast<double>(K.cols)), mask);
}
