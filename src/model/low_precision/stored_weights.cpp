// stored_weights.cpp — weights in fewer bits; the one-row product, fast and textbook.
#include "model/low_precision/stored_weights.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/fused_multiply_add.h"
#include "core/int8_groups.h"
#include "core/number_formats.h"
#include "fast/threads.h"

std::size_t StoredWeights::bytes() const {
    const std::size_t n = rows * cols;
    switch (format) {
        case WeightFormat::Float32:
            return 4 * n;
        case WeightFormat::BFloat16:
        case WeightFormat::Float16:
            return 2 * n;
        case WeightFormat::Int8:
            break;
    }
    return n + 4 * groups() * cols;  // the real columns' scales, not the panels' zero padding
}

std::size_t StoredWeights::groups() const { return (rows + int8_group - 1) / int8_group; }

namespace {

// Where W(p, j) is kept, and the scale of its group: panel by panel.
std::size_t at(const StoredWeights& W, std::size_t p, std::size_t j) {
    return ((j / panel_width) * W.rows + p) * panel_width + j % panel_width;
}
std::size_t scale_at(const StoredWeights& W, std::size_t g, std::size_t j) {
    return ((j / panel_width) * W.groups() + g) * panel_width + j % panel_width;
}

}  // namespace

StoredWeights store_weights(const Matrix& W, WeightFormat format) {
    StoredWeights s;
    s.format = format, s.rows = W.rows, s.cols = W.cols;
    const std::size_t padded = s.panels() * panel_width * W.rows;
    if (format != WeightFormat::Int8) {
        const FloatFormat f = format == WeightFormat::Float32    ? FloatFormat::Float32
                              : format == WeightFormat::BFloat16 ? FloatFormat::BFloat16
                                                                 : FloatFormat::Float16;
        s.values.assign(padded, 0.0f);
        for (std::size_t p = 0; p < W.rows; ++p)
            for (std::size_t j = 0; j < W.cols; ++j)
                s.values[at(s, p, j)] = static_cast<float>(to_format(W(p, j), f));
        return s;
    }
    // int8: each column's weights in groups of 32 rows, quantized from their float32 values
    s.q.assign(padded, 0);
    s.scales.assign(s.panels() * panel_width * s.groups(), 0.0f);
    std::vector<float> column(int8_group);
    std::vector<std::int8_t> q(int8_group);
    for (std::size_t j = 0; j < W.cols; ++j)
        for (std::size_t g = 0; g < s.groups(); ++g) {
            const std::size_t first = g * int8_group,
                              count = std::min(int8_group, W.rows - first);
            for (std::size_t i = 0; i < count; ++i)
                column[i] = static_cast<float>(W(first + i, j));
            s.scales[scale_at(s, g, j)] = quantize_group(column.data(), count, q.data());
            for (std::size_t i = 0; i < count; ++i) s.q[at(s, first + i, j)] = q[i];
        }
    return s;
}

double stored_value(const StoredWeights& W, std::size_t r, std::size_t c) {
    if (W.format != WeightFormat::Int8) return W.values[at(W, r, c)];
    return static_cast<double>(W.q[at(W, r, c)]) *
           static_cast<double>(W.scales[scale_at(W, r / int8_group, c)]);
}

namespace {

// x in 8-bit groups (for int8 weights read against int8 activations): its q and scales.
struct QuantizedRow {
    std::vector<std::int8_t> q;
    std::vector<float> scales;
};
QuantizedRow quantized(const float* x, std::size_t n) {
    QuantizedRow r;
    r.q.resize(n);
    for (std::size_t first = 0; first < n; first += int8_group)
        r.scales.push_back(quantize_group(x + first, std::min(int8_group, n - first), &r.q[first]));
    return r;
}

constexpr std::size_t P = panel_width;

// Panel k's 64 sums into acc: its rows read one after the other, acc kept in registers.
void float_panel(const float* x, const StoredWeights& W, std::size_t k, float* out) {
    float acc[P] = {};
    const float* w = &W.values[k * W.rows * P];
    for (std::size_t p = 0; p < W.rows; ++p, w += P)
        for (std::size_t j = 0; j < P; ++j) acc[j] = fused_multiply_add(x[p], w[j], acc[j]);
    for (std::size_t j = 0; j < P; ++j) out[j] = acc[j];
}

void int8_panel(const float* x, const StoredWeights& W, std::size_t k, float* out) {
    float acc[P] = {};
    const std::int8_t* w = &W.q[k * W.rows * P];
    const float* s = &W.scales[k * W.groups() * P];
    for (std::size_t first = 0; first < W.rows; first += int8_group, s += P) {
        float part[P] = {};  // one group's sum, before its scale
        const std::size_t last = std::min(W.rows, first + int8_group);
        for (std::size_t p = first; p < last; ++p, w += P)
            for (std::size_t j = 0; j < P; ++j)
                part[j] = fused_multiply_add(x[p], static_cast<float>(w[j]), part[j]);
        for (std::size_t j = 0; j < P; ++j) acc[j] = fused_multiply_add(s[j], part[j], acc[j]);
    }
    for (std::size_t j = 0; j < P; ++j) out[j] = acc[j];
}

void int8_int8_panel(const QuantizedRow& x, const StoredWeights& W, std::size_t k, float* out) {
    float acc[P] = {};
    const std::int8_t* w = &W.q[k * W.rows * P];
    const float* s = &W.scales[k * W.groups() * P];
    for (std::size_t first = 0, g = 0; first < W.rows; first += int8_group, ++g, s += P) {
        std::int32_t part[P] = {};  // one group's sum of products, exact in integers
        const std::size_t last = std::min(W.rows, first + int8_group);
        for (std::size_t p = first; p < last; ++p, w += P) {
            const std::int32_t a = x.q[p];
            for (std::size_t j = 0; j < P; ++j) part[j] += a * static_cast<std::int32_t>(w[j]);
        }
        for (std::size_t j = 0; j < P; ++j)
            acc[j] = fused_multiply_add(s[j] * x.scales[g], static_cast<float>(part[j]), acc[j]);
    }
    for (std::size_t j = 0; j < P; ++j) out[j] = acc[j];
}

}  // namespace

