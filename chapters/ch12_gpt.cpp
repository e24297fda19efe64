// ch12_gpt — a decoder-only model (GPT), trained from scratch on the Three Hundred Tang Poems,
// writes poems: everything of chapters 1–11 used the way today's models use it.
//
// Tutorial: 03 §2.1.5's language model ("predict the next token from the ones before it", with
// the causal mask that lets every position train at once) — here as the whole model.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/random.h"
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
#include "train/gpt_training.h"
#include "train/ngram.h"
#include "train/poems.h"

namespace {

struct Tiny {
    std::string name;
    Gpt model;
};

struct Inputs {
    std::vector<Tiny> tiny;
    std::vector<Tokens> tiny_inputs, tiny_targets;
    std::string corpus;
    std::size_t heldout_every = 10, min_count = 1;
    TransformerConfig model;  // its vocabulary comes from the corpus
    TrainingSettings settings;
    WindowBatches windows;
    SamplingSettings sampling;
    std::size_t poems = 100, shown = 5;
    std::uint64_t sampling_seed = 0;
    std::vector<std::string> prompts;
    std::size_t attention_block = 0;
};

Inputs read_inputs(const DataFile& data, const Options& o) {
    Inputs in;
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
    in.corpus = o.has("--corpus") ? o.value("--corpus") : data.text("inputs.corpus.path");
    in.heldout_every = data.size("inputs.corpus.heldout_every", 2, 1000);
    in.min_count = data.size("inputs.corpus.min_count", 1, 1000);
    in.model = read_gpt_config(data, "inputs.model.", false);
    const std::string t = "inputs.training.";
    in.settings.max_steps = data.size(t + "max_steps", 1, 10000000);
    in.settings.seed = data.size(t + "seed", 0, std::size_t(1) << 62);
    in.settings.adam.factor = data.number(t + "lr_factor", 1e-6, 100);
    in.settings.smoothing = data.number(t + "smoothing", 0.0, 0.99);
    in.settings.adam.weight_decay = data.number(t + "weight_decay", 0.0, 100.0);
    in.settings.adam.warmup = data.size(t + "warmup", 1, 10000000);
    in.settings.adam.d_model = in.model.d_model;
    in.windows = {data.size(t + "batch", 1, 4096), data.size(t + "context", 1, 4096)};
    if (o.has("--steps"))
        in.settings.max_steps = static_cast<std::size_t>(o.integer("--steps", 1, 10000000));
    if (o.has("--seconds")) in.settings.seconds = o.number("--seconds", 0.001, 1e7);
    const std::string s = "inputs.sampling.";
    in.poems = data.size(s + "poems", 1, 100000);
    in.shown = data.size(s + "shown", 0, 1000);
    in.sampling.temperature = data.number(s + "temperature", 1e-3, 100);
    in.sampling.top_k = data.size(s + "top_k", 0, 1 << 22);
    in.sampling.top_p = data.number(s + "top_p", 1e-6, 1.0);
    in.sampling.max_length = data.size(s + "max_length", 2, 1 << 16);
    in.sampling.never = {CharVocabulary::unknown};
    in.sampling_seed = data.size(s + "seed", 0, std::size_t(1) << 62);
    in.prompts = data.texts(s + "prompts");
    if (o.has("--prompt")) in.prompts = {o.value("--prompt")};
    if (o.has("--poems")) in.poems = static_cast<std::size_t>(o.integer("--poems", 1, 100000));
    in.attention_block = data.size("inputs.attention.block", 0, 64);
    return in;
}

double worst_gap(const Matrix& a, const Matrix& b) { return max_abs_diff(a, b); }

// The KV cache against the whole pass: each sequence fed one token at a time.
double kv_gap(const Gpt& m, const std::vector<Tokens>& sequences) {
    double worst = 0;
    for (const Tokens& s : sequences) {
        const Matrix full = gpt_logits(m, {s});
        GptKV kv = start_gpt(m);
        for (std::size_t t = 0; t < s.size(); ++t)
            worst = std::max(worst, worst_gap(gpt_step(m, kv, s[t]), row_block(full, t, 1)));
    }
    return worst;
}

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
        const double gap = kv_gap(v.model, in.tiny_inputs);
        ch.measured("kv_cache_max_abs_diff_" + v.name, gap);
        t.add({v.name + " (" + variant_text(v.model.config) + ")", fixed(loss, 12), sci(worst),
               sci(gap)});
    }
    ch.table(t);
    ch.say(
        tr("Every gradient comes from the hand-written backward passes of chapters 4–10, "
           "composed once more; the oracle (data/oracle/ch12_gpt.py) builds the same model "
           "from chapter 10's PyTorch pieces and lets autograd differentiate it."));
}

