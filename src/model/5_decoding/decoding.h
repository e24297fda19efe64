// decoding.h — inference: turning a source sequence into an output sequence one token at a
// time (tutorial 02, "inference-time data flow").
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "model/4_transformer/transformer.h"

// Whether a decoder may produce this id: never <pad> (it only fills sequences up to a common
// length) and never <bos> (it only starts the decoder's input). An untrained model may well rate
// them highest; a trained one never sees them as targets. Greedy decoding, beam search and
// sampling all ask this one function.
bool may_generate(int id, const TransformerConfig& config);

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