void times_stored(const float* x, const StoredWeights& W, float* y, bool quantized_x) {
    times_stored_together(x, {{&W, y}}, quantized_x);
}

void times_stored_together(const float* x, const std::vector<StoredProduct>& products,
                           bool quantized_x) {
    if (products.empty()) return;
    const std::size_t rows = products[0].W->rows;
    for (const StoredProduct& p : products) {
        if (p.W->rows != rows)
            throw std::invalid_argument("times_stored_together: matrices of " +
                                        std::to_string(rows) + " and " +
                                        std::to_string(p.W->rows) + " rows for one x");
        if (quantized_x && p.W->format != WeightFormat::Int8)
            throw std::invalid_argument("times_stored: quantized activations need int8 weights");
    }
    const QuantizedRow xq = quantized_x ? quantized(x, rows) : QuantizedRow();
    // every panel is its own: the threads share out the panels of all the products at once, each
    // column summed by one thread. Bound by memory, not arithmetic (each weight read once for one
    // multiply-add), the work counts 16 to the multiply-add, as fast/fast_product.cpp's dot
    // products do: so a decoder's every product is shared out, not only its output table's
    struct Panel {
        const StoredProduct* product;
        std::size_t k;
    };
    std::vector<Panel> panels;
    std::size_t work = 0;
    for (const StoredProduct& p : products) {
        for (std::size_t k = 0; k < p.W->panels(); ++k) panels.push_back({&p, k});
        work += 16 * p.W->rows * p.W->cols;
    }
    parallel_for(panels.size(), work, [&](std::size_t i) {
        const StoredWeights& W = *panels[i].product->W;
        const std::size_t k = panels[i].k;
        float out[P];
        if (W.format != WeightFormat::Int8)
            float_panel(x, W, k, out);
        else if (quantized_x)
            int8_int8_panel(xq, W, k, out);
        else
            int8_panel(x, W, k, out);
        float* y = panels[i].product->y;
        for (std::size_t j = 0; j < P && k * P + j < W.cols; ++j) y[k * P + j] = out[j];
    });
}

void times_stored_naive(const float* x, const StoredWeights& W, float* y, bool quantized_x) {
    const QuantizedRow xq = quantized_x ? quantized(x, W.rows) : QuantizedRow();
    for (std::size_t j = 0; j < W.cols; ++j) {
        if (W.format != WeightFormat::Int8) {  // y_j = Σ_p x_p·W(p, j)
            float sum = 0;
            for (std::size_t p = 0; p < W.rows; ++p) sum = fused_multiply_add(x[p], W.values[at(W, p, j)], sum);
            y[j] = sum;
            continue;
        }
        float sum = 0;  // y_j = Σ_g scale(g, j)·Σ_{p in g} x_p·q(p, j)
        for (std::size_t first = 0, g = 0; first < W.rows; first += int8_group, ++g) {
            const std::size_t last = std::min(W.rows, first + int8_group);
            const float scale = W.scales[scale_at(W, g, j)];
            if (quantized_x) {
                std::int32_t part = 0;
                for (std::size_t p = first; p < last; ++p)
                    part += static_cast<std::int32_t>(xq.q[p]) * W.q[at(W, p, j)];
                sum = fused_multiply_add(scale * xq.scales[g], static_cast<float>(part), sum);
            } else {
                float part = 0;
                for (std::size_t p = first; p < last; ++p)
                    part = fused_multiply_add(x[p], static_cast<float>(W.q[at(W, p, j)]), part);
                sum = fused_multiply_add(scale, part, sum);
            }
        }
        y[j] = sum;
    }
}
