// test_attention.cpp — scaled dot-product attention on cases small enough to do by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "model/attention/attention.h"

TEST_CASE("equal scores give the plain average of the values") {
    const Matrix Q{{0, 0}};
    const Matrix K{{1, 2}, {3, 4}, {5, 6}};
    const Matrix V{{3, 0}, {6, 3}, {9, 9}};
    const AttentionResult r = attention(Q, K, V);
    CHECK(r.weights(0, 0) == doctest::Approx(1.0 / 3).epsilon(1e-15));
    CHECK(r.output(0, 0) == doctest::Approx(6.0).epsilon(1e-15));
    CHECK(r.output(0, 1) == doctest::Approx(4.0).epsilon(1e-15));
}

TEST_CASE("the scores are divided by √d_k") {
    // d_k = 4: q·k1 = 4, q·k2 = 0 -> scaled scores 2 and 0
    const Matrix Q{{1, 1, 1, 1}};
    const Matrix K{{1, 1, 1, 1}, {0, 0, 0, 0}};
    const Matrix V{{1}, {0}};
    const AttentionResult r = attention(Q, K, V);
    CHECK(r.scores(0, 0) == 2.0);
    CHECK(r.scores(0, 1) == 0.0);
    const double w = std::exp(2.0) / (std::exp(2.0) + 1.0);
    CHECK(r.output(0, 0) == doctest::Approx(w).epsilon(1e-15));
    // unscaled: scores 4 and 0
    CHECK(attention_with_scale(Q, K, V, 1.0).scores(0, 0) == 4.0);
}

TEST_CASE("an additive -inf mask hides a key completely") {
    const double inf = std::numeric_limits<double>::infinity();
    const Matrix Q{{1, 0}, {0, 1}};
    const Matrix K{{1, 0}, {0, 1}};
    const Matrix V{{10}, {20}};
    const AttentionResult r = attention(Q, K, V, Matrix{{0, -inf}, {-inf, -inf}});
    CHECK(r.weights(0, 0) == 1.0);
    CHECK(r.output(0, 0) == 10.0);
    // every key hidden: zero weights and a zero output, never NaN
    CHECK(r.weights(1, 0) == 0.0);
    CHECK(r.weights(1, 1) == 0.0);
    CHECK(r.output(1, 0) == 0.0);
}

TEST_CASE("attention rejects shapes that do not fit") {
    CHECK_THROWS_AS(attention(Matrix(2, 3), Matrix(2, 4), Matrix(2, 4)), std::invalid_argument);
    CHECK_THROWS_AS(attention(Matrix(2, 3), Matrix(2, 3), Matrix(3, 3)), std::invalid_argument);
    CHECK_THROWS_AS(attention(Matrix(2, 3), Matrix(2, 3), Matrix(2, 3), Matrix(3, 3)),
                    std::invalid_argument);
}
