// norms.h — normalising each position's vector ("Add & Norm"), with its backward pass below it,
// and BatchNorm beside it for comparison.
//
//   layer_norm    (x − mean) / √(var + eps) · gain + bias, over each row   (nn.LayerNorm)
//
// A backward pass takes dL/d(output) and what its forward pass kept, adds the gain's and bias's
// gradients into `grad` and returns dL/d(input).
#pragma once
#include <vector>

#include "core/matrix.h"

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
