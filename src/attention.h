// attention.h — scaled dot-product attention, the formula every later chapter is built on:
//
//     Attention(Q, K, V) = softmax(Q·Kᵀ / √d_k + mask) · V
//
// Dimension names used throughout the book:
//   n    number of queries (rows of Q)          m    number of keys and values (rows of K, V)
//   d_k  width of a query and of a key          d_v  width of a value
#pragma once
#include "matrix.h"

// Everything a reader may want to look at, not only the output.
struct AttentionResult {
    Matrix scores;   // (n x m)   Q·Kᵀ times the scale, plus the mask
    Matrix weights;  // (n x m)   softmax of each row of scores; a row sums to 1 (or is all 0
                     //           when every key of that row is masked)
    Matrix output;   // (n x d_v) weights·V: each query's weighted average of the values
};

// Q (n x d_k), K (m x d_k), V (m x d_v); mask is additive (n x m: 0 keeps a key, -inf hides
// it) or empty (0x0) for no mask. Scale is 1/√d_k, as in the paper.
AttentionResult attention(const Matrix& Q, const Matrix& K, const Matrix& V,
                          const Matrix& mask = Matrix());

// The same with the scale chosen by the caller: 1.0 gives the unscaled softmax(Q·Kᵀ)·V that
// the tutorial's hand calculation uses.
AttentionResult attention_with_scale(const Matrix& Q, const Matrix& K, const Matrix& V,
                                     double scale_factor, const Matrix& mask = Matrix());
