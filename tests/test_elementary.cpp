// test_elementary.cpp — e^x, ln x, sin x, cos x, x^y and tanh x by hand (core/elementary.h):
// within one unit in the last place of the exact value (x^y and tanh x: correctly rounded), on a
// million arguments measured against a wider reference; the special values; bit patterns that
// any machine must reproduce.
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

// MinGW-w64's long double functions are no reference: its sinl is off by up to 5·10^6 ulp at
// |x| ≈ 10^6 (the x87 fsin instruction's reduction) and its powl by 0.6 ulp (measured under wine)
#ifdef __MINGW32__
constexpr bool wider_reference = false;
#else
constexpr bool wider_reference = std::numeric_limits<long double>::digits > 53;
#endif

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

TEST_CASE("x^y and tanh x by hand: correctly rounded, a million arguments") {
    if (!wider_reference) {
        MESSAGE("long double is a double here: no wider reference to measure against");
        return;
    }
    // long double's own pow and tanh are within about 2^−63 (x86-64): a result within 0.502
    // ulp of that is the nearest double unless the exact value lies within 0.002 ulp of a
    // midpoint, and those are counted apart
    std::mt19937_64 rng(2027);
    std::uniform_real_distribution<double> base(0.001, 20000.0), exponent(-3.0, 3.0),
        near_one(-1e-3, 1e-3), angle(-25.0, 25.0);
    Worst p, t;
    long p_near = 0, t_near = 0;
    const auto near_midpoint = [](double got, long double exact) {
        return std::fabs(ulps_from(got, exact) - 0.5) < 0.002;
    };
    for (int i = 0; i < 500000; ++i) {
        // the shapes met here: 10000^(−2i/d) (positions), θ^(−2i/d) (RoPE), 2^(−8/h) and its
        // powers (ALiBi), β^t (Adam), ((5 + n)/6)^α (the length penalty)
        double x = base(rng), y = exponent(rng);
        if (i % 3 == 0) y = std::round(100.0 * y);  // whole exponents, up to ±300
        if (i % 5 == 0) x = 1.0 + near_one(rng);    // a base near 1, as β
        const double got = elementary::pow(x, y);
        const long double exact = std::pow(static_cast<long double>(x), static_cast<long double>(y));
        if (std::fabs(exact) < 0x1p-1022L) continue;  // subnormal: rounded twice (elementary.h)
        if (std::fabs(exact) > static_cast<long double>(std::numeric_limits<double>::max())) {
            CHECK(std::isinf(got));  // beyond the largest double
            continue;
        }
        p.add(x, got, exact);
        p_near += near_midpoint(got, exact);
        double a = angle(rng);
        if (i % 4 == 0) a *= 1e-3;
        const double tanh_a = elementary::tanh(a);
        const long double tanh_exact = std::tanh(static_cast<long double>(a));
        t.add(a, tanh_a, tanh_exact);
        t_near += near_midpoint(tanh_a, tanh_exact);
    }
    MESSAGE("pow: at most ", p.ulps, " ulp (at ", p.at, "), ", p.correctly_rounded, " of ", p.count,
            " correctly rounded, ", p_near, " within 0.002 ulp of a midpoint");
    MESSAGE("tanh: at most ", t.ulps, " ulp (at ", t.at, "), ", t.correctly_rounded, " of ", t.count,
            " correctly rounded, ", t_near, " within 0.002 ulp of a midpoint");
    CHECK(p.ulps < 0.502);
    CHECK(t.ulps < 0.502);
    CHECK(p.correctly_rounded + p_near >= p.count);
    CHECK(t.correctly_rounded + t_near >= t.count);
}

TEST_CASE("x^y's special values are C's pow's") {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    const std::vector<double> values = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0,
                                        2.5, -2.5, 1e300, -1e300, 1e-310, inf, -inf, nan};
    // a special value on either side (or a negative x with a y that is not whole): what C
    // prescribes; the other pairs are ordinary arguments, measured above
    const auto special = [](double v) { return v == 0.0 || std::fabs(v) == 1.0 || !std::isfinite(v); };
    for (const double x : values)
        for (const double y : values) {
            if (!special(x) && !special(y) && !(x < 0.0 && std::trunc(y) != y)) continue;
            CAPTURE(x);
            CAPTURE(y);
            const double got = elementary::pow(x, y), want = std::pow(x, y);
            if (std::isnan(want)) {
                CHECK(std::isnan(got));
            } else {
                CHECK(got == want);
                CHECK(std::signbit(got) == std::signbit(want));
            }
        }
    CHECK(elementary::pow(2.0, 1024.0) == inf);
    CHECK(elementary::pow(2.0, -1074.0) == 0x1p-1074);
    CHECK(elementary::pow(2.0, -1076.0) == 0.0);
    CHECK(elementary::tanh(0.0) == 0.0);
    CHECK(std::signbit(elementary::tanh(-0.0)));
    CHECK(elementary::tanh(inf) == 1.0);
    CHECK(elementary::tanh(-inf) == -1.0);
    CHECK(elementary::tanh(40.0) == 1.0);
    CHECK(std::isnan(elementary::tanh(nan)));
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
    // x^y and tanh x against binary128 (libquadmath's powq and tanhq, 113 bits) rounded
    CHECK(elementary::pow(0.9, 100.0) == 0x1.bda056ed4941p-16);            // Adam's β1^t
    CHECK(elementary::pow(2.0, -8.0 / 12.0) == 0x1.428a2f98d728bp-1);      // ALiBi, 12 heads
    CHECK(elementary::pow(10000.0, -62.0 / 64.0) == 0x1.17a8e301c4436p-13);  // a position's rate
    CHECK(elementary::pow(4096.0, -0.5) == 0x1p-6);                        // exact
    // two where glibc 2.36's pow is not the nearest double (it gives the next one)
    CHECK(elementary::pow(0x1.1a9164a88d3bfp+1, -0x1.1b028bcb530fp-2) == 0x1.9b5bc0604f1b7p-1);
    CHECK(elementary::pow(0x1.234b677fce173p+1, -0x1.6e2c01e80bb01p+0) == 0x1.3bdab0afee6b3p-2);
    CHECK(elementary::tanh(0.5) == 0x1.d9353d7568af3p-2);
    CHECK(elementary::tanh(-0.75) == -0x1.45323e552f228p-1);
    CHECK(elementary::tanh(0x1.22889985f15d4p-1) == 0x1.06e73bddb4c4dp-1);  // glibc: not nearest
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
