// ch13_precision/float16_breaks.cpp — where attention breaks in float16: the softmax's overflow,
// the mask's value, long dot products, unscaled scores and the norm's variance.
#include "ch13_precision/float16_breaks.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ch13_precision/wording.h"
#include "core/matmul.h"
#include "core/rounded_arithmetic.h"
#include "report/chapter.h"
#include "text/translate.h"

namespace {

std::vector<float> uniform_row(Random& rng, std::size_t n) {  // in float16 already
    std::vector<float> v(n);
    for (float& x : v)
        x = round_float(static_cast<float>(rng.uniform() * 2 - 1), FloatFormat::Float16);
    return v;
}

Matrix row_of_floats(const std::vector<float>& v) {
    Matrix m(1, v.size());
    for (std::size_t i = 0; i < v.size(); ++i) m(0, i) = v[i];
    return m;
}

void softmax_overflow(Chapter& ch, const Inputs& in) {
    const double threshold = std::log(65520.0);
    ch.record_number("exp_overflow_float16", threshold);
    const std::vector<float> stable = softmax_in(FloatFormat::Float16, in.scores, true),
                             naive = softmax_in(FloatFormat::Float16, in.scores, false);
    std::size_t finite = 0;
    for (float w : naive) finite += std::isfinite(w);
    ch.record("softmax_float16_stable", row_of_floats(stable), Shape::Vector, 1e-3);
    ch.record_number("softmax_float16_naive_finite", static_cast<double>(finite), 0.0);
    std::string row;
    for (float s : in.scores) row += (row.empty() ? "" : ", ") + general(s, 4);
    std::string naive_text, stable_text;
    for (std::size_t i = 0; i < naive.size(); ++i) {
        naive_text += (i ? ", " : "") + shown(naive[i]);
        stable_text += (i ? ", " : "") + shown(stable[i]);
    }
    ch.say(tr("1. The softmax without its maximum subtracted. exp(x) passes float16's largest "
              "number, 65,504, once x passes log(65,520) = {} (65,520 rounds up to infinity). "
              "Scores {} in float16: exp of each, then each over their sum, gives {} — {} of {} "
              "weights finite; with the row's maximum subtracted first (chapter 2's first step), "
              "{}.",
              fixed(threshold, 4), row, naive_text, finite, naive.size(), stable_text));
}

void mask_value(Chapter& ch, const Inputs& in) {
    const std::uint64_t bf = to_format_bits(in.mask_value, FloatFormat::BFloat16),
                        h = to_format_bits(in.mask_value, FloatFormat::Float16);
    ch.record("mask_value_bits", Matrix{{static_cast<double>(bf), static_cast<double>(h)}},
              Shape::Vector, 0.0);
    std::vector<float> row(in.masked_row);
    const float lowest = static_cast<float>(-format_facts(FloatFormat::Float16).largest);
    for (std::size_t i = 0; i < row.size(); ++i)
        row[i] = round_float(static_cast<float>(i + 1) + lowest, FloatFormat::Float16);
    const std::vector<float> with_lowest = softmax_in(FloatFormat::Float16, row, true);
    std::vector<float> hidden(in.masked_row, -INFINITY);
    std::size_t finite = 0;
    for (float w : softmax_in(FloatFormat::Float16, hidden, true)) finite += std::isfinite(w);
    ch.record("masked_row_lowest", row_of_floats(with_lowest), Shape::Vector, 1e-3);
    ch.record_number("masked_row_infinite_finite", static_cast<double>(finite), 0.0);
    ch.say(tr("2. Chapter 3's mask value −1e9. In bfloat16 it is {} ({}); in float16 it is {} "
              "({}): past 65,504 it becomes −infinity, and a row whose every key is hidden then "
              "computes −inf − (−inf) = NaN — {} of {} weights finite. That is why code written for "
              "float16 masks with −infinity and treats a hidden row on its own (chapter 3 gives "
              "it zeros), or masks with the format's lowest number, {}: then every hidden score "
              "rounds to about the same number and the row comes out even, {} each — wrong, but "
              "finite.",
              shown_exactly(to_format(in.mask_value, FloatFormat::BFloat16)), hex_bits(bf, 4),
              shown(to_format(in.mask_value, FloatFormat::Float16)), hex_bits(h, 4), finite,
              in.masked_row, shown_exactly(lowest), general(with_lowest.front(), 4)));
}

// The relative error of a dot product of each length, its inputs in float16, summed in float16
// (first row) and in float32 (second), against the exact sum.
Matrix dot_errors(const Inputs& in) {
    Random rng(in.seed);
    Matrix e(2, in.dot_lengths.size());
    for (std::size_t i = 0; i < in.dot_lengths.size(); ++i) {
        const std::size_t d = in.dot_lengths[i];
        const std::vector<float> a = uniform_row(rng, d), b = uniform_row(rng, d);
        double exact = 0;
        for (std::size_t k = 0; k < d; ++k) exact += double(a[k]) * double(b[k]);
        // relative to the exact sum; where that is 0 (a product of zeros), the error itself
        const auto relative = [&](double sum) {
            return exact != 0 ? std::fabs(sum - exact) / std::fabs(exact) : std::fabs(sum);
        };
        e(0, i) = relative(dot_in(FloatFormat::Float16, a, b));
        e(1, i) = relative(dot_in(FloatFormat::Float32, a, b));
    }
    return e;
}

void dot_products(Chapter& ch, const Inputs& in) {
    const Matrix errors = dot_errors(in);
    const Matrix e16 = row_of(errors, 0), e32 = row_of(errors, 1);
    Table t({"d", tr("summed in float16"), tr("summed in float32"), tr("float16's u")});
    for (std::size_t i = 0; i < in.dot_lengths.size(); ++i)
        t.add({grouped(in.dot_lengths[i]), sci(e16(0, i)), sci(e32(0, i)),
               sci(format_facts(FloatFormat::Float16).unit_roundoff)});
    ch.record("dot_error_float16_sum", e16, Shape::Vector, 1e-3);
    ch.record("dot_error_float32_sum", e32, Shape::Vector, 1e-3);
    ch.say(tr("3. A dot product of length d, its inputs in float16, summed in float16 or in "
              "float32: the relative error against the exact sum (float64 holds it)."));
    ch.table(t);
    const std::size_t last = in.dot_lengths.size() - 1;
    if (e16(0, last) > 10 * e32(0, last) && e16(0, last) > 0)
        ch.say(tr("Summed in float16, each addition rounds to 11 bits, and at d = {} the sum is "
                  "off by {}; summed in float32, by {}. That is why matrix units that multiply "
                  "in float16 usually add in float32 (tensor cores can add in float16 too, for "
                  "speed, and this is the price).",
                  grouped(in.dot_lengths[last]), sci(e16(0, last)), sci(e32(0, last))));
    else
        ch.say(tr("At d = {} the two sums are off by {} and {}: too few terms for the float16 "
                  "sum's roundings to add up.",
                  grouped(in.dot_lengths[last]), sci(e16(0, last)), sci(e32(0, last))));
}

ScaleFinding scaled_scores(Chapter& ch, const Inputs& in) {
    Random rng(in.seed + 1);
    Matrix q(in.scale_rows, in.d_k), k(in.scale_rows, in.d_k);
    for (double& x : q.data) x = rng.normal();
    for (double& x : k.data) x = rng.normal();
    const Matrix raw = matmul(q, transpose(k));
    const double root = std::sqrt(static_cast<double>(in.d_k)), limit = std::log(65520.0);
    double largest = 0;
    std::size_t over_raw = 0, over_scaled = 0;
    for (double s : raw.data) {
        largest = std::max(largest, std::fabs(s));
        over_raw += s > limit, over_scaled += s / root > limit;
    }
    ch.record("scale_largest_score", Matrix{{largest, largest / root}}, Shape::Vector);
    ch.record("scale_exp_overflows",
              Matrix{{static_cast<double>(over_raw), static_cast<double>(over_scaled)}},
              Shape::Vector, 0.0);
    ch.say(tr("4. The 1/√d_k scale. Queries and keys of d_k = {} numbers drawn from N(0, 1) give "
              "scores with a standard deviation of √{} = {}: of {} × {} scores the largest is {}, "
              "and {} of them would overflow exp in float16 without the maximum subtracted. "
              "Divided by √d_k the largest is {}, and {} overflow: the scale that keeps the "
              "softmax's gradients alive (02) also keeps the scores inside float16's range.",
              in.d_k, in.d_k, fixed(root, 1), in.scale_rows, in.scale_rows, fixed(largest, 2),
              over_raw, fixed(largest / root, 2), over_scaled));
    return {largest, over_raw};
}

void norm_variance(Chapter& ch, const Inputs& in) {
    std::vector<float> x;
    for (double s : in.norm_spread) x.push_back(static_cast<float>(in.norm_offset + s));
    double mean = 0, var = 0;
    for (float v : x) mean += v;
    mean /= static_cast<double>(x.size());
    for (float v : x) var += (v - mean) * (v - mean);
    var /= static_cast<double>(x.size());
    const float two = variance_in(FloatFormat::Float16, x, true),
                one = variance_in(FloatFormat::Float16, x, false);
    ch.record_number("norm_variance_float64", var);
    ch.record_number("norm_variance_two_pass", two, 1e-3);
    ch.record_number("norm_variance_one_pass_finite", std::isfinite(one) ? 1.0 : 0.0, 0.0);
    const double spacing = std::ldexp(
        1.0, static_cast<int>(std::floor(std::log2(std::max(std::fabs(in.norm_offset), 1e-30)))) - 10);
    ch.say(tr("5. LayerNorm's variance in float16, on a row of {} around {}: its variance is {} "
              "(float64). Two passes — the mean, then the mean of (x − mean)² — give {}.",
              count_of(x.size(), N_("{} number"), N_("{} numbers")), general(in.norm_offset, 6),
              general(var, 6), general(two, 6)));
    if (two != var)
        ch.say(tr("float16 keeps numbers near {} only to the nearest {}: the row itself has lost "
                  "its detail before any arithmetic.",
                  general(in.norm_offset, 6), general(spacing, 4)));
    ch.say(std::isfinite(one)
               ? tr("One pass, the mean of x² less the mean squared, gives {}.", general(one, 6))
               : tr("One pass, the mean of x² less the mean squared, gives {}: x² is about {}, "
                    "past 65,504. Models run their norms in float32 for this reason.",
                    shown(one), general(in.norm_offset * in.norm_offset, 4)));
}

}  // namespace

ScaleFinding breaking_step(Chapter& ch, const Inputs& in) {
    ch.step(tr("Where attention breaks in float16"));
    ch.say(tr("Each case computed with float16 numbers, every result rounded to float16 as it is "
              "made (src/core/rounded_arithmetic.h), beside float64:"));
    softmax_overflow(ch, in);
    mask_value(ch, in);
    dot_products(ch, in);
    const ScaleFinding scale = scaled_scores(ch, in);
    norm_variance(ch, in);
    return scale;
}
