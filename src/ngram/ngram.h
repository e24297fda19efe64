// ngram.h — the baselines a language model has to beat (chapter 12): the unigram model (each
// token by its frequency alone) and the bigram model (each token given the one before), both
// with add-one smoothing, so that a token never seen (in that context) keeps a probability:
//
//   unigram  P(b)     = (count(b) + 1) / (N + V)
//   bigram   P(b | a) = (count(a b) + 1) / (count(a ·) + V)
//
// V the vocabulary's size. Their loss is the mean of −log P over the same predicted tokens as
// the model's (every token after <bos>), so the numbers compare.
#pragma once
#include <cstddef>
#include <map>
#include <vector>

#include "core/random.h"
#include "model/transformer/tokens.h"  // exports: token ids

class NgramCounts {
public:
    NgramCounts(const std::vector<Tokens>& training, std::size_t vocab);
    double unigram(int b) const;        // P(b)
    double bigram(int a, int b) const;  // P(b | a)
    // mean −log P of every token after the first, over the sequences
    double unigram_loss(const std::vector<Tokens>& sequences) const;
    double bigram_loss(const std::vector<Tokens>& sequences) const;
    // From start, each next token drawn from P(· | previous) (never <pad>, <bos>, <unk>: ids
    // below `first_allowed` other than eos) until eos or max_length tokens.
    Tokens sample(const Tokens& start, int eos, int first_allowed, std::size_t max_length,
                  Random& rng) const;

private:
    std::size_t vocab_, total_ = 0;
    std::vector<double> unigram_;
    std::map<int, std::map<int, double>> pairs_;  // a -> b -> count(a b)
    std::map<int, double> followed_;              // a -> count(a ·)
};
