// decoding.h — inference: turning a source sequence into an output sequence one token at a
// time (tutorial 02, "inference-time data flow").
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "model/transformer/tokens.h"  // exports: token ids

struct TransformerConfig;  // model/transformer/config.h

struct Transformer;  // model/transformer/transformer.h

// Whether a decoder may produce this id: never <pad> (it only fills sequences up to a common
// length) and never <bos> (it only starts the decoder's input). An untrained model may well rate
// them highest; a trained one never sees them as targets. Greedy decoding, beam search and
// sampling all ask this one function.
bool may_generate(int id, const TransformerConfig& config);

// What every decoder throws when a step's logits are not all finite (weights so large that
// they overflow, or NaN in a hand-edited model): an argmax or a softmax over them would hide the
// failure and decode nonsense. The chapter that reports it names the model's file.
struct NonFiniteLogits : std::runtime_error {
    std::size_t step;  // 1 for the first generated token
    explicit NonFiniteLogits(std::size_t s)
        : std::runtime_error("decoding step " + std::to_string(s) + ": a logit is not finite"),
          step(s) {}
};

// logits itself, when all are finite; throws NonFiniteLogits(step) otherwise.
const Matrix& finite_logits(const Matrix& logits, std::size_t step);

struct GreedySteps {
    Tokens output;  // starts with <bos>; ends with <eos> unless max_length stopped it
    std::vector<Matrix> step_logits;  // (1 x tgt_vocab) per step: the logits of the last position
};

// The most likely next token of one step's logits (1 x tgt_vocab), among those may_generate()
// allows; ties go to the lower id, as torch.argmax.
int next_token(const Matrix& logits, const TransformerConfig& config);

// Encode once, start from <bos>, append next_token(), repeat until <eos> or max_length tokens
// have been generated.
GreedySteps greedy_decode(const Transformer& model, const Tokens& source, std::size_t max_length);
