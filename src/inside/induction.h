// induction.h — the standard test for copying (induction) heads, Olsson et al. (2022), "In-context
// learning and induction heads": random sequences of the vocabulary's characters, each repeated
// twice, <bos> r r. Nothing in the first copy can be predicted (the characters are random); in
// the second, a model that can copy predicts each next character by finding the same character
// in the first copy and reading what came after it. So:
//   the loss on the second copy against the first: how much the model copies;
//   each head's prefix-matching score: from a second-copy token at t, the mean weight on the
//     token after its first occurrence, t − length + 1 (an induction head puts it there);
//   both copies' losses with each head zeroed: which heads the copying needs — the change in the
//     saving (first − second), since zeroing any head harms both copies.
// Tokens r[1 …] are measured in both copies (r[0] follows <bos> in the first copy and the end
// of the first copy in the second: no copying predicts it).
#pragma once
#include <cstdint>
#include <vector>

#include "model/transformer/tokens.h"  // exports: token ids

struct Gpt;  // model/gpt/gpt.h

// `count` sequences <bos> r r, r `length` characters drawn uniformly from `characters` by the
// seeded generator (core/random.h: next() mod their number; the oracle draws the same).
std::vector<Tokens> repeated_sequences(const std::vector<int>& characters, std::size_t count,
                                       std::size_t length, std::uint64_t seed);

struct Induction {
    double first_loss = 0, second_loss = 0;  // nats per token, r[1 …] in each copy
    std::vector<double> prefix_matching;     // per head, layer-major
    std::vector<double> first_loss_zeroed;   // the first copy's loss, each head zeroed
    std::vector<double> second_loss_zeroed;  // the second copy's loss, each head zeroed
    // how much of the saving (first − second) zeroing head k takes away
    double saving_lost(std::size_t k) const {
        return (first_loss - second_loss) - (first_loss_zeroed[k] - second_loss_zeroed[k]);
    }
};

Induction induction_test(const Gpt& model, const std::vector<Tokens>& sequences,
                         std::size_t length);
