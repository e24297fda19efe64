// Exercise 9 — sinusoidal_encoding: sinusoidal positions
// 练习 9 — sinusoidal_encoding：正弦位置编码
//
// From: tutorial 04, positional encoding; 02, its design choices; chapter 5
// 出处：教程 04，位置编码；02，位置编码的设计选择；第 5 章
//
//   PE(p, 2i) = sin(p / 10000^(2i/d_model)), PE(p, 2i+1) = cos(p / 10000^(2i/d_model)); an odd
//     d_model ends on a sine
//   PE(p, 2i) = sin(p / 10000^(2i/d_model))，PE(p, 2i+1) = cos(p / 10000^(2i/d_model))；
//     d_model 为奇数时最后一列是正弦
//
// Write it in chapters/exercises/09_sinusoidal_encoding.cpp: your copy, which make exercises
//   made (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/09_sinusoidal_encoding.cpp 里：那是你的副本。
// Check it: make exercise N=9 (or build/exercises check 9); a hint: build/exercises hint 9
// 检查：make exercise N=9（或 build/exercises check 9）；提示：build/exercises hint 9
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/positions/positional.cpp,
//   sinusoidal_encoding
// 通过以后，可以对照答案：src/model/positions/positional.cpp, sinusoidal_encoding
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix sinusoidal_encoding(std::size_t n, std::size_t d_model) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
