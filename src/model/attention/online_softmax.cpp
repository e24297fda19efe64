// online_softmax.cpp — the running maximum and the running sum.
#include "model/attention/online_softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/elementary.h"

void RunningSum::add(double score) {
    if (score == -std::numeric_limits<double>::infinity()) return;  // hidden: adds exp(−inf) = 0
    if (score <= max) {
        sum += elementary::exp(score - max);
        return;
    }
    // a new maximum: what was summed relative to the old one is scaled down to the new one
    // (exp(−inf) = 0 for the first score: nothing summed yet)
    sum = sum * elementary::exp(max - score) + 1.0;  // + exp(score − score)
    max = score;
}

double RunningSum::add_block(double* scores, std::size_t count) {
    double new_max = max;
    for (std::size_t j = 0; j < count; ++j) new_max = std::max(new_max, scores[j]);
    if (new_max == -std::numeric_limits<double>::infinity()) {  // every score so far hidden
        std::fill(scores, scores + count, 0.0);
        return 1.0;
    }
    double block_sum = 0.0;
    for (std::size_t j = 0; j < count; ++j)
        block_sum += (scores[j] = elementary::exp(scores[j] - new_max));
    const double factor = elementary::exp(max - new_max);  // exp(−inf) = 0 before the first score
    sum = sum * factor + block_sum;
    max = new_max;
    return factor;
}

double RunningSum::log_sum_exp() const {
    return sum == 0.0 ? -std::numeric_limits<double>::infinity() : max + elementary::log(sum);
}

std::vector<double> online_softmax(const std::vector<double>& scores,
                                   std::vector<OnlineStep>* steps) {
    RunningSum running;
    if (steps) steps->clear();
    for (double x : scores) {  // the one pass
        const RunningSum before = running;
        running.add(x);
        if (steps)
            steps->push_back(
                {x, running.max, running.sum, running.max > before.max && before.sum > 0});
    }
    std::vector<double> weights(scores.size(), 0.0);
    if (running.sum == 0.0) return weights;  // every score hidden: weights 0, never 0/0
    for (std::size_t j = 0; j < scores.size(); ++j)
        weights[j] = elementary::exp(scores[j] - running.max) / running.sum;
    return weights;
}
