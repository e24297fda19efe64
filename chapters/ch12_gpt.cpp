// ch12_gpt — a decoder-only model (GPT), trained from scratch on the complete Tang poems, against
// the baselines a language modeller would pick (Kneser-Ney), keeping the step that generalises
// best; then it writes poems: everything of chapters 1–11 used the way today's models use it.
//
// Tutorial: 03 §2.1.5's language model ("predict the next token from the ones before it", with
// the causal mask that lets every position train at once) — here as the whole model.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/random.h"
#include "core/threads.h"
#include "io/atomic_file.h"
#include "io/gpt_file.h"
#include "io/poem_corpus.h"
#include "model/gpt/gpt.h"
#include "model/gpt/gpt_sampling.h"
#include "report/chapter.h"
#include "report/chart.h"
#include "report/heatmap.h"
#include "report/model_summary.h"
#include "report/progress.h"
#include "report/recorded_gradients.h"
#include "report/text_chart.h"
#include "train/gpt_training.h"
#include "train/kneser_ney.h"
#include "train/ngram.h"
#include "train/poem_measures.h"
#include "train/poems.h"

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
    std::size_t baseline_vocab = 0;
    std::vector<Tokens> baseline_training, baseline_heldout;
    CorpusSettings corpus;
    TransformerConfig model;  // its vocabulary comes from the corpus
    TrainingSettings settings;
    WindowBatches windows;
    std::size_t validate_every = 0, patience = 0;
    std::vector<std::string> corpus_overrides;  // settings the corpus's own entry changed
    SamplingPlan sampling;
    std::size_t attention_block = 0;
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
    in.baseline_vocab = data.size("inputs.baselines.vocab", 5, 1 << 20);
    in.baseline_training = data.token_lists("inputs.baselines.training", in.baseline_vocab);
    in.baseline_heldout = data.token_lists("inputs.baselines.heldout", in.baseline_vocab);
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
    s.seed = data.size(t("seed"), 0, std::size_t(1) << 62);
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
    p.seed = data.size(s + "seed", 0, std::size_t(1) << 62);
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
    in.attention_block = data.size("inputs.attention.block", 0, 64);
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
        const double gap = gpt_cache_against_full_pass(v.model, in.tiny_inputs);
        ch.measured("kv_cache_max_abs_diff_" + v.name, gap);
        t.add({tr("{} ({})", v.name, variant_text(v.model.config)), fixed(loss, 12), sci(worst),
               sci(gap)});
    }
    ch.table(t);
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
    Matrix d(3, 3);
    for (std::size_t level = 1; level <= 3; ++level)
        for (std::size_t j = 0; j < 3; ++j) d(level - 1, j) = trigram.discounts(level)[j];
    ch.record("baseline_kn_trigram_discounts", d);
    ch.say(tr("The baselines below, on a small seeded corpus of {} sequences, against the "
              "oracle's own Kneser-Ney (data/oracle/kneser_ney.py): the unigram {}, the "
              "Kneser-Ney bigram {} and trigram {} nats per token.",
              in.baseline_training.size(), fixed(counts.unigram_loss(in.baseline_heldout), 6),
              fixed(bigram.loss(in.baseline_heldout), 6),
              fixed(trigram.loss(in.baseline_heldout), 6)));
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
        ch.say(tr("No poem repeats an earlier poem's lines, so none can be on both sides of the "
                  "split."));
    else if (repeats == 1)
        ch.say(tr("1 of them repeats an earlier poem's lines and is dropped, so that no poem can "
                  "be on both sides of the split."));
    else
        ch.say(tr("{} of them are repeats of an earlier poem's lines (the collection holds some "
                  "poems twice) and are dropped, so that no poem can be on both sides of the "
                  "split.",
                  grouped(repeats)));
}