// --- the corpus -----------------------------------------------------------------------------

struct Corpus {
    std::vector<Poem> training, heldout;
    CharVocabulary vocabulary;
    std::vector<Tokens> training_tokens, heldout_tokens;
    std::set<std::string> training_lines;  // every line of every training poem, to spot copies
    std::size_t heldout_unknown = 0;       // held-out characters the vocabulary lacks
    std::size_t training_unknown = 0;      // training characters read as <unk> (too rare)
};

// The corpus split and encoded; with `given` (a saved model's vocabulary), in that vocabulary.
Corpus read_corpus(const Inputs& in, const CharVocabulary* given = nullptr) {
    Corpus c;
    const std::vector<Poem> poems = read_poems(in.corpus);
    for (std::size_t i = 0; i < poems.size(); ++i)
        (held_out(i, in.heldout_every) ? c.heldout : c.training).push_back(poems[i]);
    if (c.training.empty() || c.heldout.empty())
        throw std::runtime_error(tr("{}: {} poems are too few to hold one in {} out", in.corpus,
                                    poems.size(), in.heldout_every));
    std::vector<std::string> texts;
    for (const Poem& p : c.training) texts.push_back(poem_text(p.title, p.lines));
    c.vocabulary = given ? *given : vocabulary_of(texts, in.min_count);
    for (const std::string& text : texts) {
        c.training_tokens.push_back(encode(c.vocabulary, text));
        for (int id : c.training_tokens.back()) c.training_unknown += id == CharVocabulary::unknown;
    }
    for (const Poem& p : c.training) c.training_lines.insert(p.lines.begin(), p.lines.end());
    for (const Poem& p : c.heldout) {
        c.heldout_tokens.push_back(encode(c.vocabulary, poem_text(p.title, p.lines)));
        for (int id : c.heldout_tokens.back()) c.heldout_unknown += id == CharVocabulary::unknown;
    }
    return c;
}

std::size_t tokens_in(const std::vector<Tokens>& sequences) {
    std::size_t n = 0;
    for (const Tokens& s : sequences) n += s.size();
    return n;
}

// The lines of a written poem after its title line.
std::vector<std::string> body_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == '\n') {
            lines.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    if (!lines.empty() && lines.front().compare(0, 3, "《") == 0) lines.erase(lines.begin());
    lines.erase(std::remove(lines.begin(), lines.end(), std::string()), lines.end());
    return lines;
}

struct Writing {
    std::size_t lines = 0, in_form = 0, copied = 0;
    double form_fraction() const { return lines ? double(in_form) / double(lines) : 0.0; }
    double copied_fraction() const { return lines ? double(copied) / double(lines) : 0.0; }
};

Writing measure(const std::vector<std::string>& texts, const Corpus& c) {
    Writing w;
    for (const std::string& text : texts)
        for (const std::string& line : body_lines(text)) {
            ++w.lines;
            w.in_form += regulated_form(line);
            w.copied += c.training_lines.count(line);
        }
    return w;
}

std::string percent(double x) { return fixed(100 * x, 1) + "%"; }

