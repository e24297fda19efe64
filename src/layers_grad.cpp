// layers_grad.cpp — the backward passes of linear, LayerNorm, feed-forward and softmax.
#include "layers_grad.h"

#include <cmath>

Matrix linear_backward(const Matrix& dy, const Matrix& x, const Matrix& W, Matrix& dW, Matrix& db) {
    add_to(dW, matmul_at(x, dy));  // y = x·W      -> dW = xᵀ·dy
    if (!db.data.empty())           // y = … + b    -> db = Σ_rows dy
        for (std::size_t r = 0; r < dy.rows; ++r)
            for (std::size_t c = 0; c < dy.cols; ++c) db(0, c) += dy(r, c);
    return matmul_bt(dy, W);        // y = x·W      -> dx = dy·Wᵀ
}

Matrix layer_norm_backward(const Matrix& dy, const LayerNorm& norm, const LayerNormCache& cache, LayerNorm& grad) {
    const std::size_t n = dy.rows, d = dy.cols;
    Matrix dx(n, d);
    for (std::size_t r = 0; r < n; ++r) {
        const double* x_hat = cache.x_hat.row(r);
        double sum_g = 0.0, sum_g_xhat = 0.0;
        for (std::size_t c = 0; c < d; ++c) {
            grad.gain(0, c) += dy(r, c) * x_hat[c];  // y = x̂·gain + bias -> dgain = Σ dy·x̂
            grad.bias(0, c) += dy(r, c);              //                    -> dbias = Σ dy
            const double g = dy(r, c) * norm.gain(0, c);  // dL/dx̂
            sum_g += g;
            sum_g_xhat += g * x_hat[c];
        }
        // x̂ = (x − mean)·inv_std, where mean and var depend on the whole row:
        // dx = inv_std · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ ⊙ x̂))
        for (std::size_t c = 0; c < d; ++c) {
            const double g = dy(r, c) * norm.gain(0, c);
            dx(r, c) = cache.inv_std[r] * (g - sum_g / static_cast<double>(d) - x_hat[c] * sum_g_xhat / static_cast<double>(d));
        }
    }
    return dx;
}

Matrix feed_forward_backward(const Matrix& dy, const FeedForward& ffn, const FeedForwardCache& cache, FeedForward& grad) {
    // y = hidden·W2 + b2
    Matrix d_hidden = linear_backward(dy, cache.hidden, ffn.W2, grad.W2, grad.b2);
    // hidden = relu(a): the gradient passes where hidden > 0
    for (std::size_t i = 0; i < d_hidden.data.size(); ++i)
        if (cache.hidden.data[i] <= 0.0) d_hidden.data[i] = 0.0;
    // a = x·W1 + b1
    return linear_backward(d_hidden, cache.x, ffn.W1, grad.W1, grad.b1);
}

Matrix softmax_rows_backward(const Matrix& dy, const Matrix& y) {
    Matrix dx(y.rows, y.cols);
    for (std::size_t r = 0; r < y.rows; ++r) {
        double dot = 0.0;
        for (std::size_t c = 0; c < y.cols; ++c) dot += dy(r, c) * y(r, c);
        for (std::size_t c = 0; c < y.cols; ++c) dx(r, c) = y(r, c) * (dy(r, c) - dot);
    }
    return dx;
}
