// attention_float32.h — scaled dot-product attention with float32 arithmetic: chapter 13's model,
// which keeps its numbers in float32 as the models a student meets do. The steps are
// attention.h's, row by row; only the arithmetic is narrower:
//
//   score(i, j) = (q_i · k_j) · s + mask(i, j)   each dot product summed in float32, in order
//   weights     = softmax of each row             the row's maximum subtracted, e^x rounded
//                                                 to float32, their float32 sum, each over it
//   output(i)   = Σ_j weight(i, j) · v_j           summed in float32, in order
//
// s is 1/√d_k (attention_scale) rounded to float32. With float16_results every score, weight
// and output is also rounded to float16 as it is made ("everything in float16", chapter 13):
// each operation still sums in float32 before its result is rounded.
//
// Every value goes in and comes out as a double holding a float32 exactly, so this is a drop-in
// for attention() where a model computes in float32 (model/multi_head/heads.h chooses).
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"

struct AttentionResult;  // attention.h

// Columns first … first + width − 1 of a matrix, read in place: one head's block of Q, K or V,
// which hold every head side by side (a whole matrix: first 0, width its columns).
struct Columns {
    const Matrix& of;
    std::size_t first, width;
    double operator()(std::size_t r, std::size_t c) const { return of(r, first + c); }
};

AttentionResult attention_in_float32(Columns Q, Columns K, Columns V, const Matrix& mask,
                                     bool float16_results);

// Keys and values kept in float32 while decoding one position at a time (chapter 13's lowered
// model), so that each step reads 4 bytes a value, not a double's 8. A key/value head's keys are
// kept feature by feature — row e of the head holds feature e of every key, so that a query's
// scores run along contiguous floats, several keys to a vector register — its values key by key.
struct KeptFloat32 {
    std::size_t heads = 0, d_k = 0, d_v = 0;  // key/value heads and their widths
    std::size_t length = 0, capacity = 0;     // keys kept, and room for
    std::vector<float> keys;                  // [head][e][capacity]
    std::vector<float> values;                // [position][head][d_v]
};
// One more position: k holds heads·d_k floats (head after head), v heads·d_v.
void keep(KeptFloat32& kept, const std::vector<float>& k, const std::vector<float>& v);

// One query row q (d_k floats) against key/value head `head` of every position kept, with the
// additive mask (1 x length, or empty): d_v floats at out — attention_in_float32's row, bit for
// bit (one loop serves both).
void attend_kept_float32(const float* q, const KeptFloat32& kept, std::size_t head,
                         const Matrix& mask, bool float16_results, float* out);
