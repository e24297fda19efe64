// ch13_precision — numbers in fewer bits: float32, bfloat16, float16 and 8-bit integers, what
// each costs attention, measured against the float64 every other chapter computes in; and why a
// model in fewer bits decodes faster.
//
// Tutorial: 02's "why scale by √d_k" and 04's scaled dot-product attention, read again in
// float16, where the scale also keeps the scores inside the format's range.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/int8_groups.h"
#include "core/number_formats.h"
#include "core/random.h"
#include "core/rounded_arithmetic.h"
#include "core/matmul.h"
#include "io/gpt_file.h"
#include "io/poem_corpus.h"
#include "io/saved_poet.h"
#include "model/low_precision/lowered_gpt.h"
#include "report/chapter.h"
#include "report/poet_flags.h"
#include "report/chart.h"
#include "report/measure.h"
#include "train/gpt_training.h"

namespace {

const FloatFormat floats[] = {FloatFormat::Float64, FloatFormat::Float32, FloatFormat::BFloat16,
                              FloatFormat::Float16};

// How a model is read in the table: weights in a format; "float16 throughout" rounds every
// result too; "int8 × int8" puts the activations in 8-bit groups as well.
struct Reading {
    const char* name;  // the format's (and --json's)
    bool float64;
    WeightFormat format;
    bool half_activations, quantized_activations;
};
const Reading readings[] = {{"float64", true, WeightFormat::Float32, false, false},
                            {"float32", false, WeightFormat::Float32, false, false},
                            {"bfloat16", false, WeightFormat::BFloat16, false, false},
                            {"float16", false, WeightFormat::Float16, false, false},
                            {"int8", false, WeightFormat::Int8, false, false},
                            {"float16 throughout", false, WeightFormat::Float16, true, false},
                            {"int8 × int8", false, WeightFormat::Int8, false, true}};

constexpr double float16_largest = 65504.0;  // the narrowest range of the four formats

struct Inputs {
    std::vector<std::string> values;  // to round, as written: hexadecimal, inf, nan
    Matrix X;
    std::vector<std::string> tokens;
    std::vector<float> scores;  // a row to softmax in float16
    double mask_value = 0;
    std::size_t masked_row = 0, d_k = 0, scale_rows = 0;
    std::vector<std::size_t> dot_lengths;
    std::uint64_t seed = 0;
    double norm_offset = 0;
    std::vector<double> norm_spread;
    Gpt small;  // the oracle's small trained model
    std::vector<Tokens> heldout, prompts;
    std::size_t new_tokens = 0;
    // chapter 12's poet: its corpus, and, when none is saved, what is trained here instead
    PoetSettings poet;
    std::size_t heldout_poems = 0, poem_new_tokens = 0;
    std::vector<std::string> poem_prompts;
};

// The largest weight of a model in size, and the tensor it is in (NaN counts as largest).
std::pair<std::string, double> largest_weight(Gpt& model) {
    double largest = 0;
    std::string name;
    for (const Parameter& w : parameters(model))
        for (const double x : w.value->data)
            if (!(std::fabs(x) <= largest)) largest = std::fabs(x), name = w.name;
    return {name, largest};
}

void read_poems_settings(const DataFile& d, Inputs& in) {
    const std::string k = "inputs.poems.";
    in.poet = read_poet_settings(d, k);
    in.heldout_poems = d.size(k + "heldout_poems", 1, 1000000);
    in.poem_prompts = d.texts(k + "prompts");
    in.poem_new_tokens = d.size(k + "new_tokens", 1, 10000);
}

void apply_flags(const Options& o, Inputs& in) {
    if (o.has("--steps"))
        in.poet.training.max_steps = static_cast<std::size_t>(o.integer("--steps", 1, 10000000));
}

Inputs read_inputs(const DataFile& d, const Options& o) {
    Inputs in;
    in.values = d.texts("inputs.rounding.values");
    if (in.values.empty())
        throw d.error("inputs.rounding.values", tr("expected at least one number"));
    for (std::size_t i = 0; i < in.values.size(); ++i) {
        char* end = nullptr;
        std::strtod(in.values[i].c_str(), &end);
        if (in.values[i].empty() || *end != '\0')
            throw d.error("inputs.rounding.values[" + std::to_string(i) + "]",
                          tr("expected a number (hexadecimal, inf or nan)"));
    }
    in.X = d.matrix("inputs.tutorial.X");
    if (in.X.rows > 4096 || in.X.cols > 4096)
        throw d.error("inputs.tutorial.X", tr("expected at most 4,096 rows and 4,096 columns"));
    in.tokens = d.texts("inputs.tutorial.tokens");
    if (in.tokens.size() != in.X.rows)
        throw d.error("inputs.tutorial.tokens", tr("expected one token per row of X"));
    // every format must hold the tutorial's scores: float16's range is the narrowest
    const Matrix scaled = scale(matmul(in.X, transpose(in.X)), 1.0 / std::sqrt(double(in.X.cols)));
    for (const double s : scaled.data)
        if (!(std::fabs(s) <= float16_largest))
            throw d.error("inputs.tutorial.X",
                          tr("its scaled scores XXᵀ/√d reach {}, past float16's largest number, "
                             "65,504; expected smaller numbers",
                             general(s, 6)));
    const std::string b = "inputs.breaking.";
    for (double s : d.vector(b + "scores").data) {
        if (!(std::fabs(s) <= float16_largest))
            throw d.error(b + "scores", tr("expected numbers float16 holds, from −65,504 to 65,504"));
        in.scores.push_back(static_cast<float>(s));
    }
    if (in.scores.empty()) throw d.error(b + "scores", tr("expected at least one number"));
    in.mask_value = d.number(b + "mask_value", -1e300, 0);
    in.masked_row = d.size(b + "masked_row", 1, 4096);
    in.dot_lengths = d.sizes(b + "dot_lengths", 1, 1 << 20);
    if (in.dot_lengths.empty() || in.dot_lengths.size() > 64)
        throw d.error(b + "dot_lengths", tr("expected from 1 to 64 lengths"));
    in.seed = d.seed(b + "seed");
    in.d_k = d.size(b + "d_k", 1, 4096);
    in.scale_rows = d.size(b + "scale_rows", 1, 4096);
    in.norm_offset = d.number(b + "norm_offset", -60000, 60000);
    in.norm_spread = d.vector(b + "norm_spread").data;
    if (in.norm_spread.empty()) throw d.error(b + "norm_spread", tr("expected at least one number"));
    // the row and its float16 sum (the mean's first step) must stay in float16's range
    double row_sum = 0;
    for (const double s : in.norm_spread) row_sum += std::fabs(in.norm_offset + s);
    if (!(row_sum <= float16_largest))
        throw d.error(b + "norm_offset",
                      tr("the row norm_offset + norm_spread sums to {} in size, past float16's "
                         "largest number, 65,504; expected a smaller offset or fewer numbers",
                         general(row_sum, 6)));
    // the readings the expected values list, as the oracle names them: this chapter's, in order
    std::vector<std::string> names;
    for (const Reading& r : readings) names.push_back(r.name);
    if (d.texts("inputs.readings") != names)
        throw d.error("inputs.readings", tr("expected the readings this chapter computes, in "
                                            "order: {}",
                                            listed(names)));
    in.small = load_gpt(d, "inputs.model");
    // read in float16 below: a weight float16 does not hold is named as float16's, not float64's
    const auto [name, largest] = largest_weight(in.small);
    if (!(largest <= float16_largest))
        throw d.error("inputs.model",
                      tr("its weight {} is {}, past float16's largest number, 65,504: its "
                         "float16 readings would overflow to infinity; expected weights that "
                         "float16 holds",
                         name, general(largest, 6)));
    const std::size_t vocab = in.small.config.tgt_vocab;
    in.heldout = d.token_lists("inputs.model.heldout", vocab);
    in.prompts = d.token_lists("inputs.model.prompts", vocab);
    in.new_tokens = d.size("inputs.model.new_tokens", 1, 10000);
    read_poems_settings(d, in);
    apply_flags(o, in);
    return in;
}

std::string percent(double x) { return fixed(100 * x, 1) + "%"; }

// A number as the narration shows it, infinities and NaN included (they are the point here),
// a negative one with the minus sign the prose writes (−65504 beside −∞, not -65504).
std::string shown(double x) {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "∞" : "−∞";
    return x < 0 ? "−" + general(-x, 4) : general(x, 4);
}
// The same, every digit (a format's own number, such as −65504 or −998244352).
std::string shown_exactly(double x) { return x < 0 ? "−" + general(-x, 17) : general(x, 17); }

// A reading as the table names it.
std::string reading_text(const Reading& r) {
    if (r.float64) return tr("float64 throughout");
    if (r.half_activations) return tr("float16 throughout");
    if (r.quantized_activations) return tr("int8 weights and activations");
    return tr("{} weights, float32 arithmetic", r.name);
}

// --- the formats ------------------------------------------------------------------------------

void formats_step(Chapter& ch) {
    ch.step(tr("Four formats: a sign, an exponent, a mantissa"));
    ch.say(tr("A floating-point number is (−1)^sign · 1.mantissa · 2^(exponent − bias), the bias "
              "a constant that lets the stored exponent be unsigned (15 for float16). Fewer "
              "exponent bits give a smaller range; fewer mantissa bits, a coarser grid. The unit "
              "roundoff u = 2^−(mantissa bits + 1) is the largest relative error of one "
              "rounding:"));
    Table t({tr("format"), tr("bits"), tr("exponent"), tr("mantissa"), tr("largest"),
             tr("smallest normal"), tr("smallest subnormal"), tr("unit roundoff")});
    Matrix largest(1, 4), normal(1, 4), subnormal(1, 4), u(1, 4);
    for (std::size_t i = 0; i < 4; ++i) {
        const FormatFacts f = format_facts(floats[i]);
        largest(0, i) = f.largest, normal(0, i) = f.smallest_normal;
        subnormal(0, i) = f.smallest_subnormal, u(0, i) = f.unit_roundoff;
        t.add({f.name, std::to_string(f.bits), std::to_string(f.exponent_bits),
               std::to_string(f.mantissa_bits), general(f.largest, 5), general(f.smallest_normal, 3),
               general(f.smallest_subnormal, 3), general(f.unit_roundoff, 3)});
    }
    ch.table(t);
    ch.record("format_largest", largest, Shape::Vector);
    ch.record("format_smallest_normal", normal, Shape::Vector);
    ch.record("format_smallest_subnormal", subnormal, Shape::Vector);
    ch.record("format_unit_roundoff", u, Shape::Vector);
    ch.say(tr("The 8-bit format here is no floating point: each group of {} numbers keeps one "
              "float32 scale, max |x| / 127, and each number the nearest whole multiple of it, "
              "−127 … 127 — 1.125 bytes a number against float64's 8. llama.cpp's Q8_0 keeps "
              "the same groups with a float16 scale, llama2.c's runq the float32 scale on groups "
              "of 64: 1.0625 bytes a number each.",
              int8_group));
}

// --- rounding, bit for bit ---------------------------------------------------------------------

std::string hex_bits(std::uint64_t b, int digits) {
    static const char* hex = "0123456789abcdef";
    std::string s;
    for (int i = digits - 1; i >= 0; --i) s += hex[(b >> (4 * i)) & 15];
    return "0x" + s;
}

void rounding_step(Chapter& ch, const Inputs& in) {
    ch.step(tr("Rounding, on the bit patterns, against PyTorch's .to(dtype)"));
    const std::size_t n = in.values.size();
    Matrix b32(1, n), b16b(1, n), b16(1, n);
    for (std::size_t i = 0; i < n; ++i) {
        const double x = std::strtod(in.values[i].c_str(), nullptr);
        // a NaN's sign and payload are the implementation's (IEEE 754): only being one counts, -1
        const auto pattern = [&](FloatFormat f) {
            return std::isnan(to_format(x, f)) ? -1.0 : static_cast<double>(to_format_bits(x, f));
        };
        b32(0, i) = pattern(FloatFormat::Float32);
        b16b(0, i) = pattern(FloatFormat::BFloat16);
        b16(0, i) = pattern(FloatFormat::Float16);
    }
    ch.record("rounding_float32_bits", b32, Shape::Vector, 0.0);
    ch.record("rounding_bfloat16_bits", b16b, Shape::Vector, 0.0);
    ch.record("rounding_float16_bits", b16, Shape::Vector, 0.0);
    ch.say(tr("{} of the data file — ties, subnormals, overflow, infinities and NaN are what it "
              "is there for — rounded to nearest, ties to even, on their bits "
              "(src/core/number_formats.cpp), and compared with PyTorch's bit patterns one for "
              "one (--check). A few examples:",
              count_of(n, N_("{} number"), N_("{} numbers"))));
    Table t({tr("float64"), "float32", "bfloat16", "float16"});
    for (const double x : {1.0 + std::ldexp(1.0, -8), 1.0 + 3 * std::ldexp(1.0, -8),
                           1.0 + std::ldexp(1.0, -11), std::ldexp(1.0, -25), 3 * std::ldexp(1.0, -25),
                           65519.0, 65520.0, -1e9})
        t.add({general(x, 17), general(to_format(x, FloatFormat::Float32), 9),
               general(to_format(x, FloatFormat::BFloat16), 9),
               general(to_format(x, FloatFormat::Float16), 9)});
    ch.table(t);
    ch.say(tr("1 + 2^−8 lies halfway between two bfloat16 neighbours, 1 and 1 + 2^−7: the tie goes "
              "to the even mantissa, 1; 1 + 3·2^−8 goes up. 2^−25 is half float16's smallest "
              "subnormal and goes to 0; 65,520 is halfway past float16's largest, 65,504, and "
              "goes to infinity, as does −1e9."));
    const double twice = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
    const double direct = value_of_bits(round_bits(twice, 8, 7), 8, 7);
    ch.say(tr("Through float32, as PyTorch goes, 1 + 2^−8 + 2^−30 becomes {} in bfloat16; rounded "
              "once, straight from float64, it would be {}: float32 first rounds it onto the tie, "
              "which then goes to even. Two roundings are not always one.",
              general(to_format(twice, FloatFormat::BFloat16), 9), general(direct, 9)));
}

// --- the tutorial's numbers ----------------------------------------------------------------------

// X in 8-bit groups of 32 along each row, read back as float32 values.
Matrix in_int8_rows(const Matrix& X) {
    Matrix Xq = X;
    std::vector<float> row(X.cols);
    std::vector<std::int8_t> q(X.cols);
    for (std::size_t r = 0; r < X.rows; ++r) {
        for (std::size_t c = 0; c < X.cols; ++c) row[c] = static_cast<float>(X(r, c));
        const std::vector<float> scales = quantize_row(row.data(), row.size(), q.data());
        for (std::size_t c = 0; c < X.cols; ++c)
            Xq(r, c) = static_cast<double>(static_cast<float>(q[c]) * scales[c / int8_group]);
    }
    return Xq;
}

std::string row_text(const Matrix& m, std::size_t r) {
    std::string s;
    for (std::size_t c = 0; c < m.cols; ++c) s += (c ? ", " : "") + general(m(r, c), 7);
    return s;
}

void tutorial_step(Chapter& ch, const Inputs& in) {
    ch.step(tr("01's 笔, 记, 本 in each format"));
    const double root = std::sqrt(static_cast<double>(in.X.cols));
    const Matrix scores = scale(matmul(in.X, transpose(in.X)), 1.0 / root);
    const std::size_t last = in.X.rows - 1;  // 本 in 01's example
    const std::string& token = in.tokens[last];
    Table t({tr("format"), tr("score {}·{}", token, token), tr("largest error"),
             tr("weight {}→{}", token, token), tr("largest error")});
    double worst = 0;
    for (const FloatFormat f : floats) {
        Matrix s = scores;
        for (double& x : s.data) x = to_format(x, f);
        Matrix w = softmax_rows(s);
        for (double& x : w.data) x = to_format(x, f);
        const std::string name = format_facts(f).name;
        ch.record("tutorial_scores_" + name, s);
        ch.record("tutorial_weights_" + name, w);
        worst = std::max(worst, max_abs_diff(s, scores));
        t.add({name, general(s(last, last), 9), sci(max_abs_diff(s, scores)),
               general(w(last, last), 9), sci(max_abs_diff(w, softmax_rows(scores)))});
    }
    ch.say(worst > 0 ? tr("X holds small whole numbers, exact in every format, and so does XXᵀ; "
                          "the scaled scores XXᵀ/√{} are not exact in every format:",
                          in.X.cols)
                     : tr("X holds small whole numbers, exact in every format, and so do XXᵀ and "
                          "its scaled scores XXᵀ/√{}:",
                          in.X.cols));
    ch.table(t);
    const Matrix Xq = in_int8_rows(in.X);
    ch.show("tutorial_X_int8", tr("X in 8-bit groups (one per row), read back"), Xq, in.tokens, {},
            6);
    Matrix sq = scale(matmul(Xq, transpose(Xq)), 1.0 / root);
    for (double& x : sq.data) x = static_cast<double>(static_cast<float>(x));
    ch.record("tutorial_scores_int8", sq);
    ch.say(tr("In 8 bits a row's largest number is exact (127 · max/127) and the others the "
              "nearest multiple of max/127: {}'s row ({}) comes back as {}; its scaled score with "
              "itself is {} against {}.",
              token, row_text(in.X, last), row_text(Xq, last), general(sq(last, last), 7),
              general(scores(last, last), 7)));
}

// --- where attention breaks in float16 ------------------------------------------------------------

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

void dot_products(Chapter& ch, const Inputs& in) {
    Random rng(in.seed);
    Matrix e16(1, in.dot_lengths.size()), e32(1, in.dot_lengths.size());
    Table t({"d", tr("summed in float16"), tr("summed in float32"), tr("float16's u")});
    for (std::size_t i = 0; i < in.dot_lengths.size(); ++i) {
        const std::size_t d = in.dot_lengths[i];
        const std::vector<float> a = uniform_row(rng, d), b = uniform_row(rng, d);
        double exact = 0;
        for (std::size_t k = 0; k < d; ++k) exact += double(a[k]) * double(b[k]);
        // relative to the exact sum; where that is 0 (a product of zeros), the error itself
        const auto relative = [&](double sum) {
            return exact != 0 ? std::fabs(sum - exact) / std::fabs(exact) : std::fabs(sum);
        };
        e16(0, i) = relative(dot_in(FloatFormat::Float16, a, b));
        e32(0, i) = relative(dot_in(FloatFormat::Float32, a, b));
        t.add({grouped(d), sci(e16(0, i)), sci(e32(0, i)),
               sci(format_facts(FloatFormat::Float16).unit_roundoff)});
    }
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

// What the scale's case found, for the reading of 02 and 04 at the end.
struct ScaleFinding {
    double largest = 0;      // the largest unscaled score
    std::size_t over = 0;    // unscaled scores past log(65,520)
};

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

// --- a model in each format ------------------------------------------------------------------------

struct FormatRow {
    double loss = 0, unchanged = 0, worst_error = 0, bytes = 0;
};

// The largest error of a stored weight, relative to its tensor's largest weight, over the
// state_dict's tensors (in_proj_weight the queries', keys' and values' together, as PyTorch holds
// them).
double largest_weight_error(const Gpt& model, const LoweredGpt& low) {
    const std::vector<TorchTensor> exact = torch_state_dict(parameters(const_cast<Gpt&>(model)));
    Gpt kept = kept_weights(model, low);
    const std::vector<TorchTensor> stored = torch_state_dict(parameters(kept));
    double worst = 0;
    for (std::size_t i = 0; i < exact.size(); ++i) {
        double largest = 0;
        for (double w : exact[i].value.data) largest = std::max(largest, std::fabs(w));
        if (largest > 0) worst = std::max(worst, max_abs_diff(stored[i].value, exact[i].value) / largest);
    }
    return worst;
}

// Of the tokens float64 writes after each prompt, those a reading writes the same before its first
// difference.
double unchanged_share(const std::vector<Tokens>& reference, const std::vector<Tokens>& written) {
    std::size_t same = 0, total = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
        std::size_t k = 0;
        while (k < reference[i].size() && k < written[i].size() && reference[i][k] == written[i][k])
            ++k;
        same += k, total += reference[i].size();
    }
    return total ? static_cast<double>(same) / static_cast<double>(total) : 1.0;
}

std::vector<FormatRow> format_table(const Gpt& model, const std::vector<Tokens>& heldout,
                                    const std::vector<Tokens>& prompts, std::size_t new_tokens,
                                    const std::vector<int>& never) {
    std::vector<FormatRow> rows;
    std::vector<Tokens> reference;
    for (const Tokens& p : prompts) reference.push_back(gpt_greedy(model, p, new_tokens, never));
    for (const Reading& r : readings) {
        FormatRow row;
        if (r.float64) {
            row = {gpt_loss_stepwise(model, heldout), 1.0, 0.0,
                   8.0 * static_cast<double>(parameter_count(model))};
        } else {
            const LoweredGpt low =
                lower(model, r.format, r.half_activations, r.quantized_activations);
            std::vector<Tokens> written;
            for (const Tokens& p : prompts) written.push_back(lowered_greedy(low, p, new_tokens, never));
            row = {lowered_loss(low, heldout), unchanged_share(reference, written),
                   largest_weight_error(model, low), static_cast<double>(low.bytes())};
        }
        rows.push_back(row);
    }
    return rows;
}

void show_format_table(Chapter& ch, const std::vector<FormatRow>& rows, const std::string& key,
                       bool golden) {
    Table t({tr("reading"), tr("largest weight error"), tr("held-out loss"),
             tr("change"), tr("greedy tokens unchanged"), tr("bytes")});
    Matrix loss(1, rows.size()), same(1, rows.size()), worst(1, rows.size()), bytes(1, rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const FormatRow& r = rows[i];
        loss(0, i) = r.loss, same(0, i) = r.unchanged, worst(0, i) = r.worst_error,
        bytes(0, i) = r.bytes;
        const std::string change =
            i == 0 ? "" : (r.loss >= rows[0].loss ? "+" : "") + sci(r.loss - rows[0].loss);
        t.add({reading_text(readings[i]), sci(r.worst_error), fixed(r.loss, 5), change,
               percent(r.unchanged), grouped(static_cast<unsigned long long>(r.bytes))});
    }
    ch.table(t);
    if (golden) {
        // float32 arithmetic in another order than PyTorch's: a loss agrees to about √n·u, where
        // 1e-5 leaves room; greedy tokens exactly (the oracle keeps every step clear of a tie).
        // Every result in float16: one rounding that falls the other way moves a number by a
        // float16 unit, 4.9e-4 of it: 1e-4 on the loss. Activations in 8 bits: one that rounds
        // the other way moves by a step, max/127 of its group: 1e-3. The weights' largest error
        // is a quotient of float32 numbers (an 8-bit group's scale among them): 1e-6.
        const auto first = [](const Matrix& m) {
            Matrix r(1, 5);
            std::copy(m.data.begin(), m.data.begin() + 5, r.data.begin());
            return r;
        };
        ch.record("heldout_loss_by_format", first(loss), Shape::Vector, 1e-5);
        ch.record("greedy_tokens_unchanged_by_format", first(same), Shape::Vector, 0.0);
        ch.record("largest_relative_error_by_format", first(worst), Shape::Vector, 1e-6);
        ch.record_number("heldout_loss_float16_throughout", loss(0, 5), 1e-4);
        ch.record_number("heldout_loss_int8_activations", loss(0, 6), 1e-3);
        ch.record_number("greedy_tokens_unchanged_float16_throughout", same(0, 5), 0.0);
        ch.record_number("greedy_tokens_unchanged_int8_activations", same(0, 6), 0.0);
    } else {
        ch.measured(key + "heldout_loss_by_format", loss);
        ch.measured(key + "greedy_tokens_unchanged_by_format", same);
        ch.measured(key + "largest_relative_error_by_format", worst);
        ch.measured(key + "model_bytes_by_format", bytes);
    }
}

void small_model_step(Chapter& ch, const Inputs& in) {
    ch.step(tr("A small trained model in each format, against PyTorch's dtypes"));
    ch.say(tr("The oracle trained a small model of chapter 12's kind ({} parameters) on chapter "
              "12's seeded Markov text, and read it in each format with PyTorch's own dtypes. "
              "Here the same, through the KV cache, in float32 (src/model/low_precision/): its "
              "loss on {} held-out sequences, and the share of the tokens float64 writes greedily "
              "after {} prompts that each reading writes the same, up to its first difference:",
              grouped(parameter_count(in.small)), in.heldout.size(), in.prompts.size()));
    show_format_table(ch, format_table(in.small, in.heldout, in.prompts, in.new_tokens, {}),
                      "", true);
}

// --- chapter 12's model in each format ------------------------------------------------------------

void poems_step(Chapter& ch, const Inputs& in, const Poet& p, std::vector<FormatRow>& rows) {
    ch.step(tr("Chapter 12's poet in each format"));
    ch.say(p.origin);
    // the first n held-out poems, each read to the window the poet was trained on (as chapter 14
    // reads them): past it, the poet predicts at positions it never saw
    const std::size_t n = std::min(in.heldout_poems, p.corpus.heldout.size());
    const std::size_t window = in.poet.windows.context + 1;  // its inputs and the next token
    std::vector<Tokens> heldout;
    for (std::size_t i = 0; i < n; ++i) {
        const Tokens& poem = p.corpus.heldout[i];
        heldout.emplace_back(poem.begin(),
                             poem.begin() + static_cast<std::ptrdiff_t>(std::min(window, poem.size())));
    }
    std::vector<Tokens> prompts;
    for (const std::string& title : in.poem_prompts)
        prompts.push_back(encode(p.corpus.vocabulary, title, false));
    rows = format_table(p.model, heldout, prompts, in.poem_new_tokens, {CharVocabulary::unknown});
    ch.say(n == 1 ? tr("{} parameters; the loss on the first held-out poem, read to its first {} "
                       "tokens as the poet was trained and as chapter 14 reads its poems; the "
                       "greedy tokens after {} titles (at most {} each):",
                       grouped(parameter_count(p.model)), in.poet.windows.context, prompts.size(),
                       count_of(in.poem_new_tokens, N_("{} token"), N_("{} tokens")))
                  : tr("{} parameters; the loss on the first {} held-out poems, each read to its "
                       "first {} tokens as the poet was trained and as chapter 14 reads its poems; "
                       "the greedy tokens after {} titles (at most {} each):",
                       grouped(parameter_count(p.model)), grouped(n), in.poet.windows.context,
                       prompts.size(), count_of(in.poem_new_tokens, N_("{} token"), N_("{} tokens"))));
    show_format_table(ch, rows, "poet_", false);
    const double f32 = rows[1].loss - rows[0].loss, int8 = rows[4].loss - rows[0].loss;
    ch.say(tr("float32 moves the held-out loss by {} nats, int8 by {}: {}.", sci(f32), sci(int8),
              std::fabs(int8) < 0.001
                  ? tr("less than a thousandth of a nat, so on average the model reads held-out "
                       "poems as well in 8 bits as in 64")
                  : tr("a cost the poems may show")));
    const double kept = rows[4].unchanged;
    ch.say(kept >= 1.0
               ? tr("With int8 weights, greedy decoding writes every token float64 writes.")
               : tr("Greedy decoding shows more: with int8 weights it writes {} of float64's "
                    "tokens before the first that differs. Where two characters are nearly tied, "
                    "a small change in a logit picks the other, and every token after it continues "
                    "another poem; the loss, an average over every token, hardly moves.",
                    percent(kept)));
    ch.say(tr("The model file in float64 is {} bytes of weights; in int8, {}.",
              grouped(static_cast<unsigned long long>(rows[0].bytes)),
              grouped(static_cast<unsigned long long>(rows[4].bytes))));
}

// --- faster because smaller ---------------------------------------------------------------------

struct Speed {
    std::string name;
    double bytes_per_token, tokens_per_second;
};

constexpr int speed_rounds = 5;

// Each format's decoding timed in rounds, every format once a round, the best of each kept: a
// machine busy for a moment slows one round of every format, not all the runs of one.
std::vector<Speed> decoding_speeds(const Gpt& model, std::size_t steps) {
    std::vector<Speed> out;
    std::vector<std::function<void()>> decodes;
    out.push_back({"float64", 8.0 * static_cast<double>(parameter_count(model)), 0.0});
    decodes.push_back([&model, steps] {
        GptKV kv = start_gpt(model);
        for (std::size_t t = 0; t < steps; ++t) gpt_step(model, kv, 1 + int(t % 5));
    });
    std::vector<LoweredGpt> lowered;
    lowered.reserve(std::size(readings));  // the decoders below keep pointers into it
    for (const Reading& r : readings) {
        if (r.float64 || r.half_activations || r.format == WeightFormat::BFloat16 ||
            r.format == WeightFormat::Float16)
            continue;  // held as float32 here: their speed is float32's
        lowered.push_back(lower(model, r.format, false, r.quantized_activations));
        const LoweredGpt& low = lowered.back();
        out.push_back({r.name, static_cast<double>(low.bytes()), 0.0});
        decodes.push_back([&low, steps] {
            LoweredKV kv = start_lowered(low);
            for (std::size_t t = 0; t < steps; ++t) lowered_step(low, kv, 1 + int(t % 5));
        });
    }
    std::vector<double> best(out.size(), std::numeric_limits<double>::infinity());
    for (int round = 0; round < speed_rounds; ++round)
        for (std::size_t i = 0; i < out.size(); ++i)
            best[i] = std::min(best[i], best_seconds(decodes[i], 1));
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i].tokens_per_second = static_cast<double>(steps) / best[i];
    return out;
}

