// norms.cpp — LayerNorm and RMSNorm forward and backward, and BatchNorm for comparison.
#include "model/transformer/norms.h"

#include <cmath>
#include <stdexcept>
#include <string>

Matrix layer_norm(const Matrix& x, const Norm& norm, NormCache* cache) {
    if (norm.gain.cols != x.cols || norm.bias.cols != x.cols)
        throw std::invalid_argument("layer_norm: gain " + shape_of(norm.gain) + " and bias " +
                                    shape_of(norm.bias) + " for rows of width " +
                                    std::to_string(x.cols));
    const double d = static_cast<double>(x.cols);
    NormCache local;
    NormCache& c = cache ? *cache : local;
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

Matrix layer_norm_backward(const Matrix& dy, const Norm& norm, const NormCache& cache, Norm& grad) {
    const std::size_t n = dy.rows, d = dy.cols;
    Matrix dx(n, d);
    for (std::size_t r = 0; r < n; ++r) {
        const double* x_hat = cache.x_hat.row(r);
        double sum_g = 0.0, sum_g_xhat = 0.0;
        for (std::size_t c = 0; c < d; ++c) {
            grad.gain(0, c) += dy(r, c) * x_hat[c];  // y = x̂·gain + bias -> dgain = Σ dy·x̂
            grad.bias(0, c) += dy(r, c);             //                    -> dbias = Σ dy
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

Matrix rms_norm(const Matrix& x, const Norm& norm, NormCache* cache) {
    if (norm.gain.cols != x.cols || !norm.bias.empty())
        throw std::invalid_argument("rms_norm: gain " + shape_of(norm.gain) +
                                    " (and no bias) for rows of width " + std::to_string(x.cols));
    NormCache local;
    NormCache& c = cache ? *cache : local;
    c.x_hat = Matrix(x.rows, x.cols);
    c.inv_std.assign(x.rows, 0.0);
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        const double* xr = x.row(r);
        double sum_squares = 0.0;
        for (std::size_t col = 0; col < x.cols; ++col) sum_squares += xr[col] * xr[col];
        c.inv_std[r] = 1.0 / std::sqrt(sum_squares / static_cast<double>(x.cols) + norm.eps);
        for (std::size_t col = 0; col < x.cols; ++col) {
            c.x_hat(r, col) = xr[col] * c.inv_std[r];
            y(r, col) = c.x_hat(r, col) * norm.gain(0, col);
        }
    }
    return y;
}

Matrix rms_norm_backward(const Matrix& dy, const Norm& norm, const NormCache& cache, Norm& grad) {
    const std::size_t n = dy.rows, d = dy.cols;
    Matrix dx(n, d);
    for (std::size_t r = 0; r < n; ++r) {
        const double* x_hat = cache.x_hat.row(r);
        double sum_g_xhat = 0.0;
        for (std::size_t c = 0; c < d; ++c) {
            grad.gain(0, c) += dy(r, c) * x_hat[c];  // y = x̂·gain -> dgain = Σ dy·x̂
            sum_g_xhat += dy(r, c) * norm.gain(0, c) * x_hat[c];
        }
        // x̂ = x·inv_rms, where the root mean square depends on the whole row (no mean taken
        // out): dx = inv_rms · (dx̂ − x̂ · mean(dx̂ ⊙ x̂))
        const double width = static_cast<double>(d);
        for (std::size_t c = 0; c < d; ++c) {
            const double g = dy(r, c) * norm.gain(0, c);
            dx(r, c) = cache.inv_std[r] * (g - x_hat[c] * sum_g_xhat / width);
        }
    }
    return dx;
}

Matrix normalize(const Matrix& x, const Norm& norm, NormCache* cache) {
    return norm.kind == NormKind::RMS ? rms_norm(x, norm, cache) : layer_norm(x, norm, cache);
}

Matrix normalize_backward(const Matrix& dy, const Norm& norm, const NormCache& cache, Norm& grad) {
    return norm.kind == NormKind::RMS ? rms_norm_backward(dy, norm, cache, grad)
                                      : layer_norm_backward(dy, norm, cache, grad);
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
