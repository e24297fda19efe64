// rounded_arithmetic.cpp — softmax, a dot product and a variance with every result rounded.
#include "core/rounded_arithmetic.h"

#include <algorithm>
#include <cmath>

#include "core/elementary.h"

namespace {

float r(FloatFormat f, float x) { return round_float(x, f); }

}  // namespace

std::vector<float> softmax_in(FloatFormat f, const std::vector<float>& scores, bool subtract_max) {
    std::vector<float> e(scores.size());
    float largest = -INFINITY;
    for (float s : scores) largest = std::max(largest, r(f, s));
    float sum = 0;
    for (std::size_t i = 0; i < scores.size(); ++i) {
        const float s = r(f, scores[i]);
        e[i] = r(f, elementary::exp(subtract_max ? s - largest : s));
        sum += e[i];
    }
    sum = r(f, sum);
    for (float& x : e) x = r(f, x / sum);
    return e;
}

float dot_in(FloatFormat sum_in, const std::vector<float>& a, const std::vector<float>& b) {
    float sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i) sum = r(sum_in, sum + r(sum_in, a[i] * b[i]));
    return sum;
}

float variance_in(FloatFormat f, const std::vector<float>& x, bool two_pass) {
    const float n = static_cast<float>(x.size());
    float sum = 0;
    for (float v : x) sum += r(f, v);
    const float mean = r(f, r(f, sum) / n);
    float total = 0;
    for (float v : x) total += two_pass ? r(f, (r(f, v) - mean) * (r(f, v) - mean)) : r(f, r(f, v) * r(f, v));
    const float average = r(f, r(f, total) / n);
    return two_pass ? average : r(f, average - r(f, mean * mean));
}
