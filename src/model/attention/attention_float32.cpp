// attention_float32.cpp — attention.h's steps in float32 arithmetic, one query row at a time.
#include "model/attention/attention_float32.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
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

// One query row, q (d_k floats), against m keys and values read through key(j, e) and
// value(j, e) (floats): its scores (mask row i added), weights and output (d_v floats at o).
// scores and weights, when given, receive the row as doubles (a reader's). Both entry points
// below run this one loop, so the kept cache gives attention_in_float32's bits.
template <class Key, class Value>
void one_row(const float* q, std::size_t m, std::size_t d_k, std::size_t d_v, const Key& key,
             const Value& value, const Matrix& mask, std::size_t i, float scale, bool half,
             float* o, double* scores, double* weights) {
    constexpr float minus_infinity = -std::numeric_limits<float>::infinity();
    std::vector<float> w(m), dot(m);
    // scores: q · k_j in float32, times the scale, plus the mask (0 or −inf). Each dot product
    // adds its terms for e = 0, 1, … in order; the keys are computed side by side (e outside, j
    // inside), so that their additions do not wait on one another — the same sums, in the same
    // order, as one dot product after another — in blocks of KB keys, whose rows stay in the L1
    // cache while e runs along them (the keys of a long cache, all at once, would not)
    constexpr std::size_t KB = 16;
    for (std::size_t j0 = 0; j0 < m; j0 += KB) {
        const std::size_t kb = std::min(KB, m - j0);
        float acc[KB] = {};
        for (std::size_t e = 0; e < d_k; ++e)
            for (std::size_t j = 0; j < kb; ++j) acc[j] += q[e] * key(j0 + j, e);
        std::copy(acc, acc + kb, dot.begin() + static_cast<std::ptrdiff_t>(j0));
    }
    float largest = minus_infinity;
    for (std::size_t j = 0; j < m; ++j) {
        const float hidden = mask.empty() ? 0.0f : f32(mask(i, j));
        w[j] = made(made(dot[j] * scale, half) + hidden, half);
        if (scores) scores[j] = w[j];
        largest = std::max(largest, w[j]);
    }
    std::fill(o, o + d_v, 0.0f);
    if (largest == minus_infinity) return;  // every key hidden: zero weights, zero output
    // softmax in three phases: the maximum (above), e^(s − max) and their sum, each over it
    float sum = 0;
    for (float& x : w) sum += (x = f32(elementary::exp(static_cast<double>(x - largest))));
    for (std::size_t j = 0; j < m; ++j) {
        w[j] = made(w[j] / sum, half);
        if (weights) weights[j] = w[j];
    }
    // the weighted values, each output summed in float32 in the keys' order, every output
    // side by side (j outside, e inside: a row of V at a time)
    for (std::size_t j = 0; j < m; ++j)
        for (std::size_t e = 0; e < d_v; ++e) o[e] += w[j] * value(j, e);
    for (std::size_t e = 0; e < d_v; ++e) o[e] = made(o[e], half);
}

}  // namespace

AttentionResult attention_in_float32(Columns Q, Columns K, Columns V, const Matrix& mask,
                                     bool half) {
    if (Q.width != K.width || K.of.rows != V.of.rows)
        throw std::invalid_argument(
            "attention_in_float32: queries of width " + std::to_string(Q.width) +
            ", keys of width " + std::to_string(K.width) + ", " + std::to_string(K.of.rows) +
            " keys and " + std::to_string(V.of.rows) + " values do not fit");
    const std::size_t n = Q.of.rows, m = K.of.rows, d_k = Q.width, d_v = V.width;
    AttentionResult r;
    r.scale = f32(attention_scale(d_k));
    r.scores = Matrix(n, m), r.weights = Matrix(n, m), r.output = Matrix(n, d_v);
    std::vector<float> q(d_k), o(d_v);
    const auto key = [&](std::size_t j, std::size_t e) { return f32(K(j, e)); };
    const auto value = [&](std::size_t j, std::size_t e) { return f32(V(j, e)); };
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t e = 0; e < d_k; ++e) q[e] = f32(Q(i, e));
        one_row(q.data(), m, d_k, d_v, key, value, mask, i, f32(r.scale), half, o.data(),
                r.scores.row(i), r.weights.row(i));
        for (std::size_t e = 0; e < d_v; ++e) r.output(i, e) = o[e];
    }
    return r;
}

void keep(KeptFloat32& kept, const std::vector<float>& k, const std::vector<float>& v) {
    if (k.size() != kept.heads * kept.d_k || v.size() != kept.heads * kept.d_v)
        throw std::invalid_argument("keep: a key of " + std::to_string(k.size()) +
                                    " and a value of " + std::to_string(v.size()) +
                                    " floats for " + std::to_string(kept.heads) + " heads");
    if (kept.length == kept.capacity) {  // room for twice as many keys, each feature row moved
        const std::size_t more = std::max<std::size_t>(16, 2 * kept.capacity);
        std::vector<float> keys(kept.heads * kept.d_k * more);
        for (std::size_t row = 0; row < kept.heads * kept.d_k; ++row)
            std::copy(kept.keys.begin() + static_cast<std::ptrdiff_t>(row * kept.capacity),
                      kept.keys.begin() + static_cast<std::ptrdiff_t>(row * kept.capacity + kept.length),
                      keys.begin() + static_cast<std::ptrdiff_t>(row * more));
        kept.keys = std::move(keys);
        kept.capacity = more;
    }
    for (std::size_t row = 0; row < kept.heads * kept.d_k; ++row)
        kept.keys[row * kept.capacity + kept.length] = k[row];
    kept.values.insert(kept.values.end(), v.begin(), v.end());
    ++kept.length;
}

void attend_kept_float32(const float* q, const KeptFloat32& kept, std::size_t head,
                         const Matrix& mask, bool half, float* out) {
    const std::size_t d_k = kept.d_k, d_v = kept.d_v, cap = kept.capacity;
    const float* keys = kept.keys.data() + head * d_k * cap;  // feature e of key j: [e·cap + j]
    const float* values = kept.values.data() + head * d_v;    // value j: kept.heads·d_v apart
    const std::size_t stride = kept.heads * d_v;
    const auto key = [&](std::size_t j, std::size_t e) { return keys[e * cap + j]; };
    const auto value = [&](std::size_t j, std::size_t e) { return values[j * stride + e]; };
    one_row(q, kept.length, d_k, d_v, key, value, mask, 0, f32(attention_scale(d_k)), half, out,
            nullptr, nullptr);
}
