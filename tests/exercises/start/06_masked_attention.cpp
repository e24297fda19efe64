// Exercise 6 — masked_attention: attention under a mask, a row with every key hidden included
// 练习 6 — masked_attention：带掩码的注意力，包括所有键都被遮蔽的一行
//
// From: tutorial 03, §2.1.5; 02, masked attention; chapter 3
// 出处：教程 03，2.1.5 节；02，掩码注意力；第 3 章
//
//   add the mask to the scaled scores, then softmax; a row whose keys are all hidden gets
//     all-zero weights, so its output is 0
//   把掩码加到缩放后的分数上，再做 softmax；所有键都被遮蔽的一行权重全为 0，所以输出为 0
//
// Write it in chapters/exercises/06_masked_attention.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/06_masked_attention.cpp 里：那是你的副本。
// Check it: make exercise N=6 (or build/exercises check 6); a hint: build/exercises hint 6
// 检查：make exercise N=6（或 build/exercises check 6）；提示：build/exercises hint 6
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/attention/attention.cpp, attention (with
//   a mask)
// 通过以后，可以对照答案：src/model/attention/attention.cpp, attention (with a mask)
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix masked_attention(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