// What the speeds say, worded from them: the bytes set the pace only where int8's speed-up comes
// near its saving in bytes (float32's bytes over int8's); otherwise the arithmetic does, and the
// three 32- and 8-bit loops, doing about the same work a weight, stay close.
void say_speed_verdict(Chapter& ch, const std::vector<Speed>& speeds) {
    const Speed &f32 = speeds[1], &int8 = speeds[2], &both = speeds[3];
    const double saving = f32.bytes_per_token / int8.bytes_per_token;
    const double speedup = int8.tokens_per_second / f32.tokens_per_second;
    const std::string bytes = fixed(int8.bytes_per_token / f32.bytes_per_token, 2);
    if (speedup >= 0.75 * saving) {
        ch.say(tr("Reading {}× float32's bytes, int8 decodes {}× as fast as float32 here, most of "
                  "the {}× its bytes would give: the bytes set the pace.",
                  bytes, fixed(speedup, 2), fixed(saving, 2)));
        return;
    }
    double fastest = 0, slowest = std::numeric_limits<double>::infinity();
    for (const Speed* s : {&f32, &int8, &both})
        fastest = std::max(fastest, s->tokens_per_second),
        slowest = std::min(slowest, s->tokens_per_second);
    ch.say(tr("int8 reads {}× float32's bytes, yet decodes at {}× float32's speed, where the bytes "
              "setting the pace would give {}×: this model's {} bytes of float32 weights fit in "
              "the processor's caches, so memory does not set the pace here, the arithmetic does. "
              "A weight costs each loop about the same — float32's one multiply-add, int8's a "
              "byte turned into a float first, int8 × int8's an integer product — so float32, "
              "int8 and int8 × int8 stay close, the fastest {}× as fast as the slowest, and which "
              "is ahead can change from run to run. make bench times the formats at llama2.c's stories15M shape, where "
              "a token reads 111 MB in float64.",
              bytes, fixed(speedup, 2), fixed(saving, 2),
              grouped(static_cast<unsigned long long>(f32.bytes_per_token)),
              fixed(fastest / slowest, 2)));
}

