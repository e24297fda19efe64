// counted_layers.cpp — self-attention, recurrent and convolution layers, every multiply-add
// counted as it is done.
#include "model/layer_cost/counted_layers.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/elementary.h"
#include "model/attention/attention.h"

// acc += a·b, and one more on the count: a term deleted from a loop is a count gone too
static inline void multiply_add(double& acc, double a, double b, std::size_t& count) {
    acc += a * b;
    ++count;
}

LayerRun self_attention_layer(const Matrix& x) {
    const std::size_t n = x.rows, d = x.cols;
    LayerRun r;
    Matrix scores(n, n);  // x·xᵀ: n·n dot products of length d
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t c = 0; c < d; ++c)
                multiply_add(scores(i, j), x(i, c), x(j, c), r.multiply_adds);
    const Matrix weights = softmax_rows(scale(scores, attention_scale(d)));
    r.output = Matrix(n, d);  // weights·x: each output row a weighted sum of n rows of width d
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t c = 0; c < d; ++c)
                multiply_add(r.output(i, c), weights(i, j), x(j, c), r.multiply_adds);
    r.sequential_steps = 1;  // every row depends on x only: all n rows can be computed at once
    return r;
}

LayerRun recurrent_layer(const Matrix& x, const Matrix& W_h, const Matrix& W_x) {
    const std::size_t n = x.rows, d = x.cols;
    LayerRun r;
    r.output = Matrix(n, d);
    std::vector<double> h(d, 0.0), a(d);
    for (std::size_t t = 0; t < n; ++t) {  // step t needs h from step t − 1: n steps in a row
        std::fill(a.begin(), a.end(), 0.0);
        for (std::size_t p = 0; p < d; ++p)
            for (std::size_t c = 0; c < d; ++c) {
                multiply_add(a[c], h[p], W_h(p, c), r.multiply_adds);     // h_{t−1}·W_h
                multiply_add(a[c], x(t, p), W_x(p, c), r.multiply_adds);  // x_t·W_x
            }
        for (std::size_t c = 0; c < d; ++c) h[c] = r.output(t, c) = elementary::tanh(a[c]);
        r.sequential_steps += 1;
    }
    return r;
}

LayerRun convolution_layer(const Matrix& x, const std::vector<Matrix>& W) {
    const std::size_t n = x.rows, d = x.cols, k = W.size();
    LayerRun r;
    r.output = Matrix(n, d);
    const std::vector<double> zeros(d, 0.0);  // what a tap reads outside the sequence
    for (std::size_t t = 0; t < n; ++t)
        for (std::size_t j = 0; j < k; ++j) {  // tap j reads position t + j − ⌊k/2⌋
            const long s = tap_position(t, j, k);
            const bool inside = s >= 0 && s < static_cast<long>(n);
            const double* in = inside ? x.row(static_cast<std::size_t>(s)) : zeros.data();
            for (std::size_t p = 0; p < d; ++p)
                for (std::size_t c = 0; c < d; ++c)
                    multiply_add(r.output(t, c), in[p], W[j](p, c), r.multiply_adds);
        }
    r.sequential_steps = 1;  // all positions and taps are independent
    return r;
}

long tap_position(std::size_t t, std::size_t j, std::size_t k) {
    return static_cast<long>(t + j) - static_cast<long>(k / 2);
}

// After one more layer: every output position that reads a position marked before.
static std::vector<bool> one_layer(LayerType layer, const std::vector<bool>& marked,
                                   std::size_t k) {
    const std::size_t n = marked.size();
    std::vector<bool> next(n, false);
    for (std::size_t t = 0; t < n; ++t) {
        if (layer == LayerType::SelfAttention) next[t] = true;  // every output reads every input
        for (std::size_t j = 0; layer == LayerType::Convolution && j < k; ++j) {
            const long s = tap_position(t, j, k);
            if (s >= 0 && s < static_cast<long>(n) && marked[static_cast<std::size_t>(s)])
                next[t] = true;
        }
    }
    return next;
}

std::size_t maximum_path_length(LayerType layer, std::size_t n, std::size_t k) {
    if (layer == LayerType::Recurrent) {  // one layer, whose cells run one after another: cell t
        std::size_t cells = 0;  // reads x_t and h_{t−1}, so x_0 passes through every cell
        for (std::size_t t = 0; t < n; ++t) cells += 1;  // from cell 0 to cell n − 1
        return cells;
    }
    std::vector<bool> marked(n, false);
    marked[0] = true;  // the first input position
    std::size_t layers = 0;
    while (!marked[n - 1]) {
        const std::vector<bool> next = one_layer(layer, marked, k);
        if (next == marked)
            throw std::invalid_argument("maximum_path_length: the last position is never reached");
        marked = next;
        ++layers;
    }
    return layers;
}
