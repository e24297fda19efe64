// Exercise 18 — rope_rotate: RoPE: rotating pairs of a query's columns by its position
// 练习 18 — rope_rotate：RoPE：按位置旋转查询向量的成对分量
//
// From: chapter 10 (Su et al. 2021; LLaMA)
// 出处：第 10 章（Su 等，2021；LLaMA）
//
//   the pair (x_2i, x_2i+1) of row r turns by the angle p·θ_i, θ_i = 10000^(−2i/d), p =
//     positions[r]: (a·cos − b·sin, a·sin + b·cos)
//   第 r 行的一对 (x_2i, x_2i+1) 旋转角度 p·θ_i，θ_i = 10000^(−2i/d)，p = positions[r]：(a·cos
//     − b·sin, a·sin + b·cos)
//
// Write it in chapters/exercises/18_rope_rotate.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/18_rope_rotate.cpp 里：那是你的副本。
// Check it: make exercise N=18 (or build/exercises check 18); a hint: build/exercises hint 18
// 检查：make exercise N=18（或 build/exercises check 18）；提示：build/exercises hint 18
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/positions/rotary.cpp, rope_rotate
// 通过以后，可以对照答案：src/model/positions/rotary.cpp, rope_rotate
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix rope_rotate(const Matrix& x, const std::vector<std::size_t>& positions) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
