// ch12_gpt/writing.cpp — chapter 12's second half: the trained model writes poems, with
// sampling settings chosen by measurement, and its poems are measured as verse beside the
// held-out poems and the Kneser-Ney baselines'.
#include "ch12_gpt/writing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "ch12_gpt/one_poem.h"
#include "fast/threads.h"
#include "report/bar_chart.h"
#include "report/options.h"
#include "report/recorded_gradients.h"
#include "text/translate.h"
#include "verse/poem_measures.h"
#include "verse/regulated_verse.h"
#include "verse/verse_rates.h"

namespace ch12_gpt {

namespace {

std::string as_text(const Corpus& c, const Tokens& t) { return decode(c.vocabulary, t); }

// What is measured on a set of poems: their lines' shape and copies, and their verse — by the
// Tang table and by Mandarin, each where it is there.
struct Measured {
    PoemLines lines;
    VerseMeasures verse;  // doubled and tripled characters
    VerseRates tang, mandarin;
};
Measured measure(const Corpus& c, const Sounds& sounds, const std::vector<std::string>& texts) {
    Measured m{
        measure_lines(texts, c.training_lines), measure_verse(texts, sounds.judge()), {}, {}};
    if (!sounds.tang.empty()) m.tang = verse_rates(texts, sounds.tang);
    if (!sounds.mandarin.empty()) m.mandarin = verse_rates(texts, sounds.mandarin);
    return m;
}

// How far written lines are from real ones: the shares of lines in form, copied, with a doubled
// and with a tripled character, against the validation poems' own, added.
double distance(const Measured& w, const Measured& real) {
    return std::fabs(w.lines.form_fraction() - real.lines.form_fraction()) +
           std::fabs(w.lines.copied_fraction() - real.lines.copied_fraction()) +
           std::fabs(w.verse.doubled_share() - real.verse.doubled_share()) +
           std::fabs(w.verse.tripled_share() - real.verse.tripled_share());
}

std::string percent(double x) { return fixed(100 * x, 1) + "%"; }
// "95.9% ±0.3": a rate and its standard error over poems; "—" for a rate of nothing
std::string rate_text(const Rate& r) {
    return r.of ? percent(r.share) + " ±" + fixed(100 * r.se, 1) : "—";
}
std::string share_text(const Rate& r) { return r.of ? percent(r.share) : "—"; }

std::vector<Tokens> show_poems(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model,
                               const SamplingSettings& s) {
    const std::vector<Tokens> shown = write_poems(model, c.vocabulary, s, in.sampling.prompts,
                                                  in.sampling.shown, in.sampling.seed);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const std::string prompt =
            in.sampling.prompts.empty() ? "" : in.sampling.prompts[i % in.sampling.prompts.size()];
        ch.line(prompt.empty() ? tr("from <bos> alone:") : prompt_heading(prompt));
        if (i < in.sampling.prompts.size())
            say_prompt(ch, c.vocabulary, prompt, in.windows.context);
        print_poem(ch, as_text(c, shown[i]));
    }
    const PoemLines m = measure_lines(texts_of(c, shown), c.training_lines);
    if (m.first_lines_repeated > 0)
        ch.say(
            tr("{} of these {} poems open with a couplet an earlier one opened with: drawn at "
               "temperature {}, the likeliest opening after a title wins many of the draws.",
               m.first_lines_repeated, m.poems, general(s.temperature, 3)));
    return shown;
}

// The rows of the verse table: real poems, the n-grams' and the model's, plainly and with each
// set of masks.
struct VerseRow {
    std::string key, name;
    Measured m;
};

std::string rules_text(FormRules r) {
    std::vector<std::string> parts = {tr("the form")};
    if (r.rhyme) parts.push_back(tr("the rhyme"));
    if (r.tones) parts.push_back(tr("the tones"));
    if (r.no_runs) parts.push_back(tr("no runs"));
    if (r.length) parts.push_back(tr("{} characters a verse", r.length));
    if (r.couplets) parts.push_back(r.couplets == 2 ? tr("four verses (a quatrain, 绝句)")
                                                    : tr("eight verses (regulated verse, 律诗)"));
    return listed(parts);
}

// The rates a table judges by: the Tang table's where it is there, else Mandarin's.
const VerseRates& judged(const Measured& m, const Sounds& sounds) {
    return sounds.tang.empty() ? m.mandarin : m.tang;
}

Matrix verse_matrix(const std::vector<VerseRow>& rows, const Sounds& sounds) {
    Matrix m(rows.size(), 7);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Measured& x = rows[i].m;
        m(i, 0) = double(x.lines.lines), m(i, 1) = x.lines.form_fraction();
        m(i, 2) = x.lines.copied_fraction(), m(i, 3) = x.verse.doubled_share();
        m(i, 4) = x.verse.tripled_share(), m(i, 5) = judged(x, sounds).rhyme.share;
        m(i, 6) = judged(x, sounds).tones.share;
    }
    return m;
}

