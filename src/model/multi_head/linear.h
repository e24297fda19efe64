// linear.h — a linear map x·W + b (nn.Linear, with W = weightᵀ), and its backward pass: the
// projections of multi-head attention, and later the two layers of the feed-forward net.
//
// A backward pass takes dL/d(output) and the forward pass's input, adds the parameters'
// gradients into dW and db (they accumulate over a batch) and returns dL/d(input).
#pragma once
#include "core/matrix.h"

// (n x d_in)·(d_in x d_out) + (1 x d_out); b may be empty (0x0) for no bias.
Matrix linear(const Matrix& x, const Matrix& W, const Matrix& b);

// Adds xᵀ·dy into dW and the column sums of dy into db (unless db is empty); returns dy·Wᵀ.
Matrix linear_backward(const Matrix& dy, const Matrix& x, const Matrix& W, Matrix& dW, Matrix& db);
