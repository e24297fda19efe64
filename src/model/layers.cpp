// layers.cpp — linear, ReLU, LayerNorm and the position-wise feed-forward network, forward
// and backward.
#include "model/layers.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/translate.h"

#include "core/matmul.h"

Matrix linear(const Matrix& x, const Matrix& W, const Matrix& b) {
    Matrix y = matmul(x, W);
    if (!b.empty()) add_to_each_row(y, b);
    return y;
}

Matrix linear_backward(const Matrix& dy, const Matrix& x, const Matrix& W, Matrix& dW, Matrix& db) {
    add_to(dW, matmul_at(x, dy));             // y = x·W    -> dW = xᵀ·dy
    if (!db.empty()) add_column_sums(db, dy);  // y = … + b  -> db = Σ_rows dy
    return matmul_bt(dy, W);                  // y = x·W    -> dx = dy·Wᵀ
}

Matrix relu(const Matrix& x) {
    Matrix y = x;
    for (double& v : y.data) v = std::max(0.0, v);
    return y;
}

Matrix layer_norm(const Matrix& x, const LayerNorm& norm, LayerNormCache* cache) {
    if (norm.gain.cols != x.cols || norm.bias.cols != x.cols)
        throw std::invalid_argument(tr("layer_norm: gain {} and bias {} for rows of width {}",
                                       shape_of(norm.gain), shape_of(norm.bias), x.cols));
    const double d = static_cast<double>(x.cols);
    LayerNormCache local;
    LayerNormCache& c = cache ? *cache : local;
    c.x_hat = Matrix(x.rows, x.cols);
    c.inv_std.assign(x.rows, 0.0);
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        const double* xr = x.row(r);
        double mean = 0.0, var = 0.0;
        for (std::size_t col = 0; col < x.cols; ++col) mean += xr[col];
        mean /= d;
        for (std::size_t col = 0; col < x.cols; ++col) var += (xr[col] - mean) * (xr[col] - mean);
        c.inv_std[r] = 1.0 / std::sqrt(var / d + norm.eps);  // biased variance, eps inside
        for (std::size_t col = 0; col < x.cols; ++col) {
            c.x_hat(r, col) = (xr[col] - mean) * c.inv_std[r];
            y(r, col) = c.x_hat(r, col) * norm.gain(0, col) + norm.bias(0, col);
        }
    }
    return y;
}

Matrix layer_norm_backward(const Matrix& dy, const LayerNorm& norm, const LayerNormCache& cache,
                           LayerNorm& grad) {
    const std::size_t n = dy.rows, d = dy.cols;
    Matrix dx(n, d);
    for (std::size_t r = 0; r < n; ++r) {
        const double* x_hat = cache.x_hat.row(r);
        double sum_g = 0.0, sum_g_xhat = 0.0;
        for (std::size_t c = 0; c < d; ++c) {
            grad.gain(0, c) += dy(r, c) * x_hat[c];      // y = x̂·gain + bias -> dgain = Σ dy·x̂
            grad.bias(0, c) += dy(r, c);                  //                    -> dbias = Σ dy
            const double g = dy(r, c) * norm.gain(0, c);  //                    -> dx̂ = dy·gain
            sum_g += g;
            sum_g_xhat += g * x_hat[c];
        }
        // x̂ = (x − mean)·inv_std, where mean and var depend on the whole row:
        // dx = inv_std · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ ⊙ x̂))
        const double width = static_cast<double>(d);
        for (std::size_t c = 0; c < d; ++c) {
            const double g = dy(r, c) * norm.gain(0, c);
            dx(r, c) = cache.inv_std[r] * (g - sum_g / width - x_hat[c] * sum_g_xhat / width);
        }
    }
    return dx;
}

Matrix batch_norm(const Matrix& x, double eps) {
    Matrix y(x.rows, x.cols);
    const double n = static_cast<double>(x.rows);
    for (std::size_t c = 0; c < x.cols; ++c) {
        double mean = 0.0, var = 0.0;
        for (std::size_t r = 0; r < x.rows; ++r) mean += x(r, c);
        mean /= n;
        for (std::size_t r = 0; r < x.rows; ++r) var += (x(r, c) - mean) * (x(r, c) - mean);
        const double inv_std = 1.0 / std::sqrt(var / n + eps);
        for (std::size_t r = 0; r < x.rows; ++r) y(r, c) = (x(r, c) - mean) * inv_std;
    }
    return y;
}

Matrix feed_forward(const Matrix& x, const FeedForward& ffn, FeedForwardCache* cache) {
    Matrix hidden = relu(linear(x, ffn.W1, ffn.b1));  // (n x d_ff)
    Matrix y = linear(hidden, ffn.W2, ffn.b2);        // (n x d_model)
    if (cache) *cache = {x, std::move(hidden)};
    return y;
}

Matrix feed_forward_backward(const Matrix& dy, const FeedForward& ffn,
                             const FeedForwardCache& cache, FeedForward& grad) {
    // y = hidden·W2 + b2
    Matrix d_hidden = linear_backward(dy, cache.hidden, ffn.W2, grad.W2, grad.b2);
    // hidden = relu(a): the gradient passes where hidden > 0
    for (std::size_t i = 0; i < d_hidden.data.size(); ++i)
        if (cache.hidden.data[i] <= 0.0) d_hidden.data[i] = 0.0;
    // a = x·W1 + b1
    return linear_backward(d_hidden, cache.x, ffn.W1, grad.W1, grad.b1);
}
