// Exercise 3 — attention: scaled dot-product attention, softmax(Q·Kᵀ/√d_k)·V
// 练习 3 — attention：缩放点积注意力，softmax(Q·Kᵀ/√d_k)·V
//
// From: tutorial 03, §2.1.2-2.1.3; 02, why scale by √d_k; chapter 2
// 出处：教程 03，2.1.2–2.1.3 节；02，为什么除以 √d_k；第 2 章
//
//   d_k is the number of columns of K; divide every score by √d_k, then softmax each row, then
//     multiply by V
//   d_k 是 K 的列数；每个分数除以 √d_k，再对每一行做 softmax，然后乘以 V
//
// Write it in chapters/exercises/03_attention.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/03_attention.cpp 里：那是你的副本。
// Check it: make exercise N=3 (or build/exercises check 3); a hint: build/exercises hint 3
// 检查：make exercise N=3（或 build/exercises check 3）；提示：build/exercises hint 3
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/attention/attention.cpp, attention
// 通过以后，可以对照答案：src/model/attention/attention.cpp, attention
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix attention(const Matrix& Q, const Matrix& K, const Matrix& V) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
