// test_fused_multiply_add.cpp — the emulated fma (WebAssembly's, core/fused_multiply_add.h)
// gives the bits of this machine's std::fma — the FMA instruction where the build has one — on
// random triples of every size, on triples built to land on ties and to cancel, and on the
// edges: signed zeros, subnormals, the largest numbers, infinities and NaN.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/fused_multiply_add.h"
#include "core/random.h"

namespace {

template <typename T>
bool same_bits(T x, T y) {
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return std::memcmp(&x, &y, sizeof x) == 0;
}

// A double with a random sign, `bits` random significant bits and an exponent in [lo, hi].
double random_double(Random& rng, int bits, int lo, int hi) {
    const std::uint64_t m = (rng.next() >> (64 - bits)) | (std::uint64_t(1) << (bits - 1));
    const int e = lo + static_cast<int>(rng.next() % static_cast<std::uint64_t>(hi - lo + 1));
    const double x = std::ldexp(static_cast<double>(m), e - bits + 1);
    return rng.next() % 2 ? -x : x;
}

// The exponent of a·b's leading bit, near enough to place c beside it.
int exponent_of_product(double a, double b) { return std::ilogb(a) + std::ilogb(b); }

// How many of the triples give other bits than std::fma; the first few printed.
std::size_t mismatches(const std::vector<double>& t) {
    std::size_t bad = 0;
    for (std::size_t i = 0; i + 2 < t.size(); i += 3) {
        const double want = std::fma(t[i], t[i + 1], t[i + 2]),
                     got = emulated_fma(t[i], t[i + 1], t[i + 2]);
        if (!same_bits(want, got) && ++bad <= 5)
            MESSAGE("fma(", t[i], ", ", t[i + 1], ", ", t[i + 2], "): ", want, " against ", got);
    }
    return bad;
}

}  // namespace

TEST_CASE("the emulated fma: random triples of every size, the bits of std::fma") {
    Random rng(2024);
    std::vector<double> t;
    for (int i = 0; i < 300000; ++i) {
        const int bits = 1 + static_cast<int>(rng.next() % 53);  // few bits: many ties
        const double a = random_double(rng, bits, -520, 520),
                     b = random_double(rng, 1 + static_cast<int>(rng.next() % 53), -520, 520);
        double c;
        switch (rng.next() % 4) {
            case 0: c = random_double(rng, 53, -1100, 1020); break;  // any size
            case 1: c = -(a * b); break;                             // cancels the product
            case 2: c = -(a * b) + random_double(rng, 20, -1074, -900) * (a * b); break;
            default: c = random_double(rng, 1 + static_cast<int>(rng.next() % 53),
                                       exponent_of_product(a, b) - 60,
                                       exponent_of_product(a, b) + 60);
        }
        t.insert(t.end(), {a, b, c});
    }
    CHECK(mismatches(t) == 0);
}

TEST_CASE("the emulated fma: near the ends of the range, the bits of std::fma") {
    Random rng(7);
    std::vector<double> t;
    for (int i = 0; i < 100000; ++i) {
        // products near overflow and near the subnormals, sums into the subnormals
        const double a = random_double(rng, 53, 400, 1023), b = random_double(rng, 53, -1074, 1023);
        const double c = rng.next() % 2 ? random_double(rng, 53, -1074, 1023) : -(a * b);
        t.insert(t.end(), {a, b, c});
        const double d = random_double(rng, 53, -1074, -400), e = random_double(rng, 53, -700, 100);
        t.insert(t.end(), {d, e, random_double(rng, 53, -1074, -900)});
    }
    CHECK(mismatches(t) == 0);
}

TEST_CASE("the emulated fma: signed zeros, subnormals, the largest, infinities and NaN") {
    const double inf = std::numeric_limits<double>::infinity(),
                 nan = std::numeric_limits<double>::quiet_NaN(),
                 tiny = std::numeric_limits<double>::denorm_min(),
                 small = std::numeric_limits<double>::min(),
                 big = std::numeric_limits<double>::max();
    const std::vector<double> edges = {0.0,  -0.0, tiny, -tiny, small, -small, big,  -big, inf,
                                       -inf, nan,  1.0,  -1.0, 0.5,   1e-300, -1e-300, 1e300,
                                       3 * tiny, 1 + std::ldexp(1.0, -52)};
    std::vector<double> t;
    for (double a : edges)
        for (double b : edges)
            for (double c : edges) t.insert(t.end(), {a, b, c});
    CHECK(mismatches(t) == 0);
    // the corner musl's fma gets wrong: a product that rounds to zero, plus a zero
    CHECK(same_bits(emulated_fma(tiny, -tiny, 0.0), -0.0));
    CHECK(same_bits(emulated_fma(-1e-200, 1e-200, -0.0), -0.0));
    CHECK(same_bits(emulated_fma(1e-200, 1e-200, -0.0), 0.0));
    CHECK(same_bits(emulated_fma(1.0, -1.0, 1.0), 0.0));  // an exact cancellation: +0
}

TEST_CASE("the emulated fma for floats: random and edge triples, the bits of std::fma") {
    Random rng(11);
    std::size_t bad = 0;
    const auto check = [&](float a, float b, float c) {
        const float want = std::fma(a, b, c), got = emulated_fma(a, b, c);
        if (!same_bits(want, got) && ++bad <= 5)
            MESSAGE("fmaf(", a, ", ", b, ", ", c, "): ", want, " against ", got);
    };
    for (int i = 0; i < 300000; ++i) {
        const float a = static_cast<float>(random_double(rng, 1 + int(rng.next() % 24), -70, 70)),
                    b = static_cast<float>(random_double(rng, 1 + int(rng.next() % 24), -70, 70));
        const float c = rng.next() % 2 ? -(a * b) * (1 + std::ldexp(1.0f, -20))
                                       : static_cast<float>(random_double(rng, 24, -149, 127));
        check(a, b, c);
    }
    const float edges[] = {0.0f, -0.0f, std::numeric_limits<float>::denorm_min(),
                           std::numeric_limits<float>::min(), std::numeric_limits<float>::max(),
                           -std::numeric_limits<float>::max(),
                           std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN(), 1.0f, -1.0f, 1e-30f, 3e38f};
    for (float a : edges)
        for (float b : edges)
            for (float c : edges) check(a, b, c);
    CHECK(bad == 0);
}
