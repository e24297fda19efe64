// ch12_gpt/poems_written.cpp — chapter 12's poems written in batches, as text, and the
// sampling settings they start from (declared in writing.h, whose includes these need not).
#include <algorithm>
#include <string>
#include <vector>

#include "ch12_gpt/inputs.h"
#include "fast/threads.h"
#include "io/poem_corpus.h"
#include "model/gpt/gpt.h"
#include "model/gpt/gpt_sampling.h"
#include "verse/poems.h"

namespace ch12_gpt {

// count poems written from the prompts in turn (none: from <bos> alone) with the settings.
std::vector<Tokens> write_poems(const Gpt& model, const CharVocabulary& v,
                                const SamplingSettings& s, const std::vector<std::string>& prompts,
                                std::size_t count, std::uint64_t seed) {
    // poem i drawn with a generator of its own, seeded seed + i: the same poem whichever batch
    // writes it, and however many are written beside it. Batches of at most 64, at least one for
    // each thread, each batch on one thread: a batch's products are shared out only where they
    // are large, while its attention over each poem's cache, its draws and the form's mask run
    // on one thread — with a batch to each, both cores write.
    constexpr std::size_t most = 64;
    const std::size_t threads = static_cast<std::size_t>(std::max(1, thread_count()));
    const std::size_t batches = std::min(count, std::max((count + most - 1) / most, threads));
    std::vector<std::vector<Tokens>> written(batches);
    // a poem's tokens are at most a few hundred, each a pass through the model's weights
    const std::size_t work = count * s.max_new * parameter_count(model);
    parallel_for_uneven(batches, batches > 1 ? work : 0, [&](std::size_t b) {
        std::vector<Tokens> starts;
        std::vector<Random> rngs;
        for (std::size_t i = b * count / batches; i < (b + 1) * count / batches; ++i) {
            starts.push_back(encode(v, prompts.empty() ? "" : prompts[i % prompts.size()], false));
            rngs.emplace_back(seed + i);
        }
        written[b] = sample_gpt_batch(model, starts, s, rngs);
    });
    std::vector<Tokens> poems;
    for (std::vector<Tokens>& batch : written)
        for (Tokens& poem : batch) poems.push_back(std::move(poem));
    return poems;
}

std::vector<std::string> texts_of(const Corpus& c, const std::vector<Tokens>& poems) {
    std::vector<std::string> texts;
    for (const Tokens& t : poems) texts.push_back(decode(c.vocabulary, t));
    return texts;
}
std::vector<std::string> texts_of(const std::vector<Poem>& poems) {
    std::vector<std::string> texts;
    for (const Poem& p : poems) texts.push_back(poem_text(p.title, p.lines));
    return texts;
}

SamplingSettings base_sampling(const Inputs& in) {
    SamplingSettings s;
    s.max_new = in.sampling.max_new;
    s.context = in.windows.context;
    s.never = {CharVocabulary::unknown};
    return s;
}

}  // namespace ch12_gpt
