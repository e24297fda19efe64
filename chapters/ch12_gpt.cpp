// ch12_gpt — a decoder-only model (GPT), trained from scratch on the complete Tang poems, against
// the baselines a language modeller would pick (Kneser-Ney), keeping the step that generalises
// best; then it writes poems: everything of chapters 1–11 used the way today's models use it.
//
// Tutorial: 03 §2.1.5's language model ("predict the next token from the ones before it", with
// the causal mask that lets every position train at once) — here as the whole model.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/random.h"
#include "io/atomic_file.h"
#include "io/gpt_file.h"
#include "io/platform.h"
#include "io/poem_corpus.h"
#include "io/pronunciation_file.h"
#include "model/gpt/gpt.h"
#include "model/gpt/gpt_sampling.h"
#include "report/bar_chart.h"
#include "report/chapter.h"
#include "report/chart.h"
#include "report/heatmap.h"
#include "report/measure.h"
#include "report/model_summary.h"
#include "report/progress.h"
#include "report/recorded_gradients.h"
#include "report/text_chart.h"
#include "train/gpt_training.h"
#include "train/kneser_ney.h"
#include "train/ngram.h"
#include "train/poem_measures.h"
#include "train/poems.h"
#include "train/verse.h"

namespace {

struct Tiny {
    std::string name;
    Gpt model;
};


struct SamplingPlan {
    std::vector<double> temperatures, top_ps;  // the candidates, chosen among by measurement
    std::size_t choice_poems = 30, poems = 100, shown = 5, max_new = 100;
    std::uint64_t seed = 0;
    std::vector<std::string> prompts;
};

struct Inputs {
    std::vector<Tiny> tiny;
    std::vector<Tokens> tiny_inputs, tiny_targets;
    std::vector<Tokens> sliding;  // sequences scored with a sliding window …
    std::size_t sliding_context = 0;  // … this wide
    std::size_t baseline_vocab = 0;
    std::vector<Tokens> baseline_training, baseline_heldout;
    std::vector<std::string> verse_poems, verse_readings;  // the verse measures' check …
    Pronunciations verse_table;                            // … with its own small table
    CorpusSettings corpus;
    TransformerConfig model;  // its vocabulary comes from the corpus
    TrainingSettings settings;
    WindowBatches windows;
    std::size_t validate_every = 0, patience = 0;
    std::vector<std::string> corpus_overrides;  // settings the corpus's own entry changed
    SamplingPlan sampling;
};

void read_tiny(const DataFile& data, Inputs& in) {
    for (std::size_t i = 0; i < data.length("inputs.tiny.variants"); ++i) {
        const std::string k = "inputs.tiny.variants[" + std::to_string(i) + "]";
        in.tiny.push_back({data.text(k + ".name"), load_gpt(data, k)});
    }
    if (in.tiny.empty())
        throw data.error("inputs.tiny.variants", tr("expected at least one model"));
    const std::size_t vocab = in.tiny[0].model.config.tgt_vocab;
    for (const Tiny& t : in.tiny)
        if (t.model.config.tgt_vocab != vocab)
            throw data.error("inputs.tiny.variants", tr("expected one vocabulary size for all"));
    in.tiny_inputs = data.token_lists("inputs.tiny.inputs", vocab);
    in.tiny_targets = data.token_lists("inputs.tiny.targets", vocab);
    if (in.tiny_inputs.size() != in.tiny_targets.size())
        throw data.error("inputs.tiny.targets", tr("expected one target list per input list"));
    for (std::size_t s = 0; s < in.tiny_inputs.size(); ++s)
        if (in.tiny_inputs[s].empty() || in.tiny_targets[s].size() != in.tiny_inputs[s].size())
            throw data.error("inputs.tiny.targets",
                             tr("expected one target per input token, at least one"));
    in.sliding = data.token_lists("inputs.tiny.sliding.sequences", vocab);
    in.sliding_context = data.size("inputs.tiny.sliding.context", 1, 4096);
    for (const Tokens& s : in.sliding)
        if (s.size() < 2)
            throw data.error("inputs.tiny.sliding.sequences", tr("expected at least two tokens each"));
    in.baseline_vocab = data.size("inputs.baselines.vocab", 5, 1 << 20);
    in.baseline_training = data.token_lists("inputs.baselines.training", in.baseline_vocab);
    in.baseline_heldout = data.token_lists("inputs.baselines.heldout", in.baseline_vocab);
    in.verse_poems = data.texts("inputs.verse.poems");
    in.verse_readings = data.texts("inputs.verse.readings");
    for (const std::string& character : data.keys("inputs.verse.pronunciations"))
        in.verse_table.reading[character] = data.text("inputs.verse.pronunciations." + character);
}

// The training settings: inputs.training's, except where inputs.training.for_corpus.<corpus>
// names another value for the corpus this run reads (a corpus 80 times smaller needs more
// holding back than the default's).
void read_training(const DataFile& data, const Options& o, Inputs& in) {
    const std::string own = "inputs.training.for_corpus." + in.corpus.choice.name + ".";
    const auto t = [&](const std::string& name) {
        if (data.has("inputs.training.for_corpus") && data.has(own + name)) {
            in.corpus_overrides.push_back(name);
            return own + name;
        }
        return "inputs.training." + name;
    };
    TrainingSettings& s = in.settings;
    s.max_steps = data.size(t("steps"), 1, 10000000);
    s.seed = data.seed(t("seed"));
    s.smoothing = data.number(t("smoothing"), 0.0, 0.99);
    s.adam.schedule = AdamSettings::Schedule::Cosine;
    s.adam.peak = data.number(t("peak_lr"), 1e-6, 1.0);
    s.adam.final_fraction = data.number(t("final_fraction"), 0.0, 1.0);
    s.adam.weight_decay = data.number(t("weight_decay"), 0.0, 100.0);
    s.adam.warmup = data.size(t("warmup"), 1, 10000000);
    s.adam.d_model = in.model.d_model;
    in.windows = {data.size(t("batch"), 1, 4096), data.size(t("context"), 1, 4096)};
    in.validate_every = data.size(t("validate_every"), 1, 10000000);
    in.patience = data.size(t("patience"), 0, 10000000);
    if (o.has("--steps"))
        s.max_steps = static_cast<std::size_t>(o.integer("--steps", 1, 10000000));
    if (o.has("--seconds")) s.seconds = o.number("--seconds", 0.001, 1e7);
}

void read_sampling(const DataFile& data, const Options& o, Inputs& in) {
    const std::string s = "inputs.sampling.";
    SamplingPlan& p = in.sampling;
    for (const double t : data.vector(s + "temperatures").data) {
        if (!(t >= 1e-3 && t <= 100))
            throw data.error(s + "temperatures", tr("expected numbers from 0.001 to 100"));
        p.temperatures.push_back(t);
    }
    for (const double x : data.vector(s + "top_ps").data) {
        if (!(x > 0 && x <= 1)) throw data.error(s + "top_ps", tr("expected numbers in (0, 1]"));
        p.top_ps.push_back(x);
    }
    p.choice_poems = data.size(s + "choice_poems", 1, 100000);
    p.poems = data.size(s + "poems", 1, 100000);
    p.shown = data.size(s + "shown", 0, 1000);
    p.max_new = data.size(s + "max_new", 1, 1 << 16);
    p.seed = data.seed(s + "seed");
    p.prompts = data.texts(s + "prompts");
    if (o.has("--prompt")) p.prompts = {o.value("--prompt")};
    if (o.has("--poems")) p.poems = static_cast<std::size_t>(o.integer("--poems", 1, 100000));
}

Inputs read_inputs(const DataFile& data, const Options& o) {
    Inputs in;
    read_tiny(data, in);
    const std::string c = "inputs.corpus.";
    CorpusSettings& k = in.corpus;
    k.source = o.has("--corpus") ? o.value("--corpus") : data.text(c + "source");
    k.heldout_every = data.size(c + "heldout_every", 2, 1000);
    k.validation_every = data.size(c + "validation_every", 2, 1000);
    k.validation_max = data.size(c + "validation_max", 0, 1000000);
    k.min_count = data.size(c + "min_count", 1, 1000);
    k.vocabulary = data.size(c + "vocabulary", 1, 1 << 20);
    const std::string prepared =
        data_folder_path("build/corpus/quantangshi.txt", (o.program_dir + "/ch12").c_str());
    in.corpus.choice = choose_corpus(in.corpus.source, prepared);
    in.model = read_gpt_config(data, "inputs.model.", false);
    read_training(data, o, in);
    read_sampling(data, o, in);
    return in;
}

// --- checked against the oracle -------------------------------------------------------------

void against_pytorch(Chapter& ch, const Inputs& in) {
    ch.step(tr("A decoder-only model, checked against PyTorch"));
    ch.say(
        tr("One stack of blocks, each causal self-attention and a feed-forward net with their "
           "residuals — chapter 6's encoder layer given chapter 3's causal mask — then a final "
           "norm, and the embedding table again as the output projection (logits = y·Eᵀ). No "
           "encoder, no cross-attention: each position reads the text before it and predicts "
           "the next token. Two tiny configurations, two sequences of {} and {} tokens:",
           in.tiny_inputs[0].size(), in.tiny_inputs.size() > 1 ? in.tiny_inputs[1].size() : 0));
    Table t({tr("variant"), tr("loss"), tr("largest |our gradient − PyTorch's|"),
             tr("KV cache against the whole pass")});
    for (const Tiny& v : in.tiny) {
        Gpt grad;
        const double loss = gpt_loss(v.model, in.tiny_inputs, in.tiny_targets, &grad);
        ch.record("logits_" + v.name, gpt_logits(v.model, in.tiny_inputs), Shape::Matrix,
                  tolerance::end_to_end);
        ch.record_number("loss_" + v.name, loss, tolerance::end_to_end);
        const double worst = record_gradients(ch, v.name, torch_state_dict(parameters(grad)));
        ch.record_number("sliding_loss_" + v.name,
                         gpt_sliding_loss(v.model, in.sliding, in.sliding_context),
                         tolerance::end_to_end);
        const double gap = gpt_cache_against_full_pass(v.model, in.tiny_inputs);
        ch.measured("kv_cache_max_abs_diff_" + v.name, gap);
        t.add({v.name, fixed(loss, 12), sci(worst), sci(gap)});
    }
    ch.table(t);
    for (const Tiny& v : in.tiny) ch.line(tr("{}: {}", v.name, variant_text(v.model.config)));
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
    Matrix row(1, losses.size());
    std::copy(losses.begin(), losses.end(), row.data.begin());
    ch.say(
        tr("AdamW (weight decay {} on the matrices, not on biases and gains; label smoothing "
           "{}), {} steps on that batch — the learning rate rising for {} steps to {}, then "
           "falling along a cosine to {} of it — against torch.optim.AdamW:",
           general(s.adam.weight_decay, 3), general(s.smoothing, 3), losses.size(),
           s.adam.warmup, general(s.adam.peak, 3), general(s.adam.final_fraction, 3)));
    ch.show("adamw_losses", tr("losses after each step"), row, {}, {}, 10, tolerance::end_to_end);
}

// The baselines' formulas on the oracle's small corpus.
void baselines_check(Chapter& ch, const Inputs& in) {
    const NgramCounts counts(in.baseline_training, in.baseline_vocab);
    const KneserNey bigram(in.baseline_training, in.baseline_vocab, 2);
    const KneserNey trigram(in.baseline_training, in.baseline_vocab, 3);
    ch.record_number("baseline_unigram_loss", counts.unigram_loss(in.baseline_heldout));
    ch.record_number("baseline_kn_bigram_loss", bigram.loss(in.baseline_heldout));
    ch.record_number("baseline_kn_trigram_loss", trigram.loss(in.baseline_heldout));
    // each order's three discounts (seen once, twice, three or more times), a row per order
    const auto discounts = [](const KneserNey& kn, std::size_t orders) {
        Matrix d(orders, 3);
        for (std::size_t level = 1; level <= orders; ++level)
            for (std::size_t j = 0; j < 3; ++j) d(level - 1, j) = kn.discounts(level)[j];
        return d;
    };
    ch.record("baseline_kn_trigram_discounts", discounts(trigram, 3));
    const KneserNey fourgram(in.baseline_training, in.baseline_vocab, 4);
    const KneserNey fivegram(in.baseline_training, in.baseline_vocab, 5);
    ch.record_number("baseline_kn_4gram_loss", fourgram.loss(in.baseline_heldout));
    ch.record_number("baseline_kn_5gram_loss", fivegram.loss(in.baseline_heldout));
    ch.record("baseline_kn_5gram_discounts", discounts(fivegram, 5));
    ch.say(tr("The baselines below, on a small seeded corpus of {} sequences, against the "
              "oracle's own Kneser-Ney (data/oracle/kneser_ney.py): the unigram {}, the "
              "Kneser-Ney bigram {} and trigram {} nats per token (the nat is the natural "
              "logarithm's unit of information: bits = nats ÷ ln 2).",
              in.baseline_training.size(), fixed(counts.unigram_loss(in.baseline_heldout), 6),
              fixed(bigram.loss(in.baseline_heldout), 6),
              fixed(trigram.loss(in.baseline_heldout), 6)));
}

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
}

