// Exercise 8 — merge_heads: merging the heads' outputs back into one matrix
// 练习 8 — merge_heads：把各个头的输出拼回一个矩阵
//
// From: tutorial 03, §2.1.6 (Concat(head_1, …, head_h)); chapter 4
// 出处：教程 03，2.1.6 节（Concat(head_1, …, head_h)）；第 4 章
//
//   the heads side by side: head 0's columns, then head 1's, …
//   各个头左右并排：先是头 0 的列，然后是头 1 的列，……
//
// Write it in chapters/exercises/08_merge_heads.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/08_merge_heads.cpp 里：那是你的副本。
// Check it: make exercise N=8 (or build/exercises check 8); a hint: build/exercises hint 8
// 检查：make exercise N=8（或 build/exercises check 8）；提示：build/exercises hint 8
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/core/matrix.cpp, concat_columns
// 通过以后，可以对照答案：src/core/matrix.cpp, concat_columns
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix merge_heads(const std::vector<Matrix>& heads) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