void speed_step(Chapter& ch, const Gpt& model) {
    ch.step(tr("Faster because smaller: decoding reads every weight once a token"));
    const std::vector<Speed> speeds = decoding_speeds(model, 64);
    ch.say(
        tr("A step of decoding multiplies one row by every weight matrix: each weight is read "
           "from memory once a token and used once, so the bytes read, more than the "
           "arithmetic, set the pace — where the weights do not fit in the processor's caches. "
           "This model, 64 tokens through the KV cache, each format timed once in each of {} "
           "rounds and the best kept, on {}:",
           speed_rounds, threads_used()));
    Table t({tr("weight format"), tr("bytes read a token"), tr("tokens per second"), tr("× float64")});
    LineChart chart{tr("decoding speed against the bytes a token reads"), tr("bytes per token"),
                    tr("tokens per second"), true, true, {}, {}};
    for (const Speed& s : speeds) {
        t.add({tr(s.name.c_str()), grouped(static_cast<unsigned long long>(s.bytes_per_token)),
               grouped(static_cast<unsigned long long>(s.tokens_per_second)),
               fixed(s.tokens_per_second / speeds[0].tokens_per_second, 2)});
        chart.series.push_back({tr(s.name.c_str()), {s.bytes_per_token}, {s.tokens_per_second}});
        ch.measured("tokens_per_second_" + s.name, s.tokens_per_second);
    }
    ch.table(t);
    say_speed_verdict(ch, speeds);
    ch.say(tr("(timings on this machine: they vary from run to run)"));
    ch.picture("ch13_speed.svg", line_chart_svg(chart));
}

