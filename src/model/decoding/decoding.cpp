// decoding.cpp — greedy decoding.
#include "model/decoding/decoding.h"
#include "model/transformer/transformer.h"

#include <cmath>

const Matrix& finite_logits(const Matrix& logits, std::size_t step) {
    for (const double x : logits.data)
        if (!std::isfinite(x)) throw NonFiniteLogits(step);
    return logits;
}

bool may_generate(int id, const TransformerConfig& c) { return id != c.pad_id && id != c.bos_id; }

int next_token(const Matrix& logits, const TransformerConfig& c) {
    int best = -1;  // the first of equal maxima, as torch.argmax
    for (std::size_t v = 0; v < logits.cols; ++v) {
        const int id = static_cast<int>(v);
        if (!may_generate(id, c)) continue;
        if (best < 0 || logits(0, v) > logits(0, static_cast<std::size_t>(best))) best = id;
    }
    return best;
}

GreedySteps greedy_decode(const Transformer& m, const Tokens& source, std::size_t max_length) {
    GreedySteps g;
    const Matrix memory = encode(m, {source});  // encoded once, read by every step
    g.output = {m.config.bos_id};
    while (g.output.size() <= max_length) {
        const Matrix logits =
            decode(m, {g.output}, memory, {source});  // (steps so far x tgt_vocab)
        g.step_logits.push_back(finite_logits(row_of(logits, logits.rows - 1), g.output.size()));
        const int next = next_token(g.step_logits.back(), m.config);
        g.output.push_back(next);
        if (next == m.config.eos_id) break;
    }
    return g;
}
