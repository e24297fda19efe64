// test_measure.cpp — timing medians and bests, and fitted exponents.
#include <doctest/doctest.h>

#include <chrono>

#include "report/measure.h"

TEST_CASE("a fitted exponent recovers the power of a power law") {
    CHECK(fitted_exponent({1, 2, 4, 8}, {3, 12, 48, 192}) == doctest::Approx(2.0).epsilon(1e-12));
    CHECK(fitted_exponent({10, 100}, {5, 50}) == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(fitted_exponent({2, 4, 8}, {1, 8, 64}) == doctest::Approx(3.0).epsilon(1e-12));
}

TEST_CASE("median_seconds runs at least the asked number of times") {
    int runs = 0;
    const double t = median_seconds([&] { ++runs; }, 5);
    CHECK(runs == 5);
    CHECK(t >= 0.0);
}

TEST_CASE("best_seconds runs the asked number of times and keeps the fastest") {
    int runs = 0;
    // the first call waits about 20 ms, the others return at once: the best is far below it
    const double t = best_seconds(
        [&] {
            if (runs++ == 0) {
                const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
                while (std::chrono::steady_clock::now() < until) {
                }
            }
        },
        4);
    CHECK(runs == 4);
    CHECK(t >= 0.0);
    CHECK(t < 0.01);
}
