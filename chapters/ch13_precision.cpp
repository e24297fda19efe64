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
#include <stdexcept>
#include <string>
#include <vector>

#include "ch13_precision/float16_breaks.h"
#include "ch13_precision/inputs.h"
#include "ch13_precision/speed.h"
#include "ch13_precision/wording.h"
#include "core/int8_groups.h"
#include "core/number_formats.h"
#include "core/random.h"
#include "core/rounded_arithmetic.h"
#include "core/matmul.h"
#include "io/gpt_file.h"
#include "io/poem_corpus.h"
#include "io/saved_poet.h"
#include "model/gpt/gpt.h"
#include "model/low_precision/lowered_gpt.h"
#include "model/transformer/parameters.h"
#include "model/transformer/tokens.h"
#include "model/transformer/transformer.h"
#include "report/chapter.h"
#include "report/poet_flags.h"
#include "report/chart.h"
#include "report/measure.h"
#include "text/translate.h"
#include "train/gpt_training.h"

namespace {

const FloatFormat floats[] = {FloatFormat::Float64, FloatFormat::Float32, FloatFormat::BFloat16,
                              FloatFormat::Float16};

// --- the formats ------------------------------------------------------------------------------

void formats_step(Chapter& ch) {
    std::vector<FormatFacts> facts;
    for (const FloatFormat f : floats) facts.push_back(format_facts(f));
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
        const FormatFacts& f = facts[i];
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

// Each number of the data file rounded to float32, bfloat16 and float16: the bit patterns, a
// row each (a NaN as −1).
struct RoundedBits {
    Matrix float32, bfloat16, float16;
};
RoundedBits rounded_bits(const Inputs& in) {
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
    return {b32, b16b, b16};
}

// The examples the step shows: each a row of the float64 value and its float32, bfloat16 and
// float16 roundings.
Matrix rounding_examples() {
    const double xs[] = {1.0 + std::ldexp(1.0, -8),  1.0 + 3 * std::ldexp(1.0, -8),
                         1.0 + std::ldexp(1.0, -11), std::ldexp(1.0, -25),
                         3 * std::ldexp(1.0, -25),   65519.0,
                         65520.0,                    -1e9};
    Matrix m(8, 4);
    for (std::size_t i = 0; i < 8; ++i) {
        m(i, 0) = xs[i];
        m(i, 1) = to_format(xs[i], FloatFormat::Float32);
        m(i, 2) = to_format(xs[i], FloatFormat::BFloat16);
        m(i, 3) = to_format(xs[i], FloatFormat::Float16);
    }
    return m;
}

void rounding_step(Chapter& ch, const Inputs& in) {
    const RoundedBits bits = rounded_bits(in);
    const Matrix examples = rounding_examples();
    const double twice = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
    const double through_float32 = to_format(twice, FloatFormat::BFloat16),
                 direct = value_of_bits(round_bits(twice, 8, 7), 8, 7);
    const std::size_t n = in.values.size();
    ch.step(tr("Rounding, on the bit patterns, against PyTorch's .to(dtype)"));
    ch.record("rounding_float32_bits", bits.float32, Shape::Vector, 0.0);
    ch.record("rounding_bfloat16_bits", bits.bfloat16, Shape::Vector, 0.0);
    ch.record("rounding_float16_bits", bits.float16, Shape::Vector, 0.0);
    ch.say(tr("{} of the data file — ties, subnormals, overflow, infinities and NaN are what it "
              "is there for — rounded to nearest, ties to even, on their bits "
              "(src/core/number_formats.cpp), and compared with PyTorch's bit patterns one for "
              "one (--check). A few examples:",
              count_of(n, N_("{} number"), N_("{} numbers"))));
    Table t({tr("float64"), "float32", "bfloat16", "float16"});
    for (std::size_t i = 0; i < examples.rows; ++i)
        t.add({general(examples(i, 0), 17), general(examples(i, 1), 9), general(examples(i, 2), 9),
               general(examples(i, 3), 9)});
    ch.table(t);
    ch.say(tr("1 + 2^−8 lies halfway between two bfloat16 neighbours, 1 and 1 + 2^−7: the tie goes "
              "to the even mantissa, 1; 1 + 3·2^−8 goes up. 2^−25 is half float16's smallest "
              "subnormal and goes to 0; 65,520 is halfway past float16's largest, 65,504, and "
              "goes to infinity, as does −1e9."));
    ch.say(tr("Through float32, as PyTorch goes, 1 + 2^−8 + 2^−30 becomes {} in bfloat16; rounded "
              "once, straight from float64, it would be {}: float32 first rounds it onto the tie, "
              "which then goes to even. Two roundings are not always one.",
              general(through_float32, 9), general(direct, 9)));
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

// The tutorial's scaled scores and their weights, rounded to one format.
struct InFormat {
    Matrix scores, weights;
};
InFormat in_format(const Matrix& scores, FloatFormat f) {
    InFormat r{scores, {}};
    for (double& x : r.scores.data) x = to_format(x, f);
    r.weights = softmax_rows(r.scores);
    for (double& x : r.weights.data) x = to_format(x, f);
    return r;
}

void tutorial_step(Chapter& ch, const Inputs& in) {
    const double root = std::sqrt(static_cast<double>(in.X.cols));
    const Matrix scores = scale(matmul(in.X, transpose(in.X)), 1.0 / root);
    std::vector<InFormat> formats;
    for (const FloatFormat f : floats) formats.push_back(in_format(scores, f));
    const Matrix Xq = in_int8_rows(in.X);
    Matrix sq = scale(matmul(Xq, transpose(Xq)), 1.0 / root);
    for (double& x : sq.data) x = static_cast<double>(static_cast<float>(x));
    ch.step(tr("01's 笔, 记, 本 in each format"));
    const std::size_t last = in.X.rows - 1;  // 本 in 01's example
    const std::string& token = in.tokens[last];
    Table t({tr("format"), tr("score {}·{}", token, token), tr("largest error"),
             tr("weight {}→{}", token, token), tr("largest error")});
    double worst = 0;
    for (std::size_t i = 0; i < formats.size(); ++i) {
        const Matrix &s = formats[i].scores, &w = formats[i].weights;
        const std::string name = format_facts(floats[i]).name;
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
    ch.show("tutorial_X_int8", tr("X in 8-bit groups (one per row), read back"), Xq, in.tokens, {},
            6);
    ch.record("tutorial_scores_int8", sq);
    ch.say(tr("In 8 bits a row's largest number is exact (127 · max/127) and the others the "
              "nearest multiple of max/127: {}'s row ({}) comes back as {}; its scaled score with "
              "itself is {} against {}.",
              token, row_text(in.X, last), row_text(Xq, last), general(sq(last, last), 7),
              general(scores(last, last), 7)));
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
    Table t({tr("reading"), tr("largest weight error, of its tensor's largest"),
             tr("held-out loss"), tr("change"), tr("greedy tokens unchanged"), tr("bytes")});
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
    const std::vector<FormatRow> rows =
        format_table(in.small, in.heldout, in.prompts, in.new_tokens, {});
    ch.step(tr("A small trained model in each format, against PyTorch's dtypes"));
    ch.say(tr("The oracle trained a small model of chapter 12's kind ({} parameters) on chapter "
              "12's seeded Markov text, and read it in each format with PyTorch's own dtypes. "
              "Here the same, through the KV cache, in float32 (src/model/low_precision/): its "
              "loss on {} held-out sequences, and the share of the tokens float64 writes greedily "
              "after {} prompts that each reading writes the same, up to its first difference:",
              grouped(parameter_count(in.small)), in.heldout.size(), in.prompts.size()));
    show_format_table(ch, rows, "", true);
}

// --- chapter 12's model in each format ------------------------------------------------------------

void poems_step(Chapter& ch, const Inputs& in, const Poet& p, std::vector<FormatRow>& rows) {
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
    // a model whose weights or activations pass a format's range (weights of 60,000 overflow
    // float16 arithmetic) has no loss to compare there: refused with one line, never NaN or null
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (!std::isfinite(rows[i].loss))
            throw std::runtime_error(
                tr("{}: its held-out loss read in {} is not finite (a weight or an activation "
                   "past that format's largest number); expected a model whose every reading "
                   "here gives a finite loss",
                   p.origin, reading_text(readings[i])));
    ch.step(tr("Chapter 12's poet in each format"));
    ch.say(p.origin);
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
                  : int8 > 0 ? tr("a cost the poems may show")
                             : tr("it falls rather than rises — int8's rounding happened to suit "
                                  "these held-out poems, which is chance, not a gain")));
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

void error_picture(Chapter& ch, const std::vector<FormatRow>& rows) {
    LineChart chart{tr("the largest weight error (of its tensor's largest) and the loss's change, "
                       "against bits per weight"),
                    tr("bits per weight"), tr("relative error / nats"), false, true, {}, {}};
    // each reading a point of its own, named beside it: readings of one width are separate
    // things, not a trend to join (a line would zigzag through them in the table's order)
    Series weights{tr("largest weight error, of its tensor's largest"), {}, {}};
    Series loss{tr("|change of held-out loss|"), {}, {}};
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
