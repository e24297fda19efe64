// attention_grad.h — backward passes of scaled dot-product and multi-head attention (chapter 7).
#pragma once
#include <vector>

#include "attention.h"
#include "multi_head.h"

struct AttentionGrads {
    Matrix dQ, dK, dV;
};

// The forward was weights = softmax(Q·Kᵀ·s + mask), output = weights·V (weights cached in
// the AttentionResult). Masked entries have weight 0 and pass no gradient.
AttentionGrads attention_backward(const Matrix& d_output, const Matrix& Q, const Matrix& K, const Matrix& V,
                                  const Matrix& weights, double scale_factor);

struct MultiHeadInputGrads {
    Matrix dx_q, dx_kv;  // for self-attention (x_q = x_kv) the caller adds the two
};

// Adds the weight gradients into grad (same shapes as w) and returns the inputs' gradients.
MultiHeadInputGrads multi_head_backward(const Matrix& d_output, const MultiHeadWeights& w, const MultiHeadCache& cache,
                                        MultiHeadWeights& grad);
