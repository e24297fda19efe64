// feed_forward.h — the position-wise feed-forward network of every Transformer layer, with its
// backward pass directly below it:
//
//   relu          max(0, x)
//   feed_forward  relu(x·W1 + b1)·W2 + b2, applied to every position alone (the paper's FFN)
//                 (x·W + b is linear(), model/multi_head/linear.h)
//
// A backward pass takes dL/d(output) and what its forward pass kept (a cache, filled when the
// forward is given one), adds the parameters' gradients into `grad` (they accumulate over a
// batch) and returns dL/d(input).
#pragma once
#include <vector>

#include "core/matrix.h"

Matrix relu(const Matrix& x);

struct FeedForward {
    Matrix W1, b1;  // (d_model x d_ff), (1 x d_ff)
    Matrix W2, b2;  // (d_ff x d_model), (1 x d_model)
};

struct FeedForwardCache {
    Matrix x;       // (n x d_model) input
    Matrix hidden;  // (n x d_ff) relu(x·W1 + b1); where it is 0, the ReLU blocked the gradient
};

// (n x d_model) -> (n x d_ff) -> (n x d_model): widen, keep the positive part, narrow again.
Matrix feed_forward(const Matrix& x, const FeedForward& ffn, FeedForwardCache* cache = nullptr);

Matrix feed_forward_backward(const Matrix& dy, const FeedForward& ffn,
                             const FeedForwardCache& cache, FeedForward& grad);
