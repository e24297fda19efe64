// Exercise 12 — softmax_rows_backward: the softmax's backward pass
// 练习 12 — softmax_rows_backward：softmax 的反向传播
//
// From: chapter 7; chapter 11's attention backward uses the same
// 出处：第 7 章；第 11 章注意力的反向传播也用到它
//
//   y = softmax(x) row by row; dx(i, j) = y(i, j) · (dy(i, j) − Σ_c dy(i, c)·y(i, c))
//   y = softmax(x)（逐行）；dx(i, j) = y(i, j) · (dy(i, j) − Σ_c dy(i, c)·y(i, c))
//
// Write it in chapters/exercises/12_softmax_rows_backward.cpp: your copy, which make exercises
//   made (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/12_softmax_rows_backward.cpp 里：那是你的副本。
// Check it: make exercise N=12 (or build/exercises check 12); a hint: build/exercises hint 12
// 检查：make exercise N=12（或 build/exercises check 12）；提示：build/exercises hint 12
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/core/matrix.cpp, softmax_rows_backward
// 通过以后，可以对照答案：src/core/matrix.cpp, softmax_rows_backward
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix softmax_rows_backward(const Matrix& dy, const Matrix& y) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
