// Exercise 10 — layer_norm: LayerNorm, as nn.LayerNorm
// 练习 10 — layer_norm：层归一化（LayerNorm），与 nn.LayerNorm 一致
//
// From: tutorial 04, LayerNorm against BatchNorm; chapter 6 (Add & Norm)
// 出处：教程 04，LayerNorm 与 BatchNorm 的对比；第 6 章（Add & Norm）
//
//   each row: (x − mean) / √(var + 1e-5) · gain + bias, var the mean of (x − mean)²
//   每一行：(x − mean) / √(var + 1e-5) · gain + bias，var 是 (x − mean)² 的平均值
//
// Write it in chapters/exercises/10_layer_norm.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/10_layer_norm.cpp 里：那是你的副本。
// Check it: make exercise N=10 (or build/exercises check 10); a hint: build/exercises hint 10
// 检查：make exercise N=10（或 build/exercises check 10）；提示：build/exercises hint 10
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/transformer/norms.cpp, layer_norm
// 通过以后，可以对照答案：src/model/transformer/norms.cpp, layer_norm
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix layer_norm(const Matrix& x, const Matrix& gain, const Matrix& bias) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
