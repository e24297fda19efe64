// Exercise 20 — rms_norm: RMSNorm, as LLaMA's
// 练习 20 — rms_norm：RMSNorm，与 LLaMA 的一致
//
// From: chapter 10 (Zhang & Sennrich 2019)
// 出处：第 10 章（Zhang 与 Sennrich，2019）
//
//   each row: x / √(mean(x²) + 1e-5) · gain
//   每一行：x / √(mean(x²) + 1e-5) · gain
//
// Write it in chapters/exercises/20_rms_norm.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/20_rms_norm.cpp 里：那是你的副本。
// Check it: make exercise N=20 (or build/exercises check 20); a hint: build/exercises hint 20
// 检查：make exercise N=20（或 build/exercises check 20）；提示：build/exercises hint 20
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/transformer/norms.cpp, rms_norm
// 通过以后，可以对照答案：src/model/transformer/norms.cpp, rms_norm
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix rms_norm(const Matrix& x, const Matrix& gain) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
