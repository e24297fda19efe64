// pow_tanh.cpp — x^y and tanh x written out (elementary.h), in double-double arithmetic.
#include <limits>

#include "core/double_double.h"
#include "core/elementary.h"
#include "core/fused_multiply_add.h"

namespace elementary {

namespace {

using DD = DoubleDouble;
constexpr double infinity = std::numeric_limits<double>::infinity();

// ln x for a finite x > 0, as hi + lo, within about 2^−100 of it relative to it (2^−73 where x
// is farthest from a power of two). x = m·2^e with m in [√½, √2), s = (m − 1)/(m + 1):
// ln m = 2·artanh s = 2s + 2s³/3 + 2s⁵/5 + 2s⁷/7 + R, the first four terms in double-double and
// R = 2s⁹/9 + … (below 2^−21 of ln m) in double.
DD log_dd(double x) {
    int e = 0;
    if (x < std::numeric_limits<double>::min()) x *= 0x1p54, e = -54;  // a subnormal x
    const std::uint64_t b = bits_of(x);
    e += static_cast<int>(b >> 52) - 1023;
    double m = from_bits((b & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
    if (m > 0x1.6a09e667f3bcdp0) m *= 0.5, ++e;
    const double f = m - 1.0;                     // exact
    const DD d = two_sum(2.0, f);                 // 2 + f, exactly
    const double s_hi = f / d.hi;                 // s = f / (2 + f), its remainder exact:
    const double rest = fused_multiply_add(-s_hi, d.hi, f) - s_hi * d.lo;
    const DD s = quick_two_sum(s_hi, rest / d.hi);
    const DD s2 = multiply(s, s), s3 = multiply(s2, s), s5 = multiply(s3, s2),
             s7 = multiply(s5, s2);
    const double z = s2.hi;
    double r = 2.0 / 25.0;  // 2/9 + 2z/11 + … + 2z^8/25: z ≤ 0.0296, z^9 below 2^−45
    r = fused_multiply_add(r, z, 2.0 / 23.0);
    r = fused_multiply_add(r, z, 2.0 / 21.0);
    r = fused_multiply_add(r, z, 2.0 / 19.0);
    r = fused_multiply_add(r, z, 2.0 / 17.0);
    r = fused_multiply_add(r, z, 2.0 / 15.0);
    r = fused_multiply_add(r, z, 2.0 / 13.0);
    r = fused_multiply_add(r, z, 2.0 / 11.0);
    r = fused_multiply_add(r, z, 2.0 / 9.0);
    const double R = r * s7.hi * z;
    DD ln_m = add(divide(multiply(s7, 2.0), 7.0), {R, 0.0});  // the small terms first
    ln_m = add(divide(multiply(s5, 2.0), 5.0), ln_m);
    ln_m = add(divide(multiply(s3, 2.0), 3.0), ln_m);
    ln_m = add({2.0 * s.hi, 2.0 * s.lo}, ln_m);
    // e·ln 2: e·ln2_hi is exact, e·ln2_lo's rounding kept
    const double k = static_cast<double>(e);
    return add(add({k * ln2_hi, 0.0}, two_product(k, ln2_lo)), ln_m);
}

// e^(h + l) = 2^k · (1 + E), E in double-double, for |h| ≤ 746. h + l = k·ln 2 + r with
// |r| ≤ ln 2 / 2; e^r from r/256 by its Taylor series (the terms after the square to r^7/7!,
// in double: below 2^−30, so their rounding is below 2^−83), then squared eight times, each
// time (1 + E)² − 1 = 2E + E².
DD exp_dd(double h, double l, double& k) {
    k = (h * log2_e + round_shift) - round_shift;
    const DD reduced = add(add({fused_multiply_add(-k, ln2_hi, h), 0.0}, two_product(-k, ln2_lo)), {l, 0.0});
    const DD r = {reduced.hi * 0x1p-8, reduced.lo * 0x1p-8};  // exact
    const double t = r.hi;
    double p = 1.0 / 5040.0;  // r³/3! + … + r^7/7!
    p = fused_multiply_add(p, t, 1.0 / 720.0);
    p = fused_multiply_add(p, t, 1.0 / 120.0);
    p = fused_multiply_add(p, t, 1.0 / 24.0);
    p = fused_multiply_add(p, t, 1.0 / 6.0);
    p *= t * t * t;
    const DD half_square = multiply(multiply(r, r), 0.5);
    DD E = add(r, add(half_square, {p, 0.0}));
    for (int i = 0; i < 8; ++i) E = add(multiply(E, 2.0), multiply(E, E));
    return E;
}

// 2^k · v for a whole number k in [−1076, 1025], as exp does it: two factors, each a normal
// double, so that a result near the ends of the range is rounded once
double scaled(double v, double k) {
    const double half = (k * 0.5 + round_shift) - round_shift;
    return v * power_of_two(half) * power_of_two(k - half);
}

// e^(y · ln x) for a finite x > 0 and a finite y
double positive_pow(double x, double y) {
    const DD exponent = multiply(log_dd(x), y);
    if (exponent.hi > 710.0) return infinity;
    if (exponent.hi < -746.0) return 0.0;
    double k;
    const DD E = exp_dd(exponent.hi, exponent.lo, k);
    const DD one_plus = two_sum(1.0, E.hi);
    return scaled(one_plus.hi + (one_plus.lo + E.lo), k);
}

bool is_integer(double y) { return std::trunc(y) == y; }
bool is_odd_integer(double y) {
    return is_integer(y) && std::fabs(y) < 0x1p53 && std::fmod(y, 2.0) != 0.0;
}

}  // namespace

double pow(double x, double y) {
    // the special values as C's pow (C17 F.10.4.4), which IEEE 754's pow agrees with
    if (y == 0.0 || x == 1.0) return 1.0;  // even for a NaN
    if (std::isnan(x) || std::isnan(y)) return x + y;
    if (std::isinf(y)) {
        const double ax = std::fabs(x);
        if (ax == 1.0) return 1.0;
        return (ax < 1.0) == (y < 0.0) ? infinity : 0.0;
    }
    if (x == 0.0 || std::isinf(x)) {
        // 0^y and ∞^y: 0 or ∞, and negative only for a negative x and an odd integer y
        const bool large = (x == 0.0) == (y < 0.0);
        const double magnitude = large ? infinity : 0.0;
        return std::signbit(x) && is_odd_integer(y) ? -magnitude : magnitude;
    }
    if (x < 0.0) {
        if (!is_integer(y)) return std::numeric_limits<double>::quiet_NaN();
        const double p = positive_pow(-x, y);
        return is_odd_integer(y) ? -p : p;
    }
    if (y == 1.0) return x;
    return positive_pow(x, y);
}

double tanh(double x) {
    const double a = std::fabs(x);
    if (!(a < 22.0)) return std::isnan(x) ? x : std::copysign(1.0, x);  // 1 − tanh 22 < 2^−62
    if (a < 0x1p-28) return x;  // tanh x = x − x³/3 + …: x to the last bit (and −0 stays −0)
    // tanh a = (e^(2a) − 1) / (e^(2a) + 1), with e^(2a) = 2^k (1 + E)
    double k;
    const DD E = exp_dd(2.0 * a, 0.0, k);
    DD t;
    if (k == 0.0) {
        t = divide(E, add({2.0, 0.0}, E));  // no cancellation in e^(2a) − 1: it is E itself
    } else {
        DD power = add({1.0, 0.0}, E);
        const double two_k = power_of_two(k);  // k ≤ 64 here
        power = {power.hi * two_k, power.lo * two_k};
        t = divide(add(power, {-1.0, 0.0}), add(power, {1.0, 0.0}));
    }
    return std::copysign(t.hi + t.lo, x);
}

}  // namespace elementary
