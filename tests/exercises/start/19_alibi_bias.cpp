// Exercise 19 — alibi_bias: ALiBi's bias for one head
// 练习 19 — alibi_bias：一个头的 ALiBi 偏置
//
// From: chapter 10 (Press et al. 2022)
// 出处：第 10 章（Press 等，2022）
//
//   bias(i, j) = −m·|i − j|; for h heads, a power of 2, head k (from 0) has m = 2^(−8(k+1)/h);
//     otherwise the slopes of the power of 2 below h, then every other slope of twice as many
//     heads
//   bias(i, j) = −m·|i − j|；头数 h 是 2 的幂时，第 k 个头（从 0 数）的 m = 2^(−8(k+1)/h)；
//     否则先取小于 h 的最大 2 的幂的斜率，再取两倍头数的斜率中每隔一个的那些
//
// Write it in chapters/exercises/19_alibi_bias.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/19_alibi_bias.cpp 里：那是你的副本。
// Check it: make exercise N=19 (or build/exercises check 19); a hint: build/exercises hint 19
// 检查：make exercise N=19（或 build/exercises check 19）；提示：build/exercises hint 19
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/positions/alibi.cpp, alibi_slopes and
//   alibi_bias
// 通过以后，可以对照答案：src/model/positions/alibi.cpp, alibi_slopes and alibi_bias
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix alibi_bias(std::size_t n, std::size_t n_heads, std::size_t head) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
