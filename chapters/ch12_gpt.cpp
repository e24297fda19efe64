// ch12_gpt — a decoder-only model (GPT), trained from scratch on the complete Tang poems, against
// the baselines a language modeller would pick (Kneser-Ney), keeping the step that generalises
// best; then it writes poems: everything of chapters 1–11 used the way today's models use it.
//
// Tutorial: 03 §2.1.5's language model ("predict the next token from the ones before it", with
// the causal mask that lets every position train at once) — here as the whole model.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "ch12_gpt/baselines.h"
#include "ch12_gpt/inputs.h"
#include "ch12_gpt/oracle_checks.h"
#include "ch12_gpt/writing.h"
#include "ch12_gpt/yardstick.h"
#include "core/number_formats.h"
#include "core/random.h"
#include "io/atomic_file.h"
#include "io/gpt_file.h"
#include "io/platform.h"
#include "io/poem_corpus.h"
#include "io/pronunciation_file.h"
#include "model/gpt/gpt.h"
#include "model/gpt/gpt_sampling.h"
#include "model/transformer/parameters.h"
#include "report/bar_chart.h"
#include "report/chapter.h"
#include "report/chart.h"
#include "report/heatmap.h"
#include "report/measure.h"
#include "report/model_summary.h"
#include "report/progress.h"
#include "report/recorded_gradients.h"
#include "report/text_chart.h"
#include "text/translate.h"
#include "train/gpt_training.h"
#include "ngram/kneser_ney.h"
#include "ngram/ngram.h"
#include "verse/poem_measures.h"
#include "verse/poems.h"
#include "verse/repeat_correction.h"
#include "verse/verse.h"

// The parts in this chapter's folder are in namespace ch12_gpt, so that one module can hold
// several chapters (the live book's, src/web/live_book.cpp).
using namespace ch12_gpt;

