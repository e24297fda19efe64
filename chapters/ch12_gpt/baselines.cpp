// ch12_gpt/baselines.cpp — the baselines a language modeller would pick, measured on the corpus.
#include "ch12_gpt/baselines.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "fast/threads.h"
#include "report/chapter.h"
#include "ngram/ngram.h"

namespace ch12_gpt {

std::string bits(double nats) { return fixed(nats / std::log(2.0), 3); }

void LossTable::row(const std::string& name, double nats) {
    table.add({name, fixed(nats, 4), bits(nats), fixed(std::exp(nats), 1)});
}

std::string kn_name(std::size_t order) {  // a table's row
    return order == 2   ? tr("bigram, Kneser-Ney")
           : order == 3 ? tr("trigram, Kneser-Ney")
                        : tr("{}-gram, Kneser-Ney", order);
}
std::string kn_noun(std::size_t order) {  // in a sentence
    return order == 2   ? tr("the Kneser-Ney bigram")
           : order == 3 ? tr("the Kneser-Ney trigram")
                        : tr("the Kneser-Ney {}-gram", order);
}

// The baselines measured on this corpus: counted again, or — writing with a saved model whose
// record was measured on this very corpus — read from its record (the n-grams are then counted
// only for the two that write).
Baselines measured_baselines(const Corpus& c, const std::vector<double>* recorded) {
    Baselines b;
    if (recorded) {
        b.unigram = (*recorded)[0], b.add_one_bigram = (*recorded)[1];
        b.kn.assign(recorded->begin() + 2, recorded->end());
    } else {
        const NgramCounts counts(c.training, c.vocabulary.size());
        b.unigram = counts.unigram_loss(c.heldout);
        b.add_one_bigram = counts.bigram_loss(c.heldout);
    }
    // each order counted and measured on its own, the threads sharing the orders out (the
    // numbers are the same whichever thread counts which)
    const std::size_t orders = KneserNey::max_order - 1;  // 2 … max_order
    std::vector<std::unique_ptr<KneserNey>> models(orders);
    std::vector<double> losses(orders, 0.0);
    const auto count = [&](std::size_t i) {
        models[i] = std::make_unique<KneserNey>(c.training, c.vocabulary.size(), i + 2);
        if (!recorded) losses[i] = models[i]->loss(c.heldout);
    };
    if (!recorded) {
        parallel_for_uneven(orders, c.training.size() * orders * 1000, count);
        b.kn = losses;
    }
    for (std::size_t i = 0; i < orders; ++i)
        if (b.kn[i] < b.kn[b.best]) b.best = i;
    if (recorded) {  // only the two that write: the trigram and the best
        std::vector<std::size_t> writing = {1};
        if (b.best != 1) writing.push_back(b.best);
        parallel_for_uneven(writing.size(), c.training.size() * 2000,
                            [&](std::size_t k) { count(writing[k]); });
    }
    for (const std::size_t order : {std::size_t(3), b.best_order()})
        if (!b.models.count(order)) b.models.emplace(order, std::move(*models[order - 2]));
    return b;
}

Baselines baselines_step(Chapter& ch, const Corpus& c, const std::vector<double>* recorded) {
    ch.step(tr("The baselines a language modeller would pick"));
    const Baselines b = measured_baselines(c, recorded);
    if (recorded)
        ch.say(
            tr("(as the saved model's record has them: measured on this very corpus when it "
               "was trained)"));
    ch.measured("unigram_loss", b.unigram);
    ch.measured("add_one_bigram_loss", b.add_one_bigram);
    const char* keys[] = {"kn_bigram_loss", "kn_trigram_loss", "kn_4gram_loss", "kn_5gram_loss"};
    for (std::size_t i = 0; i < b.kn.size(); ++i) ch.measured(keys[i], b.kn[i]);
    ch.measured("kn_best_order", static_cast<double>(b.best_order()));
    ch.measured("kn_best_loss", b.best_loss());
    LossTable t;
    t.row(tr("unigram: each token by its frequency (add-one)"), b.unigram);
    t.row(tr("bigram, add-one smoothing"), b.add_one_bigram);
    for (std::size_t i = 0; i < b.kn.size(); ++i) t.row(kn_name(i + 2), b.kn[i]);
    ch.table(t.table);
    const auto d = b.trigram().discounts(3);
    ch.say(
        tr("Interpolated modified Kneser-Ney (src/ngram/kneser_ney.h): from every count it "
           "takes a discount — for the trigram {}, {} and {} for trigrams seen once, twice, "
           "and three or more times, estimated from how many trigrams have each count — and "
           "gives what it took to the order below, down to the unigram; below the highest "
           "order the counts are of how many different characters came before, not how "
           "often.",
           fixed(d[0], 3), fixed(d[1], 3), fixed(d[2], 3)));
    const double gain = b.kn[1] - b.best_loss();
    ch.say(b.best == 1 ? tr("Longer histories do not help here: the trigram is the best of them, "
                            "and its {} nats are the bar the model must clear.",
                            fixed(b.best_loss(), 4))
                       : tr("A longer history helps a little: {} gains {} nats on the trigram; "
                            "its {} nats are the bar the model must clear.",
                            kn_noun(b.best_order()), fixed(gain, 3), fixed(b.best_loss(), 4)));
    if (b.add_one_bigram > b.kn[0])
        ch.say(
            tr("Add-one smoothing is the lesson of why smoothing matters: after every character "
               "it adds one count for each of the {} tokens, so that after a character seen a "
               "few times the pairs never seen take most of the probability; its bigram "
               "loses {} nats to Kneser-Ney's.",
               grouped(c.vocabulary.size()), fixed(b.add_one_bigram - b.kn[0], 3)));
    return b;
}

}  // namespace ch12_gpt
