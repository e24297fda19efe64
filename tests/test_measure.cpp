// test_measure.cpp — timing medians and fitted exponents.
#include <doctest/doctest.h>

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
