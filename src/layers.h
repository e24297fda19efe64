// layers.h — the small layers a Transformer is built from, besides attention.
//
//   linear        x·W + b                                   (nn.Linear, with W = weightᵀ)
//   relu          max(0, x)
//   layer_norm    (x − mean) / √(var + eps) · gain + bias, over each row   (nn.LayerNorm)
//   feed_forward  relu(x·W1 + b1)·W2 + b2, applied to every position alone (the paper's FFN)
#pragma once
#include <vector>

#include "matrix.h"

// (n x d_in)·(d_in x d_out) + (1 x d_out); b may be empty (0x0) for no bias.
Matrix linear(const Matrix& x, const Matrix& W, const Matrix& b);

Matrix relu(const Matrix& x);

struct LayerNorm {
    Matrix gain;  // (1 x d), nn.LayerNorm's weight
    Matrix bias;  // (1 x d)
    double eps = 1e-5;
};

// Each row normalised to mean 0 and variance 1, then scaled and shifted. As nn.LayerNorm: the
// biased variance (divide by d, not d − 1) and eps inside the square root.
Matrix layer_norm(const Matrix& x, const LayerNorm& norm);

// The same, keeping what the backward pass (layers_grad.h) needs.
struct LayerNormCache {
    Matrix x_hat;                 // (n x d) the normalised rows, before gain and bias
    std::vector<double> inv_std;  // 1/√(var + eps) of each row
};
Matrix layer_norm_forward(const Matrix& x, const LayerNorm& norm, LayerNormCache& cache);


struct FeedForward {
    Matrix W1, b1;  // (d_model x d_ff), (1 x d_ff)
    Matrix W2, b2;  // (d_ff x d_model), (1 x d_model)
};

Matrix feed_forward(const Matrix& x, const FeedForward& ffn);  // (n x d_model) -> (n x d_model)

struct FeedForwardCache {
    Matrix x;       // (n x d_model) input
    Matrix hidden;  // (n x d_ff) relu(x·W1 + b1); where it is 0, the ReLU blocked the gradient
};
Matrix feed_forward_forward(const Matrix& x, const FeedForward& ffn, FeedForwardCache& cache);

