// int8_groups.h — the 8-bit format of chapter 13: symmetric integers with one float32 scale per
// group of 32 numbers (llama.cpp's Q8_0 has the same groups with a float16 scale, 1.0625 bytes a
// number; llama2.c's runq the same float32 scale on groups of 64, 1.0625 bytes too):
//
//   scale = max |x| over the group / 127       (a float32)
//   q     = round(x / scale), half away from 0 (−127 … 127, a signed byte)
//   x    ≈ q · scale
//
// The arithmetic in float32, as llama2.c does it (runq.c, quantize). A group of zeros has scale
// 0 and every q 0. A byte and a quarter of a float per number: 1.125 bytes, against float64's 8.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

constexpr std::size_t int8_group = 32;

// One group of count numbers (count ≤ int8_group, the last group of a row may be shorter): its
// scale, and the q of each into q[0 … count − 1].
float quantize_group(const float* x, std::size_t count, std::int8_t* q);

// A row of n numbers in groups of int8_group along it (the last may be shorter): the q of each
// into q[0 … n − 1], and the groups' scales, first group first.
std::vector<float> quantize_row(const float* x, std::size_t n, std::int8_t* q);