void corpus_step(Chapter& ch, const Inputs& in, const Corpus& c) {
    ch.step(tr("The Three Hundred Tang Poems, one character per token"));
    std::vector<std::string> texts;
    for (const Poem& p : c.training) texts.push_back(poem_text(p.title, p.lines));
    const Writing corpus = measure(texts, c);
    ch.measured("corpus_form_fraction", corpus.form_fraction());
    ch.say(
        tr("{}: {} poems, {} for training and {} held out (every {}th, whole poems, so no line "
           "of a held-out poem is ever seen); {} training tokens, {} held-out. The vocabulary "
           "is every character seen at least {} time(s) in the training poems: {} tokens with "
           "<pad>, <bos>, <eos>, <unk> and the line break. Rarer characters read as <unk> — {} "
           "in training, so the model learns how often an unknown one comes, and {} held out.",
           in.corpus, c.training.size() + c.heldout.size(), c.training.size(), c.heldout.size(),
           in.heldout_every, grouped(tokens_in(c.training_tokens)),
           grouped(tokens_in(c.heldout_tokens)), in.min_count, grouped(c.vocabulary.size()),
           c.training_unknown, c.heldout_unknown));
    ch.say(
        tr("A poem reads <bos> 《title》, a line break, its lines one per row, <eos>. Of the "
           "training poems' {} lines, {} keep the regulated form of five or seven characters, "
           "a comma, as many again and a full stop (or ？！): the yardstick for what the "
           "model writes.",
           grouped(corpus.lines), percent(corpus.form_fraction())));
}

// --- training -----------------------------------------------------------------------------------

struct Trained {
    Gpt model;
    double seconds = 0;
    std::size_t steps = 0;
    std::vector<double> losses;
};

Trained train_step(Chapter& ch, const Inputs& in, const Corpus& c) {
    TransformerConfig config = in.model;
    config.tgt_vocab = config.src_vocab = c.vocabulary.size();
    ch.step(tr("Training from scratch (AdamW with the paper's warm-up)"));
    const Gpt initial = random_gpt(config, in.settings.seed);
    ch.say(
        tr("model: d_model {}, h {} ({} key/value heads), d_ff {}, {} blocks, {}, tied "
           "embeddings, {} parameters; windows of {} tokens, batches of {}, {} steps",
           config.d_model, config.n_heads, config.kv_heads(), config.d_ff, config.n_decoder_layers,
           variant_text(config), grouped(parameter_count(initial)), in.windows.context,
           in.windows.batch, in.settings.max_steps));
    const double wd = in.settings.adam.weight_decay, smoothing = in.settings.smoothing;
    if (wd > 0 || smoothing > 0)
        ch.say(
            tr("AdamW: the paper's Adam and warm-up (chapter 7) with weight decay {} on the "
               "matrices, and label smoothing {}: what holds the model back from learning the "
               "training poems by heart, which a model of this size does within minutes on a "
               "text this small (its held-out loss then climbs far above the baselines').",
               general(wd, 3), general(smoothing, 3)));
    else
        ch.say(
            tr("The paper's Adam and warm-up (chapter 7), without weight decay or label "
               "smoothing: nothing holds the model back from learning the training poems by "
               "heart."));
    ProgressBar bar;
    GptTrainingRun run = train_gpt(initial, c.training_tokens, in.windows, in.settings,
                                   [&](const StepStats& s) { bar.update(s); });
    bar.done();
    if (run.loop.diverged_at)
        throw std::runtime_error(
            tr("training diverged at step {}: its loss or a weight stopped "
               "being finite; nothing is saved",
               run.loop.diverged_at));
    ch.say(
        tr("trained {} steps in {} s; last training loss {} (a batch's mean, label-smoothed, nats "
           "per token)",
           run.loop.losses.size(), fixed(run.loop.seconds, 1), fixed(run.loop.losses.back(), 4)));
    ch.measured("train_seconds", run.loop.seconds);
    ch.measured("steps", static_cast<double>(run.loop.losses.size()));
    LineChart chart{
        tr("training loss (nats per token)"), tr("step"), tr("loss"), false, false, {}, {}};
    Series loss{tr("loss"), {}, run.loop.losses, false};
    for (std::size_t i = 0; i < run.loop.losses.size(); ++i) loss.xs.push_back(double(i + 1));
    chart.series.push_back(loss);
    ch.picture("ch12_loss.svg", line_chart_svg(chart));
    return {run.model, run.loop.seconds, run.loop.losses.size(), run.loop.losses};
}

