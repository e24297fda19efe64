// attention.h — scaled dot-product attention, the formula every later chapter is built on,
// and its backward pass:
//
//     Attention(Q, K, V) = softmax(Q·Kᵀ / √d_k + mask) · V
//
// Q (n x d_k), K (m x d_k), V (m x d_v); names as in core/notation.h.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"

// 1/√d_k, the paper's scale — written here and nowhere else. The forward pass multiplies the
// scores by it and records the factor it used; the backward pass reads that record, so the two
// can never disagree (chapter 2 measures why the scale is there).
double attention_scale(std::size_t d_k);

// Everything a reader may want to look at, not only the output; also what backward needs.
struct AttentionResult {
    Matrix scores;       // (n x m)   Q·Kᵀ times the scale, plus the mask
    Matrix weights;      // (n x m)   softmax of each row of scores; a row sums to 1 (or is all 0
                         //           when every key of that row is masked)
    Matrix output;       // (n x d_v) weights·V: each query's weighted average of the values
    double scale = 1.0;  // the factor the scores were multiplied by
    // Tiled attention (chapter 11, tiled_attention.h) keeps no scores and no weights: they are
    // empty, and lse holds each query's log-sum-exp, from which the backward pass recomputes them.
    std::vector<double> lse = {};
};

// mask is additive (n x m: 0 keeps a key, −inf hides it) or empty (0x0) for no mask.
AttentionResult attention(const Matrix& Q, const Matrix& K, const Matrix& V,
                          const Matrix& mask = Matrix());

// The same with the scale chosen by the caller: 1.0 gives the unscaled softmax(Q·Kᵀ)·V of the
// tutorial's hand calculation.
AttentionResult attention_with_scale(const Matrix& Q, const Matrix& K, const Matrix& V,
                                     double scale_factor, const Matrix& mask = Matrix());

struct AttentionGrads {
    Matrix dQ, dK, dV;
};

// dL/dQ, dL/dK, dL/dV from dL/d(output) and the forward pass's result. Masked entries have
// weight 0 and pass no gradient.
AttentionGrads attention_backward(const Matrix& d_output, const Matrix& Q, const Matrix& K,
                                  const Matrix& V, const AttentionResult& forward);
