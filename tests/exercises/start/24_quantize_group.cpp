// Exercise 24 — quantize_group: a group of numbers in 8 bits (Q8_0)
// 练习 24 — quantize_group：用 8 位表示一组数（Q8_0）
//
// From: chapter 13 (llama.cpp's Q8_0, llama2.c's runq)
// 出处：第 13 章（llama.cpp 的 Q8_0，llama2.c 的 runq）
//
//   scale = max|x| / 127 (float), q = round(x / scale), halves away from zero; the checker
//     shows scale, then q
//   scale = max|x| / 127（float），q = round(x / scale)，一半时远离零舍入；检查时先显示 scale，
//     再显示 q
//
// Write it in chapters/exercises/24_quantize_group.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/24_quantize_group.cpp 里：那是你的副本。
// Check it: make exercise N=24 (or build/exercises check 24); a hint: build/exercises hint 24
// 检查：make exercise N=24（或 build/exercises check 24）；提示：build/exercises hint 24
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/core/int8_groups.cpp, quantize_group
// 通过以后，可以对照答案：src/core/int8_groups.cpp, quantize_group
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

float quantize_group(const std::vector<float>& x, std::vector<std::int8_t>& q) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
