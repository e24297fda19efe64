// elementary.cpp — ln x, sin x and cos x written out (elementary.h).
#include "core/elementary.h"

#include <limits>

#include "core/fused_multiply_add.h"

namespace elementary {

double log(double x) {
    if (!(x > 0.0)) return x == 0.0 ? -std::numeric_limits<double>::infinity()
                                    : std::numeric_limits<double>::quiet_NaN();  // < 0, NaN
    if (x == std::numeric_limits<double>::infinity()) return x;
    // x = m·2^e, m in [1, 2): the exponent field and the significand; a subnormal x is first
    // scaled by 2^54 into the normal range
    int e = 0;
    if (x < std::numeric_limits<double>::min()) x *= 0x1p54, e = -54;
    const std::uint64_t b = bits_of(x);
    e += static_cast<int>(b >> 52) - 1023;
    double m = from_bits((b & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
    if (m > 0x1.6a09e667f3bcdp0) m *= 0.5, ++e;  // m in [√½, √2): |f| below 0.42
    const double f = m - 1.0;                      // exact
    const double s = f / (2.0 + f), z = s * s, half_f2 = 0.5 * f * f;
    // R = 2z/3 + 2z²/5 + … + 2z^10/21: |s| ≤ 0.172, so z^11 is below 2^−56
    double R = 2.0 / 21.0;
    R = fused_multiply_add(R, z, 2.0 / 19.0);
    R = fused_multiply_add(R, z, 2.0 / 17.0);
    R = fused_multiply_add(R, z, 2.0 / 15.0);
    R = fused_multiply_add(R, z, 2.0 / 13.0);
    R = fused_multiply_add(R, z, 2.0 / 11.0);
    R = fused_multiply_add(R, z, 2.0 / 9.0);
    R = fused_multiply_add(R, z, 2.0 / 7.0);
    R = fused_multiply_add(R, z, 2.0 / 5.0);
    R = fused_multiply_add(R, z, 2.0 / 3.0);
    R *= z;
    const double k = static_cast<double>(e);
    // e·ln2_hi is exact; the small parts are summed first, f and e·ln2_hi last
    return k * ln2_hi + (f - (half_f2 - (s * (half_f2 + R) + k * ln2_lo)));
}

namespace {

// π/2 in three parts of 33, 33 and 53 bits: n·part is exact for the first two while n < 2^20
constexpr double half_pi_1 = 0x1.921fb54400000p+0;
constexpr double half_pi_2 = 0x1.0b4611a600000p-34;
constexpr double half_pi_3 = 0x1.3198a2e037073p-69;
constexpr double two_over_pi = 0x1.45f306dc9c883p-1;

// sin(r + c) and cos(r + c) for |r| ≤ π/4 and c, what the reduction left out of r (at most
// 2^−49: n·π/2's third part): Taylor series to r^17 and r^18 (the next terms are below 2^−62),
// c taken to first order, sin(r + c) = sin r + c·cos r and cos(r + c) = cos r − c·sin r, with
// cos r and sin r there to three terms (what is left is below 2^−60). cos r = 1 − r²/2 + …:
// the rounding of 1 − r²/2 is recovered exactly and added back with the small terms.
double sin_series(double r, double c) {
    const double z = r * r;
    double p = 1.0 / 355687428096000.0;  // 1/17!, then −1/15!, …: the terms after r³/3!
    p = fused_multiply_add(p, z, -1.0 / 1307674368000.0);
    p = fused_multiply_add(p, z, 1.0 / 6227020800.0);
    p = fused_multiply_add(p, z, -1.0 / 39916800.0);
    p = fused_multiply_add(p, z, 1.0 / 362880.0);
    p = fused_multiply_add(p, z, -1.0 / 5040.0);
    p = fused_multiply_add(p, z, 1.0 / 120.0);
    // r − r³/3! + r⁵·p: the large part r added last
    const double r3 = r * z;
    const double c_cos_r = c * (1.0 - z * (0.5 - z / 24.0));
    return r + (fused_multiply_add(r3, z * p, c_cos_r) - r3 / 6.0);
}
double cos_series(double r, double c) {
    const double z = r * r;
    double p = 1.0 / 6402373705728000.0;  // 1/18!, then −1/16!, …: the terms after r⁴/4!
    p = fused_multiply_add(p, z, -1.0 / 20922789888000.0);
    p = fused_multiply_add(p, z, 1.0 / 87178291200.0);
    p = fused_multiply_add(p, z, -1.0 / 479001600.0);
    p = fused_multiply_add(p, z, 1.0 / 3628800.0);
    p = fused_multiply_add(p, z, -1.0 / 40320.0);
    p = fused_multiply_add(p, z, 1.0 / 720.0);
    p = fused_multiply_add(p, z, -1.0 / 24.0);
    const double half_z = 0.5 * z, w = 1.0 - half_z;
    const double lost = (1.0 - w) - half_z;  // exactly what 1 − z/2 rounded away
    const double c_sin_r = c * r * (1.0 - z * (1.0 / 6.0 - z / 120.0));
    return w + (fused_multiply_add(z * z, -p, lost) - c_sin_r);
}

}  // namespace

void sin_cos(double x, double& s, double& c) {
    if (!(std::fabs(x) < 0x1p20)) {  // a NaN, an infinity, or far beyond any position here
        s = std::sin(x), c = std::cos(x);
        return;
    }
    if (std::fabs(x) < 0x1p-27) {  // sin x = x and cos x = 1 to the last bit (and sin −0 = −0)
        s = x, c = 1.0;
        return;
    }
    const double n = (x * two_over_pi + round_shift) - round_shift;  // the nearest quarter turn
    // r = x − n·π/2 as hi + lo: the first two products are exact, their sum's rounding kept
    const double r1 = fused_multiply_add(-n, half_pi_1, x);  // exact
    const double w = n * half_pi_2;                // exact
    const double r = r1 - w;
    const double part = r - r1;  // r − r1 + w: what the subtraction rounded away (Knuth's two-sum)
    const double lost = ((r1 - (r - part)) - (w + part)) - n * half_pi_3;
    const double sr = sin_series(r, lost), cr = cos_series(r, lost);
    switch (static_cast<unsigned>(bits_of(n + round_shift)) & 3u) {  // n mod 4, n < 0 too
        case 0: s = sr, c = cr; break;
        case 1: s = cr, c = -sr; break;
        case 2: s = -sr, c = -cr; break;
        default: s = -cr, c = sr; break;
    }
}

double sin(double x) {
    double s, c;
    sin_cos(x, s, c);
    return s;
}

double cos(double x) {
    double s, c;
    sin_cos(x, s, c);
    return c;
}

}  // namespace elementary
