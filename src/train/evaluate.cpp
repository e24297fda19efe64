// evaluate.cpp — reading examples and counting the right ones.
#include "train/evaluate.h"

#include <algorithm>

#include "model/5_decoding/decoding.h"

namespace {

bool is_target(const Tokens& output, const Example& e) {
    return output.size() == e.target.size() + 1 &&
           std::equal(e.target.begin(), e.target.end(), output.begin() + 1);
}

}  // namespace

std::vector<Reading> greedy_readings(const Transformer& m, const std::vector<Example>& examples) {
    std::vector<Reading> out;
    for (const Example& e : examples) {
        const GreedySteps g = greedy_decode(m, e.source, e.target.size());
        out.push_back({g.output, is_target(g.output, e)});
    }
    return out;
}

std::vector<Reading> beam_readings(const Transformer& m, const std::vector<Example>& examples,
                                   const BeamSettings& s) {
    std::vector<Reading> out;
    for (const Example& e : examples) {
        const Tokens best = beam_search(m, e.source, s).at(0).tokens;
        out.push_back({best, is_target(best, e)});
    }
    return out;
}

ExactMatch exact_match(const std::vector<Reading>& readings) {
    ExactMatch score;
    for (const Reading& r : readings) score.correct += r.right, score.total += 1;
    return score;
}

ExactMatch exact_match(const Transformer& m, const std::vector<Example>& examples) {
    return exact_match(greedy_readings(m, examples));
}
