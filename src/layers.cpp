// layers.cpp — linear, ReLU, LayerNorm and the position-wise feed-forward network.
#include "layers.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

Matrix linear(const Matrix& x, const Matrix& W, const Matrix& b) {
    Matrix y = matmul(x, W);
    if (b.data.empty()) return y;
    if (b.rows != 1 || b.cols != y.cols)
        throw std::invalid_argument("linear: bias " + shape_of(b) + " for output " + shape_of(y));
    for (std::size_t r = 0; r < y.rows; ++r)
        for (std::size_t c = 0; c < y.cols; ++c) y(r, c) += b(0, c);
    return y;
}

Matrix relu(const Matrix& x) {
    return map(x, [](double v) { return std::max(0.0, v); });
}

Matrix layer_norm(const Matrix& x, const LayerNorm& norm) {
    if (norm.gain.cols != x.cols || norm.bias.cols != x.cols)
        throw std::invalid_argument("layer_norm: gain " + shape_of(norm.gain) + " and bias " + shape_of(norm.bias) +
                                    " for rows of width " + std::to_string(x.cols));
    LayerNormCache unused;  // one implementation for inference and training
    return layer_norm_forward(x, norm, unused);
}

Matrix feed_forward(const Matrix& x, const FeedForward& ffn) {
    // (n x d_model) -> (n x d_ff): widen, keep the positive part, (n x d_ff) -> (n x d_model)
    return linear(relu(linear(x, ffn.W1, ffn.b1)), ffn.W2, ffn.b2);
}

Matrix layer_norm_forward(const Matrix& x, const LayerNorm& norm, LayerNormCache& cache) {
    const double d = static_cast<double>(x.cols);
    cache.x_hat = Matrix(x.rows, x.cols);
    cache.inv_std.assign(x.rows, 0.0);
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        const double* xr = x.row(r);
        double mean = 0.0, var = 0.0;
        for (std::size_t c = 0; c < x.cols; ++c) mean += xr[c];
        mean /= d;
        for (std::size_t c = 0; c < x.cols; ++c) var += (xr[c] - mean) * (xr[c] - mean);
        const double inv_std = 1.0 / std::sqrt(var / d + norm.eps);  // biased variance, eps inside
        cache.inv_std[r] = inv_std;
        for (std::size_t c = 0; c < x.cols; ++c) {
            cache.x_hat(r, c) = (xr[c] - mean) * inv_std;
            y(r, c) = cache.x_hat(r, c) * norm.gain(0, c) + norm.bias(0, c);
        }
    }
    return y;
}

Matrix feed_forward_forward(const Matrix& x, const FeedForward& ffn, FeedForwardCache& cache) {
    cache.x = x;
    cache.hidden = relu(linear(x, ffn.W1, ffn.b1));
    return linear(cache.hidden, ffn.W2, ffn.b2);
}