// --- the corpus ----------------------------------------------------------------------------

std::size_t predicted(const std::vector<Tokens>& sequences) {  // tokens after each <bos>
    std::size_t n = 0;
    for (const Tokens& s : sequences) n += s.size() - 1;
    return n;
}

std::string corpus_title(const Corpus& c) {
    return c.choice.name == "quantangshi" ? tr("the regulated poems of the complete Tang poems")
           : c.choice.name == "quantangshi-all" ? tr("the complete Tang poems")
           : c.choice.name == "tang300"         ? tr("the Three Hundred Tang Poems")
                                                : c.choice.path;
}

std::string poems(std::size_t n) { return n == 1 ? tr("1 poem") : tr("{} poems", grouped(n)); }
std::string tokens(std::size_t n) { return n == 1 ? tr("1 token") : tr("{} tokens", grouped(n)); }
// The poems dropped because an earlier one has the same lines: worded from their number.
void say_repeats(Chapter& ch, std::size_t repeats) {
    if (repeats == 0)
        ch.say(
            tr("No poem repeats an earlier poem's couplets, so none can be on both sides of the "
               "split."));
    else if (repeats == 1)
        ch.say(
            tr("1 of them repeats an earlier poem's couplets and is dropped, so that no poem can "
               "be on both sides of the split."));
    else
        ch.say(
            tr("{} of them are repeats of an earlier poem's couplets (the collection holds some "
               "poems twice) and are dropped, so that no poem can be on both sides of the split.",
               grouped(repeats)));
}

