// number_formats.cpp — rounding to narrower floating-point formats on the bit patterns.
#include "core/number_formats.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace {

std::uint64_t bits_of(double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

// Keeps the value `shift` low bits above `value` would round to, ties to even.
std::uint64_t round_off(std::uint64_t value, int shift) {
    if (shift <= 0) return value << -shift;
    if (shift > 63) return 0;  // less than half of the last place kept: rounds to 0
    const std::uint64_t kept = value >> shift, rest = value & ((std::uint64_t(1) << shift) - 1),
                        half = std::uint64_t(1) << (shift - 1);
    return kept + ((rest > half || (rest == half && (kept & 1))) ? 1 : 0);
}

}  // namespace

std::uint64_t round_bits(double x, int e, int m) {
    const std::uint64_t b = bits_of(x);
    const std::uint64_t sign = (b >> 63) << (e + m);
    const std::uint64_t all_ones = (std::uint64_t(1) << e) - 1;  // the exponent of inf and NaN
    const int exponent = static_cast<int>((b >> 52) & 0x7FF);
    std::uint64_t significand = b & ((std::uint64_t(1) << 52) - 1);
    if (exponent == 0x7FF)  // infinity stays infinity; a NaN becomes the quiet NaN
        return sign | (all_ones << m) | (significand ? std::uint64_t(1) << (m - 1) : 0);
    if (exponent == 0 && significand == 0) return sign;  // ±0
    // x = significand · 2^(u − 52), the significand's top bit at position 52
    int u = exponent - 1023;
    if (exponent == 0) {  // a subnormal float64: normalise it
        u = -1022;
        while (!(significand >> 52)) significand <<= 1, --u;
    } else {
        significand |= std::uint64_t(1) << 52;
    }
    const int bias = (1 << (e - 1)) - 1;
    if (u < 1 - bias) {  // below the smallest normal: a subnormal, in units of 2^(1 − bias − m)
        const std::uint64_t units = round_off(significand, 52 - m + (1 - bias - u));
        return sign | units;  // 2^m units is the smallest normal: its exponent bit set by the sum
    }
    std::uint64_t kept = round_off(significand, 52 - m);  // 2^m … 2^(m+1)
    if (kept >> (m + 1)) kept >>= 1, ++u;                // rounded up to the next power of two
    if (u > bias) return sign | (all_ones << m);         // too large: infinity
    const std::uint64_t fraction = kept & ((std::uint64_t(1) << m) - 1);
    return sign | (static_cast<std::uint64_t>(u + bias) << m) | fraction;
}

double value_of_bits(std::uint64_t bits, int e, int m) {
    const bool negative = (bits >> (e + m)) & 1;
    const std::uint64_t exponent = (bits >> m) & ((std::uint64_t(1) << e) - 1);
    const std::uint64_t fraction = bits & ((std::uint64_t(1) << m) - 1);
    const int bias = (1 << (e - 1)) - 1;
    double v;
    if (exponent == (std::uint64_t(1) << e) - 1)
        v = fraction ? std::numeric_limits<double>::quiet_NaN()
                     : std::numeric_limits<double>::infinity();
    else if (exponent == 0)
        v = std::ldexp(static_cast<double>(fraction), 1 - bias - m);
    else
        v = std::ldexp(static_cast<double>((std::uint64_t(1) << m) | fraction),
                       static_cast<int>(exponent) - bias - m);
    return negative ? -v : v;
}

namespace {

struct Layout {
    int e, m;
};
Layout layout_of(FloatFormat f) {
    switch (f) {
        case FloatFormat::Float64:
            return {11, 52};
        case FloatFormat::Float32:
            return {8, 23};
        case FloatFormat::BFloat16:
            return {8, 7};
        case FloatFormat::Float16:
            break;
    }
    return {5, 10};
}

}  // namespace

FormatFacts format_facts(FloatFormat f) {
    const char* names[] = {"float64", "float32", "bfloat16", "float16"};
    const Layout l = layout_of(f);
    const int bias = (1 << (l.e - 1)) - 1;
    const std::uint64_t largest = ((((std::uint64_t(1) << l.e) - 2)) << l.m) |
                                  ((std::uint64_t(1) << l.m) - 1);
    return {names[static_cast<int>(f)],
            1 + l.e + l.m,
            l.e,
            l.m,
            value_of_bits(largest, l.e, l.m),
            std::ldexp(1.0, 1 - bias),
            std::ldexp(1.0, 1 - bias - l.m),
            std::ldexp(1.0, -(l.m + 1))};
}

std::uint64_t to_format_bits(double x, FloatFormat f) {
    if (f == FloatFormat::Float64) return bits_of(x);
    const std::uint64_t single = round_bits(x, 8, 23);
    if (f == FloatFormat::Float32) return single;
    const Layout l = layout_of(f);
    return round_bits(value_of_bits(single, 8, 23), l.e, l.m);
}

double to_format(double x, FloatFormat f) {
    const Layout l = layout_of(f);
    return f == FloatFormat::Float64 ? x : value_of_bits(to_format_bits(x, f), l.e, l.m);
}

float round_float(float x, FloatFormat f) {
    if (f == FloatFormat::Float32 || f == FloatFormat::Float64) return x;
    const Layout l = layout_of(f);
    return static_cast<float>(value_of_bits(round_bits(x, l.e, l.m), l.e, l.m));
}