void error_picture(Chapter& ch, const std::vector<FormatRow>& rows) {
    LineChart chart{tr("the largest weight error and the loss's change, against bits per weight"),
                    tr("bits per weight"), tr("relative error / nats"), false, true, {}, {}};
    // each reading a point of its own, named beside it: readings of one width are separate
    // things, not a trend to join (a line would zigzag through them in the table's order)
    Series weights{tr("largest weight error"), {}, {}}, loss{tr("|change of held-out loss|"), {}, {}};
    weights.joined = loss.joined = false;
    const double bits[] = {64, 32, 16, 16, 9, 16, 9};
    for (std::size_t i = 1; i < rows.size() && i < 7; ++i) {
        if (rows[i].worst_error > 0) {
            weights.xs.push_back(bits[i]), weights.ys.push_back(rows[i].worst_error);
            weights.labels.push_back(tr(readings[i].name));
        }
        const double change = std::fabs(rows[i].loss - rows[0].loss);
        if (change > 0) loss.xs.push_back(bits[i]), loss.ys.push_back(change);
    }
    chart.series = {weights, loss};
    ch.picture("ch13_error.svg", line_chart_svg(chart));
}

// 02 and 04 explain the scale by the softmax's gradients; in fewer bits it does more.
void tutorial_again(Chapter& ch, const Inputs& in, const ScaleFinding& scale) {
    ch.step(tr("Reading 02 and 04 on the scale again"));
    ch.say(tr("02 (为什么对点积注意力进行缩放) and 04 (scaled dot-product attention) give the 1/√d_k "
              "scale one reason: large scores push the softmax where its gradients vanish."));
    if (scale.over > 0)
        ch.say(tr("In float16 it has a second one, measured above: unscaled scores of d_k = {} "
                  "reached {}, past log(65,520) = {}, where exp stops being a number and a "
                  "softmax without the maximum subtracted returns NaN. Neither article is wrong; "
                  "in fewer bits the scale and the subtracted maximum keep attention finite.",
                  in.d_k, fixed(scale.largest, 2), fixed(std::log(65520.0), 2)));
    else
        ch.say(tr("At d_k = {} the unscaled scores above stayed below log(65,520) = {} (the "
                  "largest {}): float16 does not need the scale here; with wider heads the scores "
                  "grow as √d_k and it does.",
                  in.d_k, fixed(std::log(65520.0), 2), fixed(scale.largest, 2)));
}

