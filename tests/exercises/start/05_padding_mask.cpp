// Exercise 5 — padding_mask: the padding mask: no query sees a padded key
// 练习 5 — padding_mask：填充掩码：任何查询都看不到填充的键
//
// From: tutorial 02, masked attention (padding); chapter 3
// 出处：教程 02，掩码注意力（填充）；第 3 章
//
//   an (n_queries x keys) matrix: column j all −inf where key j is padding, 0 elsewhere;
//     checked entry by entry, and through the weights softmax(X·Xᵀ/√d + mask)
//   一个（查询数 x 键数）的矩阵：键 j 是填充时第 j 列全为 −inf，其余为 0；逐个元素检查，也通过
//     权重 softmax(X·Xᵀ/√d + mask) 检查
//
// Write it in chapters/exercises/05_padding_mask.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/05_padding_mask.cpp 里：那是你的副本。
// Check it: make exercise N=5 (or build/exercises check 5); a hint: build/exercises hint 5
// 检查：make exercise N=5（或 build/exercises check 5）；提示：build/exercises hint 5
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/attention/masks.cpp, padding_mask
// 通过以后，可以对照答案：src/model/attention/masks.cpp, padding_mask
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix padding_mask(std::size_t n_queries, const std::vector<bool>& key_is_padding) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
