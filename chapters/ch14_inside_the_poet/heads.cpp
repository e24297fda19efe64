// ch14_inside_the_poet/heads.cpp — chapter 14's poet head by head: where each looks, and what the
// loss is without it.
#include "ch14_inside_the_poet/heads.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ch14_inside_the_poet/naming.h"
#include "model/gpt/gpt.h"
#include "report/bar_chart.h"
#include "report/chapter.h"
#include "report/heatmap.h"

namespace ch14_inside_the_poet {

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

namespace {

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

}  // namespace

void leaders_on_famous_poem(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m);

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
    patterns_table(ch, g, m);
    const auto sharpest = std::min_element(m.patterns.entropy.begin(), m.patterns.entropy.end());
    const auto widest = std::max_element(m.patterns.entropy.begin(), m.patterns.entropy.end());
    ch.say(
        tr("The sharpest head is {} (entropy {} nats), the widest {} ({}); an even spread "
           "has {}.",
           head_name(g, std::size_t(sharpest - m.patterns.entropy.begin())), fixed(*sharpest, 2),
           head_name(g, std::size_t(widest - m.patterns.entropy.begin())), fixed(*widest, 2),
           fixed(m.even.entropy[0], 2)));
    leaders_on_famous_poem(ch, in, p, m);
}

// Each head's shares of each kind of key and its entropy, beside an even spread's; the leader of
// each kind.
void patterns_table(Chapter& ch, const Gpt& g, const Measured& m) {
    std::vector<std::string> header = {tr("head")};
    for (const Kind& k : kinds) header.push_back(tr(k.name));
    header.push_back(tr("entropy"));
    Table t(header);
    const std::size_t heads = m.patterns.previous.size();
    for (std::size_t i = 0; i < heads; ++i) {
        std::vector<std::string> r = {head_name(g, i)};
        for (const Kind& k : kinds)
            r.push_back(m.patterns.*k.queries ? percent((m.patterns.*k.values)[i]) : "–");
        r.push_back(fixed(m.patterns.entropy[i], 2));
        t.add(r);
    }
    std::vector<std::string> even = {tr("even spread")};
    for (const Kind& k : kinds)
        even.push_back(m.patterns.*k.queries ? percent((m.even.*k.values)[0]) : "–");
    even.push_back(fixed(m.even.entropy[0], 2));
    t.add(even);
    ch.table(t);
    for (const Kind& k : kinds) {
        ch.measured(std::string("poet_head_") + k.key, row_matrix(m.patterns.*k.values));
        const Leader l = leader(m, k);
        // each column's share is over its own queries (a poem of two couplets has one rhyme to
        // look back to): their number beside it
        const std::string over = tr("{} ({})", tr(k.name),
                                    count_of(m.patterns.*k.queries, N_("{} query"), N_("{} queries")));
        if (m.patterns.*k.queries == 0)
            ch.say(tr("{}: no query of this kind here (–).", tr(k.name)));
        else if (l.share == 0)  // no key of the kind to look at (a poem without punctuation)
            ch.say(tr("{}: no head gives it any weight (every head 0.0%).", over));
        else if (l.times_even >= stands_out)
            ch.say(tr("{}: head {} most, {} of its weight, {}× an even spread.", over,
                      head_name(g, l.head), percent(l.share), fixed(l.times_even, 1)));
        else
            ch.say(tr("{}: no head gives it twice an even spread (the most, head {}, {}).",
                      over, head_name(g, l.head), percent(l.share)));
    }
    ch.measured("poet_head_entropy", row_matrix(m.patterns.entropy));
    ch.measured("poet_head_even", row_matrix({m.even.previous[0], m.even.bos[0], m.even.punctuation[0],
                                       m.even.clause_start[0], m.even.previous_line[0],
                                       m.even.rhyme[0], m.even.entropy[0]}));
}

// The weights of the heads that stand out, on the famous poem (heatmaps).
void leaders_on_famous_poem(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m) {
    const Gpt& g = p.model;
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

std::vector<const Kind*> kinds_standing_out(const Measured& m, std::size_t head) {
    std::vector<const Kind*> on;
    for (const Kind& k : kinds) {
        const double even = (m.even.*k.values)[0];
        if (even > 0 && (m.patterns.*k.values)[head] >= stands_out * even) on.push_back(&k);
    }
    return on;
}

// What a head stands out on (twice an even spread or more), in one sentence.
std::string what_it_reads(const Gpt& g, const Measured& m, std::size_t head) {
    std::vector<std::string> on;
    for (const Kind* k : kinds_standing_out(m, head)) {
        const double share = (m.patterns.*k->values)[head], even = (m.even.*k->values)[0];
        on.push_back(tr("{} ({}, {}× an even spread)", tr(k->name), percent(share),
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

void ablation_table(Chapter& ch, const Gpt& g, const Ablations& a, bool judged);
void measured_ablations(Chapter& ch, const Measured& m);
void say_which_heads_matter(Chapter& ch, const Gpt& g, const Measured& m, bool judged);

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
    ablation_table(ch, g, a, judged);
    measured_ablations(ch, m);
    say_which_heads_matter(ch, g, m, judged);
}

// The change of the loss with each head, and each block's heads, taken out: a table and a chart.
void ablation_table(Chapter& ch, const Gpt& g, const Ablations& a, bool judged) {
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
}

void measured_ablations(Chapter& ch, const Measured& m) {
    const Ablations& a = m.ablations;
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
    ch.measured("poet_ablation_zero_change", row_matrix(zero));
    ch.measured("poet_ablation_zero_error", row_matrix(zero_error));
    ch.measured("poet_ablation_mean_change", row_matrix(mean));
    ch.measured("poet_ablation_mean_error", row_matrix(mean_error));
    ch.measured("poet_ablation_layer_zero_change", row_matrix(layer_zero));
    ch.measured("poet_ablation_layer_mean_change", row_matrix(layer_mean));
    ch.measured("poet_repeat_probability", a.repeat);
    ch.measured("poet_repeat_rate", a.repeat_rate);
    ch.measured("poet_repeat_probability_zero", row_matrix(zero_repeat));
}

// Which head the loss needs most, which it does without, and whether the heads that lead a kind
// of key are the ones it needs.
void say_which_heads_matter(Chapter& ch, const Gpt& g, const Measured& m, bool judged) {
    const Ablations& a = m.ablations;
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

}  // namespace ch14_inside_the_poet
