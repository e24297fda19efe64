// attention_float32.cpp — attention.h's steps in float32 arithmetic, one query row at a time.
#include "model/attention/attention_float32.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/elementary.h"
#include "core/number_formats.h"
#include "model/attention/attention.h"

namespace {

// A result as it is made: rounded to float16 when every result is ("everything in float16").
float made(float x, bool float16_results) {
    return float16_results ? round_float(x, FloatFormat::Float16) : x;
}

float f32(double x) { return static_cast<float>(x); }

}  // namespace

AttentionResult attention_in_float32(Columns Q, Columns K, Columns V, const Matrix& mask,
                                     bool half) {
    if (Q.width != K.width || K.of.rows != V.of.rows)
        throw std::invalid_argument(
            "attention_in_float32: queries of width " + std::to_string(Q.width) +
            ", keys of width " + std::to_string(K.width) + ", " + std::to_string(K.of.rows) +
            " keys and " + std::to_string(V.of.rows) + " values do not fit");
    const std::size_t n = Q.of.rows, m = K.of.rows, d_k = Q.width, d_v = V.width;
    const float scale = f32(attention_scale(d_k));
    constexpr float minus_infinity = -std::numeric_limits<float>::infinity();
    AttentionResult r;
    r.scale = scale;
    r.scores = Matrix(n, m), r.weights = Matrix(n, m), r.output = Matrix(n, d_v);
    std::vector<float> w(m), dot(m), o(d_v), q(d_k);
    constexpr std::size_t KB = 16;
    for (std::size_t i = 0; i < n; ++i) {
        // scores: q_i · k_j in float32, times the scale, plus the mask (0 or −inf). Each dot
        // product adds its terms for e = 0, 1, … in order; the keys are computed side by side
        // (e outside, j inside), so that their additions do not wait on one another — the
        // same sums, in the same order, as one dot product after another
        // keys in blocks of KB, whose rows stay in the L1 cache while e runs along them (the
        // keys of a long cache, all at once, would not)
        for (std::size_t e = 0; e < d_k; ++e) q[e] = f32(Q(i, e));
        for (std::size_t j0 = 0; j0 < m; j0 += KB) {
            const std::size_t kb = std::min(KB, m - j0);
            float acc[KB] = {};
            for (std::size_t e = 0; e < d_k; ++e)
                for (std::size_t j = 0; j < kb; ++j) acc[j] += q[e] * f32(K(j0 + j, e));
            std::copy(acc, acc + kb, dot.begin() + static_cast<std::ptrdiff_t>(j0));
        }
        float largest = minus_infinity;
        for (std::size_t j = 0; j < m; ++j) {
            const float hidden = mask.empty() ? 0.0f : f32(mask(i, j));
            w[j] = made(made(dot[j] * scale, half) + hidden, half);
            r.scores(i, j) = w[j];
            largest = std::max(largest, w[j]);
        }
        if (largest == minus_infinity) continue;  // every key hidden: zero weights, zero output
        // softmax in three phases: the maximum (above), e^(s − max) and their sum, each over it
        float sum = 0;
        for (float& x : w) sum += (x = f32(elementary::exp(static_cast<double>(x - largest))));
        for (std::size_t j = 0; j < m; ++j) r.weights(i, j) = w[j] = made(w[j] / sum, half);
        // the weighted values, each output summed in float32 in the keys' order, every output
        // side by side (j outside, e inside: a row of V at a time)
        std::fill(o.begin(), o.end(), 0.0f);
        for (std::size_t j = 0; j < m; ++j)
            for (std::size_t e = 0; e < d_v; ++e) o[e] += w[j] * f32(V(j, e));
        for (std::size_t e = 0; e < d_v; ++e) r.output(i, e) = made(o[e], half);
    }
    return r;
}
