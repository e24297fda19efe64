// masks.h — additive attention masks: 0 keeps a key, −inf hides it.
//
// A mask is added to the scores before the softmax; exp(−inf) = 0, so a hidden key gets a
// weight of exactly 0. Masks combine by adding them (−inf + anything = −inf). A query row in
// which every key is hidden gets all-zero weights and a zero output (see softmax_rows) —
// PyTorch gives NaN there instead.
#pragma once
#include <cstddef>
#include <limits>
#include <vector>

#include "core/matrix.h"

constexpr double masked = -std::numeric_limits<double>::infinity();  // the score of a hidden key

// (n x n): query i may see keys 0..i only. Built as the tutorial builds it: a matrix full of
// −inf, of which only the strict upper triangle is kept (torch.triu(…, diagonal=1)).
Matrix causal_mask(std::size_t n);
// The same for n queries at positions q_first … q_first + n − 1 over keys at 0 … m − 1: query i
// sees keys 0 … q_first + i. (One new query over every key so far, in decoding: nothing hidden.)
Matrix causal_mask(std::size_t n, std::size_t m, std::size_t q_first);

// (n_queries x key_is_padding.size()): hides every key flagged as padding, in every row —
// PyTorch's key_padding_mask (true = ignore this key).
Matrix padding_mask(std::size_t n_queries, const std::vector<bool>& key_is_padding);

// (n x m) for queries at positions q_first … q_first + n − 1 and keys at positions 0 … m − 1:
// hides every key window or more positions away from its query, |i − j| ≥ window — a sliding
// window (chapter 10; Longformer, Mistral). Added to a causal mask, query i sees keys
// i − window + 1 … i. window 0: no window, all zeros.
Matrix window_mask(std::size_t n, std::size_t m, std::size_t window, std::size_t q_first = 0);

// Keys at positions >= length are padding (a sequence padded on the right to n_keys).
std::vector<bool> padding_after(std::size_t length, std::size_t n_keys);

// 1 where the mask hides a key, 0 where it keeps it: a mask in a form JSON can hold.
Matrix hidden_positions(const Matrix& mask);