struct Losses {
    double model, bigram, unigram;
};

Losses heldout_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model,
                    const NgramCounts& ngrams) {
    ch.step(tr("Held-out poems: the model against two baselines it must beat"));
    const Losses l{gpt_heldout_loss(model, c.heldout_tokens, in.windows.context),
                   ngrams.bigram_loss(c.heldout_tokens), ngrams.unigram_loss(c.heldout_tokens)};
    ch.measured("heldout_loss", l.model);
    ch.measured("bigram_loss", l.bigram);
    ch.measured("unigram_loss", l.unigram);
    Table t(
        {tr("predictor of the next character"), tr("held-out cross-entropy"), tr("perplexity")});
    t.add({tr("unigram: its frequency (add-one)"), fixed(l.unigram, 4),
           fixed(std::exp(l.unigram), 1)});
    t.add({tr("bigram: given the one before (add-one)"), fixed(l.bigram, 4),
           fixed(std::exp(l.bigram), 1)});
    t.add({tr("this model: given up to {} before", in.windows.context), fixed(l.model, 4),
           fixed(std::exp(l.model), 1)});
    ch.table(t);
    ch.say(
        tr("(nats per token over the same {} held-out tokens after each <bos>: characters, "
           "line breaks and <eos>; perplexity e^loss is how many equally likely choices that "
           "uncertainty is worth)",
           grouped(tokens_in(c.heldout_tokens) - c.heldout_tokens.size())));
    if (l.bigram > l.unigram)
        ch.say(
            tr("The bigram does worse than the unigram here: with {} characters and {} "
               "training tokens most pairs are never seen, and add-one smoothing hands each "
               "unseen pair a share of the probability.",
               grouped(c.vocabulary.size()), grouped(tokens_in(c.training_tokens))));
    if (l.model < l.bigram)
        ch.say(
            tr("The model beats the bigram baseline by {} nats per token: its perplexity is "
               "{}× the bigram's.",
               fixed(l.bigram - l.model, 3), fixed(std::exp(l.model - l.bigram), 2)));
    else
        ch.say(
            tr("The model does NOT beat the bigram baseline here ({} against {}): train "
               "longer (--steps, --seconds) or on more text.",
               fixed(l.model, 4), fixed(l.bigram, 4)));
    return l;
}

// --- writing -------------------------------------------------------------------------------------

std::vector<std::string> write_poems(const Gpt& model, const Corpus& c, const Inputs& in,
                                     const std::vector<std::string>& prompts, std::size_t count,
                                     std::vector<Tokens>* tokens = nullptr) {
    Random rng(in.sampling_seed);
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < count; ++i) {
        const std::string prompt = prompts.empty() ? "" : prompts[i % prompts.size()];
        const Tokens t = sample_gpt(model, encode(c.vocabulary, prompt, false), in.sampling, rng);
        texts.push_back(decode(c.vocabulary, t));
        if (tokens) tokens->push_back(t);
    }
    return texts;
}

void print_poem(Chapter& ch, const std::string& text) {
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == '\n') {
            ch.line("    " + text.substr(start, i - start));
            start = i + 1;
        }
    ch.line("");
}

