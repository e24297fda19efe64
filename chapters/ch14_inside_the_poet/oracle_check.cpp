// ch14_inside_the_poet/oracle_check.cpp — every measure of chapter 14 on the oracle's small poet,
// recorded for --check against PyTorch's.
#include "ch14_inside_the_poet/oracle_check.h"

#include <string>
#include <utility>
#include <vector>

#include "ch14_inside_the_poet/measures.h"
#include "ch14_inside_the_poet/naming.h"
#include "report/chapter.h"
#include "text/translate.h"

namespace ch14_inside_the_poet {

namespace {

// Where each head looks, on the oracle's poems and on its famous poem, for --check.
void record_patterns(Chapter& ch, const Measured& m) {
    const double tol = tolerance::end_to_end;
    const HeadPatterns& p = m.patterns;
    ch.record("head_previous", row_matrix(p.previous), Shape::Vector, tol);
    ch.record("head_bos", row_matrix(p.bos), Shape::Vector, tol);
    ch.record("head_punctuation", row_matrix(p.punctuation), Shape::Vector, tol);
    ch.record("head_clause_start", row_matrix(p.clause_start), Shape::Vector, tol);
    ch.record("head_previous_line", row_matrix(p.previous_line), Shape::Vector, tol);
    ch.record("head_rhyme", row_matrix(p.rhyme), Shape::Vector, tol);
    ch.record("head_entropy", row_matrix(p.entropy), Shape::Vector, tol);
    ch.record("head_queries",
              row_matrix({double(p.queries), double(p.start_queries), double(p.line_queries),
                   double(p.rhyme_queries)}),
              Shape::Vector, 0);
    const HeadPatterns& e = m.even;
    ch.record("head_even",
              row_matrix({e.previous[0], e.bos[0], e.punctuation[0], e.clause_start[0], e.previous_line[0],
                   e.rhyme[0], e.entropy[0]}),
              Shape::Vector, tol);
    Matrix famous;
    for (const Matrix& w : m.famous_weights) append_rows(famous, w);
    ch.record("famous_attention", famous, Shape::Matrix, tol);
}

// The loss with each head and each block's heads taken out, for --check.
void record_ablations(Chapter& ch, const Ablations& a) {
    const double tol = tolerance::end_to_end;
    ch.record_number("ablation_loss", a.loss, tol);
    ch.record_number("repeat_probability", a.repeat, tol);
    ch.record_number("repeat_rate", a.repeat_rate, 0);
    const auto column = [](const std::vector<Ablated>& rows, double Ablated::*field) {
        std::vector<double> out;
        for (const Ablated& r : rows) out.push_back(r.*field);
        return row_matrix(out);
    };
    for (const auto& [name, rows] :
         {std::pair<std::string, const std::vector<Ablated>*>{"zero", &a.zero},
          {"mean", &a.mean}}) {
        ch.record("ablation_" + name + "_loss", column(*rows, &Ablated::loss), Shape::Vector, tol);
        ch.record("ablation_" + name + "_error", column(*rows, &Ablated::error), Shape::Vector,
                  tol);
    }
    for (const auto& [name, rows] :
         {std::pair<std::string, const std::vector<Ablated>*>{"zero", &a.layer_zero},
          {"mean", &a.layer_mean}}) {
        ch.record("ablation_layer_" + name + "_loss", column(*rows, &Ablated::loss), Shape::Vector,
                  tol);
        ch.record("ablation_layer_" + name + "_error", column(*rows, &Ablated::error),
                  Shape::Vector, tol);
    }
    ch.record("repeat_probability_zero", column(a.zero, &Ablated::repeat), Shape::Vector, tol);
}

// The induction test and the logit lens, for --check.
void record_induction_and_lens(Chapter& ch, const Measured& m) {
    const double tol = tolerance::end_to_end;
    Matrix seqs(m.sequences.size(), m.sequences.empty() ? 0 : m.sequences[0].size());
    for (std::size_t s = 0; s < m.sequences.size(); ++s)
        for (std::size_t t = 0; t < m.sequences[s].size(); ++t) seqs(s, t) = m.sequences[s][t];
    ch.record("induction_sequences", seqs, Shape::Matrix, 0);
    ch.record_number("induction_first_loss", m.induction.first_loss, tol);
    ch.record_number("induction_second_loss", m.induction.second_loss, tol);
    ch.record("induction_prefix_matching", row_matrix(m.induction.prefix_matching), Shape::Vector, tol);
    ch.record("induction_first_loss_zero", row_matrix(m.induction.first_loss_zeroed), Shape::Vector, tol);
    ch.record("induction_second_loss_zero", row_matrix(m.induction.second_loss_zeroed), Shape::Vector,
              tol);
    ch.record("lens_loss", row_matrix(m.lens_loss), Shape::Vector, tol);
    Matrix ids, probabilities;
    for (const auto& point : m.lens_top)
        for (const TopTokens& t : point) {
            Matrix i(1, t.ids.size()), p(1, t.ids.size());
            for (std::size_t k = 0; k < t.ids.size(); ++k)
                i(0, k) = t.ids[k], p(0, k) = t.probabilities[k];
            append_rows(ids, i), append_rows(probabilities, p);
        }
    ch.record("lens_top_ids", ids, Shape::Matrix, 0);
    ch.record("lens_top_probabilities", probabilities, Shape::Matrix, tol);
}

}  // namespace

// The induction test draws its sequences from the characters that are neither special tokens
// nor punctuation: a vocabulary without one is refused, naming the list that took them all.
void check_drawable(const DataFile& d, const CharVocabulary& v, const std::vector<bool>& punctuation,
                    const std::string& model) {
    if (characters_of(v, punctuation).empty())
        throw d.error("inputs.punctuation",
                      tr("leaves no character of {}'s {} tokens for the induction test to draw "
                         "from; expected at least one that is neither punctuation nor a special "
                         "token",
                         model, v.size()));
}

void small_step(Chapter& ch, const Inputs& in) {
    ch.step(tr("Every measure of this chapter, on the oracle's small poet"));
    const std::vector<bool> punctuation = punctuation_of(in.small_vocabulary, in.punctuation);
    check_drawable(ch.data, in.small_vocabulary, punctuation, tr("the small model"));
    const Reading& r = in.small_reading;
    const std::vector<PoemReading> poems =
        read_poems(in.small_vocabulary, in.small_poems, r.context, punctuation);
    const Measured m =
        measure(in.small, in.small_vocabulary, punctuation, poems, poems.size(), 0, r);
    record_patterns(ch, m);
    record_ablations(ch, m.ablations);
    record_induction_and_lens(ch, m);
    ch.say(tr(
        "The oracle trained a small model of chapter 12's kind ({} of {}, {} parameters) "
        "on {} and computed, in PyTorch, every measure below on it: "
        "where each head looks, the loss with each head taken out, the induction test and "
        "the logit lens. This program computes the same from the same weights; --check "
        "compares them at 1e-9.",
        count_of(in.small.blocks.size(), N_("{} block"), N_("{} blocks")),
        count_of(in.small.config.n_heads, N_("{} head"), N_("{} heads")),
        grouped(parameter_count(in.small)), count_of(poems.size(), N_("{} poem"), N_("{} poems"))));
}

}  // namespace ch14_inside_the_poet
