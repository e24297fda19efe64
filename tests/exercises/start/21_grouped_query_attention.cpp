// Exercise 21 — grouped_query_attention: grouped-query attention: fewer key/value heads than
//   query heads
// 练习 21 — grouped_query_attention：分组查询注意力：键/值头比查询头少
//
// From: chapter 10 (Ainslie et al. 2023)
// 出处：第 10 章（Ainslie 等，2023）
//
//   query head h reads key/value head h / (query heads / key/value heads); each head is
//     attention(Q_h, K_g, V_g); the heads' outputs side by side
//   查询头 h 读取第 h / （查询头数 / 键值头数） 个键/值头；每个头是 attention(Q_h, K_g, V_g)；
//     各头输出左右并排
//
// Write it in chapters/exercises/21_grouped_query_attention.cpp: your copy, which make
//   exercises made (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/21_grouped_query_attention.cpp 里：那是你的副本。
// Check it: make exercise N=21 (or build/exercises check 21); a hint: build/exercises hint 21
// 检查：make exercise N=21（或 build/exercises check 21）；提示：build/exercises hint 21
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/multi_head/heads.cpp, attend_heads
// 通过以后，可以对照答案：src/model/multi_head/heads.cpp, attend_heads
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix grouped_query_attention(const std::vector<Matrix>& Q, const std::vector<Matrix>& K,
                               const std::vector<Matrix>& V) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