void writing_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model,
                  const NgramCounts& ngrams, std::vector<Tokens>& shown_tokens) {
    ch.step(tr("The model writes (temperature {}, top-k {}, top-p {}, through the KV cache)",
               general(in.sampling.temperature, 3), in.sampling.top_k,
               general(in.sampling.top_p, 3)));
    const std::vector<std::string> shown =
        write_poems(model, c, in, in.prompts, in.shown, &shown_tokens);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const std::string prompt = in.prompts.empty() ? "" : in.prompts[i % in.prompts.size()];
        ch.line(prompt.empty() ? tr("from <bos> alone:") : tr("from \"{}\":", prompt));
        print_poem(ch, shown[i]);
    }
    // the measurement: poems from <bos> alone, the model choosing its titles too
    const Writing w = measure(write_poems(model, c, in, {}, in.poems), c);
    Random rng(in.sampling_seed);
    std::vector<std::string> bigram_texts;
    for (std::size_t i = 0; i < in.poems; ++i)
        bigram_texts.push_back(decode(
            c.vocabulary, ngrams.sample({CharVocabulary::bos}, CharVocabulary::eos,
                                        CharVocabulary::newline, in.sampling.max_length, rng)));
    const Writing b = measure(bigram_texts, c);
    ch.measured("form_fraction", w.form_fraction());
    ch.measured("copied_line_fraction", w.copied_fraction());
    ch.measured("bigram_form_fraction", b.form_fraction());
    ch.measured("bigram_copied_line_fraction", b.copied_fraction());
    Table t({tr("{} poems from <bos>, seed {}", in.poems, in.sampling_seed), tr("lines"),
             tr("in the regulated form"), tr("copied from a training poem")});
    t.add({tr("this model"), grouped(w.lines), percent(w.form_fraction()),
           percent(w.copied_fraction())});
    t.add({tr("the bigram baseline"), grouped(b.lines), percent(b.form_fraction()),
           percent(b.copied_fraction())});
    ch.table(t);
    ch.say(w.form_fraction() > b.form_fraction()
               ? tr("Of the model's lines, {} keep the form of five or seven characters, a comma, "
                    "as many again and a full stop; of the bigram's, {}. A count of neighbours "
                    "cannot keep count of a line — where the comma falls, when the line ends; "
                    "attention looks back over the whole line.",
                    percent(w.form_fraction()), percent(b.form_fraction()))
               : tr("Of the model's lines, {} keep the regulated form; of the bigram's, {}: the "
                    "model has not learned the form yet (train longer).",
                    percent(w.form_fraction()), percent(b.form_fraction())));
    ch.say(w.copied == 0
               ? tr("None of the model's {} lines is a line of a training poem.", w.lines)
               : tr("{} of the model's {} lines ({}) are lines of training poems, word for word: "
                    "trained over and over on {} characters, a model remembers some of them — "
                    "memorising is part of what training on a small text does.",
                    w.copied, w.lines, percent(w.copied_fraction()),
                    grouped(tokens_in(c.training_tokens))));
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
        if (t[i] == CharVocabulary::newline) {
            p[i] = {line, column, false};
            ++line, column = 0;
            continue;
        }
        p[i] = {line, column, t[i] > CharVocabulary::newline};
        if (t[i] > CharVocabulary::newline) ++column;
    }
    return p;
}

// The mean weight, over the queries where `key_of` names a key, that a head gives that key.
double mean_weight(const Matrix& w, const std::vector<Place>& p,
                   const std::function<long(std::size_t)>& key_of) {
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t q = 0; q < p.size(); ++q) {
        const long k = key_of(q);
        if (k < 0) continue;
        sum += w(q, static_cast<std::size_t>(k));
        ++n;
    }
    return n ? sum / static_cast<double>(n) : 0.0;
}

