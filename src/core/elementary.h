// elementary.h — e^x, ln x, sin x, cos x, x^y and tanh x written out, in plain double
// arithmetic. The softmax, the loss, every log-probability, the position encodings, the random
// numbers, the learning-rate schedule and Adam's bias correction go through these, not the C
// library's:
//
// - the same bits on every machine: a C library is free to compute exp as it likes (glibc
//   without FMA differs from glibc with it in a last bit for 8 in 300,000 arguments; macOS's is
//   another implementation), while these are additions, multiplications and std::fma, each
//   rounded as IEEE 754 says — the same everywhere;
// - within one unit in the last place of the exact value (tests/test_elementary.cpp measures
//   it against a wider reference on a million arguments; most are correctly rounded);
// - exp has no branch and no call, so a loop over a row of scores (the softmax) runs in vector
//   registers: 3000 exponentials a row in chapter 12's loss took a seventh of its training time
//   through glibc's exp, one value at a time.
//
// Each reduces its argument to a small interval where a short series is exact to the last
// bit, and undoes the reduction exactly (a power of two; a quarter turn).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/fused_multiply_add.h"

namespace elementary {

// The bits of a double and back (memcpy: the one well-defined way; it costs nothing).
inline std::uint64_t bits_of(double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}
inline double from_bits(std::uint64_t b) {
    double x;
    std::memcpy(&x, &b, sizeof x);
    return x;
}

// ln 2 in two parts: ln2_hi has its last 11 bits zero, so k·ln2_hi is exact for |k| < 2^11;
// ln2_lo is the rest (ln2_hi + ln2_lo = ln 2 to 106 bits).
constexpr double ln2_hi = 0x1.62e42fefa3800p-1;
constexpr double ln2_lo = 0x1.ef35793c76730p-45;
constexpr double log2_e = 0x1.71547652b82fep0;  // 1 / ln 2
// Adding 1.5·2^52 to a double below 2^51 in size rounds it to the nearest integer (ties to
// even), and the integer sits in the low bits of the sum's bit pattern.
constexpr double round_shift = 0x1.8p52;

// 2^k for a whole number k in [−1022, 1023]: its exponent field written directly.
inline double power_of_two(double k) {
    const std::uint64_t k_bits = bits_of(k + round_shift) - bits_of(round_shift);  // k, as int
    return from_bits((k_bits + 1023) << 52);
}

// e^x. x = k·ln 2 + r with k the nearest integer to x / ln 2 and |r| ≤ ln 2 / 2; e^r by its
// Taylor series to r^13 (the next term is below 2^−60 of the sum); e^x = 2^k · e^r, with 2^k
// applied as two factors 2^(k/2) so that each is a normal double even where e^x is subnormal.
// NaN gives NaN; −∞ and x < −745.2 give 0; +∞ and x > 709.78 give +∞.
inline double exp(double x) {
    x = x < -746.0 ? -746.0 : x;  // (a NaN compares false and stays a NaN)
    x = x > 710.0 ? 710.0 : x;
    const double k = (x * log2_e + round_shift) - round_shift;  // the nearest integer to x/ln 2
    double r = fused_multiply_add(-k, ln2_hi, x);  // exact
    r = fused_multiply_add(-k, ln2_lo, r);
    // 1 + r + r²/2! + … + r^13/13!, from the last term in (Horner)
    double p = 1.0 / 6227020800.0;  // 1/13!
    p = fused_multiply_add(p, r, 1.0 / 479001600.0);
    p = fused_multiply_add(p, r, 1.0 / 39916800.0);
    p = fused_multiply_add(p, r, 1.0 / 3628800.0);
    p = fused_multiply_add(p, r, 1.0 / 362880.0);
    p = fused_multiply_add(p, r, 1.0 / 40320.0);
    p = fused_multiply_add(p, r, 1.0 / 5040.0);
    p = fused_multiply_add(p, r, 1.0 / 720.0);
    p = fused_multiply_add(p, r, 1.0 / 120.0);
    p = fused_multiply_add(p, r, 1.0 / 24.0);
    p = fused_multiply_add(p, r, 1.0 / 6.0);
    p = fused_multiply_add(p, r, 0.5);
    p = fused_multiply_add(p, r, 1.0);
    p = fused_multiply_add(p, r, 1.0);
    const double half = (k * 0.5 + round_shift) - round_shift;  // k = half + (k − half)
    return p * power_of_two(half) * power_of_two(k - half);
}

// sin x and cos x: x = n·π/2 + r with n the nearest integer to x / (π/2) and |r| ≤ π/4 (π/2
// in three parts, so that r keeps its digits though x is large), then the Taylor series of
// sin r and cos r, and the quarter turn n mod 4 says which is which and its sign. For |x| up to
// 2^20 (every angle a position encoding here meets); beyond, the C library's, said in README.md.
// sin_cos gives both at once (a rotation's two entries).
double sin(double x);
double cos(double x);
void sin_cos(double x, double& s, double& c);

// x^y and tanh x (pow_tanh.cpp): computed in double-double arithmetic (core/double_double.h)
// and rounded once, so each is the correctly rounded value except where the exact one lies
// within about 2^−70 of a midpoint between two doubles — where the C libraries differ most
// (musl's and MinGW's pow from glibc's; tanh from one library to the next). x^y = e^(y·ln x)
// with ln x and the exponential both carried to about 100 bits; the special values (0, ±∞,
// NaN, a negative x) as C's pow gives them. tanh x = (e^(2x) − 1)/(e^(2x) + 1) the same way.
double pow(double x, double y);
double tanh(double x);

// ln x. x = m·2^e with m in [√½, √2); with f = m − 1 and s = f / (2 + f),
// ln m = 2·artanh(s) = 2s + 2s³/3 + 2s⁵/5 + …, written as f − (f²/2 − s·(f²/2 + R)) with R the
// series after its first term, so that the large part f is added last, exactly as it is.
// ln x = e·ln 2 + ln m. A negative x or NaN gives NaN, 0 gives −∞, +∞ gives +∞.
double log(double x);

}  // namespace elementary
