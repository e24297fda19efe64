// Exercise 13 — smoothed_cross_entropy: cross-entropy with label smoothing, as
//   nn.CrossEntropyLoss
// 练习 13 — smoothed_cross_entropy：带标签平滑的交叉熵，与 nn.CrossEntropyLoss 一致
//
// From: the paper's §5.4 (ε = 0.1); chapter 7
// 出处：论文 5.4 节（ε = 0.1）；第 7 章
//
//   q = (1 − ε)·onehot(target) + ε/C over the C classes; loss = −Σ_c q_c·log
//     softmax(logits)_c, the mean over the rows
//   在 C 个类别上 q = (1 − ε)·onehot(target) + ε/C；loss = −Σ_c q_c·log softmax(logits)_c，
//     对各行取平均
//
// Write it in chapters/exercises/13_smoothed_cross_entropy.cpp: your copy, which make
//   exercises made (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/13_smoothed_cross_entropy.cpp 里：那是你的副本。
// Check it: make exercise N=13 (or build/exercises check 13); a hint: build/exercises hint 13
// 检查：make exercise N=13（或 build/exercises check 13）；提示：build/exercises hint 13
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/transformer/loss.cpp, cross_entropy
// 通过以后，可以对照答案：src/model/transformer/loss.cpp, cross_entropy
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

double smoothed_cross_entropy(const Matrix& logits, const std::vector<int>& targets,
                              double smoothing) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
