// ch12_gpt/doubling.cpp — chapter 12's doubled characters told apart: the poets' 叠字 against
// the model's stutters, and a correction of one number fitted on the validation poems.
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ch12_gpt/writing.h"
#include "model/gpt/gpt.h"
#include "report/chapter.h"
#include "text/translate.h"
#include "verse/doubling.h"
#include "verse/repeat_correction.h"
#include "verse/verse_rates.h"

namespace ch12_gpt {

namespace {

struct DoublingRow {
    std::string key, name;
    Rate doublings, attested, stutters;  // of the places, with standard errors over poems
};

DoublingRow doubling_row(const std::string& key, const std::string& name,
                         const std::vector<std::string>& texts,
                         const std::set<std::string>& attested) {
    std::vector<std::pair<std::size_t, std::size_t>> all, poets, stutters;
    for (const std::string& text : texts) {
        const DoublingCounts c = count_doublings(text, attested);
        all.push_back({c.doublings, c.places});
        poets.push_back({c.attested, c.places});
        stutters.push_back({c.stutters, c.places});
    }
    return {key, name, rate_over_poems(all), rate_over_poems(poets), rate_over_poems(stutters)};
}

// The repeat correction fitted on the validation poems, by likelihood, and the held-out loss
// without and with it.
struct Correction {
    RepeatKinds beta = {0, 0};
    double validation_change = 0, plain = 0, corrected = 0;
};
Correction fitted_correction(const Inputs& in, const Corpus& c, const Gpt& model,
                             const DoublingPlaces& places, std::vector<RepeatTarget> heldout) {
    const auto kind_of = [&](const Tokens& sequence, std::size_t j) {
        return places.kind(Tokens(sequence.begin(), sequence.begin() + std::ptrdiff_t(j)));
    };
    const std::vector<RepeatTarget> validation =
        repeat_targets(model, c.validation, in.windows.context, kind_of);
    Correction r;
    if (!validation.empty()) r.beta = fit_repeat_correction(validation);
    const RepeatKinds none = {0, 0};
    r.validation_change = corrected_loss(validation, r.beta) - corrected_loss(validation, none);
    mark_kinds(heldout, c.heldout, model.config.pad_id, kind_of);
    r.plain = corrected_loss(heldout, none), r.corrected = corrected_loss(heldout, r.beta);
    return r;
}

std::string per_cent(const Rate& r) {
    return r.of ? fixed(100 * r.share, 2) + "% ±" + fixed(100 * r.se, 2) : "—";
}

// Each written row against the held-out poems: stutters in standard errors, 叠字 as a ratio.
void say_doubling(Chapter& ch, const std::vector<DoublingRow>& rows) {
    const DoublingRow& real = rows[0];
    if (!real.doublings.of) return;  // no held-out verse to compare with
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const DoublingRow& w = rows[i];
        if (!w.doublings.of) {
            ch.say(tr("{}: no verse of five or seven characters to count in.", w.name));
            continue;
        }
        const double gap = w.stutters.share - real.stutters.share;
        const double se = std::sqrt(w.stutters.se * w.stutters.se + real.stutters.se * real.stutters.se);
        const std::string against =
            se > 0 && std::fabs(gap) <= 2 * se
                ? tr("within two standard errors ({} of them)", fixed(gap / se, 1))
            : gap == 0 ? tr("the same")
            : se > 0   ? (gap > 0 ? tr("more than real poems' ({} standard errors)", fixed(gap / se, 1))
                                  : tr("fewer than real poems' ({} standard errors)", fixed(gap / se, 1)))
                       : (gap > 0 ? tr("more than real poems'") : tr("fewer than real poems'"));
        ch.say(real.attested.share > 0
                   ? tr("{}: stutters {} against real poems' {} — {}; 叠字 {} against {} ({}× "
                        "real).",
                        w.name, per_cent(w.stutters), per_cent(real.stutters), against,
                        per_cent(w.attested), per_cent(real.attested),
                        fixed(w.attested.share / real.attested.share, 2))
                   : tr("{}: stutters {} against real poems' {} — {}; 叠字 {}, where real poems "
                        "have none.",
                        w.name, per_cent(w.stutters), per_cent(real.stutters), against,
                        per_cent(w.attested)));
    }
}

}  // namespace

