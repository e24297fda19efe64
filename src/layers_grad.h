// layers_grad.h — backward passes of the layers in layers.h (chapter 7).
//
// Each *_backward takes dL/d(output) and the cache its *_forward (layers.h) filled, adds the
// parameter gradients into `grad` (they accumulate over a batch) and returns dL/d(input).
#pragma once
#include <vector>

#include "layers.h"

// dL/dx of y = x·W + b; adds xᵀ·dy to dW and the column sums of dy to db (if db is not empty).
Matrix linear_backward(const Matrix& dy, const Matrix& x, const Matrix& W, Matrix& dW, Matrix& db);

Matrix layer_norm_backward(const Matrix& dy, const LayerNorm& norm, const LayerNormCache& cache, LayerNorm& grad);

Matrix feed_forward_backward(const Matrix& dy, const FeedForward& ffn, const FeedForwardCache& cache, FeedForward& grad);

// dL/dx of y = softmax(x) row by row: dx = y ⊙ (dy − Σ_j dy_j·y_j). Masked entries (y = 0)
// get no gradient.
Matrix softmax_rows_backward(const Matrix& dy, const Matrix& y);
