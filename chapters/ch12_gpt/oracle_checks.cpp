// ch12_gpt/oracle_checks.cpp — chapter 12's model, optimiser, baselines and verse measures on
// the oracle's small inputs, against PyTorch and the oracle's own formulas (--check).
#include "ch12_gpt/oracle_checks.h"

#include <set>
#include <string>
#include <vector>

#include "model/gpt/gpt.h"
#include "model/transformer/parameters.h"
#include "model/transformer/tokens.h"
#include "report/model_summary.h"
#include "report/recorded_gradients.h"
#include "ngram/kneser_ney.h"
#include "ngram/ngram.h"
#include "text/translate.h"
#include "verse/doubling.h"
#include "verse/regulated_verse.h"
#include "verse/repeat_correction.h"
#include "verse/verse_rates.h"

namespace ch12_gpt {

// --- checked against the oracle -------------------------------------------------------------

namespace {

// Each sequence's length, as text.
std::vector<std::string> lengths_of(const std::vector<Tokens>& sequences) {
    std::vector<std::string> lengths;
    for (const Tokens& s : sequences) lengths.push_back(std::to_string(s.size()));
    return lengths;
}

// One tiny variant on the oracle's batch: logits, loss and gradients, the sliding-window loss,
// and the KV cache's largest difference from the whole pass.
struct TinyRun {
    Matrix logits;
    double loss = 0, sliding_loss = 0, repeat_loss = 0, cache_gap = 0;
    Gpt grad;
    double unlikelihood_loss = 0;  // with the penalty on repeating, on its batch
    Gpt unlikelihood_grad;
};
TinyRun run_tiny(const Inputs& in, const Tiny& v) {
    TinyRun r;
    r.loss = gpt_loss(v.model, in.tiny_inputs, in.tiny_targets, &r.grad);
    r.logits = gpt_logits(v.model, in.tiny_inputs);
    r.sliding_loss = gpt_sliding_loss(v.model, in.sliding, in.sliding_context);
    // the repeat correction's loss: each sequence's kinds by its place in the list
    const auto kind_of = [&](const Tokens& sequence, std::size_t j) {
        for (std::size_t i = 0; i < in.sliding.size(); ++i)
            if (&in.sliding[i] == &sequence) return in.repeat_kinds[i][j - 1];
        return 1;
    };
    r.repeat_loss = corrected_loss(
        repeat_targets(v.model, in.sliding, in.sliding_context, kind_of), in.repeat_beta);
    r.cache_gap = gpt_cache_against_full_pass(v.model, in.tiny_inputs);
    r.unlikelihood_loss = gpt_loss(v.model, in.unlikelihood_inputs, in.unlikelihood_targets,
                                   &r.unlikelihood_grad, 0.0, in.unlikelihood_weight);
    return r;
}

// The baselines' losses and discounts on the oracle's small corpus.
struct BaselineCheck {
    double unigram, bigram, trigram, fourgram, fivegram;
    Matrix trigram_discounts, fivegram_discounts;  // a row per order: seen once, twice, 3+ times
};
BaselineCheck baseline_check(const Inputs& in) {
    const NgramCounts counts(in.baseline_training, in.baseline_vocab);
    std::vector<KneserNey> kn;
    for (std::size_t order = 2; order <= 5; ++order)
        kn.emplace_back(in.baseline_training, in.baseline_vocab, order);
    const auto discounts = [](const KneserNey& model, std::size_t orders) {
        Matrix d(orders, 3);
        for (std::size_t level = 1; level <= orders; ++level)
            for (std::size_t j = 0; j < 3; ++j) d(level - 1, j) = model.discounts(level)[j];
        return d;
    };
    const std::vector<Tokens>& h = in.baseline_heldout;
    return {counts.unigram_loss(h), kn[0].loss(h), kn[1].loss(h), kn[2].loss(h), kn[3].loss(h),
            discounts(kn[1], 3), discounts(kn[3], 5)};
}

// The loss chapter 12 can train with against stutters: the cross-entropy plus a weighted penalty
// on repeating the token just read, on a batch of its own.
void unlikelihood_check(Chapter& ch, const Inputs& in, std::vector<TinyRun>& runs) {
    std::size_t penalised = 0, doubled = 0;  // positions of the batch, by what follows them
    for (std::size_t q = 0; q < in.unlikelihood_inputs.size(); ++q)
        for (std::size_t j = 0; j < in.unlikelihood_inputs[q].size(); ++j) {
            const int next = in.unlikelihood_targets[q][j];
            if (next == in.tiny[0].model.config.pad_id) continue;
            (next == in.unlikelihood_inputs[q][j] ? doubled : penalised) += 1;
        }
    ch.say(tr("The loss once more with a penalty on repeating the token just read, weighted {} "
              "(the training-side try against stutters, model/gpt/unlikelihood.h), on a batch of "
              "its own: {} penalised, {} where the next token is the one just read (a doubling "
              "the text holds), which the penalty leaves alone.",
              general(in.unlikelihood_weight, 6),
              count_of(penalised, N_("{} position"), N_("{} positions")), doubled));
    Table t({tr("variant"), tr("loss with the penalty"), tr("largest |our gradient − PyTorch's|")});
    for (std::size_t i = 0; i < in.tiny.size(); ++i) {
        const std::string& name = in.tiny[i].name;
        ch.record_number("unlikelihood_loss_" + name, runs[i].unlikelihood_loss,
                         tolerance::end_to_end);
        const double worst = record_gradients(
            ch, "unlikelihood_" + name, torch_state_dict(parameters(runs[i].unlikelihood_grad)));
        t.add({name, fixed(runs[i].unlikelihood_loss, 12), sci(worst)});
    }
    ch.table(t);
}

}  // namespace

void against_pytorch(Chapter& ch, const Inputs& in) {
    std::vector<TinyRun> runs;
    for (const Tiny& v : in.tiny) runs.push_back(run_tiny(in, v));
    ch.step(tr("A decoder-only model, checked against PyTorch"));
    ch.say(
        tr("One stack of blocks, each causal self-attention and a feed-forward net with their "
           "residuals — chapter 6's encoder layer given chapter 3's causal mask — then a final "
           "norm, and the embedding table again as the output projection (logits = y·Eᵀ). No "
           "encoder, no cross-attention: each position reads the text before it and predicts "
           "the next token. {} on a batch of {} (tokens in each: {}):",
           count_of(in.tiny.size(), N_("{} tiny configuration"), N_("{} tiny configurations")),
           count_of(in.tiny_inputs.size(), N_("{} sequence"), N_("{} sequences")),
           listed(lengths_of(in.tiny_inputs))));
    Table t({tr("variant"), tr("loss"), tr("largest |our gradient − PyTorch's|"),
             tr("KV cache against the whole pass")});
    for (std::size_t i = 0; i < in.tiny.size(); ++i) {
        const std::string& name = in.tiny[i].name;
        TinyRun& r = runs[i];
        ch.record("logits_" + name, r.logits, Shape::Matrix, tolerance::end_to_end);
        ch.record_number("loss_" + name, r.loss, tolerance::end_to_end);
        const double worst = record_gradients(ch, name, torch_state_dict(parameters(r.grad)));
        ch.record_number("sliding_loss_" + name, r.sliding_loss, tolerance::end_to_end);
        ch.record_number("repeat_loss_" + name, r.repeat_loss, tolerance::end_to_end);
        ch.measured("kv_cache_max_abs_diff_" + name, r.cache_gap);
        t.add({name, fixed(r.loss, 12), sci(worst), sci(r.cache_gap)});
    }
    ch.table(t);
    for (const Tiny& v : in.tiny)
        ch.line(tr("{}: {}", v.name, variant_text(v.model.config)) +
                (v.model.config.share_embeddings
                     ? ""
                     : tr(", an output table of its own (untied: logits = y·Wᵀ)")));
    unlikelihood_check(ch, in, runs);
    ch.say(
        tr("Every gradient comes from the hand-written backward passes of chapters 4–10, "
           "composed once more; the oracle (data/oracle/ch12_gpt.py) builds the same model "
           "from chapter 10's PyTorch pieces and lets autograd differentiate it."));
}

// The optimiser: steps of AdamW on the tiny batch under the chapter's schedule, against
// torch.optim.AdamW's losses.
void adamw_check(Chapter& ch, const Inputs& in) {
    const std::string k = "inputs.tiny.adamw.";
    TrainingSettings s;
    s.max_steps = ch.data.size(k + "steps", 1, 1000);
    s.smoothing = ch.data.number(k + "smoothing", 0.0, 0.99);
    s.adam.schedule = AdamSettings::Schedule::Cosine;
    s.adam.peak = ch.data.number(k + "peak_lr", 1e-6, 1.0);
    s.adam.final_fraction = ch.data.number(k + "final_fraction", 0.0, 1.0);
    s.adam.warmup = ch.data.size(k + "warmup", 1, 1000000);
    s.adam.weight_decay = ch.data.number(k + "weight_decay", 0.0, 100);
    Gpt model = in.tiny[0].model;
    s.adam.d_model = model.config.d_model;
    const std::vector<double> losses = steps_on_batch(model, in.tiny_inputs, in.tiny_targets, s);
    const Matrix row = row_matrix(losses);
    ch.say(
        tr("AdamW (weight decay {} on the matrices, not on biases and gains; label smoothing "
           "{}), {} on that batch — the learning rate rising for {} to {}, then "
           "falling along a cosine to {} of it — against torch.optim.AdamW:",
           general(s.adam.weight_decay, 3), general(s.smoothing, 3),
           count_of(losses.size(), N_("{} step"), N_("{} steps")),
           count_of(s.adam.warmup, N_("{} step"), N_("{} steps")), general(s.adam.peak, 3),
           general(s.adam.final_fraction, 3)));
    ch.show("adamw_losses", tr("losses after each step"), row, {}, {}, 10, tolerance::end_to_end);
}

// The baselines' formulas on the oracle's small corpus.
void baselines_check(Chapter& ch, const Inputs& in) {
    const BaselineCheck b = baseline_check(in);
    ch.record_number("baseline_unigram_loss", b.unigram);
    ch.record_number("baseline_kn_bigram_loss", b.bigram);
    ch.record_number("baseline_kn_trigram_loss", b.trigram);
    ch.record("baseline_kn_trigram_discounts", b.trigram_discounts);
    ch.record_number("baseline_kn_4gram_loss", b.fourgram);
    ch.record_number("baseline_kn_5gram_loss", b.fivegram);
    ch.record("baseline_kn_5gram_discounts", b.fivegram_discounts);
    ch.say(tr("The baselines below, on a small seeded corpus of {} sequences, against the "
              "oracle's own Kneser-Ney (data/oracle/kneser_ney.py): the unigram {}, the "
              "Kneser-Ney bigram {} and trigram {} nats per token (the nat is the natural "
              "logarithm's unit of information: bits = nats ÷ ln 2).",
              in.baseline_training.size(), fixed(b.unigram, 6), fixed(b.bigram, 6),
              fixed(b.trigram, 6)));
}

namespace {

// The Tang table's readings, the same measures, the whole regulated-verse check by both tables,
// and the rates with their standard errors over poems.
void tang_check(Chapter& ch, const Inputs& in) {
    const std::size_t n = in.verse_tang_readings.size();
    Matrix tang_tones(1, n), tang_groups(1, n);
    for (std::size_t i = 0; i < n; ++i) {
        const Sound s = tang_sound(in.verse_tang_readings[i]);
        tang_tones(0, i) = s.tone == Tone::Level ? 0 : 1;
        tang_groups(0, i) = s.group;
    }
    ch.record("verse_tang_reading_tones", tang_tones, Shape::Vector, 0.0);
    ch.record("verse_tang_reading_groups", tang_groups, Shape::Vector, 0.0);
    const VerseMeasures t = measure_verse(in.verse_poems, in.verse_tang);
    ch.record("verse_tang_measures",
              Matrix{{double(t.rhyming), double(t.rhyme_places), double(t.tones_kept),
                      double(t.tone_verses)}},
              Shape::Vector, 0.0);
    const auto regulated = [](const RegulatedMeasures& r) {
        return Matrix{{double(r.poems), double(r.passed), double(r.repeated_rhyme),
                       double(r.first_level), double(r.first_rhyming), double(r.three_level),
                       double(r.lone_level), double(r.special), double(r.big_twist),
                       double(r.borrowed_rhyme), double(r.oblique_rhymed)}};
    };
    ch.record("verse_regulated", regulated(measure_regulated(in.verse_poems, in.verse_tang)),
              Shape::Vector, 0.0);
    ch.record("verse_regulated_mandarin",
              regulated(measure_regulated(in.verse_poems, in.verse_table)), Shape::Vector, 0.0);
    const auto rates = [](const VerseRates& v) {
        const Rate* all[] = {&v.rhyme,       &v.tones,       &v.passed,      &v.repeated_rhyme,
                             &v.three_level, &v.lone_level,  &v.first_rhyme, &v.parallel,
                             &v.parallel_tones};
        Matrix m(9, 2);
        for (std::size_t i = 0; i < 9; ++i) m(i, 0) = all[i]->share, m(i, 1) = all[i]->se;
        return m;
    };
    ch.record("verse_tang_rates", rates(verse_rates(in.verse_poems, in.verse_tang)),
              Shape::Matrix, tolerance::single_op);
    ch.record("verse_mandarin_rates", rates(verse_rates(in.verse_poems, in.verse_table)),
              Shape::Matrix, tolerance::single_op);
}

// Doublings: 叠字 (attested in the first poems, not across the pause) and stutters.
void doubling_check(Chapter& ch, const Inputs& in) {
    const std::set<std::string> pairs = doubled_pairs(std::vector<std::string>(
        in.verse_poems.begin(), in.verse_poems.begin() + std::ptrdiff_t(in.verse_training_poems)));
    ch.record_number("verse_doubled_pairs", double(pairs.size()), 0.0);
    DoublingCounts d;
    for (const std::string& poem : in.verse_poems) {
        const DoublingCounts one = count_doublings(poem, pairs);
        d.places += one.places, d.doublings += one.doublings;
        d.attested += one.attested, d.stutters += one.stutters;
    }
    ch.record("verse_doublings",
              Matrix{{double(d.places), double(d.doublings), double(d.attested), double(d.stutters)}},
              Shape::Vector, 0.0);
}

}  // namespace

// The verse measures' definitions on the oracle's poems and readings (data/oracle/verse.py).
void verse_check(Chapter& ch, const Inputs& in) {
    Matrix groups(1, in.verse_readings.size()), tones(1, in.verse_readings.size());
    for (std::size_t i = 0; i < in.verse_readings.size(); ++i) {
        groups(0, i) = rhyme_group_of(in.verse_readings[i]);
        const Tone t = tone_of(in.verse_readings[i]);
        tones(0, i) = t == Tone::Level ? 0 : t == Tone::Oblique ? 1 : 2;
    }
    ch.record("verse_reading_groups", groups, Shape::Vector, 0.0);
    ch.record("verse_reading_tones", tones, Shape::Vector, 0.0);
    const VerseMeasures m = measure_verse(in.verse_poems, in.verse_table);
    const Matrix measures{{double(m.lines), double(m.doubled), double(m.tripled),
                           double(m.rhyming), double(m.rhyme_places), double(m.tones_kept),
                           double(m.tone_verses)}};
    ch.record("verse_measures", measures, Shape::Vector, 0.0);
    tang_check(ch, in);
    doubling_check(ch, in);
}

}  // namespace ch12_gpt