// A rate by the table that judges, and where both tables are there its Mandarin twin in brackets.
std::string with_twin(const Rate& judging, const Rate& mandarin, const Sounds& sounds) {
    if (sounds.tang.empty() || sounds.mandarin.empty()) return rate_text(judging);
    return rate_text(judging) + " (" + share_text(mandarin) + ")";
}

// The rhyme and the tones, then the whole check of regulated verse, by the table that judges
// (its Mandarin twin in brackets).
void sounds_table(Chapter& ch, const std::vector<VerseRow>& rows, const Sounds& sounds) {
    // the rhyme and the tones, then the whole check of regulated verse
    Table v({tr("poems of"), tr("rhymes"), tr("tones"), tr("regulated"), tr("重韵"),
             tr("first verse rhymes"), tr("三平尾"), tr("孤平"), tr("对仗"),
             tr("对仗, opposite tones")});
    bool none_to_judge = false;
    for (const VerseRow& r : rows) {
        const VerseRates& j = judged(r.m, sounds);
        const VerseRates& m = r.m.mandarin;
        v.add({r.name, with_twin(j.rhyme, m.rhyme, sounds), with_twin(j.tones, m.tones, sounds),
               with_twin(j.passed, m.passed, sounds),
               with_twin(j.repeated_rhyme, m.repeated_rhyme, sounds),
               with_twin(j.first_rhyme, m.first_rhyme, sounds),
               with_twin(j.three_level, m.three_level, sounds),
               with_twin(j.lone_level, m.lone_level, sounds), rate_text(j.parallel),
               with_twin(j.parallel_tones, m.parallel_tones, sounds)});
        none_to_judge |= !j.rhyme.of || !j.tones.of || !j.passed.of || !j.first_rhyme.of;
        const std::vector<std::pair<const char*, const Rate*>> rates = {
            {"rhyme", &j.rhyme},
            {"tones", &j.tones},
            {"regulated", &j.passed},
            {"repeated_rhyme", &j.repeated_rhyme},
            {"first_rhyme", &j.first_rhyme},
            {"three_level", &j.three_level},
            {"lone_level", &j.lone_level},
            {"parallel", &j.parallel},
            {"parallel_tones", &j.parallel_tones}};
        for (const auto& [name, rate] : rates) {
            ch.measured("verse_" + r.key + "_" + name, rate->share);
            ch.measured("verse_" + r.key + "_" + name + "_se", rate->se);
        }
        if (!sounds.tang.empty() && !sounds.mandarin.empty()) {
            ch.measured("verse_" + r.key + "_rhyme_mandarin", m.rhyme.share);
            ch.measured("verse_" + r.key + "_tones_mandarin", m.tones.share);
            ch.measured("verse_" + r.key + "_regulated_mandarin", m.passed.share);
        }
    }
    ch.table(v);
    ch.say(!sounds.tang.empty()
               ? tr("Judged by the Tang table ({}): 平水韵's rhyme groups and the Middle "
                    "Chinese tones, the entering tone (入声) oblique{}. Each rate ± its "
                    "standard error over poems.",
                    "build/corpus/tang.txt",
                    sounds.mandarin.empty() ? ""
                                            : tr("; in brackets the same rate by modern "
                                                 "Mandarin (pinyin)"))
               : tr("Judged by modern Mandarin (pinyin): no Tang table (make corpus writes "
                    "build/corpus/tang.txt; --tang FILE names another). Each rate ± its "
                    "standard error over poems."));
    if (none_to_judge)
        ch.say(
            tr("—: nothing of that kind in that row to judge (a rhyme needs a couplet after "
               "the first, a tone a verse of five or seven characters whose tones are "
               "known, the whole check a poem of two or four couplets of one length, a "
               "first verse's rhyme a first verse that can only end level, 对仗 a poem of "
               "four couplets of one length), so no share: not 0%."));
}

