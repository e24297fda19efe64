// ch14_inside_the_poet/measures.h — everything chapter 14 measures on one model, computed before
// a word of it is told: where each head looks, the loss without each head, the induction test
// and the logit lens.
#pragma once
#include <cstdint>
#include <vector>

#include "ch14_inside_the_poet/inputs.h"
#include "inside/ablations.h"
#include "inside/head_patterns.h"
#include "inside/induction.h"
#include "inside/logit_lens.h"
#include "inside/poem_sample.h"

namespace ch14_inside_the_poet {

struct Measured {
    HeadPatterns patterns, even;  // even: a head that spreads its weight evenly
    std::vector<Matrix> famous_weights;
    Tokens famous;
    PoemSample sample;
    Ablations ablations;
    std::vector<Tokens> sequences;
    Induction induction;
    std::vector<double> lens_loss;
    std::vector<std::vector<TopTokens>> lens_top;
    double all_loss = 0, sample_error = 0;  // the loss on every poem; the sample's SE over poems
};

// n of the N indices drawn at random without replacement (a partial Fisher-Yates shuffle with
// Every measure on the model: the head patterns on all the poems; the ablations and the logit
// lens's losses on a sample of sample_poems drawn with sample_seed; the induction test and the
// lens on the famous poem as the reading says.
Measured measure(const Gpt& model, const CharVocabulary& v, const std::vector<bool>& punctuation,
                 const std::vector<PoemReading>& all, std::size_t sample_poems,
                 std::uint64_t sample_seed, const Reading& r);
// Each poem's text read to the window: its inputs, targets and clauses.
std::vector<PoemReading> read_poems(const CharVocabulary& v, const std::vector<std::string>& texts,
                                    std::size_t context, const std::vector<bool>& punctuation);

}  // namespace ch14_inside_the_poet
