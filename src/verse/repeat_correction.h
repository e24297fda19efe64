// repeat_correction.h — a model that prefers to write the character it has just written
// (chapter 12's poet doubles characters about three times as often as the poets did) corrected
// at the output: a number β subtracted from the logit of the token just written, before the
// softmax — one β where repeating it would be the poets' 叠字 (verse/doubling.h: a pair the
// training poems hold, not across the verse's pause) and another where it would be a stutter.
// Both are fitted by likelihood, the pair whose corrected model reads the validation poems
// best, and applied while writing (SamplingSettings::repeat_correction).
//
// The loss of the corrected model needs, for each predicted token, only three logits and the
// log-sum-exp of the row: with z the row, p the token just written, t the target and β the
// place's,
//   loss(β) = log(Σ_j exp z_j − exp z_p + exp(z_p − β)) − (z_t − β·[t = p]),
// convex in each β, so the least is found by golden-section searches, one β and then the other,
// until neither moves.
#pragma once
#include <array>
#include <cstddef>
#include <functional>
#include <vector>

#include "model/transformer/tokens.h"  // exports: token ids

struct Gpt;  // model/gpt/gpt.h


struct RepeatTarget {
    double log_sum = 0;   // log Σ_j exp z_j, the row's
    double target = 0;    // z_t
    double previous = 0;  // z_p
    bool same = false;    // t = p: the target repeats the token before it
    int kind = 0;         // which β: 0 where a repeat would be 叠字, 1 a stutter
};

using RepeatKinds = std::array<double, 2>;  // β for 叠字, β for a stutter

// Every token the sliding windows of gpt_sliding_loss predict (train/gpt_training.h), in order,
// each of kind 0: the model's own loss (corrected_loss at {0, 0}) needs no kinds, so chapter 12
// reads the held-out poems once for its held-out loss and for the correction.
std::vector<RepeatTarget> repeat_targets(const Gpt& model, const std::vector<Tokens>& sequences,
                                         std::size_t context);
// kind_of(sequence, j) gives the kind of the place of token j of the sequence …
using KindOf = std::function<int(const Tokens& sequence, std::size_t j)>;
// … marked on the targets read from those sequences (repeat_targets; <pad> is never a target).
void mark_kinds(std::vector<RepeatTarget>& targets, const std::vector<Tokens>& sequences, int pad,
                const KindOf& kind_of);
// Both at once.
std::vector<RepeatTarget> repeat_targets(const Gpt& model, const std::vector<Tokens>& sequences,
                                         std::size_t context, const KindOf& kind_of);
// The mean cross-entropy with each place's β subtracted from the previous token's logit
// ({0, 0}: the model's own).
double corrected_loss(const std::vector<RepeatTarget>& targets, const RepeatKinds& beta);
// The pair of β in [0, 12] of least corrected loss, each to 1e-6.
RepeatKinds fit_repeat_correction(const std::vector<RepeatTarget>& targets);
