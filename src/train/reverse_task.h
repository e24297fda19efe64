// reverse_task.h — the toy task of chapter 7: read a sequence of digits, write it backwards.
//
// Vocabulary (13 tokens): 0 <pad>, 1 <bos>, 2 <eos>, and the digits 0-9 as ids 3-12.
//   source: the digits, then <eos>            e.g. 3 1 4 <eos>
//   target: the digits reversed, then <eos>   e.g. 4 1 3 <eos>
// The decoder is fed <bos> + target[:-1] (teacher forcing) and must produce the target.
// data/oracle/ch07_training.py draws the same examples with the same generator.
#pragma once
#include <cstddef>
#include <vector>

#include "core/random.h"
#include "model/transformer/tokens.h"  // exports: token ids
#include "train/example.h"

constexpr int reverse_vocab_size = 13;
Vocabulary reverse_vocabulary();  // "<pad>", "<bos>", "<eos>", "0" … "9"

// Lengths uniform in [min_length, max_length], digits uniform.
Example random_reversal(Random& rng, std::size_t min_length, std::size_t max_length);
std::vector<Example> random_reversals(Random& rng, std::size_t count, std::size_t min_length,
                                      std::size_t max_length);
