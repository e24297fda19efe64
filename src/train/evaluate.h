// evaluate.h — how well a model reads examples it never trained on: greedy decoding's exact
// match (chapter 7), and the same examples read by beam search (chapter 9 compares its two
// stopping rules).
#pragma once
#include <cstddef>
#include <vector>

#include "model/decoding/beam_search.h"
#include "model/transformer/tokens.h"  // exports: token ids
#include "train/example.h"

struct Transformer;  // model/transformer/transformer.h

struct ExactMatch {
    std::size_t correct = 0, total = 0;
    double rate() const {
        return total ? static_cast<double>(correct) / static_cast<double>(total) : 0.0;
    }
};

// One example read by a decoder: its output (<bos> first), and whether it is the target.
struct Reading {
    Tokens output;
    bool right = false;
};

// Greedy decoding of every example (inference, not teacher forcing), at most as long as its
// target; an example counts when the output after <bos> equals its target exactly.
std::vector<Reading> greedy_readings(const Transformer& model,
                                     const std::vector<Example>& examples);

// The same with beam search: the best finished hypothesis of each.
std::vector<Reading> beam_readings(const Transformer& model, const std::vector<Example>& examples,
                                   const BeamSettings& settings);

ExactMatch exact_match(const std::vector<Reading>& readings);  // how many are right
ExactMatch exact_match(const Transformer& model, const std::vector<Example>& examples);  // greedy
