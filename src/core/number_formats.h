// number_formats.h — numbers in fewer bits (chapter 13): float32, bfloat16 and float16, each a
// sign, an exponent and a mantissa, and rounding a float64 to them written out on the bit
// patterns — round to nearest, ties to even; too large: ±infinity; too small for a normal
// number: a subnormal, then zero; NaN stays NaN.
//
//   format     bits  sign  exponent  mantissa  largest         smallest normal  unit roundoff
//   float64     64    1      11        52      1.8·10^308      2.2·10^−308      2^−53
//   float32     32    1       8        23      3.4·10^38       1.2·10^−38       2^−24
//   bfloat16    16    1       8         7      3.4·10^38       1.2·10^−38       2^−8
//   float16     16    1       5        10      65,504          6.1·10^−5        2^−11
//
// (The table is computed, not typed: format_facts below; chapter 13 prints it.) bfloat16 is
// float32 with its last 16 mantissa bits gone: the same range, less precision; float16 keeps
// more precision and loses range.
#pragma once
#include <cstdint>

enum class FloatFormat { Float64, Float32, BFloat16, Float16 };

struct FormatFacts {
    const char* name;
    int bits, exponent_bits, mantissa_bits;
    double largest, smallest_normal, smallest_subnormal;
    double unit_roundoff;  // 2^−(mantissa_bits + 1): the largest relative error of a rounding
};
FormatFacts format_facts(FloatFormat format);

// x rounded to a format of e exponent bits and m mantissa bits (at most float64's), directly:
// one rounding. Returns its bit pattern, sign first, in the low 1 + e + m bits.
std::uint64_t round_bits(double x, int exponent_bits, int mantissa_bits);
// The value of such a bit pattern, as a float64 (every one of them is exactly a float64).
double value_of_bits(std::uint64_t bits, int exponent_bits, int mantissa_bits);

// x in the format, as PyTorch's x.to(dtype) gives it: a float64 goes to float32 first, and from
// there to bfloat16 or float16 — two roundings, as every float32 computation's result does.
// The two paths differ only where the first rounding lands on a tie of the second (chapter 13
// shows one such number).
std::uint64_t to_format_bits(double x, FloatFormat format);
double to_format(double x, FloatFormat format);  // the value of those bits

// The same from a float32 (what a float32 computation rounds its results to): one rounding.
float round_float(float x, FloatFormat format);
