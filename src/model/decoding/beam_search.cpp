// beam_search.cpp — beam search over the KV cache: each alive hypothesis keeps its own cache,
// copied from its parent's when it is extended.
#include "model/decoding/beam_search.h"

#include <algorithm>
#include <cmath>

#include "core/elementary.h"
#include "model/decoding/decoding.h"
#include "model/decoding/kv_cache.h"
#include "model/transformer/transformer.h"

namespace {

struct Alive {
    Hypothesis h;
    KVCache cache;     // every token of h fed
    Matrix log_probs;  // (1 x tgt_vocab): of the token after h
};

Alive extend(const Transformer& m, const Alive& parent, int token, double log_prob) {
    Alive a{parent.h, parent.cache, Matrix()};
    a.h.tokens.push_back(token);
    a.h.log_prob = log_prob;
    a.log_probs = log_softmax_rows(decode_step(m, a.cache, token));
    return a;
}

// Every extension of every alive hypothesis, best first
std::vector<Extension> ranked(const std::vector<Alive>& alive, const TransformerConfig& c) {
    std::vector<double> so_far;
    Matrix next;
    for (const Alive& a : alive) {
        so_far.push_back(a.h.log_prob);
        append_rows(next, a.log_probs);
    }
    return ranked_extensions(so_far, next, [&c](int id) { return may_generate(id, c); });
}

Hypothesis scored(Hypothesis h, double alpha, bool finished) {
    h.finished = finished;
    h.score = h.log_prob / length_penalty(h.tokens.size() - 1, alpha);
    return h;
}

}  // namespace

std::vector<Extension> ranked_extensions(const std::vector<double>& log_probs_so_far,
                                         const Matrix& next, const std::function<bool(int)>& allowed) {
    std::vector<Extension> all;
    for (std::size_t h = 0; h < log_probs_so_far.size(); ++h)
        for (std::size_t v = 0; v < next.cols; ++v) {
            const int id = static_cast<int>(v);
            if (allowed(id)) all.push_back({log_probs_so_far[h] + next(h, v), h, id});
        }
    std::sort(all.begin(), all.end(), [](const Extension& x, const Extension& y) {
        if (x.log_prob != y.log_prob) return x.log_prob > y.log_prob;
        return x.parent != y.parent ? x.parent < y.parent : x.token < y.token;
    });
    return all;
}

double length_penalty(std::size_t length, double alpha) {
    return elementary::pow((5.0 + static_cast<double>(length)) / 6.0, alpha);
}

namespace {

// Adds h to the finished set, which keeps the `beam` best scores, best first.
void keep_finished(std::vector<Hypothesis>& finished, const Hypothesis& h, std::size_t beam) {
    auto at = std::find_if(finished.begin(), finished.end(),
                           [&](const Hypothesis& f) { return f.score < h.score; });
    finished.insert(at, h);
    if (finished.size() > beam) finished.pop_back();
}

// Whether the search is over: `beam` have finished and (for NoneCanBeat) no alive hypothesis can
// reach the worst finished score even at the longest length, where lp is largest.
bool done(const std::vector<Hypothesis>& finished, const std::vector<Alive>& alive,
          const BeamSettings& s) {
    if (alive.empty()) return true;
    if (finished.size() < s.beam) return false;
    if (s.stop == Stop::FirstFinished) return true;
    double best = alive[0].h.log_prob;
    for (const Alive& a : alive) best = std::max(best, a.h.log_prob);
    return best / length_penalty(s.max_length, s.alpha) <= finished.back().score;
}

}  // namespace

std::vector<Hypothesis> beam_search(const Transformer& m, const Tokens& source,
                                    const BeamSettings& s) {
    const TransformerConfig& c = m.config;
    Alive start;
    start.h.tokens = {c.bos_id};
    start.cache = start_decoding(m, source);
    start.log_probs = log_softmax_rows(decode_step(m, start.cache, c.bos_id));
    std::vector<Alive> alive = {start};
    std::vector<Hypothesis> finished;  // best score first
    for (std::size_t step = 1; step <= s.max_length && !done(finished, alive, s); ++step) {
        const std::vector<Extension> all = ranked(alive, c);
        std::vector<Alive> next;
        for (std::size_t rank = 0; rank < all.size() && rank < 2 * s.beam; ++rank) {
            const Extension& x = all[rank];
            if (x.token == c.eos_id) {
                if (rank < s.beam) {
                    Hypothesis h = alive[x.parent].h;
                    h.tokens.push_back(x.token);
                    h.log_prob = x.log_prob;
                    keep_finished(finished, scored(h, s.alpha, true), s.beam);
                }
            } else if (next.size() < s.beam) {
                next.push_back(extend(m, alive[x.parent], x.token, x.log_prob));
            }
        }
        alive = std::move(next);
    }
    // Cut off at max_length with the search not over: the alive ones scored as they are, each
    // taking a place from a worse finished one (under NoneCanBeat an alive one can still beat
    // the worst finished score: that is why the search went on)
    if (!done(finished, alive, s))
        for (const Alive& a : alive) keep_finished(finished, scored(a.h, s.alpha, false), s.beam);
    return finished;
}

double sequence_log_prob(const Transformer& m, const Tokens& source, const Tokens& output) {
    KVCache cache = start_decoding(m, source);
    double log_prob = 0.0;
    for (std::size_t t = 0; t + 1 < output.size(); ++t) {
        const Matrix log_probs = log_softmax_rows(decode_step(m, cache, output[t]));
        log_prob += log_probs(0, static_cast<std::size_t>(output[t + 1]));
    }
    return log_prob;
}
