// Exercise 11 — layer_norm_backward: LayerNorm's backward pass: dL/dx from dL/dy
// 练习 11 — layer_norm_backward：LayerNorm 的反向传播：由 dL/dy 求 dL/dx
//
// From: chapter 7 (training: every backward pass beside its forward one)
// 出处：第 7 章（训练：每个反向传播都写在它的前向传播旁边）
//
//   with x̂ = (x − mean)/σ and g = gain ⊙ dy: dx = (g − mean(g) − x̂ · mean(g ⊙ x̂)) / σ, σ =
//     √(var + 1e-5), row by row
//   令 x̂ = (x − mean)/σ，g = gain ⊙ dy：dx = (g − mean(g) − x̂ · mean(g ⊙ x̂)) / σ，σ = √(var
//     + 1e-5)，逐行计算
//
// Write it in chapters/exercises/11_layer_norm_backward.cpp: your copy, which make exercises
//   made (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/11_layer_norm_backward.cpp 里：那是你的副本。
// Check it: make exercise N=11 (or build/exercises check 11); a hint: build/exercises hint 11
// 检查：make exercise N=11（或 build/exercises check 11）；提示：build/exercises hint 11
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/transformer/norms.cpp,
//   layer_norm_backward
// 通过以后，可以对照答案：src/model/transformer/norms.cpp, layer_norm_backward
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix layer_norm_backward(const Matrix& x, const Matrix& gain, const Matrix& dy) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