void verse_table(Chapter& ch, const std::vector<VerseRow>& rows, const Sounds& sounds) {
    Table t({tr("couplets of"), tr("couplets"), tr("in form"), tr("copied"), tr("doubled"),
             tr("tripled")});
    for (const VerseRow& r : rows) {
        const Measured& x = r.m;
        t.add({r.name, grouped(x.lines.lines), percent(x.lines.form_fraction()),
               percent(x.lines.copied_fraction()), percent(x.verse.doubled_share()),
               percent(x.verse.tripled_share())});
        for (const auto& [name, value] :
             {std::pair<const char*, double>{"form", x.lines.form_fraction()},
              {"copied", x.lines.copied_fraction()},
              {"doubled", x.verse.doubled_share()},
              {"tripled", x.verse.tripled_share()}})
            ch.measured("verse_" + r.key + "_" + name, value);
    }
    ch.table(t);
    ch.measured("verse_table", verse_matrix(rows, sounds));
    if (!sounds.empty()) sounds_table(ch, rows, sounds);
    BarChart chart{tr("the couplets of real poems, the n-grams' and the model's"),
                   {},
                   {tr("doubled"), tr("tripled")},
                   Matrix(rows.size(), sounds.empty() ? 2 : 4)};
    if (!sounds.empty()) chart.measures.insert(chart.measures.end(), {tr("rhymes"), tr("tones")});
    for (std::size_t i = 0; i < rows.size(); ++i) {
        chart.groups.push_back(rows[i].name);
        const VerseMeasures& v = rows[i].m.verse;
        chart.values(i, 0) = v.doubled_share(), chart.values(i, 1) = v.tripled_share();
        if (!sounds.empty())
            chart.values(i, 2) = judged(rows[i].m, sounds).rhyme.share,
                            chart.values(i, 3) = judged(rows[i].m, sounds).tones.share;
    }
    ch.picture("ch12_verse.svg", bar_chart_svg(chart));
}

// The rhyme and the tones told: real poems by each table, the model free and kept.
void say_sounds(Chapter& ch, const Measured& real, const Measured& model, const Measured& kept,
                FormRules rules, const Sounds& sounds) {
    const VerseRates& r = judged(real, sounds);
    const VerseRates& w = judged(model, sounds);
    const VerseRates& k = judged(kept, sounds);
    if (!sounds.tang.empty() && !sounds.mandarin.empty()) {
        const double rhyme_gap = r.rhyme.share - real.mandarin.rhyme.share;
        const double tone_gap = r.tones.share - real.mandarin.tones.share;
        ch.say(rhyme_gap > 0.02 && tone_gap > 0.02
                   ? tr("By the Tang table real poems rhyme in {} of their second verses and "
                        "alternate their tones in {} of their verses; by modern Mandarin in {} "
                        "and {} — Mandarin understates the poets by {} and {} points: the "
                        "entering tone (入声) is gone from it, many of its characters read level "
                        "today (国, 白, 石), the characters Tang verse reads either way (看, 听, "
                        "思) have one tone in it, and rhymes it split apart no longer rhyme "
                        "(原 and 昏, one group 元 then); the groups it merged (东 and 冬, 寒 and "
                        "删) can only raise its rate.",
                        percent(r.rhyme.share), percent(r.tones.share),
                        percent(real.mandarin.rhyme.share), percent(real.mandarin.tones.share),
                        fixed(100 * rhyme_gap, 1), fixed(100 * tone_gap, 1))
                   : tr("By the Tang table real poems rhyme in {} of their second verses and "
                        "alternate their tones in {} of their verses; by modern Mandarin in {} "
                        "and {}.",
                        percent(r.rhyme.share), percent(r.tones.share),
                        percent(real.mandarin.rhyme.share), percent(real.mandarin.tones.share)));
    } else {
        ch.say(
            tr("Real poems rhyme in {} of their second verses and alternate their tones in {} "
               "of their verses.",
               percent(r.rhyme.share), percent(r.tones.share)));
    }
    ch.say(
        tr("The model, writing freely, rhymes in {} and alternates in {}; {} of its poems keep "
           "every rule of a regulated poem, against {} of real poems.",
           percent(w.rhyme.share), percent(w.tones.share), share_text(w.passed),
           share_text(r.passed)));
    ch.say(tr(
        "Keeping {} — masks on the logits before the softmax, as chapter 3's masks hide keys: a "
        "character that breaks a rule gets −∞ and so weight 0 — it rhymes in {} and alternates "
        "in {}; {} of its poems keep every rule (real poems: {}), {} rhyme on a character "
        "twice (real poems: {}), {} end a verse in three level tones (real poems: {}); {} of "
        "its couplets hold a doubled character.",
        rules_text(rules), percent(k.rhyme.share), percent(k.tones.share), share_text(k.passed),
        share_text(r.passed), share_text(k.repeated_rhyme), share_text(r.repeated_rhyme),
        share_text(k.three_level), share_text(r.three_level), percent(kept.verse.doubled_share())));
}

