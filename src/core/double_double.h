// double_double.h — a number carried as the unevaluated sum of two doubles, hi + lo with
// |lo| ≤ half an ulp of hi: about 106 bits. elementary's pow and tanh compute in it, so that
// their one final rounding to a double is the only one that matters (the result is the
// correctly rounded value except where the exact one lies within about 2^−70 of a midpoint).
//
// Every step is an error-free transformation (Knuth's two-sum; the product's rounding error
// from std::fma, exact by IEEE 754) followed by ordinary double arithmetic: the same bits on
// every machine, with or without an FMA instruction.
#pragma once
#include <cmath>

#include "core/fused_multiply_add.h"

namespace elementary {

struct DoubleDouble {
    double hi, lo;
};

// a + b exactly, as s + e (Knuth): no condition on the sizes of a and b
inline DoubleDouble two_sum(double a, double b) {
    const double s = a + b, bb = s - a;
    return {s, (a - (s - bb)) + (b - bb)};
}
// the same when |a| ≥ |b| (Dekker): one subtraction fewer
inline DoubleDouble quick_two_sum(double a, double b) {
    const double s = a + b;
    return {s, b - (s - a)};
}
// a · b exactly, as p + e: fma gives the product's rounding error exactly
inline DoubleDouble two_product(double a, double b) {
    const double p = a * b;
    return {p, fused_multiply_add(a, b, -p)};
}

inline DoubleDouble add(DoubleDouble x, DoubleDouble y) {
    DoubleDouble s = two_sum(x.hi, y.hi);
    const DoubleDouble t = two_sum(x.lo, y.lo);
    s.lo += t.hi;
    s = quick_two_sum(s.hi, s.lo);
    s.lo += t.lo;
    return quick_two_sum(s.hi, s.lo);
}
inline DoubleDouble multiply(DoubleDouble x, DoubleDouble y) {
    DoubleDouble p = two_product(x.hi, y.hi);
    p.lo += x.hi * y.lo + x.lo * y.hi;
    return quick_two_sum(p.hi, p.lo);
}
inline DoubleDouble multiply(DoubleDouble x, double d) {
    DoubleDouble p = two_product(x.hi, d);
    p.lo += x.lo * d;
    return quick_two_sum(p.hi, p.lo);
}
// x / d: the first quotient's remainder is exact (fma), and gives the second
inline DoubleDouble divide(DoubleDouble x, double d) {
    const double q = x.hi / d;
    const double r = fused_multiply_add(-q, d, x.hi) + x.lo;
    return quick_two_sum(q, r / d);
}
// x / y: three quotients, each from the remainder the ones before left
inline DoubleDouble divide(DoubleDouble x, DoubleDouble y) {
    const double q1 = x.hi / y.hi;
    DoubleDouble r = add(x, multiply(y, -q1));
    const double q2 = r.hi / y.hi;
    r = add(r, multiply(y, -q2));
    const double q3 = r.hi / y.hi;
    return add(quick_two_sum(q1, q2), {q3, 0.0});
}

}  // namespace elementary
