// test_unlikelihood.cpp — chapter 12's penalty on repeating the token just read
// (model/gpt/unlikelihood.h): which rows it counts, that it stays finite where the model is sure
// of the repeat, and its gradient against finite differences (the oracle checks it against
// autograd on chapter 12's tiny models).
#include <doctest/doctest.h>

#include <cmath>

#include "model/gpt/unlikelihood.h"

namespace {

// −log(1 − softmax(row)[c]), directly
double term(const std::vector<double>& z, std::size_t c) {
    double all = 0;
    for (double x : z) all += std::exp(x);
    return -std::log(1 - std::exp(z[c]) / all);
}

}  // namespace

TEST_CASE("unlikelihood: a row pays for its token read, not where that token follows or at <pad>") {
    Matrix logits(3, 4);
    logits.data = {0.5, -1.0, 2.0, 0.25,  // read 2, next 1: penalised
                   0.5, -1.0, 2.0, 0.25,  // read 2, next 2: a doubling, left alone
                   0.5, -1.0, 2.0, 0.25};  // next <pad>: not counted
    const Tokens read = {2, 2, 2}, next = {1, 2, 0};
    const double sum = unlikelihood_sum(logits, read, next, /*pad_id=*/0);
    CHECK(sum == doctest::Approx(term({0.5, -1.0, 2.0, 0.25}, 2)).epsilon(1e-14));
}

TEST_CASE("unlikelihood: finite where the model is all but sure of the repeat") {
    Matrix logits(1, 3);
    logits.data = {0.0, 800.0, 0.0};  // p(read) rounds to 1: 1 − p would be 0, its log −∞
    CHECK(unlikelihood_sum(logits, {1}, {2}, 0) == doctest::Approx(800.0 - std::log(2.0)));
    // a gap of 40: 1 − p = 2e−18 is below a double's resolution next to 1, and so is the
    // gradient's p/(1 − p) = e^40 / 2 computed from it; computed apart from it, both are exact
    logits.data = {0.0, 40.0, 0.0};
    Matrix d(1, 3);
    const double sum = unlikelihood_sum(logits, {1}, {2}, 0, 1.0, 1.0, &d);
    CHECK(sum == doctest::Approx(40.0 - std::log(2.0)));
    const double ratio = std::exp(40.0) / 2;  // p/(1 − p)
    CHECK(d(0, 1) == doctest::Approx(ratio * (1 - 1 / (1 + 2 * std::exp(-40.0)))).epsilon(1e-9));
    CHECK(d(0, 0) == doctest::Approx(-ratio * std::exp(-40.0) / (1 + 2 * std::exp(-40.0))));
}

TEST_CASE("unlikelihood: its gradient, weighted and scaled, against central differences") {
    Matrix logits(2, 5);
    logits.data = {0.3, -0.2, 1.1, 0.7, -0.9, 0.1, 0.4, -0.6, 0.2, 0.8};
    const Tokens read = {3, 4}, next = {1, 2};
    const double weight = 0.75, scale = 0.5;
    Matrix d(2, 5);
    unlikelihood_sum(logits, read, next, 0, weight, scale, &d);
    const double h = 1e-6;
    for (std::size_t i = 0; i < logits.data.size(); ++i) {
        Matrix up = logits, down = logits;
        up.data[i] += h, down.data[i] -= h;
        const double numeric = weight * scale *
                               (unlikelihood_sum(up, read, next, 0) -
                                unlikelihood_sum(down, read, next, 0)) / (2 * h);
        CHECK(d.data[i] == doctest::Approx(numeric).epsilon(1e-7));
    }
}
