// layers.h — the small layers a Transformer is built from besides attention, each with its
// backward pass directly below it:
//
//   linear        x·W + b                                   (nn.Linear, with W = weightᵀ)
//   relu          max(0, x)
//   layer_norm    (x − mean) / √(var + eps) · gain + bias, over each row   (nn.LayerNorm)
//   feed_forward  relu(x·W1 + b1)·W2 + b2, applied to every position alone (the paper's FFN)
//
// A backward pass takes dL/d(output) and what its forward pass kept (a cache, filled when the
// forward is given one), adds the parameters' gradients into `grad` (they accumulate over a
// batch) and returns dL/d(input).
#pragma once
#include <vector>

#include "core/matrix.h"

// (n x d_in)·(d_in x d_out) + (1 x d_out); b may be empty (0x0) for no bias.
Matrix linear(const Matrix& x, const Matrix& W, const Matrix& b);

// Adds xᵀ·dy into dW and the column sums of dy into db (unless db is empty); returns dy·Wᵀ.
Matrix linear_backward(const Matrix& dy, const Matrix& x, const Matrix& W, Matrix& dW, Matrix& db);

Matrix relu(const Matrix& x);

struct LayerNorm {
    Matrix gain;  // (1 x d_model), nn.LayerNorm's weight
    Matrix bias;  // (1 x d_model)
    double eps = 1e-5;
};

struct LayerNormCache {
    Matrix x_hat;                 // (n x d_model) the normalised rows, before gain and bias
    std::vector<double> inv_std;  // 1/√(var + eps) of each row
};

// Each row normalised to mean 0 and variance 1, then scaled and shifted. As nn.LayerNorm: the
// biased variance (divide by d_model, not d_model − 1) and eps inside the square root.
Matrix layer_norm(const Matrix& x, const LayerNorm& norm, LayerNormCache* cache = nullptr);

Matrix layer_norm_backward(const Matrix& dy, const LayerNorm& norm, const LayerNormCache& cache,
                           LayerNorm& grad);

// For comparison only (chapter 6): what BatchNorm would do to the same rows — each column
// normalised over the rows of the batch (training mode: the batch's own mean and biased
// variance, eps inside the root), no gain or bias. The Transformer uses LayerNorm, above.
Matrix batch_norm(const Matrix& x, double eps = 1e-5);

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