// The table's comparisons, each worded from the numbers it states.
void say_verse(Chapter& ch, const Measured& real, const Measured& model, const Measured& kn,
               const Measured& kept, FormRules rules, const Sounds& sounds) {
    if (model.lines.form_fraction() > kn.lines.form_fraction())
        ch.say(
            tr("{} of the model's couplets have the regulated shape, {} of the best n-gram's ({} "
               "of real poems'): a few characters of context cannot count to five or seven, nor "
               "know where the comma falls; attention looks back over the whole couplet.",
               percent(model.lines.form_fraction()), percent(kn.lines.form_fraction()),
               percent(real.lines.form_fraction())));
    const double doubled = model.verse.doubled_share(), real_doubled = real.verse.doubled_share();
    ch.say(doubled > 2 * real_doubled
               ? tr("{} of its couplets hold a character twice in a row, against {} of real poems' "
                    "— more than twice their 叠字 (萋萋, 悠悠): it stutters; {} hold one three "
                    "times (real poems: {}).",
                    percent(doubled), percent(real_doubled), percent(model.verse.tripled_share()),
                    percent(real.verse.tripled_share()))
               : tr("{} of its couplets hold a character twice in a row, against {} of real poems' "
                    "(叠字 such as 萋萋, 悠悠), and {} three times (real poems: {}).",
                    percent(doubled), percent(real_doubled), percent(model.verse.tripled_share()),
                    percent(real.verse.tripled_share())));
    const double copied = model.lines.copied_fraction(), real_copied = real.lines.copied_fraction();
    ch.say(copied > real_copied + 0.01
               ? tr("{} of its couplets are couplets of training poems word for word, against {} "
                    "of the held-out poems' own couplets: some of what it writes is remembered.",
                    percent(copied), percent(real_copied))
               : tr("{} of its couplets are couplets of training poems word for word, against {} "
                    "of the held-out poems' own, which the split holds there (poems that share a "
                    "couplet are kept on one side of it): it does not copy, and the held-out "
                    "figure says nothing of how often poets did.",
                    percent(copied), percent(real_copied)));
    if (!sounds.empty()) say_sounds(ch, real, model, kept, rules, sounds);
}

