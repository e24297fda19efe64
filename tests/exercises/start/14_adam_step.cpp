// Exercise 14 — adam_step: one step of Adam
// 练习 14 — adam_step：Adam 的一步更新
//
// From: the paper's §5.3; chapter 7
// 出处：论文 5.3 节；第 7 章
//
//   m ← β1·m + (1 − β1)·g, v ← β2·v + (1 − β2)·g², then param ← param − lr · m̂ / (√v̂ + ε)
//     with m̂ = m/(1 − β1^t), v̂ = v/(1 − β2^t); the checker shows param, m and v one below
//     the other
//   m ← β1·m + (1 − β1)·g，v ← β2·v + (1 − β2)·g²，然后 param ← param − lr · m̂ / (√v̂ + ε)，
//     其中 m̂ = m/(1 − β1^t)，v̂ = v/(1 − β2^t)；检查时把 param、m、v 上下叠放显示
//
// Write it in chapters/exercises/14_adam_step.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/14_adam_step.cpp 里：那是你的副本。
// Check it: make exercise N=14 (or build/exercises check 14); a hint: build/exercises hint 14
// 检查：make exercise N=14（或 build/exercises check 14）；提示：build/exercises hint 14
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/train/adam.cpp, adam_update
// 通过以后，可以对照答案：src/train/adam.cpp, adam_update
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

void adam_step(Matrix& param, const Matrix& grad, Matrix& m, Matrix& v, int step, double lr,
               double beta1, double beta2, double eps) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
