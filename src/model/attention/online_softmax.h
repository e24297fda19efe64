// online_softmax.h — softmax read in one pass, the trick that lets attention go block by block
// (chapter 11; Milakov & Gimelshein 2018, the start of FlashAttention).
//
// Chapter 2's softmax reads a row three times: once for its maximum m, once for the sum
// l = Σ exp(x_j − m), once to divide. Reading left to right, the maximum so far is all one has,
// so the sum is kept relative to it and corrected whenever a larger score arrives:
//
//     m' = max(m, x)      l' = l·exp(m − m') + exp(x − m')
//
// After the last score, m and l are the row's maximum and sum, and weight j is exp(x_j − m)/l.
// The correction factor exp(m − m') is ≤ 1, so nothing overflows on the way. A hidden score
// (−inf) adds exp(−inf) = 0; a row of hidden scores keeps l = 0 and gets weights 0, as
// chapter 3's softmax gives.
#pragma once
#include <cstddef>
#include <limits>
#include <vector>

// The two numbers carried along one row: the largest score read so far and the sum of the
// exponentials of the scores read so far, each taken relative to that maximum.
struct RunningSum {
    double max = -std::numeric_limits<double>::infinity();
    double sum = 0.0;
    // reads one more score
    void add(double score);
    // reads a block of scores at once (what tiled attention does with each block of keys):
    // the new maximum m' first, then one correction. Each score is replaced by its term
    // exp(score − m'); returns the factor exp(m − m') by which the sum so far was scaled (0 when
    // nothing was summed yet, 1 when the maximum stayed), for whatever else was summed with it.
    double add_block(double* scores, std::size_t count);
    // log Σ exp(x_j), the log-sum-exp of every score read (−inf for none, or all hidden)
    double log_sum_exp() const;
};

// One score read, and the running numbers after it (for narrating the pass).
struct OnlineStep {
    double score, max, sum;
    bool rescaled;  // the maximum grew, so the sum so far was multiplied by exp(m − m')
};

// The softmax of one row in a single pass over the scores, then the division; steps (when
// given) receives the running numbers after each score.
std::vector<double> online_softmax(const std::vector<double>& scores,
                                   std::vector<OnlineStep>* steps = nullptr);
