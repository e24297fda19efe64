// test_elementary.cpp — e^x, ln x, sin x and cos x by hand (core/elementary.h): within one unit
// in the last place of the exact value, on a million arguments measured against a wider
// reference; the special values; bit patterns that any machine must reproduce.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "core/elementary.h"
#include "core/matrix.h"

namespace {

// |got − exact| in units of the last place of the exact value (its binade's spacing); the
// exact value is long double's, which carries 11 more bits than a double on x86-64 and 59
// more on arm64 Linux (where long double is a double, as on macOS, there is nothing wider).
double ulps_from(double got, long double exact) {
    if (static_cast<long double>(got) == exact) return 0.0;
    int e = 0;
    std::frexp(static_cast<double>(exact), &e);
    const long double unit = std::ldexp(1.0L, std::max(e - 53, -1074));
    return static_cast<double>(std::fabs(static_cast<long double>(got) - exact) / unit);
}

constexpr bool wider_reference = std::numeric_limits<long double>::digits > 53;

struct Worst {
    double ulps = 0, at = 0;
    long correctly_rounded = 0, count = 0;
    void add(double x, double got, long double exact) {
        const double u = ulps_from(got, exact);
        if (u > ulps) ulps = u, at = x;
        correctly_rounded += got == static_cast<double>(exact);
        ++count;
    }
};

}  // namespace

TEST_CASE("e^x and ln x by hand: within one ulp of the exact value, a million arguments each") {
    if (!wider_reference) {
        MESSAGE("long double is a double here: no wider reference to measure against");
        return;
    }
    std::mt19937_64 rng(2026);
    std::uniform_real_distribution<double> wide(-745.0, 709.7), narrow(-10.0, 10.0);
    std::uniform_int_distribution<int> binade(-1074, 1023);
    Worst e, l;
    for (int i = 0; i < 1000000; ++i) {
        const double x = i % 2 ? wide(rng) : narrow(rng);
        e.add(x, elementary::exp(x), std::exp(static_cast<long double>(x)));
        const double y = std::ldexp(1.0 + static_cast<double>(rng() >> 11) * 0x1p-53, binade(rng));
        l.add(y, elementary::log(y), std::log(static_cast<long double>(y)));
    }
    MESSAGE("exp: at most ", e.ulps, " ulp (at ", e.at, "), ", e.correctly_rounded, " of ", e.count,
            " correctly rounded");
    MESSAGE("log: at most ", l.ulps, " ulp (at ", l.at, "), ", l.correctly_rounded, " of ", l.count,
            " correctly rounded");
    CHECK(e.ulps < 1.0);
    CHECK(l.ulps < 1.0);
    CHECK(e.correctly_rounded > 0.9 * e.count);  // most land on the nearest double
    CHECK(l.correctly_rounded > 0.95 * l.count);
}

TEST_CASE("sin and cos by hand: within one ulp for |x| up to 2^20, a million arguments") {
    if (!wider_reference) {
        MESSAGE("long double is a double here: no wider reference to measure against");
        return;
    }
    std::mt19937_64 rng(7);
    Worst s, c;
    for (const double range : {0.8, 10.0, 10000.0, 1000000.0}) {
        std::uniform_real_distribution<double> u(-range, range);
        for (int i = 0; i < 250000; ++i) {
            const double x = u(rng);
            double sx = 0, cx = 0;
            elementary::sin_cos(x, sx, cx);
            s.add(x, sx, std::sin(static_cast<long double>(x)));
            c.add(x, cx, std::cos(static_cast<long double>(x)));
        }
    }
    MESSAGE("sin: at most ", s.ulps, " ulp (at ", s.at, "); cos: at most ", c.ulps, " ulp (at ", c.at,
            ")");
    CHECK(s.ulps < 1.0);
    CHECK(c.ulps < 1.0);
    CHECK(s.correctly_rounded > 0.95 * s.count);
    CHECK(c.correctly_rounded > 0.95 * c.count);
}

TEST_CASE("special values: zeros, infinities, NaN, the edges of the range") {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    CHECK(elementary::exp(0.0) == 1.0);
    CHECK(elementary::exp(-inf) == 0.0);  // a masked score's weight
    CHECK(elementary::exp(inf) == inf);
    CHECK(std::isnan(elementary::exp(nan)));
    CHECK(elementary::exp(709.78) < inf);
    CHECK(elementary::exp(709.79) == inf);
    CHECK(elementary::exp(-745.13) == 0x1p-1074);  // the smallest subnormal
    CHECK(elementary::exp(-745.14) == 0.0);
    CHECK(elementary::log(1.0) == 0.0);
    CHECK(elementary::log(0.0) == -inf);
    CHECK(elementary::log(inf) == inf);
    CHECK(std::isnan(elementary::log(-1.0)));
    CHECK(std::isnan(elementary::log(nan)));
    CHECK(elementary::log(0x1p-1074) == -0x1.74385446d71c3p+9);  // a subnormal argument
    CHECK(elementary::sin(0.0) == 0.0);
    CHECK(std::signbit(elementary::sin(-0.0)));
    CHECK(elementary::cos(0.0) == 1.0);
    CHECK(std::isnan(elementary::sin(nan)));
}

TEST_CASE("the bits a machine must reproduce: correctly rounded values, worked out exactly") {
    // each the double nearest the exact value (computed to 40 digits elsewhere and rounded):
    // any machine running this code gives these bits
    CHECK(elementary::exp(1.0) == 0x1.5bf0a8b145769p+1);      // e
    CHECK(elementary::exp(-1.0) == 0x1.78b56362cef38p-2);     // 1/e
    CHECK(elementary::log(2.0) == 0x1.62e42fefa39efp-1);      // ln 2
    CHECK(elementary::log(10.0) == 0x1.26bb1bbb55516p+1);     // ln 10
    CHECK(elementary::sin(0.5) == 0x1.eaee8744b05fp-2);       // sin ½
    CHECK(elementary::cos(0.5) == 0x1.c1528065b7d5p-1);       // cos ½
    CHECK(elementary::sin(355.0) == -0x1.f9bd0307d1de3p-16);  // 355 is nearly 113π
}

TEST_CASE("exp in a loop (vector registers) gives the bits of exp called one at a time") {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-50.0, 5.0);
    std::vector<double> x(4099), y(x.size());
    for (double& v : x) v = u(rng);
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = elementary::exp(x[i]);  // vectorised
    std::size_t same = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        volatile double xi = x[i];  // one value at a time, never in a vector
        same += elementary::exp(xi) == y[i];
    }
    CHECK(same == x.size());
    // and the softmax built on it: a row of −∞ but one gives weight 1 there, 0 elsewhere
    const double inf = std::numeric_limits<double>::infinity();
    const Matrix w = softmax_rows(Matrix{{-inf, 3.0, -inf}});
    CHECK(w.data == std::vector<double>{0.0, 1.0, 0.0});
}
