// ch11_long_sequences — attention without the n × n matrix: the softmax in one pass, attention
// block by block (forward and backward), and the memory each way, counted.
//
// Tutorial: 04's table (性能) gives self-attention O(n²·d) per layer, and chapter 8 printed the
// bytes of the n × n matrix that the standard computation keeps. This chapter shows that the
// n² is work, not memory: the same numbers come out of blocks whose memory grows as n·d.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ch11_long_sequences/inputs.h"
#include "ch11_long_sequences/memory.h"
#include "core/elementary.h"
#include "core/matmul.h"
#include "core/matrix.h"
#include "core/random.h"
#include "model/attention/attention.h"
#include "model/attention/online_softmax.h"
#include "model/attention/tiled_attention.h"
#include "report/allocation_counter.h"
#include "report/chapter.h"
#include "report/chart.h"
#include "report/heatmap.h"
#include "report/measure.h"
#include "text/translate.h"

// The parts in this chapter's folder are in namespace ch11_long_sequences, so that one module can hold
// several chapters (the live book's, src/web/live_book.cpp).
using namespace ch11_long_sequences;

namespace {

const double neg_inf = -std::numeric_limits<double>::infinity();

// How far apart two doubles are, in units in the last place: 0 for the same bits.
std::uint64_t ulps_apart(double a, double b) {
    std::int64_t x, y;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    if (x < 0) x = std::numeric_limits<std::int64_t>::min() - x;
    if (y < 0) y = std::numeric_limits<std::int64_t>::min() - y;
    return x > y ? static_cast<std::uint64_t>(x - y) : static_cast<std::uint64_t>(y - x);
}

// Every row of scores the chapter meets: the online row and each case's scaled scores.
std::vector<std::vector<double>> score_rows(const Inputs& in) {
    std::vector<std::vector<double>> rows = {in.online_scores};
    for (const Case& c : in.cases) {
        const Matrix S = scale(matmul_bt(c.Q, c.K), attention_scale(c.K.cols));
        for (std::size_t i = 0; i < S.rows; ++i) {
            std::vector<double> row(S.row(i), S.row(i) + S.cols);
            for (std::size_t j = 0; j < S.cols; ++j)
                if ((c.rule.causal && j > i) || c.rule.padding[j]) row[j] = neg_inf;
            rows.push_back(row);
        }
    }
    return rows;
}

// What happened to the running numbers at one score, in words.
std::string step_note(std::size_t j, const OnlineStep& s, double max_before) {
    if (j == 0 || max_before == neg_inf)
        return s.max == neg_inf ? tr("hidden: nothing to add") : tr("first score: m = it, l = 1");
    if (!s.rescaled)
        return s.score == neg_inf ? tr("hidden: adds 0")
                                  : tr("l + exp({} − {})", general(s.score, 6), general(s.max, 6));
    return tr("m grew: l · exp({} − {}) + 1", general(max_before, 6), general(s.max, 6));
}

void one_pass(Chapter& ch, const Inputs& in) {
    std::vector<OnlineStep> steps;
    const std::vector<double> w = online_softmax(in.online_scores, &steps);
    ch.step(tr("Softmax in one pass: a running maximum and a running sum"));
    ch.say(
        tr("Chapter 2's softmax reads a row three times: for its maximum m, for the sum "
           "l = Σ exp(x − m), and to divide. Read once from left to right, only the maximum so "
           "far is known, so the sum is kept relative to it; when a larger score arrives, the "
           "sum so far is multiplied by exp(m − m') ≤ 1 and the new term added. Here on the "
           "unscaled scores of {} from 01's hand calculation:",
           in.online_query));
    Table t(
        {tr("key"), tr("score"), tr("running max m"), tr("running sum l"), tr("what happened")});
    std::vector<double> maxes, sums;
    for (std::size_t j = 0; j < steps.size(); ++j) {
        const double before = j == 0 ? neg_inf : steps[j - 1].max;
        t.add({in.online_tokens[j], general(steps[j].score, 6), general(steps[j].max, 6),
               general(steps[j].sum, 12), step_note(j, steps[j], before)});
        maxes.push_back(steps[j].max);
        sums.push_back(steps[j].sum);
    }
    ch.table(t);
    ch.record("online_max", row_matrix(maxes), Shape::Vector);
    ch.record("online_sum", row_matrix(sums), Shape::Vector);
    ch.show("online_weights", tr("weights of {}: exp(x − m) / l after the pass", in.online_query),
            row_matrix(w), {in.online_query}, in.online_tokens, 6);
}

// The one pass against chapter 2's softmax (softmax_rows) on every row the chapter meets.
void against_chapter_2(Chapter& ch, const Inputs& in) {
    const std::vector<double> hidden = online_softmax({neg_inf, neg_inf, neg_inf});
    const bool zeros = std::all_of(hidden.begin(), hidden.end(), [](double x) { return x == 0; });
    std::size_t weights = 0, same = 0;
    std::uint64_t worst_ulps = 0;
    double worst = 0.0;
    const std::vector<std::vector<double>> rows = score_rows(in);
    for (const std::vector<double>& row : rows) {
        const std::vector<double> online = online_softmax(row);
        const Matrix three_pass = softmax_rows(row_matrix(row));
        for (std::size_t j = 0; j < row.size(); ++j, ++weights) {
            const std::uint64_t u = ulps_apart(online[j], three_pass(0, j));
            same += u == 0;
            worst_ulps = std::max(worst_ulps, u);
            worst = std::max(worst, std::fabs(online[j] - three_pass(0, j)));
        }
    }
    ch.measured("online_softmax_max_abs_diff", worst);
    if (worst_ulps == 0)
        ch.say(
            tr("Against chapter 2's softmax on all {} rows of scores in this chapter ({} "
               "weights): the same bits, every one.",
               rows.size(), weights));
    else
        ch.say(
            tr("Against chapter 2's softmax on all {} rows of scores in this chapter ({} weights): "
               "{} have the same bits; the others differ by at most {} in the last "
               "place (largest difference {}). The exponentials are the same numbers — both "
               "subtract the row's final maximum — so only l differs: the one pass adds each term "
               "relative to the maximum it knew then and multiplies by exp(m − m') when the "
               "maximum grows, and each of those roundings can move l's last bits.",
               rows.size(), weights, same,
               count_of(static_cast<std::size_t>(worst_ulps), N_("{} unit"), N_("{} units")),
               sci(worst)));
    ch.say(zeros ? tr("A row whose keys are all hidden (three scores of −inf): m stays −inf, l "
                      "stays 0, and the weights come out 0, 0, 0 — as chapter 3's softmax "
                      "gives, never 0/0.")
                 : tr("A row whose keys are all hidden did NOT come out as zeros: a bug."));
}

// The standard attention's additive mask for a rule (the n × m matrix tiled attention avoids).
Matrix mask_of(const KeyRule& rule, std::size_t n, std::size_t m) {
    Matrix mask(n, m);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j)
            if ((rule.causal && j > i) || (!rule.padding.empty() && rule.padding[j]))
                mask(i, j) = neg_inf;
    return mask;
}

