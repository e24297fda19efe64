// Exercise 15 — kv_cache_step: one decoding step with a KV cache
// 练习 15 — kv_cache_step：用 KV 缓存解码一步
//
// From: chapter 9 (the cache: each step's new key and value appended, nothing recomputed)
// 出处：第 9 章（缓存：每一步只追加新的键和值，不重新计算）
//
//   append k to K_cache and v to V_cache, then attention(q, K_cache, V_cache); the checker
//     shows the output, then the two caches
//   把 k 追加到 K_cache、v 追加到 V_cache，然后计算 attention(q, K_cache, V_cache)；
//     检查时先显示输出，再显示两个缓存
//
// Write it in chapters/exercises/15_kv_cache_step.cpp: your copy, which make exercises made
//   (tests/exercises/start/ keeps the shipped one, for the tests).
// 写在 chapters/exercises/15_kv_cache_step.cpp 里：那是你的副本。
// Check it: make exercise N=15 (or build/exercises check 15); a hint: build/exercises hint 15
// 检查：make exercise N=15（或 build/exercises check 15）；提示：build/exercises hint 15
// You have the Matrix type (m.rows, m.cols, m(r, c), Matrix(rows, cols) all zeros), the C++
// library and your other exercises.
// 你可以用 Matrix 类型（m.rows、m.cols、m(r, c)，Matrix(rows, cols) 全为 0）、C++ 标准库和你写好的
// 其他练习。
// Count in loops with std::size_t, the type of m.rows and m.cols (an int beside them draws
//   -Wsign-compare warnings).
// 循环计数用 std::size_t，与 m.rows、m.cols 同类型（用 int 会有 -Wsign-compare 警告）。
// When it passes, compare with the answer: src/model/decoding/kv_cache.cpp, decode_step
// 通过以后，可以对照答案：src/model/decoding/kv_cache.cpp, decode_step
#include <cmath>

#include "exercises/your_functions.h"

namespace exercise {

Matrix kv_cache_step(Matrix& K_cache, Matrix& V_cache, const Matrix& q, const Matrix& k,
                     const Matrix& v) {
    // your code here
    not_written_yet(__func__);
}

}  // namespace exercise
