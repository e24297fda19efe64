// Exercise 22 — online_softmax_update: the online softmax: reading one more score
// 练习 22 — online_softmax_update：在线 softmax：再读入一个分数
//
// From: chapter 11 (Milakov & Gimelshein 2018; FlashAttention)
// 出处：第 11 章（Milakov 与 Gimelshein，2018；FlashAttention）
//
//   from (max −inf, sum 0): m′ = max(m, x), sum′ = sum·exp(m − m′) + exp(x − m′), except that
//     while every score so far is −inf (hidden) the state stays (−inf, 0); the checker shows
//     (max, sum) after each score, a row each
//   从 (max −inf, sum 0) 开始：m′ = max(m, x)，sum′ = sum·exp(m − m′) + exp(x − m′)；
//     但只要到目前为止的分数都是 −inf（被遮蔽），状态就保持 (−inf, 0)；
//     检查时每行显示读入每个分数之后的 (max, sum)
//
// Write it in chapters/exercises/22_online_softmax_update.cpp: your copy, which make exercises
//   made (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/22_online_softmax_update.cpp 里：那是你的副本。
// Check it: make exercise N=22 (or build/exercises check 22); a hint: build/exercises hint 22
// 检查：make exercise N=22（或 build/exercises check 22）；提示：build/exercises hint 22
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/attention/online_softmax.cpp,
//   RunningSum::add
// 通过以后，可以对照答案：src/model/attention/online_softmax.cpp, RunningSum::add
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

RunningSum online_softmax_update(RunningSum s, double score) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
