// ch12_gpt/baselines.h — the bar chapter 12's model must clear: the unigram, the add-one bigram
// and Kneser-Ney of orders 2 to 5, on the held-out poems; and how a loss is shown.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "io/poem_corpus.h"
#include "report/terminal.h"
#include "text/translate.h"
#include "ngram/kneser_ney.h"

class Chapter;

namespace ch12_gpt {

// Kneser-Ney of orders 2 to 5 on the training poems, and the simpler baselines; the bar the model
// must clear is the best of them on the held-out poems.
struct Baselines {
    double unigram = 0, add_one_bigram = 0;
    std::vector<double> kn;  // held-out loss at order 2, 3, 4, 5
    std::size_t best = 0;    // the index of the lowest loss in kn
    std::map<std::size_t, KneserNey> models;  // by order: the trigram and the best, to write with
    std::size_t best_order() const { return best + 2; }
    double best_loss() const { return kn[best]; }
    const KneserNey& trigram() const { return models.at(3); }
    const KneserNey& strongest() const { return models.at(best_order()); }
    std::vector<double> record() const {  // as a saved model keeps them
        std::vector<double> r = {unigram, add_one_bigram};
        r.insert(r.end(), kn.begin(), kn.end());
        return r;
    }
};

// The baselines on this corpus: counted, or read from a saved model's record when that record
// was measured on this very corpus (then only the two n-grams that write are counted).
Baselines measured_baselines(const Corpus& c, const std::vector<double>* recorded);
// The same, told: the table of losses and what the discounts and the winner say.
Baselines baselines_step(Chapter& ch, const Corpus& c, const std::vector<double>* recorded);

// A table of losses on the held-out poems: each row in nats, bits and perplexity.
struct LossTable {
    Table table{{tr("on the held-out poems"), tr("nats per token"), tr("bits"), tr("perplexity")}};
    void row(const std::string& name, double nats);
};

std::string bits(double nats);           // nats ÷ ln 2, to 3 decimals
std::string kn_name(std::size_t order);  // "trigram, Kneser-Ney": a table's row
std::string kn_noun(std::size_t order);  // "the Kneser-Ney trigram": in a sentence

}  // namespace ch12_gpt