// Every source's poems measured as verse, the same number from each and (for the model) the
// same seed: the held-out poems, the Kneser-Ney trigram and the best order's, the model plain
// and under each mask (the masks of rhyme and tones only with a pronunciation table).
std::vector<VerseRow> verse_rows(const Inputs& in, const Corpus& c, const Gpt& model,
                                 const Baselines& b, const Sounds& sounds,
                                 const SamplingSettings& s, std::vector<std::string>& plain) {
    const auto model_poems = [&](FormRules rules) {
        SamplingSettings kept = s;
        if (rules.any()) kept.mask = form_mask(c.vocabulary, sounds.judge(), rules);
        std::vector<std::string> texts = texts_of(
            c, write_poems(model, c.vocabulary, kept, {}, in.sampling.poems, in.sampling.seed));
        if (!rules.any()) plain = texts;
        return measure(c, sounds, texts);
    };
    const auto kn_poems = [&](const KneserNey& kn) {
        // poem i drawn with its own generator, seeded seed + i, as the model's are: the threads
        // share the poems out, and each is the same whichever thread draws it
        std::vector<Tokens> poems(in.sampling.poems);
        parallel_for_uneven(poems.size(), poems.size() * in.sampling.max_new * c.vocabulary.size(),
                            [&](std::size_t i) {
                                Random rng(in.sampling.seed + i);
                                poems[i] = kn.sample({CharVocabulary::bos}, CharVocabulary::eos,
                                                     CharVocabulary::newline,
                                                     in.sampling.max_new + 1, rng);
                            });
        return measure(c, sounds, texts_of(c, poems));
    };
    std::vector<VerseRow> rows = {
        {"heldout", tr("the {} held-out poems", grouped(c.split.heldout.size())),
         measure(c, sounds, texts_of(c.split.heldout))},
        {"kn_trigram", tr("{} poems by the Kneser-Ney trigram", grouped(in.sampling.poems)),
         kn_poems(b.trigram())}};
    if (b.best_order() != 3)
        rows.push_back(
            {"kn_best",
             tr("{} poems by the Kneser-Ney {}-gram", grouped(in.sampling.poems), b.best_order()),
             kn_poems(b.strongest())});
    rows.push_back(
        {"model", tr("{} poems by the model", grouped(in.sampling.poems)), model_poems({})});
    const std::vector<std::pair<std::string, FormRules>> masks = {
        {"model_no_runs", {false, false, true}},
        {"model_rhyme", {true, false, false}},
        {"model_rhyme_tones", {true, true, false}},
        {"model_all_rules", {true, true, true}}};
    for (const auto& [key, rules] : masks)
        if (!sounds.empty() || !(rules.rhyme || rules.tones))
            rows.push_back({key, tr("… keeping {}", rules_text(rules)), model_poems(rules)});
    return rows;
}

const Measured& row_named(const std::vector<VerseRow>& rows, const std::string& key) {
    for (const VerseRow& r : rows)
        if (r.key == key) return r.m;
    throw std::logic_error("no verse row " + key);
}

// Each candidate pair's poems measured against the validation poems': the candidates in the
// data file's order, and the nearest (the first of equals).
struct SamplingChoice {
    Measured real;  // the validation poems
    std::vector<SamplingSettings> candidates;
    std::vector<Measured> measured;
    std::vector<double> distances;
    SamplingSettings best;
};
SamplingChoice sampling_choice(const Inputs& in, const Corpus& c, const Gpt& model) {
    const Sounds none;  // tones and rhymes do not choose
    SamplingChoice r{measure(c, none, texts_of(c.split.validation)), {}, {}, {}, base_sampling(in)};
    double best_distance = std::numeric_limits<double>::infinity();
    for (const double temperature : in.sampling.temperatures)
        for (const double top_p : in.sampling.top_ps) {
            SamplingSettings s = base_sampling(in);
            s.temperature = temperature, s.top_p = top_p;
            r.measured.push_back(
                measure(c, none,
                        texts_of(c, write_poems(model, c.vocabulary, s, {},
                                                in.sampling.choice_poems, in.sampling.seed + 1))));
            r.distances.push_back(distance(r.measured.back(), r.real));
            r.candidates.push_back(s);
            if (r.distances.back() < best_distance) r.best = s, best_distance = r.distances.back();
        }
    return r;
}

}  // namespace

