// poem_sample.cpp — poems read through a poet, its stream kept (see the header).
#include "inside/poem_sample.h"

#include <algorithm>
#include <stdexcept>

#include "core/elementary.h"
#include "fast/threads.h"
#include "model/gpt/gpt.h"
#include "model/gpt/gpt_cache.h"
#include "model/transformer/loss.h"
#include "model/transformer/tokens.h"
#include "verse/poems.h"

Clauses clauses_of(const Tokens& poem, const std::vector<bool>& punctuation) {
    Clauses out;
    std::vector<std::size_t> current;
    bool body = false;
    for (std::size_t t = 0; t < poem.size(); ++t) {
        const int id = poem[t];
        if (!body) {  // the title, up to its line break
            body = id == CharVocabulary::newline;
            continue;
        }
        const bool special =
            id == CharVocabulary::pad || id == CharVocabulary::bos || id == CharVocabulary::eos;
        if (special || punctuation.at(static_cast<std::size_t>(id))) {
            if (!current.empty()) out.push_back(current);
            current.clear();
        } else {
            current.push_back(t);
        }
    }
    if (!current.empty()) out.push_back(current);
    return out;
}

PoemReading read_poem(const Tokens& poem, std::size_t context,
                      const std::vector<bool>& punctuation) {
    if (poem.size() < 2 || context == 0)
        throw std::invalid_argument("read_poem: a poem of two tokens at least, a context of one");
    const std::size_t n = std::min(poem.size() - 1, context);
    return {Tokens(poem.begin(), poem.begin() + static_cast<std::ptrdiff_t>(n)),
            Tokens(poem.begin() + 1, poem.begin() + static_cast<std::ptrdiff_t>(n) + 1),
            clauses_of(poem, punctuation)};
}

std::vector<std::size_t> body_characters(const PoemReading& poem) {
    std::vector<std::size_t> out;
    for (const auto& clause : poem.clauses)
        for (const std::size_t t : clause)
            if (t < poem.inputs.size()) out.push_back(t);
    std::sort(out.begin(), out.end());
    return out;
}

namespace {

// The multiply-adds of a pass over the sample, roughly: a batch's passes are shared out among
// the threads when this is worth it (fast/threads.h).
std::size_t work_of(const Gpt& model, const std::vector<PoemReading>& poems) {
    return poems.size() * 64 * parameter_count(model);  // a poem reads up to 64 tokens
}

std::vector<Tokens> batch_inputs(const PoemSample& s, std::size_t b) {
    std::vector<Tokens> out;
    for (std::size_t p = s.batch_first[b]; p < s.batch_first[b + 1]; ++p)
        out.push_back(s.poems[p].inputs);
    return out;
}

}  // namespace

PoemSample read_sample(const Gpt& model, std::vector<PoemReading> poems, std::size_t batch) {
    PoemSample s;
    s.poems = std::move(poems);
    for (std::size_t p = 0; p < s.poems.size(); p += batch) s.batch_first.push_back(p);
    s.batch_first.push_back(s.poems.size());
    const std::size_t L = model.blocks.size();
    // each batch read on one thread, the batches shared out; their heads' outputs then added in
    // the batches' order, as one thread adds them (of each batch's cache only the heads' outputs
    // are kept till then: the rest would hold every batch's attention weights at once)
    const std::size_t batches = s.batch_first.size() - 1;
    std::vector<GptCache> kept(batches);
    s.stream.resize(batches);
    parallel_for_uneven(batches, batches > 1 ? work_of(model, s.poems) : 0,
                        [&](std::size_t b) {
        const std::vector<Tokens> inputs = batch_inputs(s, b);
        std::vector<Matrix> stream{gpt_embed(model, inputs)};
        GptCache cache;
        for (std::size_t l = 0; l < L; ++l)
            stream.push_back(gpt_blocks(model, inputs, stream.back(), l, l + 1, &cache));
        kept[b].blocks.resize(L);
        for (std::size_t l = 0; l < L; ++l)
            kept[b].blocks[l].self_attn.concat = std::move(cache.blocks[l].self_attn.concat);
        s.stream[b] = std::move(stream);
    });
    for (const GptCache& cache : kept) add_head_outputs(model, cache, s.head_outputs);
    return s;
}

double SampleLosses::loss() const {
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t p = 0; p < poem_sums.size(); ++p) sum += poem_sums[p], n += poem_counts[p];
    return n ? sum / static_cast<double>(n) : 0.0;
}

double SampleLosses::repeat() const {
    return repeat_positions ? repeat_chances / static_cast<double>(repeat_positions) : 0.0;
}

SampleLosses sample_losses(const Gpt& model, const PoemSample& s, std::size_t from,
                           std::size_t to) {
    // each batch's whole pass on one thread, the batches shared out (as chapter 12's held-out
    // passes: train/gpt_training.h), each writing only its own poems' figures; the chances of a
    // repeat are then added in the poems' order, as one thread adds them
    const std::size_t batches = s.batch_first.empty() ? 0 : s.batch_first.size() - 1;
    std::vector<SampleLosses> part(batches);
    std::vector<std::vector<double>> chances(batches);
    parallel_for_uneven(batches, batches > 1 ? work_of(model, s.poems) : 0,
                        [&](std::size_t b) {
        const std::vector<Tokens> inputs = batch_inputs(s, b);
        const Matrix logits =
            gpt_readout(model, gpt_blocks(model, inputs, s.stream[b].at(from), from, to));
        const std::vector<double> log_sums = log_sum_exp_rows(logits);
        std::size_t row = 0;
        for (std::size_t p = s.batch_first[b]; p < s.batch_first[b + 1]; ++p) {
            const PoemReading& poem = s.poems[p];
            double sum = 0;  // −log softmax = log Σ exp − the target's logit
            for (std::size_t t = 0; t < poem.targets.size(); ++t)
                sum +=
                    log_sums[row + t] - logits(row + t, static_cast<std::size_t>(poem.targets[t]));
            part[b].poem_sums.push_back(sum);
            part[b].poem_counts.push_back(poem.targets.size());
            for (const std::size_t t : body_characters(poem)) {  // P(the input token again)
                const auto same = static_cast<std::size_t>(poem.inputs[t]);
                chances[b].push_back(elementary::exp(logits(row + t, same) - log_sums[row + t]));
            }
            row += poem.inputs.size();
        }
    });
    SampleLosses out;
    for (std::size_t b = 0; b < batches; ++b) {
        out.poem_sums.insert(out.poem_sums.end(), part[b].poem_sums.begin(),
                             part[b].poem_sums.end());
        out.poem_counts.insert(out.poem_counts.end(), part[b].poem_counts.begin(),
                               part[b].poem_counts.end());
        for (const double chance : chances[b]) out.repeat_chances += chance;
        out.repeat_positions += chances[b].size();
    }
    return out;
}
