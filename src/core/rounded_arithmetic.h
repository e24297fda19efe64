// rounded_arithmetic.h — arithmetic whose every result is rounded to a narrower format
// (chapter 13): what a float16 computation does, written as float32 operations each followed by
// a rounding to float16. For one addition, product or division that is exactly float16's own
// arithmetic (float32 carries 24 bits, more than the 2·11 + 2 that takes); inside a sum or an
// exponential the float32 part is what the hardware would do too.
#pragma once
#include <cstddef>
#include <vector>

#include "core/number_formats.h"

// The softmax of a row, every step rounded to the format: with the row's maximum subtracted
// first, or (subtract_max false) exp of the scores as they are — which overflows float16 for a
// score above log(65,520) ≈ 11.09, and then divides infinity by infinity.
std::vector<float> softmax_in(FloatFormat format, const std::vector<float>& scores,
                              bool subtract_max);

// a·b summed term by term: each product and each partial sum rounded to `sum_in` (the inputs
// already in their format).
float dot_in(FloatFormat sum_in, const std::vector<float>& a, const std::vector<float>& b);

// The (biased) variance of a row, every step rounded to the format: two passes (the mean, then
// the mean of (x − mean)²) or one (the mean of x² less the square of the mean).
float variance_in(FloatFormat format, const std::vector<float>& x, bool two_pass);
