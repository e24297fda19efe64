// Exercise 23 — kneser_ney_bigram: one probability of the interpolated modified Kneser-Ney
//   bigram
// 练习 23 — kneser_ney_bigram：插值修正 Kneser-Ney 二元模型的一个概率
//
// From: chapter 12 (the baseline: Chen & Goodman 1998)
// 出处：第 12 章（基线：Chen 与 Goodman，1998）
//
//   P(w | v) = max(c(v w) − D, 0) / c(v ·) + γ(v)·P₁(w), γ(v) = (D1·N1(v ·) + D2·N2(v ·) +
//     D3+·N3+(v ·)) / c(v ·); P₁ the same one level down on continuation counts, above
//     1/vocab; the checker shows every P(w | v), row v
//   P(w | v) = max(c(v w) − D, 0) / c(v ·) + γ(v)·P₁(w)，γ(v) = (D1·N1(v ·) + D2·N2(v ·) +
//     D3+·N3+(v ·)) / c(v ·)；P₁ 是低一阶的同样公式，用接续计数，再往下是 1/vocab；
//     检查时显示所有 P(w | v)，第 v 行
//
// Write it in chapters/exercises/23_kneser_ney_bigram.cpp: your copy, which make exercises
//   made (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/23_kneser_ney_bigram.cpp 里：那是你的副本。
// Check it: make exercise N=23 (or build/exercises check 23); a hint: build/exercises hint 23
// 检查：make exercise N=23（或 build/exercises check 23）；提示：build/exercises hint 23
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/ngram/kneser_ney.cpp, KneserNey::probability
// 通过以后，可以对照答案：src/ngram/kneser_ney.cpp, KneserNey::probability
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

double kneser_ney_bigram(const std::vector<std::vector<int>>& training, std::size_t vocab,
                         int previous, int next) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