std::string blocks_text(const Case& c) {
    const std::size_t qb = (c.Q.rows + c.tiles.queries - 1) / c.tiles.queries,
                      kb = (c.K.rows + c.tiles.keys - 1) / c.tiles.keys;
    return tr("{} × {}, each {}×{}", qb, kb, c.tiles.queries, c.tiles.keys);
}

// "within 1e-12" or not, worded from the value
std::string within(double diff) {
    return diff <= tolerance::single_op ? tr("within 1e-12") : tr("NOT within 1e-12");
}

// One case tiled and standard: the tiled pass, its largest difference from the standard one, and
// its query rows that saw no key (how many, and how many of those came out as zeros).
struct TiledCase {
    TiledAttention tiled;
    double diff = 0;
    std::size_t empty_rows = 0, empty_zero = 0;
};
TiledCase tiled_case(const Case& c) {
    TiledCase r{tiled_attention(c.Q, c.K, c.V, c.rule, c.tiles), 0, 0, 0};
    const AttentionResult standard = attention(c.Q, c.K, c.V, mask_of(c.rule, c.Q.rows, c.K.rows));
    r.diff = max_abs_diff(r.tiled.output, standard.output);
    for (std::size_t i = 0; i < c.Q.rows; ++i)
        if (r.tiled.lse[i] == neg_inf) {
            ++r.empty_rows;
            r.empty_zero += std::all_of(r.tiled.output.row(i), r.tiled.output.row(i) + c.V.cols,
                                        [](double x) { return x == 0; });
        }
    return r;
}