void corpus_step(Chapter& ch, const Inputs& in, const Corpus& c) {
    ch.step(tr("The corpus: {}, one character per token", corpus_title(c)));
    if (!c.choice.fallback.empty()) ch.line(c.choice.fallback);
    ch.reported_text("corpus", c.choice.name);
    ch.measured("corpus_poems", static_cast<double>(c.distinct));
    if (c.choice.regulated_only)
        ch.say(
            tr("{}: {} poems, of which {} are regulated — two or four couplets, each five or seven "
               "characters, a comma, as many again and a full stop: the shape of the quatrains "
               "(绝句) and eight-verse poems (律诗).",
               c.choice.path, grouped(c.read), grouped(c.regulated)));
    else
        ch.say(tr("{}: {} poems.", c.choice.path, grouped(c.read)));
    say_repeats(ch, c.regulated - c.distinct);
    ch.measured("kin_groups", static_cast<double>(c.split.kin));
    ch.measured("kin_poems", static_cast<double>(c.split.in_kin));
    if (c.split.kin > 0)
        ch.say(tr("{} poems share a couplet word for word with another — the same poem under two "
                  "titles, with a variant character, or quoting a couplet — in {} groups. Each "
                  "group stays on one side of the split: no held-out or validation poem shares a "
                  "couplet with a training poem, so what the model is measured on it has not "
                  "read.",
                  grouped(c.split.in_kin), grouped(c.split.kin)));
    ch.say(tr("Of the {} left, one group in every {} is held out for the final measurement ({}, "
              "{}), never used to choose anything; {} train.",
              grouped(c.distinct), in.corpus.heldout_every,
              poems(c.split.heldout.size()), tokens(predicted(c.heldout)),
              c.validation.empty()
                  ? tr("too few are left to carve validation poems out of the rest, so the "
                       "last step will be kept; {} ({})",
                       poems(c.split.training.size()), tokens(predicted(c.training)))
                  : tr("{} carved out of the rest ({}) choose the step to keep; {} ({})",
                       poems(c.split.validation.size()), tokens(predicted(c.validation)),
                       poems(c.split.training.size()), tokens(predicted(c.training)))));
    ch.say(tr("The vocabulary: the {} most frequent characters of the training poems seen at "
              "least {}, with <pad>, <bos>, <eos>, <unk> and the line break — {} tokens. "
              "The rest read as <unk>: {} training characters and {} held-out ones.",
              grouped(c.vocabulary.size() - 5),
              count_of(in.corpus.min_count, N_("{} time"), N_("{} times")),
              grouped(c.vocabulary.size()), grouped(c.training_unknown),
              grouped(c.heldout_unknown)));
    ch.say(tr("A poem reads <bos> 《title》, a line break, its couplets one per line, <eos>. The "
              "model predicts every token after <bos>, title and line breaks included; so do "
              "the baselines."));
}

// --- the baselines ---------------------------------------------------------------------------

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

std::string bits(double nats) { return fixed(nats / std::log(2.0), 3); }

// A table of losses on the held-out poems: each row in nats, bits and perplexity.
struct LossTable {
    Table table{{tr("on the held-out poems"), tr("nats per token"), tr("bits"), tr("perplexity")}};
    void row(const std::string& name, double nats) {
        table.add({name, fixed(nats, 4), bits(nats), fixed(std::exp(nats), 1)});
    }
};

std::string kn_name(std::size_t order) {  // a table's row
    return order == 2 ? tr("bigram, Kneser-Ney")
           : order == 3 ? tr("trigram, Kneser-Ney")
                        : tr("{}-gram, Kneser-Ney", order);
}
std::string kn_noun(std::size_t order) {  // in a sentence
    return order == 2 ? tr("the Kneser-Ney bigram")
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
    for (std::size_t order = 2; order <= KneserNey::max_order; ++order) {
        if (!recorded) {
            const KneserNey kn(c.training, c.vocabulary.size(), order);
            b.kn.push_back(kn.loss(c.heldout));
            if (order == 3) b.models.emplace(order, kn);
        }
        if (b.kn[order - 2] < b.kn[b.best]) b.best = order - 2;
    }
    for (const std::size_t order : {std::size_t(3), b.best_order()})
        if (!b.models.count(order)) b.models.emplace(order, KneserNey(c.training, c.vocabulary.size(), order));
    return b;
}

