// Exercise 1 — scores: the scores: every query's dot product with every key, Q·Kᵀ
// 练习 1 — scores：注意力分数：每个查询与每个键的点积，Q·Kᵀ
//
// From: tutorial 03, §2.1.2 (x = qKᵀ); 01, the hand calculation of X·Xᵀ; chapters 1-2
// 出处：教程 03，2.1.2 节（x = qKᵀ）；01，X·Xᵀ 的手算；第 1–2 章
//
//   score(i, j) = Σ_c Q(i, c)·K(j, c): row i of Q against row j of K
//   score(i, j) = Σ_c Q(i, c)·K(j, c)：Q 的第 i 行对 K 的第 j 行
//
// Write it in chapters/exercises/01_scores.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/01_scores.cpp 里：那是你的副本。
// Check it: make exercise N=1 (or build/exercises check 1); a hint: build/exercises hint 1
// 检查：make exercise N=1（或 build/exercises check 1）；提示：build/exercises hint 1
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/core/matmul.cpp, matmul_bt
// 通过以后，可以对照答案：src/core/matmul.cpp, matmul_bt
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix scores(const Matrix& Q, const Matrix& K) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
