// test_precision.cpp — chapter 13's pieces: rounding on bit patterns (float32 against the
// hardware's own conversion, bfloat16 and float16 on cases worked by hand), 8-bit groups, the
// stored weights' fast product against the textbook loop bit for bit on any thread count, and a
// model in float32 against float64.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "core/int8_groups.h"
#include "core/number_formats.h"
#include "core/random.h"
#include "core/rounded_arithmetic.h"
#include "fast/threads.h"
#include "model/attention/attention.h"
#include "model/attention/attention_float32.h"
#include "model/gpt/gpt.h"
#include "model/low_precision/lowered_gpt.h"
#include "model/transformer/config.h"
#include "model/transformer/tokens.h"

namespace {

std::uint32_t float_bits(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

}  // namespace

TEST_CASE("float32 rounding on the bits equals the hardware's conversion") {
    Random rng(71);
    for (int i = 0; i < 200000; ++i) {
        const double x = (rng.uniform() * 2 - 1) * std::ldexp(1.0, static_cast<int>(rng.uniform() * 300) - 150);
        REQUIRE(round_bits(x, 8, 23) == float_bits(static_cast<float>(x)));
        REQUIRE(value_of_bits(round_bits(x, 8, 23), 8, 23) == static_cast<double>(static_cast<float>(x)));
    }
    CHECK(round_bits(1e39, 8, 23) == float_bits(INFINITY));
    CHECK(round_bits(-0.0, 8, 23) == float_bits(-0.0f));
}

TEST_CASE("bfloat16 and float16: ties to even, subnormals, overflow, NaN") {
    const auto bf = [](double x) { return to_format(x, FloatFormat::BFloat16); };
    const auto h = [](double x) { return to_format(x, FloatFormat::Float16); };
    CHECK(bf(1 + std::ldexp(1.0, -8)) == 1.0);                              // a tie: to even
    CHECK(bf(1 + 3 * std::ldexp(1.0, -8)) == 1 + std::ldexp(1.0, -6));      // a tie: up, to even
    CHECK(h(1 + std::ldexp(1.0, -11)) == 1.0);
    CHECK(h(std::ldexp(1.0, -24)) == std::ldexp(1.0, -24));  // float16's smallest subnormal
    CHECK(h(std::ldexp(1.0, -25)) == 0.0);                   // half of it, a tie: to 0 (even)
    CHECK(h(3 * std::ldexp(1.0, -25)) == std::ldexp(1.0, -23));
    CHECK(h(65519.0) == 65504.0);
    CHECK(std::isinf(h(65520.0)));
    CHECK(std::isinf(h(-1e9)));
    CHECK(bf(-1e9) == -998244352.0);
    CHECK(std::isnan(h(NAN)));
    CHECK(to_format_bits(NAN, FloatFormat::Float16) == 0x7e00);
    // through float32, as PyTorch goes: twice rounded, where once would go up
    const double twice = 1 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
    CHECK(bf(twice) == 1.0);
    CHECK(value_of_bits(round_bits(twice, 8, 7), 8, 7) == 1 + std::ldexp(1.0, -7));
    CHECK(format_facts(FloatFormat::Float16).largest == 65504.0);
    CHECK(format_facts(FloatFormat::BFloat16).unit_roundoff == std::ldexp(1.0, -8));
}

TEST_CASE("8-bit groups: the scale is max/127, the largest number exact, a group of zeros 0") {
    const float x[5] = {3, 2, 1, -1, 0.5f};
    std::int8_t q[5];
    const float s = quantize_group(x, 5, q);
    CHECK(s == 3.0f / 127.0f);
    CHECK(q[0] == 127);
    CHECK(q[1] == 85);   // 84.67
    CHECK(q[3] == -42);  // −42.33
    CHECK(q[4] == 21);   // 21.17
    const float zeros[3] = {0, 0, 0};
    CHECK(quantize_group(zeros, 3, q) == 0.0f);
    CHECK(q[0] == 0);
}

TEST_CASE("8-bit groups along a row: groups of 32, each with its own scale") {
    // 46 numbers: a group of 32 whose largest is 2, then 14 whose largest is 0.91796875 (one of
    // the reader's numbers): in the second group that one is exact, 127 · scale
    std::vector<float> x(46, 0.5f);
    x[3] = 2.0f, x[40] = -0.91796875f;
    std::vector<std::int8_t> q(46);
    const std::vector<float> scales = quantize_row(x.data(), x.size(), q.data());
    REQUIRE(scales.size() == 2);
    CHECK(scales[0] == 2.0f / 127.0f);
    CHECK(scales[1] == 0.91796875f / 127.0f);
    CHECK(q[40] == -127);
    CHECK(static_cast<float>(q[40]) * scales[1] == -0.91796875f);
    CHECK(q[33] == 69);  // 0.5 / (0.91796875 / 127) = 69.2, in the second group's scale
}

TEST_CASE("stored weights' bytes: a byte a weight and the real columns' scales, no padding") {
    Matrix W(40, 70);  // 2 groups of rows (32 and 8), 2 panels of columns (64 and 6 of 64)
    CHECK(store_weights(W, WeightFormat::Int8).bytes() == 40 * 70 + 4 * 2 * 70);
    CHECK(store_weights(W, WeightFormat::Float32).bytes() == 4 * 40 * 70);
    CHECK(store_weights(W, WeightFormat::Float16).bytes() == 2 * 40 * 70);
}

TEST_CASE("stored weights: the panel product equals the textbook loop, bit for bit, any threads") {
    Random rng(5);
    const int before = thread_count();
    for (const WeightFormat f : {WeightFormat::Float32, WeightFormat::BFloat16,
                                 WeightFormat::Float16, WeightFormat::Int8})
        for (const bool quantized_x : {false, true}) {
            if (quantized_x && f != WeightFormat::Int8) continue;
            Matrix W(45, 150);  // a partial group of rows, a partial panel of columns
            for (double& w : W.data) w = rng.normal();
            std::vector<float> x(45);
            for (float& v : x) v = static_cast<float>(rng.normal());
            const StoredWeights s = store_weights(W, f);
            std::vector<float> naive(150), fast(150);
            times_stored_naive(x.data(), s, naive.data(), quantized_x);
            for (const int threads : {1, 2, 3}) {
                set_thread_count(threads);
                times_stored(x.data(), s, fast.data(), quantized_x);
                CHECK(std::memcmp(naive.data(), fast.data(), sizeof(float) * 150) == 0);
            }
            set_thread_count(before);
            // and near the float64 product: within the format's error
            double worst = 0, largest = 0;
            for (std::size_t j = 0; j < 150; ++j) {
                double exact = 0;
                for (std::size_t p = 0; p < 45; ++p) exact += double(x[p]) * W(p, j);
                worst = std::max(worst, std::fabs(exact - naive[j]));
                largest = std::max(largest, std::fabs(exact));
            }
            CHECK(worst / largest < (f == WeightFormat::Float32 ? 1e-6 : 0.02));
        }
}

TEST_CASE("stored weights: products of one x together, each the textbook loop's bits, any threads") {
    // a layer's queries, keys and values at once; widths of 700, 5 and 900 columns (partial
    // panels, one of them alone), enough work in all that the threads share it out
    Random rng(6);
    const int before = thread_count();
    const std::size_t rows = 45, widths[] = {700, 5, 900};
    for (const WeightFormat f : {WeightFormat::Float32, WeightFormat::Int8})
        for (const bool quantized_x : {false, true}) {
            if (quantized_x && f != WeightFormat::Int8) continue;
            std::vector<float> x(rows);
            for (float& v : x) v = static_cast<float>(rng.normal());
            std::vector<StoredWeights> stored;
            std::vector<std::vector<float>> naive;
            for (const std::size_t cols : widths) {
                Matrix W(rows, cols);
                for (double& w : W.data) w = rng.normal();
                stored.push_back(store_weights(W, f));
                naive.emplace_back(cols);
                times_stored_naive(x.data(), stored.back(), naive.back().data(), quantized_x);
            }
            for (const int threads : {1, 2, 3}) {
                set_thread_count(threads);
                std::vector<std::vector<float>> together;
                std::vector<StoredProduct> products;
                for (std::size_t i = 0; i < stored.size(); ++i) {
                    together.emplace_back(widths[i], -1.0f);
                    products.push_back({&stored[i], together.back().data()});
                }
                times_stored_together(x.data(), products, quantized_x);
                for (std::size_t i = 0; i < stored.size(); ++i) {
                    CAPTURE(threads);
                    CAPTURE(i);
                    CHECK(std::memcmp(naive[i].data(), together[i].data(),
                                      sizeof(float) * widths[i]) == 0);
                }
            }
            set_thread_count(before);
        }
    // x has one length: a matrix of other rows is refused, nothing written
    const StoredWeights a = store_weights(Matrix(4, 3), WeightFormat::Float32),
                        b = store_weights(Matrix(5, 3), WeightFormat::Float32);
    std::vector<float> x(4, 1.0f), ya(3, 7.0f), yb(3, 7.0f);
    CHECK_THROWS_WITH(times_stored_together(x.data(), {{&a, ya.data()}, {&b, yb.data()}}),
                      "times_stored_together: matrices of 4 and 5 rows for one x");
    CHECK(ya == std::vector<float>(3, 7.0f));
}

namespace {

// A decoder-only model of 2 blocks, 4 heads over 2 key/value heads, 13 tokens: tied or not.
TransformerConfig small_decoder(bool tied) {
    TransformerConfig c;
    c.d_model = 16, c.n_heads = 4, c.n_kv_heads = 2, c.d_ff = 40;
    c.n_encoder_layers = 0, c.n_decoder_layers = 2, c.tgt_vocab = c.src_vocab = 13;
    c.norm = NormKind::RMS, c.norm_first = true, c.positions = PositionScheme::Rope;
    c.share_embeddings = tied;
    return c;
}

}  // namespace

TEST_CASE("a decoder-only model in float32: the loss and greedy tokens of float64's") {
    const Gpt g = random_gpt(small_decoder(true), 3);
    const std::vector<Tokens> held = {{1, 5, 6, 7, 8, 2}, {1, 9, 10, 11, 2}};
    const double exact = gpt_loss_stepwise(g, held);
    CHECK(std::fabs(lowered_loss(lower(g, WeightFormat::Float32), held) - exact) < 1e-5);
    CHECK(std::fabs(lowered_loss(lower(g, WeightFormat::Int8), held) - exact) < 0.05);
    // what float32 kept of each weight: within one rounding
    const LoweredGpt low = lower(g, WeightFormat::Float32);
    Gpt kept = kept_weights(g, low);
    CHECK(max_abs_diff(kept.embedding, g.embedding) <= 1e-6);
    // the float64 step through the cache gives the whole pass's loss
    const double whole = gpt_loss(g, {Tokens(held[0].begin(), held[0].end() - 1)},
                                  {Tokens(held[0].begin() + 1, held[0].end())});
    CHECK(std::fabs(gpt_loss_stepwise(g, {held[0]}) - whole) < 1e-12);
}

TEST_CASE("a decoder-only model with ALiBi in float32: each head's bias on the kept keys") {
    TransformerConfig c = small_decoder(true);
    c.positions = PositionScheme::Alibi;
    const Gpt g = random_gpt(c, 4);
    const std::vector<Tokens> held = {{1, 5, 6, 7, 8, 9, 10, 2}, {1, 9, 10, 11, 2}};
    const double exact = gpt_loss_stepwise(g, held);
    CHECK(std::fabs(lowered_loss(lower(g, WeightFormat::Float32), held) - exact) < 1e-5);
    // without the bias the loss is another: the check above can tell
    TransformerConfig none = c;
    none.positions = PositionScheme::None;
    Gpt without = g;
    without.config = none;
    CHECK(std::fabs(gpt_loss_stepwise(without, held) - exact) > 1e-3);
}

TEST_CASE("an untied model in fewer bits: both tables stored, each read where it belongs") {
    const Gpt g = random_gpt(small_decoder(false), 5);
    REQUIRE(max_abs_diff(g.output, g.embedding) > 0.1);
    const std::vector<Tokens> held = {{1, 5, 6, 7, 8, 2}, {1, 9, 10, 11, 2}};
    const double exact = gpt_loss_stepwise(g, held);
    // the float64 step through the cache is the whole pass, with its own output table
    const double whole = gpt_loss(g, {Tokens(held[0].begin(), held[0].end() - 1)},
                                  {Tokens(held[0].begin() + 1, held[0].end())});
    CHECK(std::fabs(gpt_loss_stepwise(g, {held[0]}) - whole) < 1e-12);
    const LoweredGpt low = lower(g, WeightFormat::Float32);
    CHECK(std::fabs(lowered_loss(low, held) - exact) < 1e-5);
    // were either table read in the other's place, the loss would be another
    Gpt swapped = g;
    std::swap(swapped.embedding, swapped.output);
    CHECK(std::fabs(gpt_loss_stepwise(swapped, held) - exact) > 0.01);
    const Gpt kept = kept_weights(g, low);
    CHECK(max_abs_diff(kept.embedding, g.embedding) <= 1e-6);
    CHECK(max_abs_diff(kept.output, g.output) <= 1e-6);
    // two tables of 13 x 16 weights, 4 bytes each, where the tied model keeps one
    Gpt tied = g;
    tied.config.share_embeddings = true, tied.output = Matrix();
    CHECK(low.bytes() == lower(tied, WeightFormat::Float32).bytes() + 13 * 16 * 4);
    CHECK(lowered_greedy(low, {1, 5}, 6) == gpt_greedy(g, {1, 5}, 6));
}

TEST_CASE("float16 arithmetic: the softmax overflows without its maximum, a long sum drifts") {
    const std::vector<float> naive = softmax_in(FloatFormat::Float16, {8, 10, 12}, false);
    CHECK(std::isnan(naive[2]));
    const std::vector<float> stable = softmax_in(FloatFormat::Float16, {8, 10, 12}, true);
    CHECK(std::fabs(stable[0] + stable[1] + stable[2] - 1) < 2e-3);
    std::vector<float> a(4096, 0.1f), b(4096, 0.1f);
    for (float& v : a) v = round_float(v, FloatFormat::Float16);
    for (float& v : b) v = round_float(v, FloatFormat::Float16);
    const double exact = 4096.0 * double(a[0]) * double(b[0]);
    CHECK(std::fabs(dot_in(FloatFormat::Float16, a, b) - exact) / exact > 0.01);
    CHECK(std::fabs(dot_in(FloatFormat::Float32, a, b) - exact) / exact < 1e-4);
    CHECK(!std::isfinite(variance_in(FloatFormat::Float16, {1000, 1001, 999}, false)));
    CHECK(variance_in(FloatFormat::Float16, {1000, 1001, 999}, true) ==
          doctest::Approx(2.0 / 3).epsilon(0.01));
}

TEST_CASE("keys and values kept in float32, feature by feature: attention_in_float32's bits") {
    // 2 key/value heads of width 6; up to 40 positions kept (past a block of 16 keys, and past
    // the cache's room for 16 and for 32, where its feature rows move); some keys hidden
    Random rng(7);
    const std::size_t heads = 2, d = 6;
    KeptFloat32 kept;
    kept.heads = heads, kept.d_k = kept.d_v = d;
    Matrix K(0, heads * d), V(0, heads * d);
    for (std::size_t m = 1; m <= 40; ++m) {
        std::vector<float> k(heads * d), v(heads * d);
        for (float& x : k) x = static_cast<float>(rng.uniform() * 4 - 2);
        for (float& x : v) x = static_cast<float>(rng.uniform() * 4 - 2);
        keep(kept, k, v);
        Matrix k_row(1, heads * d), v_row(1, heads * d);
        for (std::size_t c = 0; c < heads * d; ++c) k_row(0, c) = k[c], v_row(0, c) = v[c];
        append_rows(K, k_row), append_rows(V, v_row);
        REQUIRE(kept.length == m);
        Matrix q(1, d), mask(1, m);
        for (double& x : q.data) x = static_cast<float>(rng.uniform() * 4 - 2);
        for (std::size_t j = 0; j < m; ++j)
            mask(0, j) = j % 5 == 3 ? -INFINITY : 0.0;
        const std::vector<float> qf(q.data.begin(), q.data.end());
        for (bool half : {false, true})
            for (std::size_t h = 0; h < heads; ++h) {
                const AttentionResult whole =
                    attention_in_float32({q, 0, d}, {K, h * d, d}, {V, h * d, d}, mask, half);
                std::vector<float> out(d);
                attend_kept_float32(qf.data(), kept, h, mask, half, out.data());
                for (std::size_t e = 0; e < d; ++e) {
                    CAPTURE(m);
                    CAPTURE(h);
                    CAPTURE(e);
                    CAPTURE(half);
                    CHECK(out[e] == static_cast<float>(whole.output(0, e)));
                    CHECK(static_cast<double>(out[e]) == whole.output(0, e));
                }
            }
    }
}
