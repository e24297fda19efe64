// fused_multiply_add.cpp — a·b + c rounded once, from exact products and sums (the header says
// whose algorithms and where each is used). Every operation below is one IEEE rounding: the
// build never contracts a·b + c on its own (-ffp-contract=off).
#include "core/fused_multiply_add.h"

#include <cstdint>
#include <cstring>

namespace {

std::uint64_t bits_of(double x) {
    std::uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

double from_bits(std::uint64_t u) {
    double x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

// The unbiased exponent of a finite nonzero double's leading bit, as a normal number has it
// (subnormals read as −1023: below every range the exact steps accept).
int exponent_of(double x) { return static_cast<int>((bits_of(x) >> 52) & 0x7ff) - 1023; }

// s + e = a + b exactly, s the rounded sum (Knuth's TwoSum: six operations, any order of size).
void two_sum(double a, double b, double& s, double& e) {
    s = a + b;
    const double b_virtual = s - a, a_virtual = s - b_virtual;
    e = (a - a_virtual) + (b - b_virtual);
}

// hi + lo = a, each with at most 26 significant bits (Veltkamp's split).
void split(double a, double& hi, double& lo) {
    const double t = 134217729.0 * a;  // 2^27 + 1
    hi = t - (t - a);
    lo = a - hi;
}

// p + e = a·b exactly, p the rounded product (Dekker's product).
void two_product(double a, double b, double& p, double& e) {
    p = a * b;
    double ah, al, bh, bl;
    split(a, ah, al);
    split(b, bh, bl);
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

// a + b rounded to odd: exact when it can be, else the neighbour of the exact sum whose last
// significand bit is one; s is a + b rounded to nearest, e what that left out.
double add_round_to_odd(double a, double b) {
    double s, e;
    two_sum(a, b, s, e);
    if (e == 0 || (bits_of(s) & 1)) return s;
    // s is even and not exact: the other neighbour, one unit towards the exact sum
    const bool away_from_zero = (e > 0) == (s > 0);
    return from_bits(bits_of(s) + (away_from_zero ? 1 : -1));
}

// The cases the exact steps leave out. musl's fma (WebAssembly) is exact but returns +0 for a
// product that rounds to zero plus a zero; the exact result is then the product, and its sign
// the zero's.
double fallback(double a, double b, double c) {
    double r = std::fma(a, b, c);
    if (r == 0 && c == 0 && a != 0 && b != 0 && std::isfinite(a) && std::isfinite(b))
        r = std::signbit(a) != std::signbit(b) ? -0.0 : 0.0;
    return r;
}

}  // namespace

double emulated_fma(double a, double b, double c) {
    // the exact steps' range: a and b normal and their split safe (below 2^995), the product's
    // error term a normal number (the product above 2^-960), nothing near overflow; c finite
    const int ea = exponent_of(a), eb = exponent_of(b), ec = exponent_of(c);
    if (ea < -1000 || ea > 995 || eb < -1000 || eb > 995 || ea + eb < -960 || ea + eb > 1000 ||
        ec > 1000 || (c != 0 && ec < -1000))
        return fallback(a, b, c);
    double ph, pl;  // ph + pl = a·b
    two_product(a, b, ph, pl);
    double uh, ul;  // uh + ul = pl + c
    two_sum(pl, c, uh, ul);
    double th, tl;  // th + tl = ph + uh
    two_sum(ph, uh, th, tl);
    // a·b + c = th + tl + ul: the two small parts rounded to odd, then one rounding to nearest
    const double r = th + add_round_to_odd(tl, ul);
    // a result among the subnormals has fewer bits than the proof needs: the exact routine
    if (r != 0 && exponent_of(r) < -1000) return fallback(a, b, c);
    return r;
}

float emulated_fma(float a, float b, float c) {
    if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c)) return std::fma(a, b, c);
    // the product of two floats (24 bits each) is exact in a double; the sum rounded to odd in
    // a double (53 bits, more than 24 + 2), then rounded once to a float
    const double p = static_cast<double>(a) * static_cast<double>(b);
    return static_cast<float>(add_round_to_odd(p, static_cast<double>(c)));
}
