// Exercise 4 — causal_mask: the causal mask: query i sees keys 0 … i
// 练习 4 — causal_mask：因果掩码：查询 i 只看得到键 0 … i
//
// From: tutorial 03, §2.1.5 (torch.triu(…, diagonal=1)); 02, masked attention; chapter 3
// 出处：教程 03，2.1.5 节（torch.triu(…, diagonal=1)）；02，掩码注意力；第 3 章
//
//   entry (i, j) is 0 where key j may be seen (j ≤ i) and −inf where it is hidden (j > i);
//     checked entry by entry, and through the weights softmax(X·Xᵀ/√d + mask)
//   键 j 看得见（j ≤ i）的位置 (i, j) 为 0，被遮蔽（j > i）的为 −inf；逐个元素检查，也通过权重
//     softmax(X·Xᵀ/√d + mask) 检查
//
// Write it in chapters/exercises/04_causal_mask.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/04_causal_mask.cpp 里：那是你的副本。
// Check it: make exercise N=4 (or build/exercises check 4); a hint: build/exercises hint 4
// 检查：make exercise N=4（或 build/exercises check 4）；提示：build/exercises hint 4
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/attention/masks.cpp, causal_mask
// 通过以后，可以对照答案：src/model/attention/masks.cpp, causal_mask
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix causal_mask(std::size_t n) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
