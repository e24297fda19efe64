// evaluate.cpp — reading examples and counting the right ones.
#include "train/evaluate.h"

#include <algorithm>

#include "fast/threads.h"
#include "model/transformer/transformer_init.h"
#include "model/decoding/decoding.h"

namespace {

bool is_target(const Tokens& output, const Example& e) {
    return output.size() == e.target.size() + 1 &&
           std::equal(e.target.begin(), e.target.end(), output.begin() + 1);
}

// Multiply-adds of reading them, roughly: every target token runs the model once.
std::size_t work_of(const Transformer& m, const std::vector<Example>& examples) {
    std::size_t tokens = 0;
    for (const Example& e : examples) tokens += e.target.size();
    return tokens * parameter_count(m);
}

}  // namespace

// Each example is read on its own, so the threads share them out (parallel_for_uneven: readings
// differ in length); each reading is the same whichever thread makes it.
std::vector<Reading> greedy_readings(const Transformer& m, const std::vector<Example>& examples) {
    std::vector<Reading> out(examples.size());
    parallel_for_uneven(examples.size(), work_of(m, examples), [&](std::size_t i) {
        const GreedySteps g = greedy_decode(m, examples[i].source, examples[i].target.size());
        out[i] = {g.output, is_target(g.output, examples[i])};
    });
    return out;
}

std::vector<Reading> beam_readings(const Transformer& m, const std::vector<Example>& examples,
                                   const BeamSettings& s) {
    std::vector<Reading> out(examples.size());
    parallel_for_uneven(examples.size(), s.beam * work_of(m, examples), [&](std::size_t i) {
        const Tokens best = beam_search(m, examples[i].source, s).at(0).tokens;
        out[i] = {best, is_target(best, examples[i])};
    });
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
