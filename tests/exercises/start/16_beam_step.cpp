// Exercise 16 — beam_step: one step of beam search
// 练习 16 — beam_step：束搜索的一步
//
// From: the paper's §6.1 (beam 4); chapter 9
// 出处：论文 6.1 节（束宽 4）；第 9 章
//
//   every beam b and token t make a candidate scored beam_scores[b] + log_probs(b, t); keep
//     the best `width`, best first (ties: the lower beam, then the lower token); the checker
//     shows each as a row: beam, token, score
//   每个束 b 和词元 t 组成一个候选，得分为 beam_scores[b] + log_probs(b, t)；保留最好的 width
//     个，从好到差（平分时束编号小的在前，再按词元编号）；检查时每个候选显示为一行：束、词元、
//     得分
//
// Write it in chapters/exercises/16_beam_step.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/16_beam_step.cpp 里：那是你的副本。
// Check it: make exercise N=16 (or build/exercises check 16); a hint: build/exercises hint 16
// 检查：make exercise N=16（或 build/exercises check 16）；提示：build/exercises hint 16
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/decoding/beam_search.cpp,
//   ranked_extensions
// 通过以后，可以对照答案：src/model/decoding/beam_search.cpp, ranked_extensions
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

std::vector<BeamCandidate> beam_step(const std::vector<double>& beam_scores,
                                     const Matrix& log_probs, std::size_t width) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
