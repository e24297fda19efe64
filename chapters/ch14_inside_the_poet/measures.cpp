// ch14_inside_the_poet/measures.cpp — every measure of chapter 14 on one model.
#include "ch14_inside_the_poet/measures.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ch14_inside_the_poet/naming.h"
#include "fast/threads.h"
#include "report/heatmap.h"
#include "report/progress.h"
#include "text/translate.h"

namespace ch14_inside_the_poet {

namespace {

// Random(seed)), in ascending order: the same sample on every run and machine. n = N: all.
std::vector<std::size_t> drawn(std::size_t N, std::size_t n, std::uint64_t seed) {
    std::vector<std::size_t> index(N);
    for (std::size_t i = 0; i < N; ++i) index[i] = i;
    Random rng(seed);
    for (std::size_t i = 0; i < n && i + 1 < N; ++i)
        std::swap(index[i], index[i + rng.next() % (N - i)]);
    index.resize(std::min(n, N));
    std::sort(index.begin(), index.end());
    return index;
}

// The loss on every poem read (each to its window), in parts of 64 poems: the logits of
// thousands at once would not fit in memory. Each part's whole pass on one thread, the parts
// shared out, then their sums added in order (the same sum on any thread count).
double loss_on(const Gpt& model, const std::vector<PoemReading>& poems) {
    const std::size_t parts = (poems.size() + 63) / 64;
    std::vector<double> sums(parts, 0.0);
    std::vector<std::size_t> counts(parts, 0);
    parallel_for_uneven(parts, parts > 1 ? poems.size() * 64 * parameter_count(model) : 0,
                        [&](std::size_t k) {
        std::vector<Tokens> inputs, targets;
        for (std::size_t i = 64 * k; i < std::min(64 * k + 64, poems.size()); ++i) {
            inputs.push_back(poems[i].inputs), targets.push_back(poems[i].targets);
            counts[k] += poems[i].targets.size();
        }
        sums[k] = gpt_loss(model, inputs, targets) * static_cast<double>(counts[k]);
    });
    double sum = 0;
    std::size_t count = 0;
    for (std::size_t k = 0; k < parts; ++k) sum += sums[k], count += counts[k];
    return count ? sum / static_cast<double>(count) : 0.0;
}

}  // namespace

Measured measure(const Gpt& model, const CharVocabulary& v, const std::vector<bool>& punctuation,
                 const std::vector<PoemReading>& all, std::size_t sample_poems,
                 std::uint64_t sample_seed, const Reading& r) {
    Measured m;
    m.patterns = head_patterns(model, all, punctuation);
    m.even = even_spread(all, punctuation);
    const PoemReading famous = read_poem(encode(v, r.famous), r.context, punctuation);
    m.famous = famous.inputs;
    m.famous_weights = attention_weights(model, famous.inputs);
    const std::size_t n = std::min(sample_poems, all.size());
    // a long sample takes minutes: a progress line on a terminal, as training has
    ProgressBar bar;
    bar.status(tr("reading the sample of {} poems", grouped(n)));
    std::vector<PoemReading> chosen;
    for (const std::size_t i : drawn(all.size(), n, sample_seed)) chosen.push_back(all[i]);
    m.sample = read_sample(model, chosen);
    // how far the sample's loss lies from all the poems': in the sample's standard errors
    bar.status(tr("the loss on all {} poems", grouped(all.size())));
    m.all_loss = loss_on(model, all);
    const SampleLosses base = sample_losses(model, m.sample, 0, model.blocks.size());
    double tokens = 0, spread = 0;
    for (std::size_t p = 0; p < base.poem_sums.size(); ++p) tokens += double(base.poem_counts[p]);
    for (std::size_t p = 0; p < base.poem_sums.size(); ++p) {
        const double d = base.poem_sums[p] - base.loss() * double(base.poem_counts[p]);
        spread += d * d;
    }
    m.sample_error = tokens > 0 ? std::sqrt(spread) / tokens : 0.0;
    m.ablations = ablate_heads(model, m.sample, [&](std::size_t k, std::size_t total) {
        bar.status(tr("heads and blocks taken out on {} poems: {} of {}", grouped(n), k, total));
    });
    bar.status(tr("the induction test and the logit lens"));
    m.sequences = repeated_sequences(characters_of(v, punctuation), r.induction_count,
                                     r.induction_length, r.induction_seed);
    m.induction = induction_test(model, m.sequences, r.induction_length);
    m.lens_loss = lens_losses(model, m.sample);
    m.lens_top = lens_top(model, famous.inputs, 5);
    bar.done();
    return m;
}

std::vector<PoemReading> read_poems(const CharVocabulary& v, const std::vector<std::string>& texts,
                                    std::size_t context, const std::vector<bool>& punctuation) {
    std::vector<PoemReading> out;
    for (const std::string& t : texts) out.push_back(read_poem(encode(v, t), context, punctuation));
    return out;
}

}  // namespace ch14_inside_the_poet
