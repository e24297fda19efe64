// ch14_inside_the_poet — what chapter 12's poet learned, head by head: where each head looks on
// the poems it never saw, what the loss is without it, whether it copies (induction heads), and
// the prediction as it forms, layer by layer (the logit lens).
//
// Tutorial: 05's "attention lets each character take in its context" — asked of a trained model:
// which context, by which head, and does the model need it?
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/elementary.h"
#include "core/random.h"
#include "io/gpt_file.h"
#include "io/saved_poet.h"
#include "report/bar_chart.h"
#include "report/chapter.h"
#include "report/poet_flags.h"
#include "report/heatmap.h"
#include "report/progress.h"
#include "train/ablations.h"
#include "train/head_patterns.h"
#include "train/induction.h"
#include "train/logit_lens.h"
#include "train/ngram.h"
#include "train/poem_measures.h"
#include "train/poem_sample.h"
#include "train/poems.h"

namespace {

// How a model is read: its poems' window, the famous poem, the induction test's sequences.
struct Reading {
    std::size_t context = 64;
    std::string famous;
    std::size_t lens_clause = 1;
    std::size_t induction_count = 0, induction_length = 0;
    std::uint64_t induction_seed = 0;
};

struct Inputs {
    std::vector<std::string> punctuation;
    Gpt small;  // the oracle's small poet, its vocabulary and poems
    CharVocabulary small_vocabulary;
    std::vector<std::string> small_poems;
    Reading small_reading;
    PoetSettings poet;  // chapter 12's poet
    std::size_t sample_poems = 0;
    std::uint64_t sample_seed = 0;  // the sample is drawn at random with it
    Reading poet_reading;
};

Reading read_reading(const DataFile& d, const std::string& k, std::size_t longest) {
    Reading r;
    r.context = d.size(k + "context", 1, longest);
    r.famous = d.text(k + "famous");
    if (r.famous.empty()) throw d.error(k + "famous", tr("expected a poem's text"));
    r.lens_clause = d.size(k + "lens_clause", 0, 1000);
    r.induction_count = d.size(k + "induction.sequences", 1, 100000);
    r.induction_length = d.size(k + "induction.length", 2, 4096);
    r.induction_seed = d.seed(k + "induction.seed");
    return r;
}

CharVocabulary vocabulary_named(const DataFile& d, const std::string& key, std::size_t size) {
    CharVocabulary v;
    v.names = d.texts(key);
    const std::vector<std::string> specials = {"<pad>", "<bos>", "<eos>", "<unk>", "\n"};
    if (v.names.size() != size || !std::equal(specials.begin(), specials.end(), v.names.begin()))
        throw d.error(key, tr("expected {} names, one per token of config.vocab, the first five "
                              "<pad>, <bos>, <eos>, <unk> and a line break",
                              size));
    for (std::size_t i = 0; i < v.names.size(); ++i) v.ids[v.names[i]] = static_cast<int>(i);
    return v;
}

Inputs read_inputs(const DataFile& d, const Options& o) {
    Inputs in;
    in.punctuation = d.texts("inputs.punctuation");
    in.small = load_gpt(d, "inputs.small");
    in.small_vocabulary = vocabulary_named(d, "inputs.small.vocabulary", in.small.config.tgt_vocab);
    in.small_poems = d.texts("inputs.small.poems");
    if (in.small_poems.empty())
        throw d.error("inputs.small.poems", tr("expected at least one poem"));
    in.small_reading = read_reading(d, "inputs.small.", 4096);
    in.poet = read_poet_settings(d, "inputs.poet.");
    in.sample_poems = d.size("inputs.poet.sample_poems", 1, 1000000);
    in.sample_seed = d.seed("inputs.poet.sample_seed");
    in.poet_reading = read_reading(d, "inputs.poet.", in.poet.windows.context);
    if (o.has("--steps"))
        in.poet.training.max_steps = static_cast<std::size_t>(o.integer("--steps", 1, 10000000));
    if (o.has("--sample"))
        in.sample_poems = static_cast<std::size_t>(o.integer("--sample", 1, 1000000));
    return in;
}

// --- naming and numbers ---------------------------------------------------------------------

std::string head_name(std::size_t layer, std::size_t head) {
    return std::to_string(layer + 1) + "." + std::to_string(head + 1);
}
std::string head_name(const Gpt& m, std::size_t k) {
    const std::size_t h = m.config.n_heads;
    return head_name(k / h, k % h);
}
std::string percent(double x) { return fixed(100 * x, 1) + "%"; }
std::string percent2(double x) { return fixed(100 * x, 2) + "%"; }
Matrix row(const std::vector<double>& v) {
    Matrix m(1, v.size());
    std::copy(v.begin(), v.end(), m.data.begin());
    return m;
}
std::string token_label(const CharVocabulary& v, int id) {
    return id == CharVocabulary::newline ? "↵" : v.names.at(static_cast<std::size_t>(id));
}

std::vector<bool> punctuation_of(const CharVocabulary& v, const std::vector<std::string>& marks) {
    std::vector<bool> out(v.size(), false);
    for (std::size_t i = 0; i < v.size(); ++i)
        out[i] = std::find(marks.begin(), marks.end(), v.names[i]) != marks.end();
    return out;
}

// The title line of a poem's text ("《静夜思》").
std::string encode_title(const std::string& text) { return text.substr(0, text.find('\n')); }

// Whether the poem shares a verse, or one a character away, with a training poem (the title
// line first in its text).
bool in_training(const Poet& p, const std::string& text) {
    return shares_a_verse(text, p.corpus.training_lines);
}

// The characters the induction test draws from: not specials, not punctuation.
std::vector<int> characters_of(const CharVocabulary& v, const std::vector<bool>& punctuation) {
    std::vector<int> out;
    for (std::size_t i = CharVocabulary::newline + 1; i < v.size(); ++i)
        if (!punctuation[i]) out.push_back(static_cast<int>(i));
    return out;
}

// A model of another corpus or shape (the data file's small model has 176 tokens) reads most of
// chapter 12's poems as <unk>: what it says of them is about <unk>, so it is refused.
void check_knows_the_poems(const Poet& p) {
    std::size_t characters = 0;
    for (const Tokens& poem : p.corpus.heldout) characters += poem.size();
    if (characters > 0 && 2 * p.corpus.heldout_unknown > characters)
        throw std::runtime_error(
            tr("{}: {} of the held-out poems' {} tokens are unknown to its vocabulary of {} and "
               "read as <unk>; expected a vocabulary that holds most of them (chapter 12's "
               "model of this corpus)",
               p.origin, grouped(p.corpus.heldout_unknown), grouped(characters),
               grouped(p.corpus.vocabulary.size())));
}

// A model whose weights overflow (one of 1e300) gives infinite losses, and differences of
// infinities are NaN: refused with one line rather than narrated or written as null in --json.
void check_finite(const Poet& p, const Ablations& a) {
    bool finite = std::isfinite(a.loss) && std::isfinite(a.repeat);
    for (const auto* list : {&a.zero, &a.mean, &a.layer_zero, &a.layer_mean})
        for (const Ablated& x : *list)
            finite = finite && std::isfinite(x.loss) && std::isfinite(x.error) &&
                     std::isfinite(x.repeat);
    if (!finite)
        throw std::runtime_error(tr("{}: its loss on the sample, with every head or without one, "
                                    "is not finite (weights so large that they overflow, or not "
                                    "numbers); expected a model whose outputs are finite",
                                    p.origin));
}

// --- the measures, on one model --------------------------------------------------------------

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
// Random(seed)), in ascending order: the same sample on every run and machine. n = N: all.
std::vector<std::size_t> drawn(std::size_t N, std::size_t n, std::uint64_t seed) {
    std::vector<std::size_t> index(N);
    for (std::size_t i = 0; i < N; ++i) index[i] = i;
    Random rng(seed);
    for (std::size_t i = 0; i < n && i + 1 < N; ++i)
        std::swap(index[i], index[i + rng.next() % (N - i)]);
    index.resize(std::min(n, N));
    std::sort(index.begin(), index.end());
    return index;
}

// The loss on every poem read (each to its window), in parts of 64 poems: the logits of
// thousands at once would not fit in memory.
double loss_on(const Gpt& model, const std::vector<PoemReading>& poems) {
    double sum = 0;
    std::size_t count = 0;
    for (std::size_t first = 0; first < poems.size(); first += 64) {
        std::vector<Tokens> inputs, targets;
        std::size_t n = 0;
        for (std::size_t i = first; i < std::min(first + 64, poems.size()); ++i) {
            inputs.push_back(poems[i].inputs), targets.push_back(poems[i].targets);
            n += poems[i].targets.size();
        }
        sum += gpt_loss(model, inputs, targets) * static_cast<double>(n);
        count += n;
    }
    return count ? sum / static_cast<double>(count) : 0.0;
}

Measured measure(const Gpt& model, const CharVocabulary& v, const std::vector<bool>& punctuation,
                 const std::vector<PoemReading>& all, std::size_t sample_poems,
                 std::uint64_t sample_seed, const Reading& r) {
    Measured m;
    m.patterns = head_patterns(model, all, punctuation);
    m.even = even_spread(all, punctuation);
    const PoemReading famous = read_poem(encode(v, r.famous), r.context, punctuation);
    m.famous = famous.inputs;
    m.famous_weights = attention_weights(model, famous.inputs);
    const std::size_t n = std::min(sample_poems, all.size());
    // a long sample takes minutes: a progress line on a terminal, as training has
    ProgressBar bar;
    bar.status(tr("reading the sample of {} poems", grouped(n)));
    std::vector<PoemReading> chosen;
    for (const std::size_t i : drawn(all.size(), n, sample_seed)) chosen.push_back(all[i]);
    m.sample = read_sample(model, chosen);
    // how far the sample's loss lies from all the poems': in the sample's standard errors
    bar.status(tr("the loss on all {} poems", grouped(all.size())));
    m.all_loss = loss_on(model, all);
    const SampleLosses base = sample_losses(model, m.sample, 0, model.blocks.size());
    double tokens = 0, spread = 0;
    for (std::size_t p = 0; p < base.poem_sums.size(); ++p) tokens += double(base.poem_counts[p]);
    for (std::size_t p = 0; p < base.poem_sums.size(); ++p) {
        const double d = base.poem_sums[p] - base.loss() * double(base.poem_counts[p]);
        spread += d * d;
    }
    m.sample_error = tokens > 0 ? std::sqrt(spread) / tokens : 0.0;
    m.ablations = ablate_heads(model, m.sample, [&](std::size_t k, std::size_t total) {
        bar.status(tr("heads and blocks taken out on {} poems: {} of {}", grouped(n), k, total));
    });
    bar.status(tr("the induction test and the logit lens"));
    m.sequences = repeated_sequences(characters_of(v, punctuation), r.induction_count,
                                     r.induction_length, r.induction_seed);
    m.induction = induction_test(model, m.sequences, r.induction_length);
    m.lens_loss = lens_losses(model, m.sample);
    m.lens_top = lens_top(model, famous.inputs, 5);
    bar.done();
    return m;
}

// --- the oracle's small poet: every measure, checked ------------------------------------------

std::vector<PoemReading> read_poems(const CharVocabulary& v, const std::vector<std::string>& texts,
                                    std::size_t context, const std::vector<bool>& punctuation) {
    std::vector<PoemReading> out;
    for (const std::string& t : texts) out.push_back(read_poem(encode(v, t), context, punctuation));
    return out;
}

void record_all(Chapter& ch, const Measured& m, std::size_t heads_per_layer) {
    const double tol = tolerance::end_to_end;
    const HeadPatterns& p = m.patterns;
    ch.record("head_previous", row(p.previous), Shape::Vector, tol);
    ch.record("head_bos", row(p.bos), Shape::Vector, tol);
    ch.record("head_punctuation", row(p.punctuation), Shape::Vector, tol);
    ch.record("head_clause_start", row(p.clause_start), Shape::Vector, tol);
    ch.record("head_previous_line", row(p.previous_line), Shape::Vector, tol);
    ch.record("head_rhyme", row(p.rhyme), Shape::Vector, tol);
    ch.record("head_entropy", row(p.entropy), Shape::Vector, tol);
    ch.record("head_queries",
              row({double(p.queries), double(p.start_queries), double(p.line_queries),
                   double(p.rhyme_queries)}),
              Shape::Vector, 0);
    const HeadPatterns& e = m.even;
    ch.record("head_even",
              row({e.previous[0], e.bos[0], e.punctuation[0], e.clause_start[0], e.previous_line[0],
                   e.rhyme[0], e.entropy[0]}),
              Shape::Vector, tol);
    Matrix famous;
    for (const Matrix& w : m.famous_weights) append_rows(famous, w);
    ch.record("famous_attention", famous, Shape::Matrix, tol);
    const Ablations& a = m.ablations;
    ch.record_number("ablation_loss", a.loss, tol);
    ch.record_number("repeat_probability", a.repeat, tol);
    ch.record_number("repeat_rate", a.repeat_rate, 0);
    const auto column = [](const std::vector<Ablated>& rows, double Ablated::*field) {
        std::vector<double> out;
        for (const Ablated& r : rows) out.push_back(r.*field);
        return row(out);
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
    Matrix seqs(m.sequences.size(), m.sequences.empty() ? 0 : m.sequences[0].size());
    for (std::size_t s = 0; s < m.sequences.size(); ++s)
        for (std::size_t t = 0; t < m.sequences[s].size(); ++t) seqs(s, t) = m.sequences[s][t];
    ch.record("induction_sequences", seqs, Shape::Matrix, 0);
    ch.record_number("induction_first_loss", m.induction.first_loss, tol);
    ch.record_number("induction_second_loss", m.induction.second_loss, tol);
    ch.record("induction_prefix_matching", row(m.induction.prefix_matching), Shape::Vector, tol);
    ch.record("induction_first_loss_zero", row(m.induction.first_loss_zeroed), Shape::Vector, tol);
    ch.record("induction_second_loss_zero", row(m.induction.second_loss_zeroed), Shape::Vector,
              tol);
    ch.record("lens_loss", row(m.lens_loss), Shape::Vector, tol);
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
    (void)heads_per_layer;
}

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
    record_all(ch, m, in.small.config.n_heads);
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

// --- chapter 12's poet --------------------------------------------------------------------------

// The measures and their names, in the table's order.
struct Kind {
    const char* key;   // --json's: poet_head_<key>
    const char* name;  // the table's
    std::vector<double> HeadPatterns::*values;
};
const Kind kinds[] = {{"previous", N_("token before"), &HeadPatterns::previous},
                      {"bos", N_("<bos>"), &HeadPatterns::bos},
                      {"punctuation", N_("punctuation"), &HeadPatterns::punctuation},
                      {"clause_start", N_("clause start"), &HeadPatterns::clause_start},
                      {"previous_line", N_("first verse"), &HeadPatterns::previous_line},
                      {"rhyme", N_("rhyme"), &HeadPatterns::rhyme}};

// The head with the largest share of one kind, and that share against an even spread's.
struct Leader {
    std::size_t head = 0;
    double share = 0, times_even = 0;
};
Leader leader(const Measured& m, const Kind& k) {
    const std::vector<double>& v = m.patterns.*k.values;
    Leader l;
    for (std::size_t i = 0; i < v.size(); ++i)
        if (v[i] > v[l.head]) l.head = i;
    l.share = v.empty() ? 0 : v[l.head];
    const double even = (m.even.*k.values)[0];
    l.times_even = even > 0 ? l.share / even : 0;
    return l;
}

// A head stands out on a kind when it gives it at least twice what an even spread would.
constexpr double stands_out = 2.0;

// The heads that lead a kind of key at twice an even spread or more, each once, in the kinds'
// order.
std::vector<std::size_t> standing_leaders(const Measured& m) {
    std::vector<std::size_t> heads;
    for (const Kind& k : kinds) {
        const Leader l = leader(m, k);
        if (l.times_even >= stands_out &&
            std::find(heads.begin(), heads.end(), l.head) == heads.end())
            heads.push_back(l.head);
    }
    return heads;
}

void poet_step(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m,
               std::size_t heldout) {
    ch.step(tr("Chapter 12's poet and the poems it never saw"));
    ch.say(p.origin);
    ch.measured("poet_heldout_poems", double(heldout));
    const Gpt& g = p.model;
    if (p.corpus.heldout_unknown > 0)
        ch.say(tr("Its vocabulary holds {} tokens: {} of the held-out poems' characters are "
                  "unknown to it and read as <unk>.",
                  grouped(p.corpus.vocabulary.size()), grouped(p.corpus.heldout_unknown)));
    ch.say(
        tr("{} of {} ({} parameters). It is read on every poem held out from its training "
           "({}), each from <bos> to its first {} inputs (the window it was trained on): {} "
           "queries. Heads are taken out, and the layers read, on a sample of {} drawn from them "
           "at random (seed {}), the same on every run. Each change of the loss below comes "
           "with its standard error over the sample's poems, which says whether the sample is "
           "large enough to tell the change from chance.",
           count_of(g.blocks.size(), N_("{} block"), N_("{} blocks")),
           count_of(g.config.n_heads, N_("{} head"), N_("{} heads")), grouped(parameter_count(g)),
           grouped(heldout), in.poet_reading.context, grouped(m.patterns.queries),
           count_of(m.sample.poems.size(), N_("{} poem"), N_("{} poems")), in.sample_seed));
    const double apart = m.ablations.loss - m.all_loss;
    ch.measured("poet_sample_loss", m.ablations.loss);
    ch.measured("poet_heldout_loss_all", m.all_loss);
    ch.say(m.sample.poems.size() == heldout
               ? tr("The sample is every held-out poem: its loss, {} nats a character, is theirs.",
                    fixed(m.all_loss, 4))
               : tr("The sample's loss is {} nats a character against {} on all {} held-out "
                    "poems: {} apart, {} of its standard error ({}). A change measured on it "
                    "speaks for poems in general only as far as the sample is like them.",
                    fixed(m.ablations.loss, 4), fixed(m.all_loss, 4), grouped(heldout),
                    (apart >= 0 ? "+" : "") + fixed(apart, 4),
                    m.sample_error > 0 ? fixed(std::fabs(apart) / m.sample_error, 1) + "×"
                                       : std::string("—"),
                    fixed(m.sample_error, 4)));
}

void patterns_step(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m) {
    ch.step(tr("Where each head looks"));
    ch.say(
        tr("For each query (every position but <bos>), the share of the head's weight on: the "
           "token just before; <bos>; punctuation and line breaks; the latest of them (where "
           "the clause being written began); from a character of a couplet's second verse, "
           "the same place of its first verse (where parallelism, 对仗, pairs words); from the "
           "character before a rhyme, the rhyme before it; and the "
           "entropy of the weights (nats: 0 for one key, ln(q + 1) spread evenly over the "
           "q + 1 keys the query at position q sees). The "
           "last row is a head that spreads its weight evenly, the yardstick:"));
    const Gpt& g = p.model;
    std::vector<std::string> header = {tr("head")};
    for (const Kind& k : kinds) header.push_back(tr(k.name));
    header.push_back(tr("entropy"));
    Table t(header);
    const std::size_t heads = m.patterns.previous.size();
    for (std::size_t i = 0; i < heads; ++i) {
        std::vector<std::string> r = {head_name(g, i)};
        for (const Kind& k : kinds) r.push_back(percent((m.patterns.*k.values)[i]));
        r.push_back(fixed(m.patterns.entropy[i], 2));
        t.add(r);
    }
    std::vector<std::string> even = {tr("even spread")};
    for (const Kind& k : kinds) even.push_back(percent((m.even.*k.values)[0]));
    even.push_back(fixed(m.even.entropy[0], 2));
    t.add(even);
    ch.table(t);
    for (const Kind& k : kinds) {
        ch.measured(std::string("poet_head_") + k.key, row(m.patterns.*k.values));
        const Leader l = leader(m, k);
        if (l.times_even >= stands_out)
            ch.say(tr("{}: head {} most, {} of its weight, {}× an even spread.", tr(k.name),
                      head_name(g, l.head), percent(l.share), fixed(l.times_even, 1)));
        else
            ch.say(tr("{}: no head gives it twice an even spread (the most, head {}, {}).",
                      tr(k.name), head_name(g, l.head), percent(l.share)));
    }
    ch.measured("poet_head_entropy", row(m.patterns.entropy));
    ch.measured("poet_head_even", row({m.even.previous[0], m.even.bos[0], m.even.punctuation[0],
                                       m.even.clause_start[0], m.even.previous_line[0],
                                       m.even.rhyme[0], m.even.entropy[0]}));
    const auto sharpest = std::min_element(m.patterns.entropy.begin(), m.patterns.entropy.end());
    const auto widest = std::max_element(m.patterns.entropy.begin(), m.patterns.entropy.end());
    ch.say(
        tr("The sharpest head is {} (entropy {} nats), the widest {} ({}); an even spread "
           "has {}.",
           head_name(g, std::size_t(sharpest - m.patterns.entropy.begin())), fixed(*sharpest, 2),
           head_name(g, std::size_t(widest - m.patterns.entropy.begin())), fixed(*widest, 2),
           fixed(m.even.entropy[0], 2)));
    // the leaders' weights on the famous poem
    const std::vector<std::size_t> shown = standing_leaders(m);
    Labels labels;
    for (const int id : m.famous) labels.push_back(token_label(p.corpus.vocabulary, id));
    std::vector<Heatmap> panels;
    for (const std::size_t h : shown)
        panels.push_back(
            {tr("head {}", head_name(g, h)), m.famous_weights[h], labels, labels, Scale::Weights});
    const std::string title = encode_title(in.poet_reading.famous);
    if (!panels.empty()) {
        ch.say(tr("The heads that stand out, on {} (heatmaps: --svg), a poem every reader knows{}.",
                  title,
                  in_training(p, in.poet_reading.famous)
                      ? tr(" — one the poet trained on (a verse of it, or one a character away, "
                           "is in a training poem), so it may know it by heart")
                      : tr(", none of whose verses, nor any a character away, is in a poem it "
                           "trained on")));
        ch.picture("ch14_heads.svg",
                   heatmaps_svg(tr("where the heads that stand out look, on {}", title), panels));
    }
}

// What a head stands out on (twice an even spread or more), in one sentence.
std::string what_it_reads(const Gpt& g, const Measured& m, std::size_t head) {
    std::vector<std::string> on;
    for (const Kind& k : kinds) {
        const double share = (m.patterns.*k.values)[head], even = (m.even.*k.values)[0];
        if (even > 0 && share >= stands_out * even)
            on.push_back(tr("{} ({}, {}× an even spread)", tr(k.name), percent(share),
                            fixed(share / even, 1)));
    }
    return on.empty() ? tr("Head {} stands out on none of the kinds of key above: what it reads "
                           "is something else.",
                           head_name(g, head))
                      : tr("Head {} stands out on {}.", head_name(g, head), listed(on));
}

// A number with its sign, "+0.123" or "−0.123"; one that rounds to zero has none.
std::string signed3(double x) {
    const std::string digits = fixed(std::fabs(x), 3);
    if (digits == fixed(0.0, 3)) return digits;
    return (x >= 0 ? "+" : "−") + digits;
}

// A change of the loss and its standard error, as "+0.123 ± 0.004" (one poem: no error).
std::string change(double base, const Ablated& a, bool judged) {
    return signed3(a.loss - base) + (judged ? " ± " + fixed(a.error, 3) : "");
}

// A change is told from chance when it is at least three standard errors — which takes a sample
// of two poems or more to estimate.
bool real_change(double base, const Ablated& a, bool judged) {
    return judged && std::fabs(a.loss - base) >= 3 * a.error;
}

void ablation_step(Chapter& ch, const Poet& p, const Measured& m) {
    ch.step(tr("Each head taken out"));
    const Gpt& g = p.model;
    const Ablations& a = m.ablations;
    const bool judged = m.sample.poems.size() >= 2;  // a standard error takes two poems
    ch.say(
        tr("On the sample ({}) the poet's loss is {} nats a character. Each head is taken "
           "out in two ways: its output zeroed, or replaced by its mean output over the sample "
           "(the head still adds what it adds on average but no longer reads the text; a "
           "zeroed head also loses that constant, which the layers after it may lean on). "
           "The change of the loss, ± its standard error over poems, and the chance the model "
           "gives a character of doubling (written twice in a row) with the head zeroed — {} "
           "with every head, where these poems double {}:",
           count_of(m.sample.poems.size(), N_("{} poem"), N_("{} poems")), fixed(a.loss, 4),
           percent2(a.repeat), percent2(a.repeat_rate)));
    Table t({tr("head"), tr("zeroed"), tr("mean in its place"), tr("P(doubling)")});
    BarChart chart{tr("the held-out loss's rise with each head (and each block's heads) taken out"),
                   {},
                   {tr("zeroed"), tr("mean in its place")},
                   Matrix(a.zero.size() + a.layer_zero.size(), 2)};
    chart.shares = false;
    chart.unit = tr("nats a character");
    for (std::size_t i = 0; i < a.zero.size(); ++i) {
        t.add({head_name(g, i), change(a.loss, a.zero[i], judged),
               change(a.loss, a.mean[i], judged), percent2(a.zero[i].repeat)});
        chart.groups.push_back(tr("head {}", head_name(g, i)));
        chart.values(i, 0) = a.zero[i].loss - a.loss, chart.values(i, 1) = a.mean[i].loss - a.loss;
    }
    for (std::size_t l = 0; l < a.layer_zero.size(); ++l) {
        t.add({tr("block {}", l + 1), change(a.loss, a.layer_zero[l], judged),
               change(a.loss, a.layer_mean[l], judged), percent2(a.layer_zero[l].repeat)});
        const std::size_t r = a.zero.size() + l;
        chart.groups.push_back(tr("block {}", l + 1));
        chart.values(r, 0) = a.layer_zero[l].loss - a.loss;
        chart.values(r, 1) = a.layer_mean[l].loss - a.loss;
    }
    ch.table(t);
    ch.picture("ch14_ablation.svg", bar_chart_svg(chart));
    std::vector<double> zero, mean;
    for (std::size_t i = 0; i < a.zero.size(); ++i)
        zero.push_back(a.zero[i].loss - a.loss), mean.push_back(a.mean[i].loss - a.loss);
    std::vector<double> zero_error, mean_error, zero_repeat, layer_zero, layer_mean;
    for (std::size_t i = 0; i < a.zero.size(); ++i) {
        zero_error.push_back(a.zero[i].error), mean_error.push_back(a.mean[i].error);
        zero_repeat.push_back(a.zero[i].repeat);
    }
    for (std::size_t l = 0; l < a.layer_zero.size(); ++l)
        layer_zero.push_back(a.layer_zero[l].loss - a.loss),
            layer_mean.push_back(a.layer_mean[l].loss - a.loss);
    ch.measured("poet_sample_poems", double(m.sample.poems.size()));
    ch.measured("poet_ablation_loss", a.loss);
    ch.measured("poet_ablation_zero_change", row(zero));
    ch.measured("poet_ablation_zero_error", row(zero_error));
    ch.measured("poet_ablation_mean_change", row(mean));
    ch.measured("poet_ablation_mean_error", row(mean_error));
    ch.measured("poet_ablation_layer_zero_change", row(layer_zero));
    ch.measured("poet_ablation_layer_mean_change", row(layer_mean));
    ch.measured("poet_repeat_probability", a.repeat);
    ch.measured("poet_repeat_rate", a.repeat_rate);
    ch.measured("poet_repeat_probability_zero", row(zero_repeat));
    // the heads by how much the loss needs them (mean-replaced: what the head reads)
    std::vector<std::size_t> order(a.mean.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t x, std::size_t y) { return a.mean[x].loss > a.mean[y].loss; });
    const std::size_t top = order.front();
    ch.say(
        tr("The model needs head {} most: with its mean in its place the loss rises by {} "
           "nats ({} of the loss). {}",
           head_name(g, top), fixed(a.mean[top].loss - a.loss, 3),
           percent((a.mean[top].loss - a.loss) / a.loss), what_it_reads(g, m, top)));
    if (!judged) {
        ch.say(
            tr("With one poem in the sample there is no standard error: which of these changes "
               "are more than chance cannot be told here."));
        return;
    }
    std::vector<std::string> idle;
    for (std::size_t i = 0; i < a.mean.size(); ++i)
        if (!real_change(a.loss, a.mean[i], judged)) idle.push_back(head_name(g, i));
    if (idle.empty())
        ch.say(
            tr("Every head's mean replacement changes the loss by at least three standard "
               "errors: the poet uses all {}.",
               a.mean.size()));
    else
        ch.say(
            tr("Without {} the loss changes by less than three standard errors: on these "
               "poems the model does as well with the mean in place.",
               listed(idle)));
    // the heads that lead a kind of key, and what the loss says of them
    const std::vector<std::size_t> leaders = standing_leaders(m);
    for (const std::size_t h : leaders) {
        std::vector<std::string> led;
        for (const Kind& k : kinds)
            if (leader(m, k).head == h && leader(m, k).times_even >= stands_out)
                led.push_back(tr(k.name));
        const std::size_t rank =
            std::size_t(std::find(order.begin(), order.end(), h) - order.begin()) + 1;
        ch.say(real_change(a.loss, a.mean[h], judged)
                   ? tr("Head {}, the leader on {}, is number {} of {} by the loss's rise without "
                        "it ({} nats).",
                        head_name(g, h), listed(led), rank, order.size(),
                        fixed(a.mean[h].loss - a.loss, 3))
                   : tr("Head {}, the leader on {}, costs nothing measurable when its mean takes "
                        "its place: a pattern is not a use.",
                        head_name(g, h), listed(led)));
    }
}

// The head whose prefix-matching is strongest.
std::size_t best_copier(const Induction& x) {
    return std::size_t(std::max_element(x.prefix_matching.begin(), x.prefix_matching.end()) -
                       x.prefix_matching.begin());
}

void induction_step(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m) {
    ch.step(tr("Copying: the induction test"));
    const Gpt& g = p.model;
    const Induction& x = m.induction;
    const std::size_t L = in.poet_reading.induction_length;
    ch.say(
        tr("{} sequences of {} characters drawn at random from the vocabulary, each written "
           "twice: <bos> r r. Nothing in the first copy can be predicted; in the second, a "
           "model that copies finds the same character earlier and reads what came after it "
           "(Olsson et al. 2022). The loss on the same {} characters in each copy:",
           in.poet_reading.induction_count, L, L - 1));
    Table losses({tr("copy"), tr("nats a character")});
    losses.add({tr("first"), fixed(x.first_loss, 3)});
    losses.add({tr("second"), fixed(x.second_loss, 3)});
    ch.table(losses);
    ch.measured("poet_induction_first_loss", x.first_loss);
    ch.measured("poet_induction_second_loss", x.second_loss);
    ch.measured("poet_induction_prefix_matching", row(x.prefix_matching));
    ch.measured("poet_induction_first_loss_zero", row(x.first_loss_zeroed));
    ch.measured("poet_induction_second_loss_zero", row(x.second_loss_zeroed));
    const double saved = x.first_loss - x.second_loss;
    ch.say(saved > 0.1 * x.first_loss
               ? tr("The second copy costs {} nats a character less: the poet copies.",
                    fixed(saved, 3))
           : saved > 0 ? tr("The second copy costs only {} nats a character less: the poet "
                            "barely copies.",
                            fixed(saved, 3))
                       : tr("The second copy costs no less than the first: the poet does "
                            "not copy."));
    // each head's prefix-matching score against an even spread over the keys before it
    double even = 0;
    for (std::size_t t = L + 1; t < 2 * L; ++t) even += 1.0 / double(t + 1);
    even /= double(L - 1);
    Table heads({tr("head"), tr("prefix-matching"), tr("× even"),
                 tr("second copy, head zeroed"), tr("saving lost, head zeroed")});
    for (std::size_t i = 0; i < x.prefix_matching.size(); ++i)
        heads.add({head_name(g, i), percent(x.prefix_matching[i]),
                   fixed(x.prefix_matching[i] / even, 1),
                   signed3(x.second_loss_zeroed[i] - x.second_loss), signed3(x.saving_lost(i))});
    ch.say(
        tr("Each head's prefix-matching score (from a second-copy character, the weight on the "
           "character after its first occurrence; an even spread gives {}); the second copy's "
           "loss with the head zeroed; and how much of the saving, first copy's loss less the "
           "second's, zeroing takes away — the copying itself, since zeroing any head harms "
           "both copies:",
           percent(even)));
    ch.table(heads);
    const std::size_t b = best_copier(x);
    const double rise = x.saving_lost(b);
    const Ablated& without = m.ablations.zero[b];
    const bool copier = x.prefix_matching[b] >= 0.3 && saved > 0 && rise > 0.25 * saved;
    ch.say(copier
               ? tr("Head {} is an induction head: {} of its weight goes to the character to "
                    "copy, and zeroing it gives back {} of the {} nats the second copy saves.",
                    head_name(g, b), percent(x.prefix_matching[b]), fixed(rise, 3), fixed(saved, 3))
               : tr("No head is an induction head by this test: the strongest, head {}, puts {} "
                    "on the character to copy, and zeroing it changes the saving by {}.",
                    head_name(g, b), percent(x.prefix_matching[b]), signed3(-rise)));
    // the stutters chapter 12 counts: which head's zeroing lowers the chance of doubling most
    const Ablations& a = m.ablations;
    std::size_t d = 0;
    for (std::size_t i = 0; i < a.zero.size(); ++i)
        if (a.zero[i].repeat < a.zero[d].repeat) d = i;
    if (copier)
        ch.say(
            tr("With the induction head {} zeroed, the chance the poet gives a held-out "
               "character of doubling goes from {} to {}.",
               head_name(g, b), percent2(a.repeat), percent2(without.repeat)));
    ch.say(a.zero[d].repeat < 0.95 * a.repeat
               ? tr("The stutters chapter 12 counts (the poet gives doubling {}, {}× what these "
                    "poems do) owe most to head {}: zeroed, the chance falls to {}.",
                    percent2(a.repeat), fixed(a.repeat / std::max(a.repeat_rate, 1e-12), 1),
                    head_name(g, d), percent2(a.zero[d].repeat))
               : tr("The stutters chapter 12 counts (the poet gives doubling {}, {}× what these "
                    "poems do) owe nothing to one head alone: zeroing any one of them leaves the "
                    "chance at {} or more.",
                    percent2(a.repeat), fixed(a.repeat / std::max(a.repeat_rate, 1e-12), 1),
                    percent2(a.zero[d].repeat)));
}

void lens_step(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m) {
    ch.step(tr("The model read layer by layer: the logit lens"));
    const CharVocabulary& v = p.corpus.vocabulary;
    ch.say(
        tr("Each block adds its part to the residual stream, so the stream after any block is "
           "a vector of the kind the output reads. Read out there — the final norm, then the "
           "output projection — as if the model ended at that block, it says what the model "
           "predicts so far. The loss on the sample ({}) at each point:",
           count_of(m.sample.poems.size(), N_("{} poem"), N_("{} poems"))));
    Table t({tr("read after"), tr("nats a character")});
    for (std::size_t l = 0; l < m.lens_loss.size(); ++l)
        t.add({l == 0 ? tr("the embedding") : tr("block {}", l), fixed(m.lens_loss[l], 3)});
    ch.table(t);
    ch.measured("poet_lens_loss", row(m.lens_loss));
    // two yardsticks on the same poems: a uniform guess, and the unigram of the training poems
    std::vector<Tokens> read;
    for (const PoemReading& r : m.sample.poems) {
        Tokens s{r.inputs.front()};
        s.insert(s.end(), r.targets.begin(), r.targets.end());
        read.push_back(s);
    }
    const double uniform = elementary::log(static_cast<double>(v.size()));
    const double unigram = NgramCounts(p.corpus.training, v.size()).unigram_loss(read);
    ch.measured("poet_lens_unigram_loss", unigram);
    ch.say(tr("For scale, on the same poems: a uniform guess over the {} tokens costs ln {} = {} "
              "nats a character, the unigram (each character's share of the training poems, "
              "whatever came before it) {}.",
              grouped(v.size()), grouped(v.size()), fixed(uniform, 3), fixed(unigram, 3)));
    if (m.lens_loss.front() > uniform)
        ch.say(tr("Read after the embedding the loss, {}, is above even the uniform guess: "
                  "there the tied table predicts the character just read, which poems seldom "
                  "write again. Much of the first block's fall is the stream leaving that "
                  "prediction behind, not yet a reading of the poem.",
                  fixed(m.lens_loss.front(), 3)));
    std::size_t below = 0;  // the first reading below the unigram's
    while (below < m.lens_loss.size() && !(m.lens_loss[below] < unigram)) ++below;
    ch.say(below == m.lens_loss.size()
               ? tr("No reading is below the unigram's {}: this poet has not learned more than "
                    "how common each character is.",
                    fixed(unigram, 3))
               : below == 0 ? tr("Every reading is below the unigram's {}.", fixed(unigram, 3))
                            : tr("The first reading below the unigram's {} is after block {} "
                                 "({}): from there on the stream knows more than how common "
                                 "each character is.",
                                 fixed(unigram, 3), below, fixed(m.lens_loss[below], 3)));
    std::size_t same = 0;  // where the embedding's read-out names the character just read
    for (std::size_t t = 0; t < m.famous.size(); ++t)
        same += m.lens_top[0][t].ids[0] == m.famous[t];
    ch.say(2 * same >= m.famous.size()
               ? tr("Read after the embedding alone, the stream is the character just read, and "
                    "the output projection is the embedding table itself (chapter 12 ties them): "
                    "at {} of the {} positions of {} the likeliest next character is the one just "
                    "read, which is why the loss there is so high.",
                    same, m.famous.size(), encode_title(in.poet_reading.famous))
               : tr("Read after the embedding alone, the likeliest next character is the one just "
                    "read at only {} of the {} positions of {}.",
                    same, m.famous.size(), encode_title(in.poet_reading.famous)));
    std::size_t most = 1;  // the block that lowers the loss most
    for (std::size_t l = 1; l < m.lens_loss.size(); ++l)
        if (m.lens_loss[l - 1] - m.lens_loss[l] > m.lens_loss[most - 1] - m.lens_loss[most])
            most = l;
    if (m.lens_loss.size() > 1)
        ch.say(tr("Block {} does the most: the loss falls from {} to {} across it.", most,
                  fixed(m.lens_loss[most - 1], 3), fixed(m.lens_loss[most], 3)));
    // one clause of the famous poem: the likeliest next character at each point and position
    const std::vector<bool> punctuation = punctuation_of(v, in.punctuation);
    const PoemReading famous =
        read_poem(encode(v, in.poet_reading.famous), in.poet_reading.context, punctuation);
    const std::size_t c = in.poet_reading.lens_clause;
    if (c >= famous.clauses.size() || famous.clauses[c].back() >= famous.inputs.size() + 1) {
        ch.say(tr("{} has no clause {} within the window: no line to read layer by layer.",
                  encode_title(in.poet_reading.famous), c + 1));
        return;
    }
    const std::vector<std::size_t>& clause = famous.clauses[c];
    Labels header = {tr("read after")};
    for (const std::size_t q : clause) header.push_back(token_label(v, famous.targets[q - 1]));
    Table line(header);
    std::vector<Words> firsts, fives;  // for --json: the likeliest at each point
    for (std::size_t l = 0; l < m.lens_top.size(); ++l) {
        std::vector<std::string> r = {l == 0 ? tr("the embedding") : tr("block {}", l)};
        Words first;
        for (const std::size_t q : clause) {
            const TopTokens& top = m.lens_top[l][q - 1];
            r.push_back(token_label(v, top.ids[0]) + " " + fixed(100 * top.probabilities[0], 0) +
                        "%");
            first.push_back(v.names.at(std::size_t(top.ids[0])));
        }
        line.add(r);
        firsts.push_back(first);
    }
    ch.reported("poet_lens_clause_likeliest", firsts);
    std::string clause_text;
    for (const std::size_t q : clause) clause_text += token_label(v, famous.targets[q - 1]);
    ch.say(
        tr("Clause {} of {}, {}: at each point, the likeliest next character and its "
           "probability, under each character to predict:",
           c + 1, encode_title(in.poet_reading.famous), clause_text));
    ch.table(line);
    const std::size_t last = clause.back() - 1;  // the query that predicts the clause's last
    const int target = famous.targets[last];
    Table five({tr("read after"), "1", "2", "3", "4", "5"});
    std::size_t first_seen = m.lens_top.size();
    for (std::size_t l = 0; l < m.lens_top.size(); ++l) {
        const TopTokens& top = m.lens_top[l][last];
        std::vector<std::string> cells = {l == 0 ? tr("the embedding") : tr("block {}", l)};
        Words names;
        for (const int id : top.ids) names.push_back(v.names.at(std::size_t(id)));
        fives.push_back(names);
        for (std::size_t k = 0; k < top.ids.size(); ++k) {
            cells.push_back(token_label(v, top.ids[k]) + " " +
                            fixed(100 * top.probabilities[k], 1) + "%");
            if (top.ids[k] == target && first_seen == m.lens_top.size()) first_seen = l;
        }
        five.add(cells);
    }
    ch.reported("poet_lens_five_likeliest", fives);
    ch.say(
        tr("And the five likeliest, most likely first, at the last of them, where {} is to "
           "come:",
           token_label(v, target)));
    ch.table(five);
    ch.say(first_seen == m.lens_top.size()
               ? tr("{} is not among the five likeliest at any point.", token_label(v, target))
           : first_seen == 0
               ? tr("{} is among the five likeliest from the embedding on.", token_label(v, target))
               : tr("{} first enters the five likeliest after block {}.", token_label(v, target),
                    first_seen));
}

void summary_step(Chapter& ch, const Poet& p, const Measured& m) {
    ch.step(tr("Head by head"));
    const Gpt& g = p.model;
    const Ablations& a = m.ablations;
    ch.say(
        tr("What the measures above say of each head: the kinds of key it gives twice an even "
           "spread or more, the loss's rise with its mean in its place (* : three standard "
           "errors or more), and its prefix-matching score:"));
    Table t({tr("head"), tr("stands out on"), tr("loss without it"), tr("copies")});
    for (std::size_t i = 0; i < a.mean.size(); ++i) {
        std::vector<std::string> on;
        for (const Kind& k : kinds) {
            const double even = (m.even.*k.values)[0];
            if (even > 0 && (m.patterns.*k.values)[i] >= stands_out * even)
                on.push_back(tr(k.name));
        }
        std::string joined;
        for (const std::string& o : on) joined += (joined.empty() ? "" : tr(", ")) + o;
        t.add({head_name(g, i), joined.empty() ? "—" : joined,
               signed3(a.mean[i].loss - a.loss) +
                   (real_change(a.loss, a.mean[i], m.sample.poems.size() >= 2) ? " *" : ""),
               percent(m.induction.prefix_matching[i])});
    }
    ch.table(t);
    ch.say(
        tr("(one trained poet, measured on its held-out poems; another training run may give "
           "its heads other jobs, in another order)"));
    // counted over disjoint kinds: a clause starts at a punctuation mark or a line break, so a
    // head that stands out on both is one behaviour, counted once
    std::size_t one = 0, several = 0, none = 0;
    for (std::size_t i = 0; i < a.mean.size(); ++i) {
        std::size_t kinds_on = 0;
        bool punctuation_family = false;
        for (const Kind& k : kinds) {
            const double even = (m.even.*k.values)[0];
            const bool on = even > 0 && (m.patterns.*k.values)[i] >= stands_out * even;
            const std::string key = k.key;
            if (key == "punctuation" || key == "clause_start")
                punctuation_family = punctuation_family || on;
            else
                kinds_on += on;
        }
        kinds_on += punctuation_family;
        (kinds_on == 0 ? none : kinds_on == 1 ? one : several) += 1;
    }
    ch.correction(
        tr("05, multi-head attention"),
        tr("05 says multi-head attention gives each head room to focus on one kind of "
           "relation. Measured on this poet's {} heads against the kinds of key above (punctuation "
           "and clause starts counted as one kind: a clause starts at a mark), the heads that "
           "stand out on one kind only: {}; on several: {}; on none: {}. "
           "And a head that stands out is not always one the loss needs most (the "
           "table above).",
           a.mean.size(), one, several, none));
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data, ch.options);
    std::optional<Poet> read = named_poet(ch.options, in.poet, "ch14");  // before any narration
    small_step(ch, in);
    if (ch.options.check) return;  // the rest reads chapter 12's poet: measured, not compared
    const Poet p = read ? std::move(*read) : poet_from_flags(ch.options, in.poet, "ch14");
    const CharVocabulary& v = p.corpus.vocabulary;
    const std::vector<bool> punctuation = punctuation_of(v, in.punctuation);
    check_drawable(ch.data, v, punctuation, tr("chapter 12's model"));
    check_knows_the_poems(p);
    std::vector<PoemReading> heldout;
    for (const Tokens& poem : p.corpus.heldout)
        if (poem.size() >= 2)
            heldout.push_back(read_poem(poem, in.poet_reading.context, punctuation));
    if (heldout.empty()) throw std::runtime_error(tr("the corpus holds no held-out poem to read"));
    const Measured m = measure(p.model, v, punctuation, heldout, in.sample_poems, in.sample_seed,
                               in.poet_reading);
    check_finite(p, m.ablations);
    poet_step(ch, in, p, m, heldout.size());
    patterns_step(ch, in, p, m);
    ablation_step(ch, p, m);
    induction_step(ch, in, p, m);
    lens_step(ch, in, p, m);
    summary_step(ch, p, m);
}
}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch14_inside_the_poet",
        N_("what chapter 12's poet learned, head by head: where each head looks, the loss "
           "without it, copying (induction heads), and the prediction layer by layer (the logit "
           "lens)"),
        N_("05 (multi-head attention gives each head room to focus on one kind of relation), "
           "measured on a trained model"),
        {svg_flag(),
         {"--weights", "FILE",
          N_("the poet to read (default: build/ch12_gpt_model.json, or one trained here for a "
             "few steps)")},
         {"--corpus", "NAME",
          N_("train chapter 12's kind of model here, on this corpus (as ch12's --corpus), "
             "instead of reading a saved one")},
         {"--steps", "N", N_("train N steps instead of the data file's")},
         {"--sample", "N",
          N_("take heads out and read the layers on the first N held-out poems (default: the "
             "data file's)")}}};
    return run_chapter(argc, argv, info, walkthrough);
}
