// test_cost.cpp — the three layers of the paper's Table 1: their results, their counted
// multiply-adds (by hand, on small sizes), and their paths.
#include <doctest/doctest.h>

#include <cmath>

#include "core/random.h"
#include "helpers.h"
#include "model/attention/attention.h"
#include "model/layer_cost/counted_layers.h"

TEST_CASE("the counted multiply-adds, by hand on a 10 x 4 sequence") {
    Random rng(2);
    Matrix x(10, 4), W(4, 4);
    for (double& v : x.data) v = rng.normal();
    for (double& v : W.data) v = 0.1 * rng.normal();
    // scores: 10·10 dot products of length 4; weights·x: 10 rows, each 10 rows of width 4
    CHECK(self_attention_layer(x).multiply_adds == 400 + 400);
    // per step: h (4) times W_h (4 x 4) and x_t (4) times W_x (4 x 4)
    const LayerRun rnn = recurrent_layer(x, W, W);
    CHECK(rnn.multiply_adds == 10 * (16 + 16));
    CHECK(rnn.sequential_steps == 10);
    // 3 taps at each of 10 positions, each a (1 x 4)·(4 x 4) product, padding included
    CHECK(convolution_layer(x, {W, W, W}).multiply_adds == 3 * 10 * 16);
    CHECK(convolution_layer(x, {W, W, W}).sequential_steps == 1);
}

TEST_CASE("the layers compute what they claim") {
    const Matrix x{{1, 0}, {0, 1}, {1, 1}};
    Matrix I(2, 2);
    I(0, 0) = I(1, 1) = 1;
    Matrix Z(2, 2);
    // convolution with only the centre tap = identity is the identity
    CHECK(max_abs_diff(convolution_layer(x, {Z, I, Z}).output, x) == 0.0);
    // the left tap (shift −1) reads the previous position; position 0 reads zeros
    const Matrix left = convolution_layer(x, {I, Z, Z}).output;
    CHECK(left(0, 0) == 0.0);
    CHECK(left(1, 0) == 1.0);
    // an RNN with W_h = 0 is tanh(x·W_x) position by position
    const Matrix r = recurrent_layer(x, Z, I).output;
    CHECK(r(2, 1) == doctest::Approx(std::tanh(1.0)).epsilon(1e-15));
    // and with W_h = I it carries the previous state: h_1 = tanh(h_0 + x_1)
    CHECK(recurrent_layer(x, I, I).output(1, 0) ==
          doctest::Approx(std::tanh(std::tanh(1.0))).epsilon(1e-15));
    CHECK(max_abs_diff(self_attention_layer(x).output, attention(x, x, x).output) == 0.0);
}

TEST_CASE("path lengths, by hand: a centred kernel reaches ⌊k/2⌋ positions further each layer") {
    CHECK(maximum_path_length(LayerType::SelfAttention, 512, 3) == 1);
    CHECK(maximum_path_length(LayerType::Recurrent, 512, 3) == 512);
    CHECK(maximum_path_length(LayerType::Convolution, 512, 3) == 511);  // one position a layer
    CHECK(maximum_path_length(LayerType::Convolution, 9, 5) == 4);      // ⌈8 / 2⌉
    CHECK(maximum_path_length(LayerType::Convolution, 10, 4) == 5);  // taps −2 … +1: ⌈9 / 2⌉
    CHECK(tap_position(0, 0, 3) == -1);  // the left tap of position 0 reads the padding
    CHECK(tap_position(4, 2, 3) == 5);
}

TEST_CASE("ch08 golden: counts on the data file's grid equal the oracle's formulas") {
    const DataFile data = DataFile::load("data/ch08_cost.json");
    const std::vector<std::size_t> ns = data.sizes("inputs.ns", 1, 1 << 14),
                                   ds = data.sizes("inputs.ds", 1, 1 << 12);
    Matrix att(ns.size(), ds.size()), rec(ns.size(), ds.size()), conv(ns.size(), ds.size());
    for (std::size_t a = 0; a < ns.size(); ++a)
        for (std::size_t b = 0; b < ds.size(); ++b) {
            const Matrix x(ns[a], ds[b]), W(ds[b], ds[b]);
            att(a, b) = static_cast<double>(self_attention_layer(x).multiply_adds);
            rec(a, b) = static_cast<double>(recurrent_layer(x, W, W).multiply_adds);
            conv(a, b) = static_cast<double>(convolution_layer(x, {W, W, W}).multiply_adds);
        }
    check_close(att, data, "attention_multiply_adds");
    check_close(rec, data, "recurrent_multiply_adds");
    check_close(conv, data, "convolution_multiply_adds");
}
