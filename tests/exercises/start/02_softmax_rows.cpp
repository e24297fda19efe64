// Exercise 2 — softmax_rows: a numerically stable softmax of each row
// 练习 2 — softmax_rows：每一行的数值稳定的 softmax
//
// From: tutorial 03, §2.1.2 (softmax); 01, the hand calculation; chapter 2
// 出处：教程 03，2.1.2 节（softmax）；01，手算示例；第 2 章
//
//   weights(i, j) = exp(x(i, j) − max_j x(i, j)) / Σ_j exp(x(i, j) − max_j x(i, j)); a row whose
//     every entry is −inf (every key hidden) gives all zeros
//   weights(i, j) = exp(x(i, j) − max_j x(i, j)) / Σ_j exp(x(i, j) − max_j x(i, j))；每个元素都是
//     −inf 的行（所有键都被遮蔽）得到全 0
//
// Write it in chapters/exercises/02_softmax_rows.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/02_softmax_rows.cpp 里：那是你的副本。
// Check it: make exercise N=2 (or build/exercises check 2); a hint: build/exercises hint 2
// 检查：make exercise N=2（或 build/exercises check 2）；提示：build/exercises hint 2
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/core/matrix.cpp, softmax_rows
// 通过以后，可以对照答案：src/core/matrix.cpp, softmax_rows
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix softmax_rows(const Matrix& x) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
