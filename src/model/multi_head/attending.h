// attending.h — who attends to whom in one multi-head attention call, and what later chapters
// switch on inside it. Chapter 4's multi-head attention (multi_head.h) reads one of these; its
// fields beyond the first three are chapters 9–11's:
//
//   q, kv, masks   stacked sequences (stacking.h): the queries of sequence s see only its keys,
//                  through masks[s], additive (q.length(s) x kv.length(s)) or empty (none)
//   positions      chapter 10: positions acting inside attention — RoPE rotates queries and
//                  keys by position (model/positions/rotary.h), ALiBi biases the scores by the
//                  distance (model/positions/alibi.h)
//   q_first        chapter 9: where the queries stand when decoding one token at a time (the
//                  number of tokens before them); the keys of a sequence are at 0, 1, …
//   tile           chapter 11: attend block by block (model/attention/tiled_attention.h),
//                  blocks of `tile` queries and keys, no weights kept
//
// and KeptKV, chapter 9's keys and values kept from one call to the next (the KV cache).
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "model/multi_head/stacking.h"  // exports: Attending is made of stacks

// How positions act inside attention: not at all (added to the embeddings before, or none),
// by rotating queries and keys (RoPE), or by a bias on the scores (ALiBi).
enum class InAttention { None, Rope, Alibi };

struct Attending {
    Stacking q, kv;
    std::vector<Matrix> masks;
    InAttention positions = InAttention::None;
    std::size_t q_first = 0;
    std::size_t tile = 0;
};

// One sequence of n queries and m keys, with an additive (n x m) mask or none, positions acting
// inside attention or not.
Attending within_one(std::size_t n, std::size_t m, const Matrix& mask = Matrix(),
                     InAttention positions = InAttention::None);

// Keys and values kept from one call to the next: the KV cache of chapter 9, which decodes one
// token at a time. A call with kept appends the keys and values of x_kv's rows to it and
// attends over every row kept so far — the same numbers, row for row, as one call on all of
// x_kv at once. A fixed one (the memory's keys and values in cross-attention, computed once)
// is only read: x_kv is then not used.
struct KeptKV {
    Matrix K, V;         // (m x n_kv·d_k), (m x n_kv·d_v): every key and value so far (RoPE:
                         // the keys rotated by their positions, 0 … m − 1)
    bool fixed = false;  // true: computed once, never grown
};
