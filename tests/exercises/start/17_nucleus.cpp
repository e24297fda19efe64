// Exercise 17 — nucleus: top-p (nucleus) filtering
// 练习 17 — nucleus：top-p（核）采样的筛选
//
// From: chapter 9 (sampling: temperature, top-k, top-p)
// 出处：第 9 章（采样：温度、top-k、top-p）
//
//   sort the tokens by probability, most probable first; keep them until their sum reaches
//     top_p (the one that reaches it included); divide the kept by their sum; the rest get 0
//   按概率从大到小排列词元；依次保留，直到累计和达到 top_p（达到的那个也保留）；
//     保留的除以它们的和；其余为 0
//
// Write it in chapters/exercises/17_nucleus.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/17_nucleus.cpp 里：那是你的副本。
// Check it: make exercise N=17 (or build/exercises check 17); a hint: build/exercises hint 17
// 检查：make exercise N=17（或 build/exercises check 17）；提示：build/exercises hint 17
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/decoding/sampling.cpp, nucleus
// 通过以后，可以对照答案：src/model/decoding/sampling.cpp, nucleus
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix nucleus(const Matrix& probs, double top_p) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
