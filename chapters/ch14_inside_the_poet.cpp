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

#include "ch14_inside_the_poet/heads.h"
#include "ch14_inside_the_poet/inputs.h"
#include "ch14_inside_the_poet/measures.h"
#include "ch14_inside_the_poet/naming.h"
#include "ch14_inside_the_poet/oracle_check.h"
#include "ch14_inside_the_poet/repetition.h"
#include "ch14_inside_the_poet/your_poem.h"
#include "core/elementary.h"
#include "core/random.h"
#include "io/gpt_file.h"
#include "io/platform.h"
#include "io/saved_poet.h"
#include "report/bar_chart.h"
#include "report/chapter.h"
#include "report/poet_flags.h"
#include "report/heatmap.h"
#include "report/progress.h"
#include "inside/ablations.h"
#include "inside/head_patterns.h"
#include "inside/induction.h"
#include "inside/logit_lens.h"
#include "ngram/ngram.h"
#include "text/translate.h"
#include "verse/poem_measures.h"
#include "inside/poem_sample.h"
#include "verse/poems.h"

// The parts in this chapter's folder are in namespace ch14_inside_the_poet, so that one module can hold
// several chapters (the live book's, src/web/live_book.cpp).
using namespace ch14_inside_the_poet;

namespace {

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

void poet_step(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m,
               std::size_t heldout) {
    ch.step(tr("Chapter 12's poet and the poems it never saw"));
    ch.say(p.origin);
    ch.measured("poet_heldout_poems", double(heldout));
    const Gpt& g = p.model;
    if (p.corpus.heldout_unknown > 0)
        ch.say(tr("Its vocabulary holds {} tokens: {} places in the held-out poems hold a "
                  "character unknown to it (each time it appears), read as <unk>.",
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

std::size_t best_copier(const Induction& x) {
    return std::size_t(std::max_element(x.prefix_matching.begin(), x.prefix_matching.end()) -
                       x.prefix_matching.begin());
}

void induction_heads(Chapter& ch, const Gpt& g, const Measured& m, std::size_t L);
void say_repeat_owed(Chapter& ch, const Gpt& g, const Ablations& a, std::size_t d,
                     std::size_t block);

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
    ch.measured("poet_induction_prefix_matching", row_matrix(x.prefix_matching));
    ch.measured("poet_induction_first_loss_zero", row_matrix(x.first_loss_zeroed));
    ch.measured("poet_induction_second_loss_zero", row_matrix(x.second_loss_zeroed));
    const double saved = x.first_loss - x.second_loss;
    ch.say(saved > 0.1 * x.first_loss
               ? tr("The second copy costs {} nats a character less: the poet copies.",
                    fixed(saved, 3))
           : saved > 0 ? tr("The second copy costs only {} nats a character less: the poet "
                            "barely copies.",
                            fixed(saved, 3))
                       : tr("The second copy costs no less than the first: the poet does "
                            "not copy."));
    induction_heads(ch, g, m, L);
}

// Each head's prefix-matching score and what zeroing it costs the second copy; whether one is an
// induction head; which head the stutters chapter 12 counts owe most to.
void induction_heads(Chapter& ch, const Gpt& g, const Measured& m, std::size_t L) {
    const Induction& x = m.induction;
    const double saved = x.first_loss - x.second_loss;
    // each head's prefix-matching score against an even spread over the keys before it
    double even = 0;
    for (std::size_t t = L + 1; t < 2 * L; ++t) even += 1.0 / double(t + 1);
    even /= double(L - 1);
    Table heads({tr("head"), tr("prefix-matching"), tr("× even"),
                 tr("second copy's change, head zeroed"), tr("saving lost, head zeroed")});
    std::size_t lower = 0;  // heads whose zeroing lowers the second copy's loss
    for (std::size_t i = 0; i < x.prefix_matching.size(); ++i) {
        heads.add({head_name(g, i), percent(x.prefix_matching[i]),
                   fixed(x.prefix_matching[i] / even, 1),
                   signed3(x.second_loss_zeroed[i] - x.second_loss), signed3(x.saving_lost(i))});
        if (x.second_loss_zeroed[i] < x.second_loss) ++lower;
    }
    const std::size_t n = x.prefix_matching.size();
    ch.say(
        tr("Each head's prefix-matching score (from a second-copy character, the weight on the "
           "character after its first occurrence; an even spread gives {}); how the second copy's "
           "loss changes with the head zeroed; and how much of the saving, first copy's loss less "
           "the second's, zeroing takes away. The saving is what measures copying, not the loss: "
           "zeroing a head moves the first copy's loss too.",
           percent(even)));
    ch.say(lower == 0    ? tr("Zeroing any one of the {} heads raises the second copy's loss:", n)
           : lower == n ? tr("Zeroing any one of the {} heads lowers the second copy's loss:", n)
                        : tr("Zeroing a head lowers the second copy's loss for {} of the {} heads "
                             "and raises it for the rest:",
                             lower, n));
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
    // the same character next (what chapter 12 counts in written poems as 同字连用): which
    // head's zeroing lowers its chance most, against the sample's own rate
    const Ablations& a = m.ablations;
    std::size_t d = 0, block = 0;
    for (std::size_t i = 0; i < a.zero.size(); ++i)
        if (a.zero[i].repeat < a.zero[d].repeat) d = i;
    for (std::size_t l = 0; l < a.layer_zero.size(); ++l)
        if (a.layer_zero[l].repeat < a.layer_zero[block].repeat) block = l;
    if (copier)
        ch.say(
            tr("With the induction head {} zeroed, the chance the poet writes a held-out "
               "character again right after itself goes from {} to {}.",
               head_name(g, b), percent2(a.repeat), percent2(without.repeat)));
    say_repeat_owed(ch, g, a, d, block);
}

// The chance of the same character next against the sample's rate, and what the head (d) and
// the block whose zeroing lowers it most take of the excess.
void say_repeat_owed(Chapter& ch, const Gpt& g, const Ablations& a, std::size_t d,
                     std::size_t block) {
    const double excess = a.repeat - a.repeat_rate, head = a.repeat - a.zero[d].repeat;
    ch.say(tr("On these poems the poet gives the character just written {} of the chance to come "
              "again; the poems themselves write a character twice in a row at {} of their places.",
              percent2(a.repeat), percent2(a.repeat_rate)));
    if (excess <= 0 || head <= 0) {
        ch.say(tr("Zeroing a head lowers that chance at most to {} (head {}).",
                  percent2(std::min(a.repeat, a.zero[d].repeat)), head_name(g, d)));
        return;
    }
    ch.say(tr("Of the excess, {} points, zeroing head {} takes away the most, {} points ({}): the "
              "chance falls to {}. Zeroing block {}, all its heads, leaves {}.",
              fixed(100 * excess, 2), head_name(g, d), fixed(100 * head, 2),
              percent(head / excess), percent2(a.zero[d].repeat), block + 1,
              percent2(a.layer_zero[block].repeat)));
}
// The unigram of the training poems (each character's share, whatever came before it), its
// loss on the sample's poems: the logit lens's yardstick.
double unigram_on_sample(const Poet& p, const Measured& m) {
    std::vector<Tokens> read;
    for (const PoemReading& r : m.sample.poems) {
        Tokens s{r.inputs.front()};
        s.insert(s.end(), r.targets.begin(), r.targets.end());
        read.push_back(s);
    }
    return NgramCounts(p.corpus.training, p.corpus.vocabulary.size()).unigram_loss(read);
}

void say_lens_against_yardsticks(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m);
void lens_clause(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m);
void lens_five_likeliest(Chapter& ch, const CharVocabulary& v, const Measured& m,
                         std::size_t last, int target);

void lens_step(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m) {
    ch.step(tr("The model read layer by layer: the logit lens"));
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
    ch.measured("poet_lens_loss", row_matrix(m.lens_loss));
    say_lens_against_yardsticks(ch, in, p, m);
    lens_clause(ch, in, p, m);
}

// The lens's losses against two yardsticks on the same poems, a uniform guess and the unigram;
// what the embedding's read-out predicts; the block that does the most.
void say_lens_against_yardsticks(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m) {
    const CharVocabulary& v = p.corpus.vocabulary;
    const double uniform = elementary::log(static_cast<double>(v.size()));
    const double unigram = unigram_on_sample(p, m);
    ch.measured("poet_lens_unigram_loss", unigram);
    ch.say(tr("For scale, on the same poems: a uniform guess over the {} tokens costs ln {} = {} "
              "nats a character, the unigram (each character's share of the training poems, "
              "whatever came before it) {}.",
              grouped(v.size()), grouped(v.size()), fixed(uniform, 3), fixed(unigram, 3)));
    if (m.lens_loss.front() > uniform)
        ch.say(p.model.config.share_embeddings
                   ? tr("Read after the embedding the loss, {}, is above even the uniform guess: "
                        "there the tied table predicts the character just read, which poems "
                        "seldom write again. Much of the first block's fall is the stream leaving "
                        "that prediction behind, not yet a reading of the poem.",
                        fixed(m.lens_loss.front(), 3))
                   : tr("Read after the embedding the loss, {}, is above even the uniform guess: "
                        "the embedding alone, read through the output table, is not yet a "
                        "prediction of the poem; the blocks make it one.",
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
    ch.say(!p.model.config.share_embeddings
               ? tr("Read after the embedding alone, through this poet's own output table (not "
                    "tied to the embedding), the likeliest next character is the one just read at "
                    "{} of the {} positions of {}.",
                    same, m.famous.size(), encode_title(in.poet_reading.famous))
           : 2 * same >= m.famous.size()
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
}

// One clause of the famous poem read layer by layer: the likeliest next character at each point
// and position, then the five likeliest where the clause's last character is to come.
void lens_clause(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m) {
    const CharVocabulary& v = p.corpus.vocabulary;
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
    std::vector<Words> firsts;  // for --json: the likeliest at each point
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
    lens_five_likeliest(ch, v, m, last, famous.targets[last]);
}

void lens_five_likeliest(Chapter& ch, const CharVocabulary& v, const Measured& m,
                         std::size_t last, int target) {
    std::vector<Words> fives;  // for --json
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

// How many heads stand out on one kind of key only, on several, on none — the kinds counted
// disjoint: a clause starts at a punctuation mark or a line break, so a head that stands out on
// both is one behaviour, counted once.
struct HeadKinds {
    std::size_t one = 0, several = 0, none = 0;
};
HeadKinds head_kinds(const Measured& m) {
    HeadKinds h;
    for (std::size_t i = 0; i < m.ablations.mean.size(); ++i) {
        std::size_t kinds_on = 0;
        bool punctuation_family = false;
        for (const Kind* k : kinds_standing_out(m, i)) {
            const std::string key = k->key;
            if (key == "punctuation" || key == "clause_start")
                punctuation_family = true;
            else
                kinds_on += 1;
        }
        kinds_on += punctuation_family;
        (kinds_on == 0 ? h.none : kinds_on == 1 ? h.one : h.several) += 1;
    }
    return h;
}

void summary_step(Chapter& ch, const Poet& p, const Measured& m) {
    const HeadKinds counted = head_kinds(m);
    ch.step(tr("Head by head"));
    const Gpt& g = p.model;
    const Ablations& a = m.ablations;
    ch.say(
        tr("What the measures above say of each head: the kinds of key it gives twice an even "
           "spread or more, the loss's rise with its mean in its place (* : three standard "
           "errors or more), and its prefix-matching score:"));
    Table t({tr("head"), tr("stands out on"), tr("loss without it"), tr("copies")});
    for (std::size_t i = 0; i < a.mean.size(); ++i) {
        std::string joined;
        for (const Kind* k : kinds_standing_out(m, i))
            joined += (joined.empty() ? "" : tr(", ")) + tr(k->name);
        t.add({head_name(g, i), joined.empty() ? "—" : joined,
               signed3(a.mean[i].loss - a.loss) +
                   (real_change(a.loss, a.mean[i], m.sample.poems.size() >= 2) ? " *" : ""),
               percent(m.induction.prefix_matching[i])});
    }
    ch.table(t);
    ch.say(
        tr("(one trained poet, measured on its held-out poems; another training run may give "
           "its heads other jobs, in another order)"));
    ch.correction(
        tr("05, multi-head attention"),
        tr("05 says multi-head attention gives each head room to focus on one kind of "
           "relation. Measured on this poet's {} heads against the kinds of key above (punctuation "
           "and clause starts counted as one kind: a clause starts at a mark), the heads that "
           "stand out on one kind only: {}; on several: {}; on none: {}. "
           "And a head that stands out is not always one the loss needs most (the "
           "table above).",
           a.mean.size(), counted.one, counted.several, counted.none));
}

// --poem TEXT: the heads on the reader's poem, nothing else (the live book's poet page).
void your_poem(Chapter& ch, const Inputs& in) {
    const Options& o = ch.options;
    if (o.check) throw UsageError(tr("--poem reads a poem and checks nothing: give --check or --poem"));
    for (const char* flag : {"--corpus", "--steps", "--sample"})
        if (o.has(flag)) throw UsageError(tr("{}: --poem reads the saved model, nothing more", flag));
    const std::string saved = o.program_dir + "/ch12_gpt_model.json";
    if (!o.has("--weights") && !open_for_reading(saved))
        throw UsageError(tr("--poem reads chapter 12's saved poet: --weights FILE, or make run, "
                            "which saves {}",
                            saved));
    your_poem_step(ch, in, o.has("--weights") ? o.value("--weights") : saved, o.text("--poem"));
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data, ch.options);
    if (ch.options.has("--poem")) return your_poem(ch, in);
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
    repetition_step(ch, p, m);
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
         {"--poem", "TEXT",
          N_("only read this poem: where each head looks on it, and every head's weights as "
             "heatmaps (the live book's poet page; \\n in it is a line break)")},
         {"--sample", "N",
          N_("take heads out and read the layers on the first N held-out poems (default: the "
             "data file's)")}}};
    return run_chapter(argc, argv, info, walkthrough);
}