// The temperature and top-p written with: of the candidates, the one whose poems' lines are
// most like the validation poems' — in form, copied, doubled, tripled — measured, not picked.
SamplingSettings sampling_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model) {
    const SamplingChoice choice = sampling_choice(in, c, model);
    const Measured& real = choice.real;
    const SamplingSettings& best = choice.best;
    ch.step(tr("How to write: sampling settings chosen by measurement"));
    Table t({tr("temperature"), "top-p", tr("in form"), tr("copied"), tr("doubled"), tr("tripled"),
             tr("distance")});
    t.add({tr("validation poems"), "", percent(real.lines.form_fraction()),
           percent(real.lines.copied_fraction()), percent(real.verse.doubled_share()),
           percent(real.verse.tripled_share()), ""});
    for (std::size_t i = 0; i < choice.candidates.size(); ++i) {
        const Measured& w = choice.measured[i];
        t.add({general(choice.candidates[i].temperature, 3), general(choice.candidates[i].top_p, 3),
               percent(w.lines.form_fraction()), percent(w.lines.copied_fraction()),
               percent(w.verse.doubled_share()), percent(w.verse.tripled_share()),
               fixed(choice.distances[i], 3)});
    }
    ch.say(
        tr("{} poems from <bos> with each candidate; a couplet is in form (five or seven "
           "characters, a comma, as many again, a full stop), copied (word for word a couplet of a "
           "training poem), doubled or tripled (a character twice or three times in a row). "
           "Distance: the four shares' differences from the validation poems', added.",
           in.sampling.choice_poems));
    ch.table(t);
    ch.say(
        tr("Chosen: temperature {}, top-p {} — the nearest to real poems of the candidates. "
           "A low temperature makes the likeliest character likelier still, and the likeliest "
           "next character is often the one just written: colder sampling stutters more.",
           general(best.temperature, 3), general(best.top_p, 3)));
    ch.measured("temperature", best.temperature);
    ch.measured("top_p", best.top_p);
    return best;
}

// A prompt whose first verse is whole (its comma written) sets the verses' length: it must be
// the one --form asks for, or the poem could not keep both.
void check_shape(const FormRules& r, const std::string& start) {
    if (!r.length) return;
    std::size_t count = 0;
    bool body = start.rfind("《", 0) != 0;
    for (const std::string& c : characters(start)) {
        if (c == "\n") body = true, count = 0;
        else if (body && c == "，") {
            if (count != r.length)
                throw UsageError(tr("--form {}: the prompt's first verse has {} characters", r.length,
                                    count));
            return;
        } else if (body) ++count;
    }
}

FormRules rules_from(const Options& o) {
    FormRules r{true, true, true};
    if (!o.has("--form")) return r;
    r = {};
    std::stringstream list(o.value("--form"));
    for (std::string name; std::getline(list, name, ',');) {
        if (name == "rhyme")
            r.rhyme = true;
        else if (name == "tones")
            r.tones = true;
        else if (name == "runs")
            r.no_runs = true;
        else if (name == "5" || name == "7")
            r.length = name == "5" ? 5 : 7;
        else if (name == "quatrain" || name == "regulated")
            r.couplets = name == "quatrain" ? 2 : 4;
        else if (name != "none")
            throw UsageError(
                tr("--form: expected rhyme, tones, runs, a shape (5 or 7, quatrain or regulated) "
                   "or none, joined by commas; got \"{}\"",
                   name));
    }
    return r;
}

std::vector<std::string> writing_step(Chapter& ch, const Inputs& in, const Corpus& c,
                                      const Gpt& model, const Baselines& b, const Sounds& sounds,
                                      const SamplingSettings& s) {
    ch.step(tr("The model writes (temperature {}, top-p {}, through the KV cache)",
               general(s.temperature, 3), general(s.top_p, 3)));
    show_poems(ch, in, c, model, s);
    const FormRules chosen = rules_from(ch.options);
    std::vector<std::string> plain;  // the model's poems with no rule kept
    const std::vector<VerseRow> rows = verse_rows(in, c, model, b, sounds, s, plain);
    verse_table(ch, rows, sounds);
    ch.say(
        tr("Couplets: a poem's lines as printed, two verses each (a verse ends at a comma or a "
           "full stop). Doubled, tripled: a character two or three times in a row. Rhymes: second "
           "verses after the first couplet whose last character shares a rhyme group with the "
           "first couplet's; tones: verses whose 2nd, 4th (and 6th) characters alternate between "
           "level and oblique, as all four regulated patterns do (src/verse/verse.h); regulated: "
           "poems keeping every rule at once — the tones with 粘对, one level rhyme, a first "
           "verse ending level rhyming too, no 重韵 (a rhyme character twice), no 三平尾 (a verse "
           "ending in three level tones), no 孤平 (a lone level tone), with the licences the "
           "handbooks allow: 特拗 (平平仄平仄 for 平平平仄仄), 大拗 made up in the other verse of "
           "its couplet, 首句借韵 (a first verse rhyming in a neighbouring group); a quatrain "
           "rhyming on oblique tones is old-style verse (古绝), not regulated "
           "(src/verse/regulated_verse.h); 对仗: of the middle two couplets of a poem of four, "
           "the aligned pairs of characters in one word class (numbers, colours, directions, "
           "times, heavens, landscape, plants, animals) or in place names that answer each other "
           "(巫峡 and 洛阳, 吴 and 楚), and of those the pairs of opposite tones "
           "(src/verse/parallelism.h). Each character has one reading where it stands, by either "
           "table: its own, or a word's where it and its neighbour make one (三更, 重阳); only a "
           "character read either way (看, 听) or of two senses no word tells apart (重 again or "
           "heavy) keeps both tones, and then a rule is kept when one of them keeps it."));
    if (sounds.empty())
        ch.say(
            tr("No pronunciation table (make corpus writes build/corpus/tang.txt and "
               "build/corpus/pinyin.txt; --tang FILE and --pinyin FILE name others): rhymes "
               "and tones are not measured, nor kept."));
    say_verse(ch, rows[0].m, row_named(rows, "model"),
              row_named(rows, b.best_order() != 3 ? "kn_best" : "kn_trigram"), rows.back().m,
              {true, true, true}, sounds);
    // the prompts again, kept to the chosen rules
    if (chosen.any() && (!sounds.empty() || chosen.no_runs)) {
        ch.line(tr("The same prompts, keeping {}:", rules_text(chosen)));
        SamplingSettings kept_settings = s;
        kept_settings.mask = form_mask(c.vocabulary, sounds.judge(), chosen);
        show_poems(ch, in, c, model, kept_settings);
    }
    return plain;
}

