// multi_head_switches.h — what chapters 9–11 switch on inside chapter 4's multi-head attention
// (attending.h says when): RoPE's rotations of queries and keys, ALiBi's bias on each head's
// scores, keys and values kept across calls, tiled attention. multi_head.cpp calls these; with
// every switch off each is nothing, or chapter 4's own step.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "model/attention/attention.h"
#include "model/multi_head/multi_head.h"

// RoPE (chapter 10): the queries c.Q rotated by their positions (q_first, q_first + 1, … in
// each sequence), the positions kept in c for the backward pass; nothing without RoPE.
void rotate_queries(MultiHeadCache& c, std::size_t d_k, const Attending& who);
// The same for the keys c.K, at positions 0, 1, … in each sequence.
void rotate_keys(MultiHeadCache& c, std::size_t d_k, const Attending& who);
// The backward pass of both rotations: dQ and dK rotated back (their transposes).
void rotate_back(Matrix& dQ, Matrix& dK, std::size_t d_k, const MultiHeadCache& c);

// Decoding (chapter 9): x_kv's keys and values appended to the ones kept (RoPE: rotated to the
// positions after them); a fixed kept (the memory's) is only read.
void keep_keys_values(const Matrix& x_kv, const MultiHeadWeights& w, const Attending& who,
                      KeptKV& kept);

// ALiBi (chapter 10): the slopes, one per head, when who's positions are ALiBi's; else none.
std::vector<double> slopes_of(const Attending& who, std::size_t n_heads);
// The additive mask head i of sequence s attends with: the sequence's own, plus ALiBi's bias
// −m_i·|distance| when there are slopes.
Matrix head_mask(const Attending& who, std::size_t s, std::size_t i,
                 const std::vector<double>& slopes);

// One head's attention: chapter 2's (weights kept), or block by block when tile > 0 (chapter 11).
AttentionResult attend(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask,
                       std::size_t tile);
// Its backward pass: from the kept weights, or recomputing them block by block.
AttentionGrads attend_backward(const Matrix& dO, const Matrix& Q, const Matrix& K, const Matrix& V,
                               const AttentionResult& head, const Matrix& mask, std::size_t tile);
