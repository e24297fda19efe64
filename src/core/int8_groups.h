// int8_groups.h — the 8-bit format of chapter 13: symmetric integers with one float32 scale per
// group of 32 numbers, as llama.cpp's and llama2.c's Q8_0 keep weights:
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

constexpr std::size_t int8_group = 32;

// One group of count numbers (count ≤ int8_group, the last group of a row may be shorter): its
// scale, and the q of each into q[0 … count − 1].
float quantize_group(const float* x, std::size_t count, std::int8_t* q);
