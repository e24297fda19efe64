// decoding.cpp — greedy decoding.
#include "model/decoding.h"

GreedySteps greedy_decode(const Transformer& m, const Tokens& source, std::size_t max_length) {
    GreedySteps g;
    const Matrix memory = encode(m, {source});  // encoded once, read by every step
    g.output = {m.config.bos_id};
    while (g.output.size() <= max_length) {
        const Matrix logits =
            decode(m, {g.output}, memory, {source});  // (steps so far x tgt_vocab)
        g.step_logits.push_back(row_of(logits, logits.rows - 1));
        const int next = static_cast<int>(argmax(g.step_logits.back(), 0));
        g.output.push_back(next);
        if (next == m.config.eos_id) break;
    }
    return g;
}
