// ch12_gpt/poems_written.cpp — chapter 12's poems written in batches, as text, and the
// sampling settings they start from (declared in writing.h, whose includes these need not).
#include <algorithm>
#include <string>
#include <vector>

#include "ch12_gpt/inputs.h"
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
    // writes it, and however many are written beside it
    constexpr std::size_t batch = 64;
    std::vector<Tokens> poems;
    for (std::size_t first = 0; first < count; first += batch) {
        std::vector<Tokens> starts;
        std::vector<Random> rngs;
        for (std::size_t i = first; i < std::min(count, first + batch); ++i) {
            starts.push_back(encode(v, prompts.empty() ? "" : prompts[i % prompts.size()], false));
            rngs.emplace_back(seed + i);
        }
        for (Tokens& poem : sample_gpt_batch(model, starts, s, rngs))
            poems.push_back(std::move(poem));
    }
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
