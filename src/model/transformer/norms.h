// norms.h — normalising each position's vector ("Add & Norm"), with its backward pass below it,
// and BatchNorm beside it for comparison.
//
//   layer_norm    (x − mean) / √(var + eps) · gain + bias, over each row   (nn.LayerNorm)
//   rms_norm      x / √(mean(x²) + eps) · gain                             (chapter 10: LLaMA's)
//
// RMSNorm (Zhang & Sennrich 2019) drops the mean and the bias: it only rescales each row to a
// root mean square of 1, one pass over the row instead of two. A model chooses one kind
// (TransformerConfig::norm); every norm of the model is of that kind.
// A backward pass takes dL/d(output) and what its forward pass kept, adds the gain's and bias's
// gradients into `grad` and returns dL/d(input).
#pragma once
#include <vector>

#include "core/matrix.h"
#include "model/transformer/config.h"  // exports: NormKind, the kind a Norm is

struct Norm {
    Matrix gain;  // (1 x d_model), nn.LayerNorm's weight
    Matrix bias;  // (1 x d_model); empty for RMSNorm, which has none
    double eps = 1e-5;
    NormKind kind = NormKind::Layer;
};

struct NormCache {
    Matrix x_hat;                 // (n x d_model) the normalised rows, before gain and bias
    std::vector<double> inv_std;  // 1/√(var + eps) of each row (RMSNorm: 1/√(mean(x²) + eps))
};

// Each row normalised to mean 0 and variance 1, then scaled and shifted. As nn.LayerNorm: the
// biased variance (divide by d_model, not d_model − 1) and eps inside the square root.
Matrix layer_norm(const Matrix& x, const Norm& norm, NormCache* cache = nullptr);

Matrix layer_norm_backward(const Matrix& dy, const Norm& norm, const NormCache& cache, Norm& grad);

// Each row divided by its root mean square (eps inside the root), then scaled by the gain; as
// LLaMA's RMSNorm, written by hand in the oracle.
Matrix rms_norm(const Matrix& x, const Norm& norm, NormCache* cache = nullptr);

Matrix rms_norm_backward(const Matrix& dy, const Norm& norm, const NormCache& cache, Norm& grad);

// The norm of the kind norm.kind says: what the layers call.
Matrix normalize(const Matrix& x, const Norm& norm, NormCache* cache = nullptr);
Matrix normalize_backward(const Matrix& dy, const Norm& norm, const NormCache& cache, Norm& grad);

// For comparison only (chapter 6): what BatchNorm would do to the same rows — each column
// normalised over the rows of the batch (training mode: the batch's own mean and biased
// variance, eps inside the root), no gain or bias. The Transformer uses LayerNorm, above.
Matrix batch_norm(const Matrix& x, double eps = 1e-5);