void forward(Chapter& ch, const Inputs& in) {
    std::vector<TiledCase> runs;
    for (const Case& c : in.cases) runs.push_back(tiled_case(c));
    ch.step(tr("Tiled attention: blocks of queries against blocks of keys"));
    ch.say(
        tr("For each block of queries, the key blocks are read in turn. Each query row keeps "
           "m and l as above and an accumulator Σ exp(s − m)·v; when a block raises m, l and "
           "the accumulator are both multiplied by exp(m − m'). After the last block the output "
           "row is accumulator / l. A pair of blocks in which every key is hidden from every "
           "query — above the causal diagonal, or padding only — is skipped and counted."));
    Table t({tr("case"), "n × m", tr("blocks"), tr("computed"), tr("skipped"),
             tr("max |tiled − standard|")});
    double worst = 0.0;
    std::size_t empty_rows = 0, empty_zero = 0;
    for (std::size_t k = 0; k < in.cases.size(); ++k) {
        const Case& c = in.cases[k];
        const TiledAttention& tiled = runs[k].tiled;
        const double diff = runs[k].diff;
        worst = std::max(worst, diff);
        empty_rows += runs[k].empty_rows, empty_zero += runs[k].empty_zero;
        ch.record(c.name + "_output", tiled.output);
        ch.record(c.name + "_blocks",
                  row_matrix({static_cast<double>(tiled.blocks_done),
                          static_cast<double>(tiled.blocks_skipped)}),
                  Shape::Vector, 0.0);
        t.add({c.name, std::to_string(c.Q.rows) + " × " + std::to_string(c.K.rows), blocks_text(c),
               std::to_string(tiled.blocks_done), std::to_string(tiled.blocks_skipped), sci(diff)});
    }
    ch.table(t);
    ch.measured("tiled_forward_max_abs_diff", worst);
    ch.say(worst <= tolerance::single_op
               ? tr("Largest difference from attention.h's output over every case: {}, within "
                    "1e-12. The additions happen in another order, so the last bits may differ; "
                    "the n × m weights were never stored.",
                    sci(worst))
               : tr("Largest difference from attention.h's output over every case: {}, NOT "
                    "within 1e-12: more than another order of additions explains. The two no "
                    "longer compute the same attention.",
                    sci(worst)));
    if (empty_rows)
        ch.say(
            tr("{} saw no key at all (every key hidden); {} of them came out as zeros, as "
               "chapter 3's convention says.",
               count_of(empty_rows, N_("{} query row"), N_("{} query rows")), empty_zero));
}

// One case's gradients by recomputation, beside the standard backward's.
struct BackwardCase {
    AttentionGrads tiled, standard;
};
BackwardCase backward_case(const Case& c) {
    const TiledAttention tiled = tiled_attention(c.Q, c.K, c.V, c.rule, c.tiles);
    const AttentionResult s = attention(c.Q, c.K, c.V, mask_of(c.rule, c.Q.rows, c.K.rows));
    return {tiled_attention_backward(c.dO, c.Q, c.K, c.V, tiled, c.rule, c.tiles),
            attention_backward(c.dO, c.Q, c.K, c.V, s)};
}