void attention_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model,
                    const Tokens& poem) {
    const std::size_t block = std::min(in.attention_block, model.blocks.size() - 1);
    ch.step(tr("What block {}'s heads look at, on the first poem above", block));
    Gpt standard = model;  // the standard attention keeps the weights
    standard.config.attention_tile = 0;
    GptCache cache;
    gpt_logits(standard, {poem}, &cache);
    const std::vector<Place> p = places_of(poem);
    // the position of (line, column), for the keys
    const auto find = [&](std::size_t line, std::size_t column) -> long {
        for (std::size_t i = 0; i < p.size(); ++i)
            if (p[i].character && p[i].line == line && p[i].column == column) return long(i);
        return -1;
    };
    const auto body = [&](std::size_t q) { return p[q].character && p[q].line >= 2; };
    const auto rhyme = [&](std::size_t q) {
        if (!body(q) || q + 1 >= poem.size()) return false;
        const std::string& next = c.vocabulary.names[static_cast<std::size_t>(poem[q + 1])];
        return next == "。" || next == "？" || next == "！";
    };
    const std::vector<std::pair<std::string, std::function<long(std::size_t)>>> keys = {
        {tr("the character before"), [&](std::size_t q) { return body(q) ? long(q) - 1 : -1L; }},
        {tr("the first character of its line"),
         [&](std::size_t q) { return body(q) && p[q].column > 0 ? find(p[q].line, 0) : -1L; }},
        {tr("same place, line above"),
         [&](std::size_t q) { return body(q) ? find(p[q].line - 1, p[q].column) : -1L; }},
        // the rhyme falls on the last character of each line, before its full stop
        {tr("rhyme place, line above"),
         [&](std::size_t q) { return rhyme(q) ? find(p[q].line - 1, p[q].column) : -1L; }},
        {tr("<bos>"), [&](std::size_t q) { return body(q) ? 0L : -1L; }}};
    std::size_t measured = 0;  // the queries every column below averages over
    for (std::size_t q = 0; q < p.size(); ++q) measured += body(q);
    if (measured == 0) {
        ch.say(tr("The poem has no character below its title line: nothing to measure."));
        return;
    }
    std::vector<Heatmap> panels;
    Labels labels;
    for (int id : poem)
        labels.push_back(id == CharVocabulary::newline ? "↵" : c.vocabulary.names[std::size_t(id)]);
    std::vector<std::string> header = {tr("head")};
    for (const auto& k : keys) header.push_back(k.first);
    header.push_back(tr("uniform"));
    Table table(header);
    std::vector<std::pair<double, std::string>> best(keys.size(), {0.0, ""});
    double uniform = 0;
    for (std::size_t h = 0; h < model.config.n_heads; ++h) {
        const Matrix& w = cache.blocks[block].self_attn.heads[h].weights;
        std::vector<std::string> row = {std::to_string(h + 1)};
        for (std::size_t k = 0; k < keys.size(); ++k) {
            const double m = mean_weight(w, p, keys[k].second);
            row.push_back(percent(m));
            if (m > best[k].first) best[k] = {m, std::to_string(h + 1)};
        }
        // the weight a head would give each key if it spread evenly: 1/(q + 1), averaged
        double even = 0;
        std::size_t n = 0;
        for (std::size_t q = 0; q < p.size(); ++q)
            if (body(q)) even += 1.0 / double(q + 1), ++n;
        uniform = n ? even / double(n) : 0.0;
        row.push_back(percent(uniform));
        table.add(row);
        panels.push_back({tr("head {}", h + 1), w, labels, labels, Scale::Weights});
    }
    ch.say(
        tr("The mean weight each head of block {} gives, from a character of the poem's lines, "
           "to each kind of key; \"uniform\" is what a head spreading evenly over the keys "
           "before it would give one of them:",
           block));
    ch.table(table);
    for (std::size_t k = 0; k < keys.size(); ++k)
        if (best[k].first > 2 * uniform)
            ch.say(tr("Head {} looks at {}: {} of its weight on average, {}× an even spread.",
                      best[k].second, keys[k].first, percent(best[k].first),
                      fixed(best[k].first / uniform, 1)));
    ch.say(tr("(measured on one written poem; another poem, block or training run may differ)"));
    ch.picture("ch12_attention.svg",
               heatmaps_svg(tr("block {}: each head's weights on a written poem", block), panels));
}

// --- the run -------------------------------------------------------------------------------------

// Where the trained model goes: --save FILE; else, for the full run on the shipped data only,
// build/ch12_gpt_model.json. Short runs replace nothing a reader trained before.
std::string save_path(const Options& o) {
    if (o.has("--save")) return o.value("--save");
    const bool short_run = o.check || o.json || o.has("--steps") || o.has("--seconds") ||
                           o.data_given || o.has("--corpus") || o.has("--weights");
    return short_run ? "" : o.program_dir + "/ch12_gpt_model.json";
}