void write_only_step(Chapter& ch, const Inputs& in, const Gpt& model, const CharVocabulary& v,
                     const Sounds& sounds, const SamplingSettings& s, std::uint64_t seed,
                     const std::string& about) {
    const Options& o = ch.options;
    const FormRules asked = rules_from(o);
    for (const std::string& prompt : in.sampling.prompts) check_shape(asked, poem_start(prompt));
    FormRules kept = asked;
    if (sounds.empty()) kept.rhyme = kept.tones = false;  // nothing to keep them by
    const std::size_t each = o.has("--poems") ? std::size_t(o.integer("--poems", 1, 100)) : 1;
    ch.step(tr("The poet writes (temperature {}, top-p {}, seed {})", general(s.temperature, 3),
               general(s.top_p, 3), seed));
    ch.say(about);
    if (kept.any())
        ch.say(
            tr("Keeping {} — masks on the logits before the softmax, as chapter 3's masks hide "
               "keys (--form chooses which).",
               rules_text(kept)));
    else
        ch.say(
            tr("No rule kept: each character is drawn as the model's probabilities have it "
               "(--form rhyme,tones,runs keeps them)."));
    if ((asked.rhyme || asked.tones) && sounds.empty())
        ch.say(
            tr("No pronunciation table (make corpus writes build/corpus/tang.txt and "
               "build/corpus/pinyin.txt; --tang FILE and --pinyin FILE name others): rhymes "
               "and tones are not measured, nor kept."));
    else if (!sounds.empty() && sounds.tang.empty())
        ch.say(
            tr("No Tang table (make corpus writes build/corpus/tang.txt; --tang FILE names "
               "another): the rhyme and the tones are judged and kept by modern Mandarin."));
    SamplingSettings with_rules = s;
    if (kept.any()) with_rules.mask = form_mask(v, sounds.judge(), kept);
    const std::vector<std::string>& prompts = in.sampling.prompts;
    const std::vector<Tokens> poems = write_poems(
        model, v, with_rules, prompts, each * std::max<std::size_t>(prompts.size(), 1), seed);
    for (std::size_t i = 0; i < poems.size(); ++i) {
        const std::string prompt = prompts.empty() ? "" : prompts[i % prompts.size()];
        ch.line(prompt.empty() ? tr("from <bos> alone:") : prompt_heading(prompt));
        if (i < prompts.size()) say_prompt(ch, v, prompt, in.windows.context);
        const std::string text = decode(v, poems[i]);
        print_poem(ch, text);
        std::vector<double> ids(poems[i].begin(), poems[i].end());
        ch.measured("poem_" + std::to_string(i), row_matrix(ids));
        say_judged(ch, text, sounds);
    }
}
}  // namespace ch12_gpt