void backward(Chapter& ch, const Inputs& in) {
    std::vector<BackwardCase> runs;
    for (const Case& c : in.cases) runs.push_back(backward_case(c));
    ch.step(tr("The backward pass by recomputation (FlashAttention)"));
    ch.say(
        tr("The backward pass needs the weights P, which were never kept. Each query kept one "
           "number, its log-sum-exp L = m + log l, so P = exp(S − L) is recomputed block by "
           "block from Q and K: the forward's multiplications once more, in exchange for the "
           "n × m memory. With D = Σ dO ⊙ O per row: dV = Pᵀ·dO, dS = P ⊙ (dO·Vᵀ − D), "
           "dQ = dS·K/√d_k, dK = dSᵀ·Q/√d_k, each summed over the blocks."));
    Table t({tr("case"), "max |dQ − dQ_std|", "max |dK − dK_std|", "max |dV − dV_std|"});
    double worst = 0.0;
    for (std::size_t k = 0; k < in.cases.size(); ++k) {
        const Case& c = in.cases[k];
        const AttentionGrads &g = runs[k].tiled, &r = runs[k].standard;
        const double dq = max_abs_diff(g.dQ, r.dQ), dk = max_abs_diff(g.dK, r.dK),
                     dv = max_abs_diff(g.dV, r.dV);
        worst = std::max({worst, dq, dk, dv});
        ch.record(c.name + "_dQ", g.dQ);
        ch.record(c.name + "_dK", g.dK);
        ch.record(c.name + "_dV", g.dV);
        t.add({c.name, sci(dq), sci(dk), sci(dv)});
    }
    ch.table(t);
    ch.measured("tiled_backward_max_abs_diff", worst);
    ch.say(
        tr("Largest difference from chapter 7's backward (attention_backward, from the stored "
           "weights): {}, {}; the oracle's autograd agrees too (--check).",
           sci(worst), within(worst)));
}

// Keys first … last − 1, as a reader counts them: "8…15", or "0" for one key.
std::string keys_text(std::size_t first, std::size_t last) {
    return last == first + 1 ? std::to_string(first)
                             : std::to_string(first) + "…" + std::to_string(last - 1);
}

// The row's final weights, recomputed from its scores and L, as the backward pass does.
Matrix final_weights(const Case& c, std::size_t row, double L) {
    Matrix weights(1, c.K.rows);
    const double s = attention_scale(c.K.cols);
    for (std::size_t j = 0; j < c.K.rows; ++j) {
        double score = 0.0;
        for (std::size_t p = 0; p < c.Q.cols; ++p) score += c.Q(row, p) * c.K(j, p);
        const bool hidden = (c.rule.causal && j > row) || c.rule.padding[j];
        weights(0, j) = hidden || L == neg_inf ? 0.0 : elementary::exp(score * s - L);
    }
    return weights;
}

// The running numbers after each block, and the final weights, as pictures.
void draw_running(Chapter& ch, std::size_t row, const std::vector<double>& xs,
                  const std::vector<double>& maxes, const std::vector<double>& sums,
                  const Matrix& weights) {
    LineChart chart{tr("query row {}: the running numbers after each block of keys", row),
                    tr("keys read"),
                    tr("value"),
                    false,
                    false,
                    {{tr("running max m"), xs, maxes}, {tr("running sum l"), xs, sums}},
                    xs};
    ch.picture("ch11_running_statistics.svg", line_chart_svg(chart));
    Labels keys;
    for (std::size_t j = 0; j < weights.cols; ++j) keys.push_back(std::to_string(j));
    const Heatmap final_weights{
        tr("query row {}: its final weights (white 0 … blue the largest)", row),
        weights,
        {std::to_string(row)},
        keys,
        Scale::Range};
    ch.picture("ch11_final_weights.svg", heatmap_svg(final_weights));
}