// The optimiser: steps of AdamW on the tiny batch, against torch.optim.AdamW's losses.
void adamw_check(Chapter& ch, const Inputs& in) {
    const std::string k = "inputs.tiny.adamw.";
    TrainingSettings s;
    s.max_steps = ch.data.size(k + "steps", 1, 1000);
    s.smoothing = ch.data.number(k + "smoothing", 0.0, 0.99);
    s.adam.factor = ch.data.number(k + "lr_factor", 1e-6, 100);
    s.adam.warmup = ch.data.size(k + "warmup", 1, 1000000);
    s.adam.weight_decay = ch.data.number(k + "weight_decay", 0.0, 100);
    Gpt model = in.tiny[0].model;
    s.adam.d_model = model.config.d_model;
    const std::vector<double> losses = steps_on_batch(model, in.tiny_inputs, in.tiny_targets, s);
    Matrix row(1, losses.size());
    std::copy(losses.begin(), losses.end(), row.data.begin());
    ch.say(
        tr("AdamW (weight decay {} on the matrices, not on biases and gains; label smoothing "
           "{}), {} steps on that batch with the warm-up schedule, against torch.optim.AdamW:",
           general(s.adam.weight_decay, 3), general(s.smoothing, 3), losses.size()));
    ch.show("adamw_losses", tr("losses after each step"), row, {}, {}, 10, tolerance::end_to_end);
}

// A model saved by an earlier run (--weights FILE), with its vocabulary: nothing is trained.
Trained load_trained(const std::string& path, CharVocabulary& vocabulary) {
    const DataFile file = DataFile::load(path);
    Trained t;
    t.model = load_gpt(file, "");
    vocabulary.names = file.texts("vocabulary");
    if (vocabulary.names.size() != t.model.config.tgt_vocab || vocabulary.names.size() < 5)
        throw file.error("vocabulary", tr("expected {} names, one per token of config.vocab",
                                          t.model.config.tgt_vocab));
    for (std::size_t i = 0; i < vocabulary.names.size(); ++i)
        vocabulary.ids[vocabulary.names[i]] = static_cast<int>(i);
    return t;
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data, ch.options);
    against_pytorch(ch, in);
    adamw_check(ch, in);
    if (ch.options.check) return;  // the rest trains for minutes: measured, not compared
    const std::string path = save_path(ch.options);
    if (!path.empty()) check_writable(path);  // before minutes of training, not after
    Trained trained;
    CharVocabulary saved;
    if (ch.options.has("--weights")) trained = load_trained(ch.options.value("--weights"), saved);
    const Corpus c = read_corpus(in, ch.options.has("--weights") ? &saved : nullptr);
    corpus_step(ch, in, c);
    const NgramCounts ngrams(c.training_tokens, c.vocabulary.size());
    if (!ch.options.has("--weights")) trained = train_step(ch, in, c);
    const Losses l = heldout_step(ch, in, c, trained.model, ngrams);
    std::vector<Tokens> shown;
    writing_step(ch, in, c, trained.model, ngrams, shown);
    if (!shown.empty()) attention_step(ch, in, c, trained.model, shown.front());
    if (path.empty()) {
        ch.line(
            tr("(a short run, or one on another data file or corpus: the model is not "
               "saved; --save FILE keeps it)"));
        return;
    }
    save_gpt(trained.model, c.vocabulary.names, {trained.steps, l.model, l.bigram, trained.seconds},
             path);
    ch.line(tr("saved the trained model to {}", path));
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch12_gpt",
        N_("a decoder-only model (GPT) trained from scratch on the Three Hundred Tang Poems: "
           "against two baselines, writing poems, what its heads look at"),
        N_("03 §2.1.5 (a language model predicts the next token from the ones before it)"),
        {svg_flag(),
         {"--prompt", "TEXT", N_("write from this beginning, e.g. \"《春晓》\" (a title)")},
         {"--corpus", "FILE",
          N_("the poems (default: /usr/share/games/fortunes/tang300, Debian's fortunes-zh)")},
         {"--poems", "N", N_("measure the form and the copied lines on N written poems")},
         {"--weights", "FILE",
          N_("write with a model saved before (build/ch12_gpt_model.json) instead of training")},
         {"--steps", "N", N_("train at most N steps")},
         {"--seconds", "S", N_("train at most S seconds (default: the data file's)")},
         {"--save", "FILE",
          N_("save the model there (a full run saves it as build/ch12_gpt_model.json)")}}};
    return run_chapter(argc, argv, info, walkthrough);
}
