// source_words.h — the sequences a reader types on the command line (--source "3 1 4, 1 5"),
// word by word into token ids of a model's source vocabulary.
#pragma once
#include <string>
#include <vector>

#include "model/transformer/tokens.h"  // exports: token ids

struct TransformerConfig;  // model/transformer/config.h


// The longest source a reader may give (with <eos>).
constexpr std::size_t max_source_tokens = 1024;

// Sequences separated by commas, words by spaces; each word must be a name in the model's
// source vocabulary ("11" is not a digit, and not a raw token id either; "2026" suggests
// "2 0 2 6"), never <pad> or <bos>; <eos> is appended as in training. Anything else throws
// UsageError (report/options.h) naming the word.
std::vector<Tokens> parse_sources(const std::string& text, const TransformerConfig& config);
