// head_patterns.cpp — each head's weights summed up by what its keys are (see the header).
#include "inside/head_patterns.h"

#include <algorithm>

#include "core/elementary.h"
#include "fast/threads.h"
#include "model/attention/attention.h"
#include "model/gpt/gpt.h"
#include "model/gpt/gpt_cache.h"
#include "model/transformer/caches.h"
#include "model/transformer/tokens.h"

namespace {

struct Sums {
    std::vector<double> previous, bos, punctuation, start, line, rhyme, entropy;
    explicit Sums(std::size_t heads)
        : previous(heads),
          bos(heads),
          punctuation(heads),
          start(heads),
          line(heads),
          rhyme(heads),
          entropy(heads) {}
};

// One head's weights W (n x n) on one poem, added to its sums at index `at`.
void add_head(const Matrix& W, const PoemReading& poem, const std::vector<bool>& punctuation,
              std::size_t at, Sums& s) {
    const std::size_t n = W.rows;
    const auto is_mark = [&](std::size_t k) {
        return punctuation[static_cast<std::size_t>(poem.inputs[k])];
    };
    std::size_t latest = n;  // the latest punctuation key so far (n: none yet)
    if (is_mark(0)) latest = 0;
    for (std::size_t q = 1; q < n; ++q) {
        if (is_mark(q)) latest = q;
        if (latest < n) s.start[at] += W(q, latest);
        s.previous[at] += W(q, q - 1);
        s.bos[at] += W(q, 0);
        for (std::size_t k = 0; k <= q; ++k) {
            const double w = W(q, k);
            if (is_mark(k)) s.punctuation[at] += w;
            if (w > 0) s.entropy[at] -= w * elementary::log(w);
        }
    }
    const Clauses& c = poem.clauses;
    for (std::size_t j = 1; j < c.size(); j += 2)  // a second verse: its first verse's same place
        for (std::size_t k = 0; k < c[j].size() && k < c[j - 1].size(); ++k)
            if (c[j][k] < n) s.line[at] += W(c[j][k], c[j - 1][k]);
    for (std::size_t j = 3; j < c.size(); j += 2)  // the 4th, 6th, … clause's rhyme
        if (c[j].size() >= 2 && c[j][c[j].size() - 2] < n)
            s.rhyme[at] += W(c[j][c[j].size() - 2], c[j - 2].back());
}

// How many queries each mean is over, for one poem of n inputs.
void count_queries(const PoemReading& poem, const std::vector<bool>& punctuation,
                   HeadPatterns& out) {
    const std::size_t n = poem.inputs.size();
    const Clauses& c = poem.clauses;
    out.queries += n - 1;
    std::size_t first_mark = n;  // queries from the first punctuation key on have a latest one
    for (std::size_t k = 0; k < n && first_mark == n; ++k)
        if (punctuation[static_cast<std::size_t>(poem.inputs[k])]) first_mark = k;
    if (first_mark < n) out.start_queries += n - std::max<std::size_t>(first_mark, 1);
    for (std::size_t j = 1; j < c.size(); j += 2)
        for (std::size_t k = 0; k < c[j].size() && k < c[j - 1].size(); ++k)
            out.line_queries += c[j][k] < n;
    for (std::size_t j = 3; j < c.size(); j += 2)
        out.rhyme_queries += c[j].size() >= 2 && c[j][c[j].size() - 2] < n;
}

std::vector<double> divided(const std::vector<double>& sums, std::size_t n) {
    std::vector<double> out(sums.size(), 0.0);
    for (std::size_t i = 0; i < sums.size() && n > 0; ++i)
        out[i] = sums[i] / static_cast<double>(n);
    return out;
}

void finish(const Sums& sums, HeadPatterns& out) {
    out.previous = divided(sums.previous, out.queries);
    out.bos = divided(sums.bos, out.queries);
    out.punctuation = divided(sums.punctuation, out.queries);
    out.clause_start = divided(sums.start, out.start_queries);
    out.entropy = divided(sums.entropy, out.queries);
    out.previous_line = divided(sums.line, out.line_queries);
    out.rhyme = divided(sums.rhyme, out.rhyme_queries);
}

}  // namespace

std::vector<Matrix> attention_weights(const Gpt& model, const Tokens& inputs) {
    GptCache cache;
    gpt_blocks(model, {inputs}, gpt_embed(model, {inputs}), 0, model.blocks.size(), &cache);
    std::vector<Matrix> out;
    for (const EncoderLayerCache& b : cache.blocks)
        for (const AttentionResult& head : b.self_attn.heads) out.push_back(head.weights);
    return out;
}

HeadPatterns head_patterns(const Gpt& model, const std::vector<PoemReading>& poems,
                           const std::vector<bool>& punctuation, std::size_t batch) {
    const std::size_t L = model.blocks.size();
    const std::size_t h = L ? model.blocks[0].self_attn.n_heads : 0;
    Sums sums(L * h);
    HeadPatterns out;
    for (std::size_t first = 0; first < poems.size(); first += batch) {
        const std::size_t end = std::min(poems.size(), first + batch);
        std::vector<Tokens> inputs;
        for (std::size_t p = first; p < end; ++p) inputs.push_back(poems[p].inputs);
        GptCache cache;
        gpt_blocks(model, inputs, gpt_embed(model, inputs), 0, L, &cache);
        // each head's sums by one thread, the poems in order: the same sums on any count
        std::size_t keys = 0;
        for (std::size_t p = first; p < end; ++p)
            keys += poems[p].inputs.size() * poems[p].inputs.size();
        parallel_for(L * h, L * h * keys * 20, [&](std::size_t k) {
            for (std::size_t p = first; p < end; ++p)
                add_head(cache.blocks[k / h].self_attn.heads[(p - first) * h + k % h].weights,
                         poems[p], punctuation, k, sums);
        });
        for (std::size_t p = first; p < end; ++p) count_queries(poems[p], punctuation, out);
    }
    finish(sums, out);
    return out;
}

HeadPatterns even_spread(const std::vector<PoemReading>& poems,
                         const std::vector<bool>& punctuation) {
    Sums sums(1);
    HeadPatterns out;
    for (const PoemReading& p : poems) {
        const std::size_t n = p.inputs.size();
        Matrix W(n, n);
        for (std::size_t q = 0; q < n; ++q)
            for (std::size_t k = 0; k <= q; ++k) W(q, k) = 1.0 / static_cast<double>(q + 1);
        add_head(W, p, punctuation, 0, sums);
        count_queries(p, punctuation, out);
    }
    finish(sums, out);
    return out;
}
