// cost.cpp — self-attention, recurrent and convolution layers with their work counted.
#include "cost.h"

#include <cmath>
#include <cstring>
#include <string>
#include <stdexcept>

#include "attention.h"

LayerRun self_attention_layer(const Matrix& x) {
    LayerRun r;
    r.output = attention(x, x, x).output;
    // Q·Kᵀ is (n x d)·(d x n), weights·V is (n x n)·(n x d): n·n·d multiply-adds each
    r.multiply_adds = 2 * x.rows * x.rows * x.cols;
    r.sequential_steps = 1;  // every row of every matmul can be computed at once
    return r;
}

LayerRun recurrent_layer(const Matrix& x, const Matrix& W_h, const Matrix& W_x) {
    const std::size_t n = x.rows, d = x.cols;
    LayerRun r;
    r.output = Matrix(n, d);
    Matrix h(1, d);
    for (std::size_t t = 0; t < n; ++t) {  // step t needs h from step t − 1: n steps in a row
        Matrix a = matmul(h, W_h);
        add_to(a, matmul(row_of(x, t), W_x));
        for (std::size_t c = 0; c < d; ++c) h(0, c) = r.output(t, c) = std::tanh(a(0, c));
        r.multiply_adds += 2 * d * d;
        r.sequential_steps += 1;
    }
    return r;
}

LayerRun convolution_layer(const Matrix& x, const std::vector<Matrix>& W) {
    const std::size_t n = x.rows, d = x.cols, k = W.size();
    LayerRun r;
    r.output = Matrix(n, d);
    for (std::size_t j = 0; j < k; ++j) {  // tap j: the sequence shifted by j − ⌊k/2⌋, times W_j
        const long shift = static_cast<long>(j) - static_cast<long>(k / 2);
        Matrix shifted(n, d);
        for (std::size_t t = 0; t < n; ++t) {
            const long s = static_cast<long>(t) + shift;
            if (s >= 0 && s < static_cast<long>(n)) std::memcpy(shifted.row(t), x.row(static_cast<std::size_t>(s)), d * sizeof(double));
        }
        add_to(r.output, matmul(shifted, W[j]));
        r.multiply_adds += n * d * d;
    }
    r.sequential_steps = 1;  // all positions and taps are independent
    return r;
}

std::size_t maximum_path_length(const char* layer, std::size_t n, std::size_t k) {
    const std::string l = layer;
    if (l == "self-attention") return 1;  // every output reads every input directly
    if (l == "recurrent") return n;       // position 0 reaches position n − 1 through n cells
    if (l == "convolution") return k > 1 ? (n - 1 + k - 2) / (k - 1) : n;  // each layer widens the view by k − 1
    throw std::invalid_argument("maximum_path_length: unknown layer " + l);
}

double fitted_exponent(const std::vector<double>& xs, const std::vector<double>& ys) {
    const double m = static_cast<double>(xs.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const double lx = std::log(xs[i]), ly = std::log(ys[i]);
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
    }
    return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}
