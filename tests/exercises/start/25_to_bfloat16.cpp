// Exercise 25 — to_bfloat16: rounding a double to bfloat16, ties to even
// 练习 25 — to_bfloat16：把 double 舍入为 bfloat16，平局取偶
//
// From: chapter 13 (bfloat16: float32's exponent, 8 bits of precision)
// 出处：第 13 章（bfloat16：float32 的指数位，8 位精度）
//
//   round the double to float first (a cast rounds to nearest even), then keep the float's top
//     16 bits, rounding the 16 cut off to nearest, ties to the even neighbour
//   先把 double 转成 float（强制转换按最近偶数舍入），再保留 float 的高 16 位，对截掉的 16
//     位按最近舍入，平局取偶
//
// Write it in chapters/exercises/25_to_bfloat16.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/25_to_bfloat16.cpp 里：那是你的副本。
// Check it: make exercise N=25 (or build/exercises check 25); a hint: build/exercises hint 25
// 检查：make exercise N=25（或 build/exercises check 25）；提示：build/exercises hint 25
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/core/number_formats.cpp, to_format
// 通过以后，可以对照答案：src/core/number_formats.cpp, to_format
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

double to_bfloat16(double x) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
