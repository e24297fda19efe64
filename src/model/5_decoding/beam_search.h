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
//   - the first `beam` that do not end in <eos> stay alive.
// The search stops when `beam` hypotheses have finished, or after max_length steps (the alive
// ones are then scored as they are, unfinished). The answer is the finished hypothesis with the
// highest score. The length penalty keeps the sum of negative log-probabilities from favouring
// short outputs. (fairseq's rules; data/oracle/ch09_decoding.py implements them again on PyTorch's
// model.)
#pragma once
#include <cstddef>
#include <vector>

#include "model/4_transformer/transformer.h"

struct BeamSettings {
    std::size_t beam = 4;
    double alpha = 0.6;
    std::size_t max_length = 20;  // tokens after <bos>
};

struct Hypothesis {
    Tokens tokens;          // <bos> first
    double log_prob = 0.0;  // log P(tokens after <bos> | source)
    double score = 0.0;     // log_prob / length_penalty(tokens after <bos>, α)
    bool finished = false;  // ended with <eos> (else cut off at max_length)
};

double length_penalty(std::size_t length, double alpha);  // ((5 + length) / 6)^α

// The finished hypotheses, best score first (at most `beam` of them).
std::vector<Hypothesis> beam_search(const Transformer& model, const Tokens& source,
                                    const BeamSettings& settings);

// log P(output | source) of a given output (<bos> first), one step per token after <bos>: how
// greedy decoding's result compares with beam search's.
double sequence_log_prob(const Transformer& model, const Tokens& source, const Tokens& output);
