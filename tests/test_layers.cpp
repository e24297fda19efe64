// test_layers.cpp — linear, ReLU, LayerNorm (nn.LayerNorm semantics) and the feed-forward net.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "model/multi_head/linear.h"
#include "model/transformer/feed_forward.h"
#include "model/transformer/norms.h"

TEST_CASE("linear is x·W + b, and b may be absent") {
    const Matrix x{{1, 2}};
    const Matrix W{{1, 0, 2}, {0, 1, 3}};
    CHECK(linear(x, W, Matrix{{10, 20, 30}}).data == std::vector<double>{11, 22, 38});
    CHECK(linear(x, W, Matrix()).data == std::vector<double>{1, 2, 8});
    CHECK_THROWS_AS(linear(x, W, Matrix{{1, 2}}), std::invalid_argument);
}

TEST_CASE("LayerNorm by hand: biased variance, eps inside the square root") {
    // row [1, 2, 3, 6]: mean 3, biased variance (4 + 1 + 0 + 9) / 4 = 3.5
    const Norm n{Matrix{{1, 1, 1, 1}}, Matrix{{0, 0, 0, 0}}, 1e-5};
    const Matrix y = layer_norm(Matrix{{1, 2, 3, 6}}, n);
    const double s = std::sqrt(3.5 + 1e-5);
    CHECK(y(0, 0) == doctest::Approx(-2 / s).epsilon(1e-14));
    CHECK(y(0, 3) == doctest::Approx(3 / s).epsilon(1e-14));
    // the unbiased variance (÷ 3) or eps outside the root would give other numbers
    CHECK(std::fabs(y(0, 0) - (-2 / std::sqrt(14.0 / 3))) > 1e-3);
    CHECK(std::fabs(y(0, 0) - (-2 / (std::sqrt(3.5) + 1e-5))) > 1e-9);
    // gain and bias scale and shift each column
    const Norm g{Matrix{{2, 2, 2, 2}}, Matrix{{1, 0, 0, 0}}, 1e-5};
    CHECK(layer_norm(Matrix{{1, 2, 3, 6}}, g)(0, 0) == doctest::Approx(1 - 4 / s).epsilon(1e-14));
}

TEST_CASE("LayerNorm of a constant row is the bias (eps keeps it finite)") {
    const Norm n{Matrix{{3, 3}}, Matrix{{0.5, -1}}, 1e-5};
    const Matrix y = layer_norm(Matrix{{7, 7}}, n);
    CHECK(y(0, 0) == 0.5);
    CHECK(y(0, 1) == -1);
    CHECK_THROWS_AS(layer_norm(Matrix{{1, 2, 3}}, n), std::invalid_argument);
}

TEST_CASE("the feed-forward net is relu(x·W1 + b1)·W2 + b2, position by position") {
    const FeedForward f{Matrix{{1, -1}}, Matrix{{0, 0.5}}, Matrix{{2}, {3}}, Matrix{{1}}};
    // x = 2: hidden [2, -1.5] -> relu [2, 0] -> 2·2 + 0·3 + 1 = 5
    // x = -1: hidden [-1, 1.5] -> relu [0, 1.5] -> 4.5 + 1 = 5.5
    const Matrix y = feed_forward(Matrix{{2}, {-1}}, f);
    CHECK(y(0, 0) == 5);
    CHECK(y(1, 0) == 5.5);
    CHECK(relu(Matrix{{-1, 0, 2}}).data == std::vector<double>{0, 0, 2});
}

TEST_CASE("BatchNorm, for comparison: each column over the rows, biased variance, eps inside") {
    // column 0: [1, 3] -> mean 2, biased variance 1; column 1 constant -> 0
    const Matrix y = batch_norm(Matrix{{1, 5}, {3, 5}});
    const double s = std::sqrt(1.0 + 1e-5);
    CHECK(y(0, 0) == doctest::Approx(-1 / s).epsilon(1e-14));
    CHECK(y(1, 0) == doctest::Approx(1 / s).epsilon(1e-14));
    CHECK(y(0, 1) == 0.0);
}
