// golden_ch02.cpp — the 笔/记/本 example against the oracle's values in
// data/ch02_self_attention.json. Remove the 1/√d_k in src/attention.cpp and the "scaled" and
// "projected" checks go red.
#include <doctest/doctest.h>

#include "model/attention/attention.h"
#include "core/matmul.h"
#include "helpers.h"

TEST_CASE("ch02 golden: the tutorial's unscaled hand calculation") {
    const DataFile data = DataFile::load("data/ch02_self_attention.json");
    const Matrix X = data.matrix("inputs.X");
    const AttentionResult r = attention_with_scale(X, X, X, 1.0);
    check_close(transpose(X), data, "Xt");
    check_close(r.scores, data, "XXt");
    check_close(r.weights, data, "softmax_XXt");
    check_close(r.output, data, "output_unscaled");
}

TEST_CASE("ch02 golden: scaled by 1/√d_k, and with projections") {
    const DataFile data = DataFile::load("data/ch02_self_attention.json");
    const Matrix X = data.matrix("inputs.X");
    const AttentionResult s = attention(X, X, X);
    check_close(s.scores, data, "scores_scaled");
    check_close(s.weights, data, "softmax_scaled");
    check_close(s.output, data, "output_scaled");
    const Matrix Q = matmul(X, data.matrix("inputs.W_Q"));
    const Matrix K = matmul(X, data.matrix("inputs.W_K"));
    const Matrix V = matmul(X, data.matrix("inputs.W_V"));
    check_close(Q, data, "Q");
    const AttentionResult p = attention(Q, K, V);
    check_close(p.scores, data, "scores_projected");
    check_close(p.weights, data, "weights_projected");
    check_close(p.output, data, "output_projected");
}

TEST_CASE("ch02 golden: the oracle finds exactly three errata in the tutorial's softmax(XXᵀ)") {
    const DataFile data = DataFile::load("data/ch02_self_attention.json");
    REQUIRE(data.length("tutorial.errata") == 3);
    for (std::size_t i = 0; i < 3; ++i)
        CHECK(data.text("tutorial.errata[" + std::to_string(i) + "].name") == "softmax_XXt");
}
