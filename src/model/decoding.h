// decoding.h — inference: turning a source sequence into an output sequence one token at a
// time (tutorial 02, "inference-time data flow").
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "model/transformer.h"

struct GreedySteps {
    Tokens output;  // starts with <bos>; ends with <eos> unless max_length stopped it
    std::vector<Matrix> step_logits;  // (1 x tgt_vocab) per step: the logits of the last position
};

// Encode once, start from <bos>, append the argmax, repeat until <eos> or max_length tokens
// have been generated.
GreedySteps greedy_decode(const Transformer& model, const Tokens& source, std::size_t max_length);
