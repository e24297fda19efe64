// beam_search.h — decoding that keeps the `beam` most likely partial outputs instead of one
// (the paper's §6.1: beam 4, length penalty α = 0.6, after Wu et al. 2016).
//
// Each hypothesis carries log P(its tokens | source), the sum of its steps' log-probabilities.
// At every step each alive hypothesis is extended by every token a model may generate (never
// <pad> or <bos>, as in greedy decoding); the extensions are ranked by log-probability (ties:
// the older hypothesis first, then the lower token id) and the best 2·beam considered, in order:
//   - one ending in <eos>, among the best `beam`, is finished, scored by
//       score = log P / lp(Y),   lp(Y) = ((5 + |Y|) / 6)^α,   |Y| = tokens after <bos>, <eos>
//       included;
//     the finished set keeps the `beam` best scores (a better one pushes the worst out);
//   - the first `beam` that do not end in <eos> stay alive.
// When it stops is the one choice (Stop):
//   - FirstFinished: as soon as `beam` hypotheses have finished (fairseq's early stopping). Fast,
//     but a label-smoothed model gives <eos> some probability at every step, so short, cut-off
//     readings can fill the finished set before the right one has been written out (chapter 9
//     measures it);
//   - NoneCanBeat: only when no alive hypothesis can still score better than the worst finished
//     one: log P only falls as tokens are added, so the best an alive hypothesis can reach is
//     log P / lp(max_length); when that is no better than the worst finished score, it stops.
// Either way it stops after max_length steps; if the search is not over then, the alive ones
// are scored as they are, unfinished, and kept like finished ones (one that scores better than
// the worst finished pushes it out). The answer is the hypothesis kept with the highest score.
// The length penalty keeps the sum of negative log-probabilities from favouring short outputs.
// (data/oracle/ch09_decoding.py implements the same rules again on PyTorch's model.)
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "core/matrix.h"
#include "model/transformer/tokens.h"  // exports: token ids

struct Transformer;  // model/transformer/transformer.h

enum class Stop { FirstFinished, NoneCanBeat };

struct BeamSettings {
    std::size_t beam = 4;
    double alpha = 0.6;
    std::size_t max_length = 20;  // tokens after <bos>
    Stop stop = Stop::NoneCanBeat;  // chapter 9 compares the two on a trained model
};

struct Hypothesis {
    Tokens tokens;          // <bos> first
    double log_prob = 0.0;  // log P(tokens after <bos> | source)
    double score = 0.0;     // log_prob / length_penalty(tokens after <bos>, α)
    bool finished = false;  // ended with <eos> (else cut off at max_length)
};

double length_penalty(std::size_t length, double alpha);  // ((5 + length) / 6)^α

// One extension of a hypothesis: log P of its tokens so far plus the next token's.
struct Extension {
    double log_prob;
    std::size_t parent;  // which hypothesis it extends
    int token;
};
// Every extension of every hypothesis h — log P so far log_probs_so_far[h], the next token's
// log-probabilities row h of next — by each token id allowed(id) accepts, best first:
// log-probability, then the older hypothesis (the lower h), then the lower id.
std::vector<Extension> ranked_extensions(const std::vector<double>& log_probs_so_far,
                                         const Matrix& next, const std::function<bool(int)>& allowed);  // ((5 + length) / 6)^α

// The finished hypotheses, best score first (at most `beam` of them).
std::vector<Hypothesis> beam_search(const Transformer& model, const Tokens& source,
                                    const BeamSettings& settings);

// log P(output | source) of a given output (<bos> first), one step per token after <bos>: how
// greedy decoding's result compares with beam search's.
double sequence_log_prob(const Transformer& model, const Tokens& source, const Tokens& output);
