// test_measure.cpp — timing medians and bests, and fitted exponents.
#include <doctest/doctest.h>

#include <vector>

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

TEST_CASE("best_seconds times each of the asked runs and keeps the shortest") {
    // (no assertion on how long anything took: a loaded machine changes that, and the tests
    // must not depend on the clock)
    int runs = 0;
    const std::vector<double> each = seconds_each([&] { ++runs; }, 4);
    CHECK(runs == 4);
    REQUIRE(each.size() == 4);
    for (const double t : each) CHECK(t >= 0.0);
    CHECK(shortest({0.3, 0.1, 0.2}) == 0.1);
    CHECK(shortest({0.5}) == 0.5);
    CHECK(shortest({}) == 0.0);
    runs = 0;
    CHECK(best_seconds([&] { ++runs; }, 0) >= 0.0);  // at least one run
    CHECK(runs == 1);
}