Baselines baselines_step(Chapter& ch, const Corpus& c, const std::vector<double>* recorded) {
    ch.step(tr("The baselines a language modeller would pick"));
    const Baselines b = measured_baselines(c, recorded);
    if (recorded)
        ch.say(tr("(as the saved model's record has them: measured on this very corpus when it "
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
    ch.say(tr("Interpolated modified Kneser-Ney (src/train/kneser_ney.h): from every count it "
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
        ch.say(tr("Add-one smoothing is the lesson of why smoothing matters: after every character "
                  "it adds one count for each of the {} tokens, so that after a character seen a "
                  "few times the pairs never seen take most of the probability; its bigram "
                  "loses {} nats to Kneser-Ney's.",
                  grouped(c.vocabulary.size()), fixed(b.add_one_bigram - b.kn[0], 3)));
    return b;
}

// --- training ----------------------------------------------------------------------------------

struct Trained {
    Gpt model;
    double seconds = 0;
    std::size_t steps = 0, best_step = 0;
    bool steps_from_seconds = false;  // --seconds: the steps were counted by this machine's clock
    bool loaded = false;              // --weights: nothing was trained
    GptRecord record;                 // --weights: how the saved model was trained
    bool recorded = false;            // … when its file says
};

void describe_model(Chapter& ch, const Inputs& in, const TransformerConfig& config,
                    const Gpt& initial) {
    const TrainingSettings& s = in.settings;
    ch.say(tr("model: d_model {}, h {}, d_ff {}, {} blocks, {}, tied embeddings, {} parameters; "
              "windows of {} tokens, batches of {}, {} steps",
              config.d_model, config.n_heads, config.d_ff,
              config.n_decoder_layers, variant_text(config), grouped(parameter_count(initial)),
              in.windows.context, in.windows.batch, s.max_steps));
    ch.say(tr("AdamW: the learning rate rises for {} steps to {}, then falls along a cosine to {} "
              "of it at the last step; weight decay {} on the matrices; label smoothing {}. "
              "Every {} steps the loss on the validation poems is measured, and the step where "
              "it is lowest is the model kept: a model that starts to learn its training poems "
              "by heart gets worse on poems it has not seen, and that is where it shows.",
              s.adam.warmup, general(s.adam.peak, 3), general(s.adam.final_fraction, 3),
              general(s.adam.weight_decay, 3), general(s.smoothing, 3), in.validate_every));
    if (in.patience > 0)
        ch.say(tr("The run ends early once {} validations in a row find no better step: what "
                  "would follow only learns the training poems by heart.",
                  in.patience));
    if (!in.corpus_overrides.empty()) {
        std::string names;
        for (const std::string& n : in.corpus_overrides) names += (names.empty() ? "" : ", ") + n;
        ch.say(tr("For this corpus the data file sets its own {} (inputs.training.for_corpus.{}): "
                  "a small corpus is learned by heart within a few hundred steps, and needs more "
                  "holding back and a closer watch than the complete Tang poems.",
                  names, in.corpus.choice.name));
    }
}

// The training and validation losses at each measured step, in the terminal and as a picture.
void show_curve(Chapter& ch, const GptTrainingRun& run) {
    Series training{tr("training"), {}, {}, true}, validation{tr("validation"), {}, {}, true};
    Table t({tr("step"), tr("training loss"), tr("validation loss"), ""});
    for (const CurvePoint& p : run.curve) {
        training.xs.push_back(double(p.step)), training.ys.push_back(p.training_loss);
        validation.xs.push_back(double(p.step)), validation.ys.push_back(p.validation_loss);
        t.add({grouped(p.step), fixed(p.training_loss, 4), fixed(p.validation_loss, 4),
               p.step == run.best_step ? tr("← kept") : ""});
    }
    LineChart chart{tr("loss (nats per token) while training"), tr("step"), tr("loss"),
                    false, false, {training, validation}, {}};
    for (const std::string& line : text_chart(chart)) ch.line(line);
    ch.line("");  // the chart apart from the table of its points
    ch.table(t);
    ch.picture("ch12_loss.svg", line_chart_svg(chart));
    Matrix curve(run.curve.size(), 3);
    for (std::size_t i = 0; i < run.curve.size(); ++i)
        curve(i, 0) = double(run.curve[i].step), curve(i, 1) = run.curve[i].training_loss,
        curve(i, 2) = run.curve[i].validation_loss;
    ch.measured("training_curve", curve);
}

// Whether the step kept is the last regular validation, and only the run's shorter final
// stretch (less than one interval between validations) came after it.
bool kept_last_but_short_end(const std::vector<CurvePoint>& curve, std::size_t best_step,
                             std::size_t steps) {
    std::size_t after = 0;
    for (const auto& p : curve) after += p.step > best_step;
    const std::size_t interval = curve.size() >= 2 ? curve[1].step - curve[0].step : steps;
    return after <= 1 && steps - best_step < interval;
}

// Why that step: worded from where it falls.
void say_best_step(Chapter& ch, const GptTrainingRun& run, std::size_t steps,
                   std::size_t patience) {
    if (run.curve.empty()) {
        ch.say(tr("No validation poems to choose with: the last step is kept."));
        return;
    }
    const double last = run.curve.back().validation_loss;
    if (run.stopped_early)
        ch.say(tr("The validation loss was lowest at step {} ({}); {} validations later it was "
                  "{} and the run stopped at step {}, of {} planned: from there on the model "
                  "learned its training poems better and other poems worse. Step {} is the "
                  "model kept.",
                  run.best_step, fixed(run.best_validation_loss, 4), patience, fixed(last, 4),
                  steps, run.loop.steps_planned, run.best_step));
    else if (run.best_step == steps)
        ch.say(tr("The validation loss was still falling at the last step ({}): that step is "
                  "kept, and more steps or more text would likely help.",
                  fixed(last, 4)));
    else if (kept_last_but_short_end(run.curve, run.best_step, steps))
        ch.say(tr("The validation loss was lowest at step {} ({}), the last measurement before "
                  "the final step's ({} at step {}): it was falling until then, so more steps "
                  "would likely help. Step {} is the model kept.",
                  run.best_step, fixed(run.best_validation_loss, 4), fixed(last, 4), steps,
                  run.best_step));
    else
        ch.say(tr("The validation loss was lowest at step {} ({}) and {} at the last step: from "
                  "there on the model learned its training poems better and other poems worse. "
                  "Step {} is the model kept.",
                  run.best_step, fixed(run.best_validation_loss, 4), fixed(last, 4),
                  run.best_step));
}

Trained train_step(Chapter& ch, const Inputs& in, const Corpus& c) {
    TransformerConfig config = in.model;
    config.tgt_vocab = config.src_vocab = c.vocabulary.size();
    ch.step(tr("Training from scratch, keeping the step that generalises best"));
    const Gpt initial = random_gpt(config, in.settings.seed);
    describe_model(ch, in, config, initial);
    ProgressBar bar;
    const GptTrainingRun run = train_gpt(initial, c.training, in.windows, in.settings,
                                         {&c.validation, c.validation.empty() ? 0 : in.validate_every,
                                          in.patience},
                                         [&](const StepStats& s) { bar.update(s); });
    bar.done();
    if (run.loop.diverged_at)
        throw std::runtime_error(tr("training diverged at step {}: its loss or a weight stopped "
                                    "being finite; nothing is saved",
                                    run.loop.diverged_at));
    if (run.loop.steps_from_seconds)
        ch.say(steps_from_seconds_note(in.settings.seconds, run.loop.steps_planned));
    ch.say(tr("trained {} steps in {} s here ({} tokens per second on {})", run.loop.losses.size(),
              fixed(run.loop.seconds, 1),
              grouped(static_cast<unsigned long long>(
                  double(run.loop.losses.size() * in.windows.batch) *
                  double(predicted(c.training)) / double(c.training.size()) / run.loop.seconds)),
              threads_used()));
    ch.measured("train_seconds", run.loop.seconds);
    ch.measured("steps", static_cast<double>(run.loop.losses.size()));
    ch.measured("best_step", static_cast<double>(run.best_step));
    show_curve(ch, run);
    say_best_step(ch, run, run.loop.losses.size(), in.patience);
    Trained t;
    t.model = run.model, t.seconds = run.loop.seconds, t.steps = run.loop.losses.size();
    t.best_step = run.best_step, t.steps_from_seconds = run.loop.steps_from_seconds;
    return t;
}

// --- the held-out poems ------------------------------------------------------------------------

double heldout_step(Chapter& ch, const Inputs& in, const Corpus& c, const Trained& t,
                    const Baselines& b) {
    ch.step(tr("Held-out poems: the model against the baselines"));
    const std::size_t context = in.windows.context;
    const double model = gpt_sliding_loss(t.model, c.heldout, context);
    const double restarting = gpt_heldout_loss(t.model, c.heldout, context);
    ch.measured("heldout_loss", model);
    ch.measured("heldout_loss_restarting_windows", restarting);
    LossTable table;
    table.row(tr("unigram"), b.unigram);
    for (std::size_t i = 0; i < b.kn.size(); ++i) table.row(kn_name(i + 2), b.kn[i]);
    table.row(tr("this model: up to {} tokens before", context), model);
    ch.table(table.table);
    ch.say(tr("(the same {} held-out tokens for all; perplexity e^loss is how many equally likely "
              "choices that uncertainty is worth)",
              grouped(predicted(c.heldout))));
    if (restarting != model)
        ch.say(tr("Each held-out token is predicted from up to {} tokens before it, the window "
                  "the model was trained on sliding along the poem. Scored in windows that start "
                  "over every {} tokens — quicker, and what validation uses while training — a "
                  "long poem's later tokens would see fewer before them, and the loss would be "
                  "{}.",
                  context, context, fixed(restarting, 4)));
    else
        ch.say(tr("Each held-out token is predicted from up to {} tokens before it, the window "
                  "the model was trained on; every held-out poem fits in one.",
                  context));
    const double margin = b.best_loss() - model;
    if (margin > 0) {
        ch.say(tr("The model beats the best of them, {}, by {} nats per token ({} bits): its "
                  "perplexity is {}× the n-gram's.",
                  kn_noun(b.best_order()), fixed(margin, 3), bits(margin),
                  fixed(std::exp(-margin), 2)));
    } else
        ch.say(tr("The model does not beat the best of them, {}, here ({} against {} nats): it "
                  "needs more training steps (--steps) or more text (the complete Tang poems, "
                  "which make fetches) to learn what a few characters of context do not tell.",
                  kn_noun(b.best_order()), fixed(model, 4), fixed(b.best_loss(), 4)));
    return model;
}

// --- writing ---------------------------------------------------------------------------------

std::string as_text(const Corpus& c, const Tokens& t) { return decode(c.vocabulary, t); }

// count poems written from the prompts in turn (none: from <bos> alone) with the settings.
std::vector<Tokens> write_poems(const Gpt& model, const Corpus& c, const SamplingSettings& s,
                                const std::vector<std::string>& prompts, std::size_t count,
                                std::uint64_t seed) {
    Random rng(seed);
    std::vector<Tokens> poems;
    for (std::size_t i = 0; i < count; ++i) {
        const std::string prompt = prompts.empty() ? "" : prompts[i % prompts.size()];
        poems.push_back(sample_gpt(model, encode(c.vocabulary, prompt, false), s, rng));
    }
    return poems;
}

std::vector<std::string> texts_of(const Corpus& c, const std::vector<Tokens>& poems) {
    std::vector<std::string> texts;
    for (const Tokens& t : poems) texts.push_back(as_text(c, t));
    return texts;
}
std::vector<std::string> texts_of(const std::vector<Poem>& poems) {
    std::vector<std::string> texts;
    for (const Poem& p : poems) texts.push_back(poem_text(p.title, p.lines));
    return texts;
}

// What is measured on a set of poems: their lines' shape and copies, and their verse.
struct Measured {
    PoemLines lines;
    VerseMeasures verse;
};
Measured measure(const Corpus& c, const Pronunciations& p, const std::vector<std::string>& texts) {
    return {measure_lines(texts, c.training_lines), measure_verse(texts, p)};
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

SamplingSettings base_sampling(const Inputs& in) {
    SamplingSettings s;
    s.max_new = in.sampling.max_new;
    s.context = in.windows.context;
    s.never = {CharVocabulary::unknown};
    return s;
}

// The temperature and top-p written with: of the candidates, the one whose poems' lines are
// most like the validation poems' — in form, copied, doubled, tripled — measured, not picked.
SamplingSettings sampling_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model) {
    ch.step(tr("How to write: sampling settings chosen by measurement"));
    const Pronunciations none;  // tones and rhymes do not choose
    const Measured real = measure(c, none, texts_of(c.split.validation));
    Table t({tr("temperature"), "top-p", tr("in form"), tr("copied"), tr("doubled"),
             tr("tripled"), tr("distance")});
    t.add({tr("validation poems"), "", percent(real.lines.form_fraction()),
           percent(real.lines.copied_fraction()), percent(real.verse.doubled_share()),
           percent(real.verse.tripled_share()), ""});
    SamplingSettings best = base_sampling(in);
    double best_distance = std::numeric_limits<double>::infinity();
    for (const double temperature : in.sampling.temperatures)
        for (const double top_p : in.sampling.top_ps) {
            SamplingSettings s = base_sampling(in);
            s.temperature = temperature, s.top_p = top_p;
            const Measured w = measure(c, none, texts_of(c, write_poems(model, c, s, {},
                                                                       in.sampling.choice_poems,
                                                                       in.sampling.seed + 1)));
            const double d = distance(w, real);
            t.add({general(temperature, 3), general(top_p, 3), percent(w.lines.form_fraction()),
                   percent(w.lines.copied_fraction()), percent(w.verse.doubled_share()),
                   percent(w.verse.tripled_share()), fixed(d, 3)});
            if (d < best_distance) best = s, best_distance = d;
        }
    ch.say(
        tr("{} poems from <bos> with each candidate; a couplet is in form (five or seven "
           "characters, a comma, as many again, a full stop), copied (word for word a couplet of a "
           "training poem), doubled or tripled (a character twice or three times in a row). "
           "Distance: the four shares' differences from the validation poems', added.",
           in.sampling.choice_poems));
    ch.table(t);
    ch.say(tr("Chosen: temperature {}, top-p {} — the nearest to real poems of the candidates. "
              "A low temperature makes the likeliest character likelier still, and the likeliest "
              "next character is often the one just written: colder sampling stutters more.",
              general(best.temperature, 3), general(best.top_p, 3)));
    ch.measured("temperature", best.temperature);
    ch.measured("top_p", best.top_p);
    return best;
}

// A poem, a line of it per line, indented; a line too long for the terminal (a model that has
// not learned where lines end) goes on below, indented further.
void print_poem(Chapter& ch, const std::string& text) {
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == '\n') {
            std::istringstream lines(wrap(text.substr(start, i - start), narration_width, "    ",
                                          "      "));
            for (std::string line; std::getline(lines, line);) ch.line(line);
            start = i + 1;
        }
    ch.line("");
}

// What the model will read of a prompt: characters it does not know become <unk>, and of a
// prompt longer than its window only the last part is read. Said, never done silently.
void say_prompt(Chapter& ch, const Corpus& c, const std::string& prompt, std::size_t context) {
    std::vector<std::string> unknown;
    for (const std::string& character : characters(prompt))
        if (character != "\n" && c.vocabulary.id(character) == CharVocabulary::unknown &&
            std::find(unknown.begin(), unknown.end(), character) == unknown.end())
            unknown.push_back(character);
    if (!unknown.empty()) {
        std::string list;
        for (const std::string& u : unknown) list += (list.empty() ? "" : " ") + u;
        ch.say(tr("not in the model's vocabulary: {} — it reads <unk> for each, and knows only "
                  "that some rare character stands there",
                  list),
               "  ", "    ");
    }
    const std::size_t tokens = characters(prompt).size() + 1;  // and <bos>
    if (tokens > context)
        ch.say(tr("the prompt is {} tokens with <bos>; the model reads only its last {} (the "
                  "window it was trained on) and writes on from there",
                  grouped(tokens), context),
               "  ", "    ");
}

// "from "《春晓》":" — a long prompt by its first characters and its length (the poem below
// prints it whole).
std::string prompt_heading(const std::string& prompt) {
    const std::vector<std::string> chars = characters(prompt);
    if (chars.size() <= 30) return tr("from \"{}\":", prompt);
    std::string start;
    for (std::size_t i = 0; i < 20; ++i) start += chars[i];
    return tr("from \"{}…\" ({} characters):", start, grouped(chars.size()));
}

std::vector<Tokens> show_poems(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model,
                               const SamplingSettings& s) {
    const std::vector<Tokens> shown =
        write_poems(model, c, s, in.sampling.prompts, in.sampling.shown, in.sampling.seed);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const std::string prompt =
            in.sampling.prompts.empty() ? "" : in.sampling.prompts[i % in.sampling.prompts.size()];
        ch.line(prompt.empty() ? tr("from <bos> alone:") : prompt_heading(prompt));
        if (i < in.sampling.prompts.size()) say_prompt(ch, c, prompt, in.windows.context);
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
    return listed(parts);
}

Matrix verse_matrix(const std::vector<VerseRow>& rows) {
    Matrix m(rows.size(), 7);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Measured& x = rows[i].m;
        m(i, 0) = double(x.lines.lines), m(i, 1) = x.lines.form_fraction();
        m(i, 2) = x.lines.copied_fraction(), m(i, 3) = x.verse.doubled_share();
        m(i, 4) = x.verse.tripled_share(), m(i, 5) = x.verse.rhyme_share();
        m(i, 6) = x.verse.tone_share();
    }
    return m;
}

void verse_table(Chapter& ch, const std::vector<VerseRow>& rows, bool with_sounds) {
    Table t({tr("couplets of"), tr("couplets"), tr("in form"), tr("copied"), tr("doubled"),
             tr("tripled"), tr("rhymes"), tr("tones")});
    // a share of nothing is no share: "—", not 0.0%
    const auto share = [](double value, std::size_t of) { return of ? percent(value) : "—"; };
    bool none_to_judge = false;
    for (const VerseRow& r : rows) {
        const Measured& x = r.m;
        t.add({r.name, grouped(x.lines.lines), percent(x.lines.form_fraction()),
               percent(x.lines.copied_fraction()), percent(x.verse.doubled_share()),
               percent(x.verse.tripled_share()),
               with_sounds ? share(x.verse.rhyme_share(), x.verse.rhyme_places) : "—",
               with_sounds ? share(x.verse.tone_share(), x.verse.tone_verses) : "—"});
        none_to_judge |= with_sounds && (!x.verse.rhyme_places || !x.verse.tone_verses);
        for (const auto& [name, value] :
             {std::pair<const char*, double>{"form", x.lines.form_fraction()},
              {"copied", x.lines.copied_fraction()}, {"doubled", x.verse.doubled_share()},
              {"tripled", x.verse.tripled_share()}, {"rhyme", x.verse.rhyme_share()},
              {"tones", x.verse.tone_share()}})
            ch.measured("verse_" + r.key + "_" + name, value);
    }
    ch.table(t);
    if (none_to_judge)
        ch.say(tr("—: no verse of that row to judge (a rhyme needs a couplet after the first, a "
                  "tone a verse of five or seven characters whose tones are known), so no share: "
                  "not 0%."));
    ch.measured("verse_table", verse_matrix(rows));
    BarChart chart{tr("the couplets of real poems, the n-grams' and the model's"),
                   {},
                   {tr("doubled"), tr("tripled")},
                   Matrix(rows.size(), with_sounds ? 4 : 2)};
    if (with_sounds) chart.measures.insert(chart.measures.end(), {tr("rhymes"), tr("tones")});
    for (std::size_t i = 0; i < rows.size(); ++i) {
        chart.groups.push_back(rows[i].name);
        const VerseMeasures& v = rows[i].m.verse;
        chart.values(i, 0) = v.doubled_share(), chart.values(i, 1) = v.tripled_share();
        if (with_sounds) chart.values(i, 2) = v.rhyme_share(), chart.values(i, 3) = v.tone_share();
    }
    ch.picture("ch12_verse.svg", bar_chart_svg(chart));
}

// The table's comparisons, each worded from the numbers it states.
void say_verse(Chapter& ch, const Measured& real, const Measured& model, const Measured& kn,
               const Measured& kept, FormRules rules, bool with_sounds) {
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
    if (!with_sounds) return;
    const bool all_real = real.verse.rhyme_share() == 1 && real.verse.tone_share() == 1;
    ch.say(all_real
               ? tr("Rhyme and tones, by the same table for all: real poems rhyme in {} of their "
                    "second verses and alternate their tones in {} of their verses. The model, "
                    "writing freely, rhymes in {} and alternates in {}.",
                    percent(real.verse.rhyme_share()), percent(real.verse.tone_share()),
                    percent(model.verse.rhyme_share()), percent(model.verse.tone_share()))
               : tr("Rhyme and tones, by the same table for all: real poems rhyme in {} of their "
                    "second verses and alternate their tones in {} of their verses — short of "
                    "all, because Mandarin is not the Tang's pronunciation (the old entering tone, "
                    "入声, reads level in many characters today, and rhymes have moved): that is "
                    "how far this measure can be trusted. The model, writing freely, rhymes in {} "
                    "and alternates in {}.",
                    percent(real.verse.rhyme_share()), percent(real.verse.tone_share()),
                    percent(model.verse.rhyme_share()), percent(model.verse.tone_share())));
    ch.say(
        tr("Keeping {} — masks on the logits before the softmax, as chapter 3's masks hide keys: a "
           "character that breaks a rule gets −∞ and so weight 0 — it rhymes in {} and alternates "
           "in {}, with {} of its couplets holding a doubled character.",
           rules_text(rules), percent(kept.verse.rhyme_share()), percent(kept.verse.tone_share()),
           percent(kept.verse.doubled_share())));
}

FormRules rules_from(const Options& o) {
    FormRules r{true, true, true};
    if (!o.has("--form")) return r;
    r = {};
    std::stringstream list(o.value("--form"));
    for (std::string name; std::getline(list, name, ',');) {
        if (name == "rhyme") r.rhyme = true;
        else if (name == "tones") r.tones = true;
        else if (name == "runs") r.no_runs = true;
        else if (name != "none")
            throw std::invalid_argument(tr("--form: expected rhyme, tones, runs or none, joined "
                                           "by commas; got \"{}\"",
                                           name));
    }
    return r;
}

std::vector<Tokens> writing_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model,
                                 const Baselines& b, const Pronunciations& sounds,
                                 const SamplingSettings& s) {
    ch.step(tr("The model writes (temperature {}, top-p {}, through the KV cache)",
               general(s.temperature, 3), general(s.top_p, 3)));
    const std::vector<Tokens> shown = show_poems(ch, in, c, model, s);
    // the same number of poems from every source, the same prompts (none: from <bos>)
    const auto model_poems = [&](FormRules rules) {
        SamplingSettings kept = s;
        if (rules.any()) kept.mask = form_mask(c.vocabulary, sounds, rules);
        return measure(c, sounds,
                       texts_of(c, write_poems(model, c, kept, {}, in.sampling.poems,
                                               in.sampling.seed)));
    };
    const auto kn_poems = [&](const KneserNey& kn) {
        Random rng(in.sampling.seed);
        std::vector<Tokens> poems;
        for (std::size_t i = 0; i < in.sampling.poems; ++i)
            poems.push_back(kn.sample({CharVocabulary::bos}, CharVocabulary::eos,
                                      CharVocabulary::newline, in.sampling.max_new + 1, rng));
        return measure(c, sounds, texts_of(c, poems));
    };
    const FormRules chosen = rules_from(ch.options);
    std::vector<VerseRow> rows = {
        {"heldout", tr("the {} held-out poems", grouped(c.split.heldout.size())),
         measure(c, sounds, texts_of(c.split.heldout))},
        {"kn_trigram", tr("{} poems by the Kneser-Ney trigram", in.sampling.poems),
         kn_poems(b.trigram())}};
    if (b.best_order() != 3)
        rows.push_back({"kn_best", tr("{} poems by the Kneser-Ney {}-gram", in.sampling.poems,
                                      b.best_order()),
                        kn_poems(b.strongest())});
    rows.push_back({"model", tr("{} poems by the model", in.sampling.poems), model_poems({})});
    const std::vector<std::pair<std::string, FormRules>> masks = {
        {"model_no_runs", {false, false, true}},
        {"model_rhyme", {true, false, false}},
        {"model_rhyme_tones", {true, true, false}},
        {"model_all_rules", {true, true, true}}};
    for (const auto& [key, rules] : masks)
        if (!sounds.empty() || !(rules.rhyme || rules.tones))
            rows.push_back({key, tr("… keeping {}", rules_text(rules)), model_poems(rules)});
    verse_table(ch, rows, !sounds.empty());
    ch.say(
        tr("Couplets: a poem's lines as printed, two verses each (a verse ends at a comma or a "
           "full stop). Doubled, tripled: a character two or three times in a row. Rhymes: second "
           "verses after the first couplet whose last character is in the first couplet's rhyme "
           "group; tones: verses whose 2nd, 4th (and 6th) characters alternate between level and "
           "oblique, as all four regulated patterns do (src/train/verse.h)."));
    if (sounds.empty())
        ch.say(tr("No pronunciation table (make corpus writes build/corpus/pinyin.txt from the "
                  "npm package pinyin-pro; --pinyin FILE names another): rhymes and tones are "
                  "not measured, nor kept."));
    const Measured* kept = &rows.back().m;
    const Measured* best_kn = &rows[b.best_order() != 3 ? 2 : 1].m;
    const Measured* plain = nullptr;
    for (const VerseRow& r : rows)
        if (r.key == "model") plain = &r.m;
    say_verse(ch, rows[0].m, *plain, *best_kn, *kept, {true, true, true}, !sounds.empty());
    // the prompts again, kept to the chosen rules
    if (chosen.any() && (!sounds.empty() || chosen.no_runs)) {
        ch.line(tr("The same prompts, keeping {}:", rules_text(chosen)));
        SamplingSettings kept_settings = s;
        kept_settings.mask = form_mask(c.vocabulary, sounds, chosen);
        show_poems(ch, in, c, model, kept_settings);
    }
    return shown;
}

// --- the run -------------------------------------------------------------------------------------

// The chapter's defined experiment: its own data file, corpus and steps. Anything else is the
// reader's own run — said beside its numbers, and never saved over the chapter's model.
bool chapters_run(const Options& o) {
    return !(o.has("--steps") || o.has("--seconds") || o.data_given || o.has("--corpus") ||
             o.has("--weights"));
}

// Where the trained model goes: --save FILE; else, for the chapter's defined run only,
// build/ch12_gpt_model.json. Other runs replace nothing a reader trained before.
std::string save_path(const Options& o) {
    if (o.has("--save")) return o.value("--save");
    return chapters_run(o) && !o.check && !o.json ? o.program_dir + "/ch12_gpt_model.json" : "";
}

// A model saved by an earlier run (--weights FILE), with its vocabulary and its record: nothing
// is trained.
Trained load_trained(const std::string& path, CharVocabulary& vocabulary) {
    const DataFile file = DataFile::load(path);
    Trained t;
    t.model = load_gpt(file, "");
    t.loaded = true;
    t.recorded = read_gpt_record(file, t.record);
    t.best_step = t.record.steps;
    vocabulary.names = file.texts("vocabulary");
    if (vocabulary.names.size() != t.model.config.tgt_vocab || vocabulary.names.size() < 5)
        throw file.error("vocabulary", tr("expected {} names, one per token of config.vocab",
                                          t.model.config.tgt_vocab));
    for (std::size_t i = 0; i < vocabulary.names.size(); ++i)
        vocabulary.ids[vocabulary.names[i]] = static_cast<int>(i);
    return t;
}

// Whether a saved model's record was measured on this corpus (then its baselines stand).
bool same_corpus(const Trained& t, const Corpus& c) {
    return t.recorded && t.record.baselines.size() == 6 &&
           t.record.corpus_fingerprint == c.fingerprint();
}

// Which run the numbers below belong to: this one (the chapter's defined run, or the reader's
// own), or — with --weights — the one the saved model's record names.
void say_which_run(Chapter& ch, const Trained& t, const Corpus& c) {
    const Options& o = ch.options;
    bool defined = chapters_run(o);
    if (t.loaded) {
        defined = t.recorded && t.record.defined_run && same_corpus(t, c) && !o.data_given;
        ch.say(defined ? tr("The model of the chapter's defined run, as its file records (step {} "
                            "kept, on this very corpus): the numbers below are that run's.",
                            t.record.steps)
                       : tr("A model saved by a run of its own ({}): the numbers below are that "
                            "model's, not the chapter's defined run's.",
                            !t.recorded || !t.record.defined_run
                                ? tr("its file does not record the chapter's defined run")
                                : tr("its record was measured on another corpus or split")));
    } else if (!defined) {
        ch.say(tr("(not the chapter's defined run — another data file, corpus or number of "
                  "steps: these numbers are this run's, not the chapter's)"));
    }
    ch.measured("defined_run", defined ? 1.0 : 0.0);
}

void save_step(Chapter& ch, const Trained& t, const Corpus& c, const CorpusSettings& corpus,
               double heldout, const Baselines& b, const std::string& path) {
    if (t.loaded) return;  // written with a saved model: nothing new to keep
    if (path.empty()) {
        ch.line(tr("(not the chapter's defined run, so the model is not saved; --save FILE "
                   "keeps it)"));
        return;
    }
    save_gpt(t.model, c.vocabulary.names,
             {t.best_step, heldout, t.seconds, chapters_run(ch.options), c.fingerprint(),
              b.record(), corpus},
             path);
    ch.line(tr("saved the model of step {} to {}", t.best_step, path));
}

// The pronunciation table: --pinyin FILE, or what make wrote beside the corpus; none when it is
// not there (rhymes and tones are then neither measured nor kept, and the chapter says so).
Pronunciations pronunciations(const Options& o) {
    if (o.has("--pinyin")) return read_pronunciations(o.value("--pinyin"));
    const std::string made =
        data_folder_path("build/corpus/pinyin.txt", (o.program_dir + "/ch12").c_str());
    return open_for_reading(made) ? read_pronunciations(made) : Pronunciations();
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data, ch.options);
    // the reader's files and switches named before any narration: a bad one is the one line
    const std::string path = ch.options.check ? "" : save_path(ch.options);
    if (!path.empty()) check_writable(path);  // before minutes of training, not after
    const Pronunciations sounds = ch.options.check ? Pronunciations() : pronunciations(ch.options);
    if (!ch.options.check) rules_from(ch.options);  // a bad --form
    against_pytorch(ch, in);
    adamw_check(ch, in);
    baselines_check(ch, in);
    verse_check(ch, in);
    if (ch.options.check) return;  // the rest trains for minutes: measured, not compared
    Trained trained;
    CharVocabulary saved;
    const bool weights = ch.options.has("--weights");
    if (weights) trained = load_trained(ch.options.value("--weights"), saved);
    const Corpus c = prepare_corpus(in.corpus, weights ? &saved : nullptr);
    corpus_step(ch, in, c);
    const Baselines b =
        baselines_step(ch, c, same_corpus(trained, c) ? &trained.record.baselines : nullptr);
    if (!weights) trained = train_step(ch, in, c);
    say_which_run(ch, trained, c);
    const double heldout = heldout_step(ch, in, c, trained, b);
    const SamplingSettings s = sampling_step(ch, in, c, trained.model);
    writing_step(ch, in, c, trained.model, b, sounds, s);
    save_step(ch, trained, c, in.corpus, heldout, b, path);
    ch.say(tr("What the model's {} heads learned — where each looks, which the loss cannot do "
              "without, whether any copies — is chapter 14's subject: build/ch14_inside_the_poet "
              "reads the model this chapter saves.",
              trained.model.blocks.size() * trained.model.config.n_heads));
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch12_gpt",
        N_("a decoder-only model (GPT) trained from scratch on the complete Tang poems: against "
           "the Kneser-Ney baselines, keeping its best step, writing poems (what its heads look at "
           "is chapter 14)"),
        N_("03 §2.1.5 (a language model predicts the next token from the ones before it)"),
        {svg_flag(),
         {"--prompt", "TEXT", N_("write from this beginning, e.g. \"《春晓》\" (a title)")},
         {"--corpus", "NAME",
          N_("quantangshi (the default: the regulated poems of the complete Tang poems, which "
             "make fetches), quantangshi-all, tang300 (Debian's fortunes-zh), or a file of "
             "the same format")},
         {"--poems", "N", N_("measure the written couplets on N poems")},
         {"--form", "LIST",
          N_("the rules kept while writing the prompts a second time: rhyme, tones, runs (no "
             "character right after itself), joined by commas, or none (default: all three)")},
         {"--pinyin", "FILE",
          N_("the pronunciation table (default: build/corpus/pinyin.txt, which make writes)")},
         {"--weights", "FILE",
          N_("a model saved before (build/ch12_gpt_model.json) instead of training: it is still "
             "measured on the held-out poems and writes some 700 poems to measure them (about a "
             "minute on 2 cores); the baselines come from its record")},
         {"--steps", "N", N_("train N steps instead of the data file's")},
         {"--seconds", "S",
          N_("train the steps that fit in S seconds here, instead of the data file's steps")},
         {"--save", "FILE",
          N_("save the model there (the chapter's defined run saves it as "
             "build/ch12_gpt_model.json)")}}};
    return run_chapter(argc, argv, info, walkthrough);
}
