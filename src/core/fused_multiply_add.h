// fused_multiply_add.h — a·b + c rounded once (IEEE 754's fusedMultiplyAdd), the same bits on
// every machine at the speed that machine allows. Where the build has an FMA instruction,
// std::fma is that instruction; on x86-64 without one, glibc's exact software routine. On
// WebAssembly, which has no FMA instruction, musl's software routine is exact but slow, and gives
// +0 where IEEE 754 gives −0 in one corner (a product that rounds to zero plus a zero): there
// emulated_fma computes it from exact products and sums instead (tests/bench/README.md: how much
// faster).
#pragma once
#include <cmath>

// a·b + c rounded once, from an exact product (Veltkamp's split and Dekker's product) and exact
// sums (Knøth's TwoSum), the last two parts added with rounding to odd so that the final rounding
// to nearest is the only one that counts (S. Boldo and G. Melquiond, "Emulation of FMA and
// correctly rounded sums: proved algorithms using rounding to odd", IEEE Trans. Computers 57(4),
// 2008). Where those steps are not exact — an operand infinite, NaN, zero or near the ends of
// the range, a result near the subnormals — std::fma instead, with the sign of a zero result
// made IEEE's. Tested against the hardware's fma (tests/test_fused_multiply_add.cpp).
double emulated_fma(double a, double b, double c);
// The same for floats: the product of two floats is exact in a double, and the sum is rounded to
// odd in a double before its one rounding to a float.
float emulated_fma(float a, float b, float c);

inline double fused_multiply_add(double a, double b, double c) {
#ifdef __EMSCRIPTEN__
    return emulated_fma(a, b, c);
#else
    return std::fma(a, b, c);
#endif
}

inline float fused_multiply_add(float a, float b, float c) {
#ifdef __EMSCRIPTEN__
    return emulated_fma(a, b, c);
#else
    return std::fma(a, b, c);
#endif
}