// The poet is read in float16 too: a weight past float16's largest number would turn every
// float16 reading into infinities, and the table of formats into NaN. Such a model is refused
// with one line that says which weight and which format, before any of its readings.
void check_fits_float16(Poet& p) {
    const auto [name, largest] = largest_weight(p.model);
    if (!(largest <= float16_largest))
        throw std::runtime_error(tr("{}: its weight {} is {}, past float16's largest number, "
                                    "65,504: this chapter's float16 readings of it would "
                                    "overflow to infinity; expected weights that float16 holds",
                                    p.origin, name, general(largest, 6)));
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data, ch.options);
    // the last steps are measured on chapter 12's model, and timed (not under --check)
    std::optional<Poet> p = named_poet(ch.options, in.poet, "ch13");  // before any narration
    if (p) check_fits_float16(*p);
    formats_step(ch);
    rounding_step(ch, in);
    tutorial_step(ch, in);
    const ScaleFinding scale = breaking_step(ch, in);
    small_model_step(ch, in);
    if (ch.options.check) return;
    if (!p) {
        p = poet_from_flags(ch.options, in.poet, "ch13");
        check_fits_float16(*p);
    }
    std::vector<FormatRow> rows;
    poems_step(ch, in, *p, rows);
    error_picture(ch, rows);
    speed_step(ch, p->model);
    tutorial_again(ch, in, scale);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch13_precision",
        N_("numbers in fewer bits: float32, bfloat16, float16 and 8-bit integers, where attention "
           "breaks in them, a trained model in each against float64, and why smaller decodes "
           "faster"),
        N_("02's and 04's reasons for the 1/√d_k scale, read again in float16"),
        {svg_flag(),
         {"--weights", "FILE",
          N_("the model to read in each format (default: build/ch12_gpt_model.json, or one "
             "trained here for a few steps)")},
         {"--corpus", "NAME",
          N_("train chapter 12's kind of model here, on this corpus (as ch12's --corpus), "
             "instead of reading a saved one")},
         {"--steps", "N", N_("train N steps instead of the data file's")}}};
    return run_chapter(argc, argv, info, walkthrough);
}
