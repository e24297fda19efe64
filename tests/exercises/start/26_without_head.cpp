// Exercise 26 — without_head: a head left out (ablation): its share of the output zeroed
// 练习 26 — without_head：去掉一个头（消融）：把它对输出的贡献置零
//
// From: chapter 14 (inside the poet: which heads matter)
// 出处：第 14 章（诗人的内部：哪些头重要）
//
//   Concat(head_0, …, head_h−1)·W_O with the chosen head's columns set to 0 before W_O
//   Concat(head_0, …, head_h−1)·W_O，在乘 W_O 之前把所选头的列置为 0
//
// Write it in chapters/exercises/26_without_head.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/26_without_head.cpp 里：那是你的副本。
// Check it: make exercise N=26 (or build/exercises check 26); a hint: build/exercises hint 26
// 检查：make exercise N=26（或 build/exercises check 26）；提示：build/exercises hint 26
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/inside/head_ablation.cpp, without_heads
// 通过以后，可以对照答案：src/inside/head_ablation.cpp, without_heads
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix without_head(const std::vector<Matrix>& heads, const Matrix& W_O, std::size_t head) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