void corpus_step(Chapter& ch, const Inputs& in, const Corpus& c) {
    ch.step(tr("The corpus: {}, one character per token", corpus_title(c)));
    if (!c.choice.fallback.empty()) ch.line(c.choice.fallback);
    ch.reported_text("corpus", c.choice.name);
    ch.measured("corpus_poems", static_cast<double>(c.distinct));
    if (c.choice.regulated_only)
        ch.say(tr("{}: {} poems, of which {} are regulated — two or four couplets, every line "
                  "five or seven characters, a comma, as many again and a full stop: the shape "
                  "of the quatrains (绝句) and eight-line poems (律诗).",
                  c.choice.path, grouped(c.read), grouped(c.regulated)));
    else
        ch.say(tr("{}: {} poems.", c.choice.path, grouped(c.read)));
    say_repeats(ch, c.regulated - c.distinct);
    ch.say(tr("Of the {} left, one in every {} is held out for the final measurement ({}, {}), "
              "never used to choose anything; {} train.",
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

struct Baselines {
    double unigram = 0, add_one_bigram = 0, bigram = 0, trigram = 0;
};

std::string bits(double nats) { return fixed(nats / std::log(2.0), 3); }

// A table of losses on the held-out poems: each row in nats, bits and perplexity.
struct LossTable {
    Table table{{tr("on the held-out poems"), tr("nats per token"), tr("bits"), tr("perplexity")}};
    void row(const std::string& name, double nats) {
        table.add({name, fixed(nats, 4), bits(nats), fixed(std::exp(nats), 1)});
    }
};

Baselines baselines_step(Chapter& ch, const Corpus& c, const KneserNey& trigram) {
    ch.step(tr("The baselines a language modeller would pick"));
    const NgramCounts counts(c.training, c.vocabulary.size());
    const KneserNey bigram(c.training, c.vocabulary.size(), 2);
    const Baselines b{counts.unigram_loss(c.heldout), counts.bigram_loss(c.heldout),
                      bigram.loss(c.heldout), trigram.loss(c.heldout)};
    ch.measured("unigram_loss", b.unigram);
    ch.measured("add_one_bigram_loss", b.add_one_bigram);
    ch.measured("kn_bigram_loss", b.bigram);
    ch.measured("kn_trigram_loss", b.trigram);
    LossTable t;
    t.row(tr("unigram: each token by its frequency (add-one)"), b.unigram);
    t.row(tr("bigram, add-one smoothing"), b.add_one_bigram);
    t.row(tr("bigram, Kneser-Ney"), b.bigram);
    t.row(tr("trigram, Kneser-Ney"), b.trigram);
    ch.table(t.table);
    const auto d = trigram.discounts(3);
    ch.say(tr("Interpolated modified Kneser-Ney (src/train/kneser_ney.h): from every count it "
              "takes a discount — {}, {} and {} for trigrams seen once, twice, and three or "
              "more times, estimated from how many trigrams have each count — and gives what it "
              "took to the bigram's estimate, which does the same for the unigram's; below the "
              "trigram the counts are of how many different characters came before, not how "
              "often. The bar the model must clear is the trigram's {} nats.",
              fixed(d[0], 3), fixed(d[1], 3), fixed(d[2], 3), fixed(b.trigram, 4)));
    if (b.add_one_bigram > b.bigram)
        ch.say(tr("Add-one smoothing is the lesson of why smoothing matters: after every character "
                  "it adds one count for each of the {} tokens, so that after a character seen a "
                  "few times the pairs never seen take most of the probability; its bigram "
                  "loses {} nats to Kneser-Ney's.",
                  grouped(c.vocabulary.size()), fixed(b.add_one_bigram - b.bigram, 3)));
    return b;
}

// --- training ----------------------------------------------------------------------------------

struct Trained {
    Gpt model;
    double seconds = 0;
    std::size_t steps = 0, best_step = 0;
    bool steps_from_seconds = false;  // --seconds: the steps were counted by this machine's clock
    bool loaded = false;              // --weights: nothing was trained
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
    ch.say(tr("trained {} steps in {} s here ({} tokens per second on {} threads)",
              run.loop.losses.size(), fixed(run.loop.seconds, 1),
              grouped(static_cast<unsigned long long>(
                  double(run.loop.losses.size() * in.windows.batch) *
                  double(predicted(c.training)) / double(c.training.size()) / run.loop.seconds)),
              thread_count()));
    ch.measured("train_seconds", run.loop.seconds);
    ch.measured("steps", static_cast<double>(run.loop.losses.size()));
    ch.measured("best_step", static_cast<double>(run.best_step));
    show_curve(ch, run);
    say_best_step(ch, run, run.loop.losses.size(), in.patience);
    return {run.model, run.loop.seconds, run.loop.losses.size(), run.best_step,
            run.loop.steps_from_seconds, false};
}

// --- the held-out poems ------------------------------------------------------------------------

double heldout_step(Chapter& ch, const Inputs& in, const Corpus& c, const Trained& t,
                    const Baselines& b, bool chapters_run) {
    ch.step(tr("Held-out poems: the model against the baselines"));
    const double model = gpt_heldout_loss(t.model, c.heldout, in.windows.context);
    ch.measured("heldout_loss", model);
    LossTable table;
    table.row(tr("unigram"), b.unigram);
    table.row(tr("bigram, Kneser-Ney"), b.bigram);
    table.row(tr("trigram, Kneser-Ney"), b.trigram);
    table.row(tr("this model: up to {} tokens before", in.windows.context), model);
    ch.table(table.table);
    ch.say(tr("(the same {} held-out tokens for all; perplexity e^loss is how many equally likely "
              "choices that uncertainty is worth)",
              grouped(predicted(c.heldout))));
    const double margin = b.trigram - model;
    if (margin > 0)
        ch.say(tr("The model beats the Kneser-Ney trigram by {} nats per token ({} bits): its "
                  "perplexity is {}× the trigram's. Reading up to {} tokens back, not two, is "
                  "what attention adds.",
                  fixed(margin, 3), bits(margin), fixed(std::exp(-margin), 2),
                  in.windows.context));
    else
        ch.say(tr("The model does not beat the Kneser-Ney trigram here ({} against {} nats): it "
                  "needs more training steps (--steps) or more text (the complete Tang poems, "
                  "which make fetches) to learn what three characters of context do not tell.",
                  fixed(model, 4), fixed(b.trigram, 4)));
    if (!chapters_run)
        ch.say(tr("(not the chapter's defined run — another model, corpus, data file or number "
                  "of steps: these numbers are this run's, not the chapter's)"));
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

PoemLines measure(const Corpus& c, const std::vector<Tokens>& poems) {
    std::vector<std::string> texts;
    for (const Tokens& t : poems) texts.push_back(as_text(c, t));
    return measure_lines(texts, c.training_lines);
}

PoemLines measure_poems(const Corpus& c, const std::vector<Poem>& poems) {
    std::vector<std::string> texts;
    for (const Poem& p : poems) texts.push_back(poem_text(p.title, p.lines));
    return measure_lines(texts, c.training_lines);
}

// How far written lines are from real ones: the shares of lines in form, copied and stuttering
// against the validation poems' own.
double distance(const PoemLines& written, const PoemLines& real) {
    return std::fabs(written.form_fraction() - real.form_fraction()) +
           std::fabs(written.copied_fraction() - real.copied_fraction()) +
           std::fabs(written.repeat_fraction() - real.repeat_fraction());
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
// most like the validation poems' — in form, copied, stuttering — measured, not picked by hand.
SamplingSettings sampling_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model) {
    ch.step(tr("How to write: sampling settings chosen by measurement"));
    const PoemLines real = measure_poems(c, c.split.validation);
    Table t({tr("temperature"), "top-p", tr("in form"), tr("copied"), tr("stutters"),
             tr("distance")});
    t.add({tr("validation poems"), "", percent(real.form_fraction()),
           percent(real.copied_fraction()), percent(real.repeat_fraction()), ""});
    SamplingSettings best = base_sampling(in);
    double best_distance = std::numeric_limits<double>::infinity();
    for (const double temperature : in.sampling.temperatures)
        for (const double top_p : in.sampling.top_ps) {
            SamplingSettings s = base_sampling(in);
            s.temperature = temperature, s.top_p = top_p;
            const PoemLines w = measure(
                c, write_poems(model, c, s, {}, in.sampling.choice_poems, in.sampling.seed + 1));
            const double d = distance(w, real);
            t.add({general(temperature, 3), general(top_p, 3), percent(w.form_fraction()),
                   percent(w.copied_fraction()), percent(w.repeat_fraction()), fixed(d, 3)});
            if (d < best_distance) best = s, best_distance = d;
        }
    ch.say(tr("{} poems from <bos> with each candidate; a line is in form (five or seven "
              "characters, a comma, as many again, a full stop), copied (word for word a line of "
              "a training poem), or stutters (one character three or more times in a row). "
              "Distance: the three shares' differences from the validation poems', added.",
              in.sampling.choice_poems));
    ch.table(t);
    ch.say(tr("Chosen: temperature {}, top-p {} — the nearest to real poems of the candidates.",
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

void show_poems(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model,
                const SamplingSettings& s, std::vector<Tokens>& shown) {
    shown = write_poems(model, c, s, in.sampling.prompts, in.sampling.shown, in.sampling.seed);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const std::string prompt =
            in.sampling.prompts.empty() ? "" : in.sampling.prompts[i % in.sampling.prompts.size()];
        ch.line(prompt.empty() ? tr("from <bos> alone:") : prompt_heading(prompt));
        if (i < in.sampling.prompts.size()) say_prompt(ch, c, prompt, in.windows.context);
        print_poem(ch, as_text(c, shown[i]));
    }
    const PoemLines m = measure(c, shown);
    if (m.first_lines_repeated > 0)
        ch.say(tr("{} of these {} poems open with a line an earlier one opened with: drawn at "
                  "temperature {}, the likeliest opening after a title wins many of the draws.",
                  m.first_lines_repeated, m.poems, general(s.temperature, 3)));
}

// The table's three comparisons, each worded from the numbers it states.
void say_writing(Chapter& ch, const PoemLines& w, const PoemLines& k, const PoemLines& h) {
    if (w.form_fraction() > k.form_fraction())
        ch.say(tr("{} of the model's lines have the regulated shape, {} of the trigram's ({} of "
                  "real poems'): two characters of context cannot count to five or seven, nor "
                  "know where the comma falls; attention looks back over the whole line.",
                  percent(w.form_fraction()), percent(k.form_fraction()),
                  percent(h.form_fraction())));
    else
        ch.say(tr("{} of the model's lines have the regulated shape, no more than the trigram's "
                  "{} ({} of real poems'): it has not learned the form yet.",
                  percent(w.form_fraction()), percent(k.form_fraction()),
                  percent(h.form_fraction())));
    // within a percentage point of real poems' share counts as "about as many"
    const double copied = w.copied_fraction(), real = h.copied_fraction();
    if (copied > real + 0.01)
        ch.say(tr("{} of its lines are lines of training poems word for word, against {} of the "
                  "held-out poems' own lines: more than poets share with each other — some of "
                  "what it writes is remembered.",
                  percent(copied), percent(real)));
    else if (copied < real - 0.01)
        ch.say(tr("{} of its lines are lines of training poems word for word, fewer than the {} "
                  "of the held-out poems' own lines found there: poets reuse each other's lines "
                  "more than this model recalls them.",
                  percent(copied), percent(real)));
    else
        ch.say(tr("{} of its lines are lines of training poems word for word, about as many as "
                  "the held-out poems' own ({}): it writes new lines as often as poets do.",
                  percent(copied), percent(real)));
    // a percentage point more than real poems' counts as stuttering
    ch.say(w.repeat_fraction() > h.repeat_fraction() + 0.01
               ? tr("{} of its lines repeat a character three or more times in a row, against "
                    "{} of real poems' and {} of the trigram's: it stutters.",
                    percent(w.repeat_fraction()), percent(h.repeat_fraction()),
                    percent(k.repeat_fraction()))
               : tr("{} of its lines repeat a character three or more times in a row, within a "
                    "percentage point of real poems' {} ({} of the trigram's): it hardly "
                    "stutters.",
                    percent(w.repeat_fraction()), percent(h.repeat_fraction()),
                    percent(k.repeat_fraction())));
}

void writing_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model,
                  const KneserNey& trigram, const SamplingSettings& s,
                  std::vector<Tokens>& shown) {
    ch.step(tr("The model writes (temperature {}, top-p {}, through the KV cache)",
               general(s.temperature, 3), general(s.top_p, 3)));
    show_poems(ch, in, c, model, s, shown);
    const PoemLines w = measure(c, write_poems(model, c, s, {}, in.sampling.poems, in.sampling.seed));
    Random rng(in.sampling.seed);
    std::vector<Tokens> kn_poems;
    for (std::size_t i = 0; i < in.sampling.poems; ++i)
        kn_poems.push_back(trigram.sample({CharVocabulary::bos}, CharVocabulary::eos,
                                          CharVocabulary::newline, in.sampling.max_new + 1, rng));
    const PoemLines k = measure(c, kn_poems), h = measure_poems(c, c.split.heldout);
    ch.measured("form_fraction", w.form_fraction());
    ch.measured("copied_line_fraction", w.copied_fraction());
    ch.measured("repeat_line_fraction", w.repeat_fraction());
    ch.measured("kn_trigram_form_fraction", k.form_fraction());
    ch.measured("kn_trigram_copied_line_fraction", k.copied_fraction());
    ch.measured("kn_trigram_repeat_line_fraction", k.repeat_fraction());
    ch.measured("heldout_form_fraction", h.form_fraction());
    ch.measured("heldout_copied_line_fraction", h.copied_fraction());
    ch.measured("heldout_repeat_line_fraction", h.repeat_fraction());
    Table t({tr("lines of"), tr("lines"), tr("in form"), tr("copied"), tr("stutters")});
    const auto row = [&](const std::string& name, const PoemLines& m) {
        t.add({name, grouped(m.lines), percent(m.form_fraction()), percent(m.copied_fraction()),
               percent(m.repeat_fraction())});
    };
    row(tr("{} poems by this model", in.sampling.poems), w);
    row(tr("{} poems by the Kneser-Ney trigram", in.sampling.poems), k);
    row(tr("the {} held-out poems", grouped(c.split.heldout.size())), h);
    ch.table(t);
    say_writing(ch, w, k, h);
}

// --- what the heads look at --------------------------------------------------------------------

// Where each token of a written poem stands: its line (0: the title) and its column.
struct Place {
    std::size_t line = 0, column = 0;
    bool character = false;  // a character of a line (not <bos>, a line break or <eos>)
};

std::vector<Place> places_of(const Tokens& t) {
    std::vector<Place> p(t.size());
    std::size_t line = 0, column = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const bool newline = t[i] == CharVocabulary::newline;
        p[i] = {line, column, t[i] > CharVocabulary::newline};
        if (newline) ++line, column = 0;
        else if (p[i].character) ++column;
    }
    return p;
}

// A kind of key a query may look at, by the key's position for query q (−1: none for it).
using KeyOf = std::function<long(std::size_t)>;
struct KeyKind {
    std::string name;
    KeyOf key_of;
};

// The kinds measured, on one poem: from every character of its lines (not the title).
std::vector<KeyKind> key_kinds(const Tokens& poem, const CharVocabulary& v,
                               const std::vector<Place>& p) {
    const auto find = [p](std::size_t line, std::size_t column) -> long {
        for (std::size_t i = 0; i < p.size(); ++i)
            if (p[i].character && p[i].line == line && p[i].column == column) return long(i);
        return -1;
    };
    const auto body = [p](std::size_t q) { return p[q].character && p[q].line >= 2; };
    const auto rhyme = [poem, &v, body](std::size_t q) {  // the last character before 。？！
        if (!body(q) || q + 1 >= poem.size()) return false;
        const std::string& next = v.names[static_cast<std::size_t>(poem[q + 1])];
        return next == "。" || next == "？" || next == "！";
    };
    return {{tr("the character before"), [body](std::size_t q) { return body(q) ? long(q) - 1 : -1L; }},
            {tr("the first character of its line"),
             [=](std::size_t q) { return body(q) && p[q].column > 0 ? find(p[q].line, 0) : -1L; }},
            {tr("same place, line above"),
             [=](std::size_t q) { return body(q) ? find(p[q].line - 1, p[q].column) : -1L; }},
            {tr("rhyme place, line above"),
             [=](std::size_t q) { return rhyme(q) ? find(p[q].line - 1, p[q].column) : -1L; }},
            {tr("<bos>"), [body](std::size_t q) { return body(q) ? 0L : -1L; }}};
}

// The mean weight, over the queries where key_of names a key, that a head gives that key.
double mean_weight(const Matrix& w, std::size_t queries, const KeyOf& key_of) {
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t q = 0; q < queries; ++q)
        if (const long k = key_of(q); k >= 0) sum += w(q, static_cast<std::size_t>(k)), ++n;
    return n ? sum / static_cast<double>(n) : 0.0;
}

// The weight a head spreading evenly gives one key, over the queries of the poem's lines.
double even_spread(const std::vector<Place>& p) {
    double even = 0;
    std::size_t n = 0;
    for (std::size_t q = 0; q < p.size(); ++q)
        if (p[q].character && p[q].line >= 2) even += 1.0 / double(q + 1), ++n;
    return n ? even / double(n) : 0.0;
}

void attention_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model,
                    const Tokens& poem) {
    const std::size_t block = std::min(in.attention_block, model.blocks.size() - 1);
    ch.step(tr("What block {}'s heads look at, on the first poem above", block));
    if (poem.size() > in.windows.context) {  // the model never reads so much at once
        ch.say(tr("The poem is {} tokens long, longer than the {} the model reads at once: its "
                  "heads are shown only on a poem that fits.",
                  grouped(poem.size()), in.windows.context));
        return;
    }
    const std::vector<Place> p = places_of(poem);
    const double uniform = even_spread(p);
    if (uniform == 0) {
        ch.say(tr("The poem has no character below its title line: nothing to measure."));
        return;
    }
    Gpt standard = model;  // the standard attention keeps the weights
    standard.config.attention_tile = 0;
    GptCache cache;
    gpt_logits(standard, {poem}, &cache);
    const std::vector<KeyKind> kinds = key_kinds(poem, c.vocabulary, p);
    std::vector<std::string> header = {tr("head")};
    for (const KeyKind& k : kinds) header.push_back(k.name);
    header.push_back(tr("uniform"));
    Table table(header);
    Labels labels;
    for (int id : poem)
        labels.push_back(id == CharVocabulary::newline ? "↵" : c.vocabulary.names[std::size_t(id)]);
    std::vector<Heatmap> panels;
    std::vector<std::pair<double, std::size_t>> best(kinds.size(), {0.0, 0});
    for (std::size_t h = 0; h < model.config.n_heads; ++h) {
        const Matrix& w = cache.blocks[block].self_attn.heads[h].weights;
        std::vector<std::string> row = {std::to_string(h + 1)};
        for (std::size_t k = 0; k < kinds.size(); ++k) {
            const double m = mean_weight(w, p.size(), kinds[k].key_of);
            row.push_back(percent(m));
            if (m > best[k].first) best[k] = {m, h + 1};
        }
        row.push_back(percent(uniform));
        table.add(row);
        panels.push_back({tr("head {}", h + 1), w, labels, labels, Scale::Weights});
    }
    ch.say(tr("The mean weight each head of block {} gives, from a character of the poem's "
              "lines, to each kind of key; \"uniform\" is what a head spreading evenly over the "
              "keys before it would give one of them:",
              block));
    ch.table(table);
    for (std::size_t k = 0; k < kinds.size(); ++k)
        if (best[k].first > 2 * uniform)
            ch.say(tr("Head {} looks at {}: {} of its weight on average, {}× an even spread.",
                      best[k].second, kinds[k].name, percent(best[k].first),
                      fixed(best[k].first / uniform, 1)));
    ch.say(tr("(measured on one written poem; another poem, block or training run may differ)"));
    ch.picture("ch12_attention.svg",
               heatmaps_svg(tr("block {}: each head's weights on a written poem", block), panels));
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

// A model saved by an earlier run (--weights FILE), with its vocabulary: nothing is trained.
Trained load_trained(const std::string& path, CharVocabulary& vocabulary) {
    const DataFile file = DataFile::load(path);
    Trained t;
    t.model = load_gpt(file, "");
    t.loaded = true;
    vocabulary.names = file.texts("vocabulary");
    if (vocabulary.names.size() != t.model.config.tgt_vocab || vocabulary.names.size() < 5)
        throw file.error("vocabulary", tr("expected {} names, one per token of config.vocab",
                                          t.model.config.tgt_vocab));
    for (std::size_t i = 0; i < vocabulary.names.size(); ++i)
        vocabulary.ids[vocabulary.names[i]] = static_cast<int>(i);
    return t;
}

void save_step(Chapter& ch, const Trained& t, const Corpus& c, const CorpusSettings& corpus,
               double heldout, const Baselines& b, const std::string& path) {
    if (t.loaded) return;  // written with a saved model: nothing new to keep
    if (path.empty()) {
        ch.line(tr("(not the chapter's defined run, so the model is not saved; --save FILE "
                   "keeps it)"));
        return;
    }
    save_gpt(t.model, c.vocabulary.names, {t.best_step, heldout, b.trigram, t.seconds, corpus},
             path);
    ch.line(tr("saved the model of step {} to {}", t.best_step, path));
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data, ch.options);
    against_pytorch(ch, in);
    adamw_check(ch, in);
    baselines_check(ch, in);
    if (ch.options.check) return;  // the rest trains for minutes: measured, not compared
    const std::string path = save_path(ch.options);
    if (!path.empty()) check_writable(path);  // before minutes of training, not after
    Trained trained;
    CharVocabulary saved;
    const bool weights = ch.options.has("--weights");
    if (weights) trained = load_trained(ch.options.value("--weights"), saved);
    const Corpus c = prepare_corpus(in.corpus, weights ? &saved : nullptr);
    corpus_step(ch, in, c);
    const KneserNey trigram(c.training, c.vocabulary.size(), 3);
    const Baselines b = baselines_step(ch, c, trigram);
    if (!weights) trained = train_step(ch, in, c);
    const double heldout = heldout_step(ch, in, c, trained, b, chapters_run(ch.options));
    const SamplingSettings s = sampling_step(ch, in, c, trained.model);
    std::vector<Tokens> shown;
    writing_step(ch, in, c, trained.model, trigram, s, shown);
    if (!shown.empty()) attention_step(ch, in, c, trained.model, shown.front());
    save_step(ch, trained, c, in.corpus, heldout, b, path);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch12_gpt",
        N_("a decoder-only model (GPT) trained from scratch on the complete Tang poems: against "
           "the Kneser-Ney baselines, keeping its best step, writing poems, what its heads look "
           "at"),
        N_("03 §2.1.5 (a language model predicts the next token from the ones before it)"),
        {svg_flag(),
         {"--prompt", "TEXT", N_("write from this beginning, e.g. \"《春晓》\" (a title)")},
         {"--corpus", "NAME",
          N_("quantangshi (the default: the regulated poems of the complete Tang poems, which "
             "make fetches), quantangshi-all, tang300 (Debian's fortunes-zh), or a file of "
             "the same format")},
         {"--poems", "N", N_("measure the written lines on N poems")},
         {"--weights", "FILE",
          N_("write with a model saved before (build/ch12_gpt_model.json) instead of training")},
         {"--steps", "N", N_("train N steps instead of the data file's")},
         {"--seconds", "S",
          N_("train the steps that fit in S seconds here, instead of the data file's steps")},
         {"--save", "FILE",
          N_("save the model there (the chapter's defined run saves it as "
             "build/ch12_gpt_model.json)")}}};
    return run_chapter(argc, argv, info, walkthrough);
}