void running_statistics(Chapter& ch, const Inputs& in) {
    const Case& c = in.cases[in.trace_case];
    const std::size_t row = in.trace_row;
    RowTrace trace{row, {}};
    const TiledAttention tiled = tiled_attention(c.Q, c.K, c.V, c.rule, c.tiles, &trace);
    const double L = tiled.lse[row];
    const Matrix weights = final_weights(c, row, L);
    ch.step(tr("One query's running numbers, block by block"));
    Table t({tr("after keys"), tr("running max m"), tr("running sum l"), tr("what happened")});
    std::vector<double> maxes, sums, xs;
    std::vector<std::string> grew;
    RunningSum before;
    for (std::size_t b = 0; b < trace.after_block.size(); ++b) {
        const RunningSum& r = trace.after_block[b];
        const std::size_t first = b * c.tiles.keys, last = std::min(c.K.rows, first + c.tiles.keys);
        std::string note = before.sum == 0 ? tr("first keys seen")
                           : r.max > before.max
                               ? tr("m grew: l scaled by exp({} − {}) = {}", fixed(before.max, 4),
                                    fixed(r.max, 4), general(std::exp(before.max - r.max), 4))
                               : tr("m unchanged: the block's terms added");
        if (r.sum == before.sum && r.max == before.max) note = tr("skipped, or every key hidden");
        if (before.sum > 0 && r.max > before.max) grew.push_back(keys_text(first, last));
        t.add({keys_text(first, last), general(r.max, 8), general(r.sum, 10), note});
        maxes.push_back(r.max);
        sums.push_back(r.sum);
        xs.push_back(static_cast<double>(last));
        before = r;
    }
    ch.say(tr("Case \"{}\", query row {}, in blocks of {} keys:", c.name, row, c.tiles.keys));
    ch.table(t);
    ch.record("trace_max", row_matrix(maxes), Shape::Vector);
    ch.record("trace_sum", row_matrix(sums), Shape::Vector);
    ch.record("trace_weights", weights, Shape::Vector);
    ch.shaded(tr("its final weights exp(s − L), L = m + log l = {}", general(L, 8)), weights);
    if (grew.empty())
        ch.say(tr("The maximum was set by the first block and never grew: l only added terms."));
    else
        ch.say(
            tr(grew.size() == 1
                   ? N_("The maximum grew in the block of keys {}: there the sum so far shrank by "
                        "exp(m − m') before the block's terms were added, and the output's "
                        "accumulator with it.")
                   : N_("The maximum grew in the blocks of keys {}: there the sum so far shrank "
                        "by exp(m − m') before each block's terms were added, and the output's "
                        "accumulator with it."),
               listed(grew)));
    draw_running(ch, row, xs, maxes, sums, weights);
}

// What the chapter adds to 04's table and 05's claim. Neither is wrong, so neither goes in the
// box of what the tutorial gets wrong: they are read here, beside the measurement.
void against_the_tutorial(Chapter& ch, const Inputs& in, double tiled_peak,
                          double tiled_exponent) {
    ch.step(tr("Reading 04's table and 05 again"));
    const std::string n = grouped(in.lengths.back());
    const double longest = static_cast<double>(in.lengths.back());
    if (tiled_peak > 0 && tiled_peak < 8 * longest * longest)  // less than the n × n matrix
        ch.say(tr("04's table gives self-attention O(n²·d) per layer: it counts multiplications, "
                  "and says nothing of memory. A reader who takes it for the memory too (chapter "
                  "8 counts 8·n² bytes for the n × n matrix: {} at n = {}) finds here that the "
                  "tiled pass held {} at that length, its bytes growing as n^{}; the work stays "
                  "n²·d.",
                  bytes_text(8.0 * longest * longest), n, bytes_text(tiled_peak),
                  fixed(tiled_exponent, 2)));
    ch.say(tr("05's \"self-attention connects every pair of words directly\" still holds block "
              "by block: every score of a visible pair is computed once; the pairs are only "
              "never all kept at the same time."));
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data);
    one_pass(ch, in);
    against_chapter_2(ch, in);
    forward(ch, in);
    backward(ch, in);
    running_statistics(ch, in);
    MemoryFinding found;
    if (!ch.options.check)  // measured: --check compares the rest
        found = memory(ch, in);
    against_the_tutorial(ch, in, found.tiled_peak_at_longest, found.tiled_exponent);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch11_long_sequences",
        N_("attention without the n × n matrix: the softmax in one pass, attention block by "
           "block, and the memory each way, counted"),
        N_("04's table of complexity per layer (性能); 05's \"every pair of words connected\""),
        {svg_flag()},
        N_("This chapter has no switches of its own: to train a whole model with every attention "
           "tiled, run build/ch07_training --attention tiled --tile N (chapter 7 takes chapters "
           "10 and 11's switches; such a run saves over nothing).")};
    return run_chapter(argc, argv, info, walkthrough);
}
