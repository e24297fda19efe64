// test_masks.cpp — causal and padding masks, and what they do to attention.
#include <doctest/doctest.h>

#include <cmath>

#include "model/attention/attention.h"
#include "model/attention/masks.h"
#include "core/random.h"

TEST_CASE("the causal mask hides exactly the keys after each query") {
    const Matrix m = causal_mask(4);
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 4; ++j) CHECK((j > i ? m(i, j) == masked : m(i, j) == 0.0));
    CHECK(hidden_positions(m)(0, 3) == 1.0);
    CHECK(hidden_positions(m)(3, 0) == 0.0);
}

TEST_CASE("the padding mask hides flagged keys in every row") {
    const Matrix m = padding_mask(2, padding_after(1, 3));
    CHECK(m(0, 0) == 0.0);
    CHECK(m(1, 1) == masked);
    CHECK(m(1, 2) == masked);
    CHECK(padding_after(5, 3) == std::vector<bool>{false, false, false});
}

TEST_CASE("causal attention row t equals attention over the prefix 0..t") {
    Random rng(11);
    Matrix X(6, 4);
    for (double& x : X.data) x = rng.normal();
    const Matrix out = attention(X, X, X, causal_mask(6)).output;
    for (std::size_t t = 0; t < 6; ++t) {
        Matrix P(t + 1, 4);
        for (std::size_t r = 0; r <= t; ++r)
            for (std::size_t c = 0; c < 4; ++c) P(r, c) = X(r, c);
        const Matrix o = attention(row_of(X, t), P, P).output;
        CHECK(max_abs_diff(o, row_of(out, t)) <= 1e-12);
    }
}

TEST_CASE("a row with every key masked gives zero weights and a zero output, never NaN") {
    const Matrix X{{1, 2}, {3, 4}, {5, 6}};
    const Matrix mask = add(causal_mask(3), padding_mask(3, {true, false, false}));
    const AttentionResult a = attention(X, X, X, mask);
    for (std::size_t j = 0; j < 3; ++j) CHECK(a.weights(0, j) == 0.0);
    CHECK(a.output(0, 0) == 0.0);
    CHECK(a.output(0, 1) == 0.0);
    CHECK(a.weights(1, 1) == 1.0);  // row 1 sees only key 1
    for (double x : a.output.data) CHECK(std::isfinite(x));
}
