// Exercise 7 — split_heads: splitting the projected x into heads
// 练习 7 — split_heads：把投影后的 x 拆成多个头
//
// From: tutorial 03, §2.1.6 (view, transpose); 04, the shape example; chapter 4
// 出处：教程 03，2.1.6 节（view、transpose）；04，形状示例；第 4 章
//
//   head h is the block of columns h·d_k … (h+1)·d_k − 1, every row; the checker shows the
//     heads one below the other
//   第 h 个头是第 h·d_k … (h+1)·d_k − 1 列这一块（所有行）；检查时把各个头上下叠放显示
//
// Write it in chapters/exercises/07_split_heads.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/07_split_heads.cpp 里：那是你的副本。
// Check it: make exercise N=7 (or build/exercises check 7); a hint: build/exercises hint 7
// 检查：make exercise N=7（或 build/exercises check 7）；提示：build/exercises hint 7
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/multi_head/multi_head.cpp,
//   multi_head_attention_per_head (column_block)
// 通过以后，可以对照答案：src/model/multi_head/multi_head.cpp, multi_head_attention_per_head
//   (column_block)
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

std::vector<Matrix> split_heads(const Matrix& x, std::size_t n_heads) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