void doubling_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model,
                   const SamplingSettings& s, const std::vector<std::string>& plain,
                   std::vector<RepeatTarget> heldout) {
    ch.step(tr("Doubling: the poets' 叠字 and the model's stutters"));
    const std::set<std::string> attested = doubled_pairs(texts_of(c.split.training));
    const DoublingPlaces places(c.vocabulary, attested);
    const Correction fit = fitted_correction(in, c, model, places, std::move(heldout));
    const RepeatKinds beta = fit.beta;
    SamplingSettings with_beta = s;
    with_beta.repeat_correction = [places, beta](const Tokens& so_far) {
        return beta[std::size_t(places.kind(so_far))];
    };
    const auto written = [&](const SamplingSettings& settings) {
        return texts_of(c, write_poems(model, c.vocabulary, settings, {}, in.sampling.poems,
                                       in.sampling.seed));
    };
    const std::vector<DoublingRow> rows = {
        doubling_row("heldout", tr("the {} held-out poems", grouped(c.split.heldout.size())),
                     texts_of(c.split.heldout), attested),
        doubling_row("model", tr("{} poems by the model", grouped(in.sampling.poems)), plain,
                     attested),
        doubling_row("model_corrected", tr("… with the repeat correction"), written(with_beta),
                     attested)};
    ch.say(tr("A character written twice in a row is the poets' 叠字 (萋萋, 悠悠) when the training "
              "poems hold the same pair and it does not straddle the pause in the verse (after "
              "the 2nd character of five, after the 2nd and 4th of seven); any other is a stutter. "
              "Each share is of the characters after a verse's first, ± its standard error over "
              "poems."));
    Table t({tr("poems of"), tr("twice in a row"), tr("叠字"), tr("stutters")});
    for (const DoublingRow& r : rows) {
        t.add({r.name, per_cent(r.doublings), per_cent(r.attested), per_cent(r.stutters)});
        ch.measured("doubling_" + r.key, r.doublings.share);
        ch.measured("doubling_" + r.key + "_attested", r.attested.share);
        ch.measured("doubling_" + r.key + "_attested_se", r.attested.se);
        ch.measured("doubling_" + r.key + "_stutters", r.stutters.share);
        ch.measured("doubling_" + r.key + "_stutters_se", r.stutters.se);
    }
    ch.table(t);
    ch.measured("repeat_correction_poets", beta[0]);
    ch.measured("repeat_correction_stutter", beta[1]);
    ch.measured("repeat_correction_validation_change", fit.validation_change);
    ch.measured("heldout_loss_corrected", fit.corrected);
    if (c.split.validation.empty() || c.split.heldout.empty()) {
        ch.say(tr("No validation poems to fit the repeat correction on, or no held-out poems to "
                  "measure it with: no correction (β = 0)."));
        return say_doubling(ch, rows);
    }
    ch.say(tr("The repeat correction: from the logit of the character just written, β = {} is "
              "subtracted where writing it again would be 叠字 and β = {} where it would be a "
              "stutter — the pair that reads the {} validation poems best (their loss {} by {} "
              "nats per token). On the held-out poems the loss goes from {} to {} ({}).",
              fixed(beta[0], 3), fixed(beta[1], 3), grouped(c.split.validation.size()),
              fit.validation_change < 0 ? tr("falls") : tr("rises"),
              fixed(std::fabs(fit.validation_change), 4), fixed(fit.plain, 4),
              fixed(fit.corrected, 4), fit.corrected <= fit.plain ? tr("no worse") : tr("worse")));
    say_doubling(ch, rows);
}

}  // namespace ch12_gpt