namespace {

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

// The variant forms the Makefile wrote in their standard forms: counted, the most frequent named.
void say_standard_forms(Chapter& ch, const Corpus& c) {
    if (c.standard_forms.empty()) return;
    std::size_t total = 0;
    std::string most;
    for (std::size_t i = 0; i < c.standard_forms.size(); ++i) {
        const StandardForm& f = c.standard_forms[i];
        total += f.count;
        if (i < 5) most += (i > 0 ? tr(", ") : "") + f.from + "→" + f.to + " " + grouped(f.count);
    }
    ch.measured("standard_forms", static_cast<double>(c.standard_forms.size()));
    ch.measured("standard_form_characters", static_cast<double>(total));
    ch.say(tr("Converted to simplified characters, the poems still hold old variant forms beside "
              "the standard ones (疎 beside 疏), one character the model would learn as two. "
              "The Makefile wrote {} in their standard forms by Unicode's tables, {} of the "
              "complete Tang poems, titles included; the most frequent: {} (all of them in {}).",
              count_of(c.standard_forms.size(), N_("{} variant form"), N_("{} variant forms")),
              count_of(total, N_("{} character"), N_("{} characters")), most,
              standard_forms_path(c.choice.path)));
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
    say_standard_forms(ch, c);
    say_repeats(ch, c.regulated - c.distinct);
    ch.measured("kin_groups", static_cast<double>(c.split.kin));
    ch.measured("kin_poems", static_cast<double>(c.split.in_kin));
    if (c.split.kin == 1)
        ch.say(tr("{} poems share a couplet, word for word or but for one character (the same poem "
                  "under two titles, a variant, a quotation), and stay on one side of the split "
                  "together: what the model is measured on it has not read.",
                  grouped(c.split.in_kin)));
    else if (c.split.kin > 1)
        ch.say(tr("{} poems share a couplet with another, word for word or but for one "
                  "character — the same poem under two titles, with a variant character, or "
                  "quoting a couplet — in {} groups. Each group stays on one side of the split: "
                  "no held-out or validation poem shares a couplet with a training poem, even up "
                  "to one character, so what the model is measured on it has not read.",
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
    ch.say(tr("model: d_model {}, h {}, d_ff {}, {}, {}, {}, {} parameters; "
              "windows of {}, batches of {}, {}",
              config.d_model, config.n_heads, config.d_ff,
              count_of(config.n_decoder_layers, N_("{} block"), N_("{} blocks")),
              variant_text(config),
              config.share_embeddings ? tr("tied embeddings (the output projection is the "
                                           "embedding table)")
                                      : tr("an output table of its own (untied)"),
              grouped(parameter_count(initial)),
              count_of(in.windows.context, N_("{} token"), N_("{} tokens")), in.windows.batch,
              count_of(s.max_steps, N_("{} step"), N_("{} steps"))));
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
                    const Baselines& b, const std::vector<RepeatTarget>& targets) {
    const std::size_t context = in.windows.context;
    const double model = corrected_loss(targets, {0, 0});  // gpt_sliding_loss's, read once
    const double restarting = gpt_heldout_loss(t.model, c.heldout, context);
    ch.step(tr("Held-out poems: the model against the baselines"));
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
    SavedGpt saved = read_saved_gpt(path);
    Trained t;
    t.model = std::move(saved.model);
    t.loaded = true;
    t.recorded = saved.recorded;
    t.record = saved.record;
    t.best_step = t.record.steps;
    vocabulary = std::move(saved.vocabulary);
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
               double heldout, const Baselines& b, const SamplingSettings& s,
               const std::string& path) {
    if (t.loaded) return;  // written with a saved model: nothing new to keep
    if (path.empty()) {
        ch.line(tr("(not the chapter's defined run, so the model is not saved; --save FILE "
                   "keeps it)"));
        return;
    }
    save_gpt(t.model, c.vocabulary.names,
             {t.best_step, heldout, t.seconds, chapters_run(ch.options), c.fingerprint(),
              b.record(), corpus, s.temperature, s.top_p},
             path);
    ch.line(tr("saved the model of step {} to {}", t.best_step, path));
}

// The pronunciation tables: --tang FILE and --pinyin FILE, or what make wrote beside the corpus;
// none where it is not there (rhymes and tones are then measured and kept by the other, or by
// neither, and the chapter says so).
Sounds pronunciations(const Options& o) {
    const auto table = [&](const char* flag, const char* made_path,
                           Pronunciations (*read)(const std::string&)) {
        if (o.has(flag)) return read(o.value(flag));
        const std::string made = data_folder_path(made_path, (o.program_dir + "/ch12").c_str());
        return open_for_reading(made) ? read(made) : Pronunciations();
    };
    return {table("--tang", "build/corpus/tang.txt", read_tang_table),
            table("--pinyin", "build/corpus/pinyin.txt", read_pronunciations)};
}

// Whether every weight of the model is a bfloat16 value (a model saved in bfloat16 is).
bool all_bfloat16(Gpt& model) {
    for (const Parameter& p : parameters(model))
        for (const double x : p.value->data)
            if (to_format(x, FloatFormat::BFloat16) != x) return false;
    return true;
}

// Which model writes, one sentence: its file, size, training and precision.
std::string about_poet(const std::string& path, Gpt& model, const Trained& t, bool rounded) {
    const TransformerConfig& c = model.config;
    const std::string run =
        !t.recorded ? tr("its file records no training")
        : t.record.defined_run
            ? tr("the chapter's defined run, step {} kept", grouped(t.record.steps))
            : tr("a run of its own, step {} kept", grouped(t.record.steps));
    const std::string precision =
        rounded ? tr("every weight rounded to bfloat16 here, as PyTorch's x.to(torch.bfloat16)")
        : all_bfloat16(model) ? tr("every weight a bfloat16 value")
                              : tr("its weights in float64");
    return tr("The model of {}: {} parameters in {} blocks of {} heads ({}); {}. Nothing is "
              "trained here, and only the poems written now are judged: build/ch12_gpt trains it "
              "(make run, a few minutes on 2 cores) and measures its poems against real ones.",
              path, grouped(parameter_count(model)), c.n_decoder_layers, c.n_heads, run, precision);
}

// --write: the saved poet only writes (the live book's poet page); --bfloat16 rounds its weights
// first, and --save keeps the model so, in two bytes a weight (what the live book ships).
void poet_writes(Chapter& ch, const Inputs& in) {
    const Options& o = ch.options;
    if (!o.has("--weights"))
        throw UsageError(tr("--write: name the model that writes, --weights FILE (make run saves "
                            "build/ch12_gpt_model.json)"));
    if (o.check)
        throw UsageError(tr("--write writes poems and checks nothing: give --check or --write"));
    for (const char* flag : {"--steps", "--seconds", "--corpus"})
        if (o.has(flag))
            throw UsageError(tr("{}: --write trains nothing and reads no corpus", flag));
    const Sounds sounds = pronunciations(o);
    CharVocabulary vocabulary;
    Trained t = load_trained(o.value("--weights"), vocabulary);
    const bool rounded = o.has("--bfloat16");
    if (rounded)
        for (const Parameter& p : parameters(t.model))
            for (double& x : p.value->data) x = to_format(x, FloatFormat::BFloat16);
    SamplingSettings s = base_sampling(in);
    s.temperature = o.has("--temperature") ? o.number("--temperature", 0.01, 100)
                    : t.record.temperature > 0 ? t.record.temperature
                                               : 1.0;
    s.top_p = o.has("--top-p") ? o.number("--top-p", 0.01, 1)
              : t.record.top_p > 0 ? t.record.top_p
                                   : 1.0;
    const std::uint64_t seed = o.has("--seed") ? std::uint64_t(o.integer("--seed", 0, std::int64_t(1) << 53))
                                               : in.sampling.seed;
    rules_from(o);  // a bad --form: every flag judged before anything is written
    if (o.has("--save")) check_saving(o.value("--save"), {o.value("--weights"), o.data_path});
    if (o.has("--save")) {
        const DataFile file = DataFile::load(o.value("--weights"));
        // the corpus as recorded: the one the model was trained on, whether or not it is here
        if (read_corpus_record(file, "", t.record.corpus))
            t.record.corpus.choice.name = t.record.corpus.source;
        save_gpt(t.model, vocabulary.names, t.record, o.value("--save"),
                 rounded ? SavedWeights::BFloat16 : SavedWeights::Float64);
        ch.line(rounded ? tr("saved the model, its weights in bfloat16, to {}", o.value("--save"))
                        : tr("saved the model to {}", o.value("--save")));
    }
    write_only_step(ch, in, t.model, vocabulary, sounds, s, seed,
                    about_poet(o.value("--weights"), t.model, t, rounded));
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data, ch.options);
    if (ch.options.has("--write")) return poet_writes(ch, in);
    for (const char* flag : {"--seed", "--temperature", "--top-p", "--bfloat16"})
        if (ch.options.has(flag)) throw UsageError(tr("{}: only with --write", flag));
    // the reader's files and switches named before any narration: a bad one is the one line
    const std::string path = ch.options.check ? "" : save_path(ch.options);
    // before minutes of training, not after; never over what the run reads
    const std::string weights_read = ch.options.has("--weights") ? ch.options.value("--weights") : "";
    if (!path.empty()) check_saving(path, {weights_read, ch.options.data_path});
    const Sounds sounds = ch.options.check ? Sounds() : pronunciations(ch.options);
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
    // the held-out poems read once, for the held-out loss and for the repeat correction
    std::vector<RepeatTarget> targets = repeat_targets(trained.model, c.heldout, in.windows.context);
    const double heldout = heldout_step(ch, in, c, trained, b, targets);
    const SamplingSettings s = sampling_step(ch, in, c, trained.model);
    const std::vector<std::string> plain = writing_step(ch, in, c, trained.model, b, sounds, s);
    yardstick_step(ch, sounds);  // the same judge on the poets' forms
    doubling_step(ch, in, c, trained.model, s, plain, std::move(targets));
    save_step(ch, trained, c, in.corpus, heldout, b, s, path);
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
         {"--prompt", "TEXT",
          N_("write from this beginning: a title, \"《春晓》\", or a first verse, "
             "\"国破山河在，\" (\\n: a line break)")},
         {"--corpus", "NAME",
          N_("quantangshi (the default: the regulated poems of the complete Tang poems, which "
             "make fetches), quantangshi-all, tang300 (Debian's fortunes-zh), or a file of "
             "the same format")},
         {"--poems", "N", N_("measure the written couplets on N poems")},
         {"--form", "LIST", N_("the rules kept while writing the prompts a second time: rhyme, tones, "
                               "runs (no character right after itself), and a shape, 5 or 7 "
                               "(characters a verse), quatrain or regulated (4 or 8 verses); "
                               "joined by commas, or none (default: the three rules, any shape)")},
         {"--tang", "FILE",
          N_("the Tang pronunciation table, 平水韵 rhymes and Middle Chinese tones, that judges "
             "and keeps the form (default: build/corpus/tang.txt, which make writes)")},
         {"--pinyin", "FILE",
          N_("the modern Mandarin table measured beside it (default: build/corpus/pinyin.txt, "
             "which make writes)")},
         {"--weights", "FILE",
          N_("a model saved before (build/ch12_gpt_model.json) instead of training: it is still "
             "measured on the held-out poems and writes some 6,600 poems to measure them (under "
             "2 minutes on 2 cores); the baselines come from its record")},
         {"--steps", "N", N_("train N steps instead of the data file's")},
         {"--seconds", "S",
          N_("train the steps that fit in S seconds here, instead of the data file's steps")},
         {"--save", "FILE",
          N_("save the model there (the chapter's defined run saves it as "
             "build/ch12_gpt_model.json)")},
         {"--write", "",
          N_("with --weights: only write, from --prompt (or the data file's prompts), keeping "
             "--form's rules and judging each poem — nothing trained (the live book's poet)")},
         {"--seed", "N", N_("with --write: draw other poems (default: the data file's seed)")},
         {"--temperature", "T",
          N_("with --write: sample at T (default: the temperature the model's record chose)")},
         {"--top-p", "P", N_("with --write: keep the likeliest tokens up to probability P")},
         {"--bfloat16", "",
          N_("with --write: round every weight to bfloat16 first; with --save, save the model so, "
             "two bytes a weight (what the live book ships)")}}};
    return run_chapter(argc, argv, info, walkthrough);
}
