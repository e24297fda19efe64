// source_words.h — the sequences a reader types on the command line (--source "3 1 4, 1 5"),
// word by word into token ids of a model's source vocabulary.
#pragma once
#include <string>
#include <vector>

#include "model/4_transformer/config.h"

// Sequences separated by commas, words by spaces; each word must be a name in the model's
// source vocabulary ("11" is not a digit, and not a raw token id either); <eos> is appended as
// in training. Anything else throws UsageError (report/chapter.h) naming the word.
std::vector<Tokens> parse_sources(const std::string& text, const TransformerConfig& config);
