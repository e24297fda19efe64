// ch10_modern_attention — attention since 2017, one switch at a time: RMSNorm, rotary positions
// (RoPE), ALiBi, grouped-query and sliding-window attention, each a field of the model's config
// (model/transformer/config.h) that the layers read; then which way of giving positions lets a
// model read inputs longer than any it was trained on.
//
// Tutorial: 02 "位置编码" (what positions must do, among it: lengths never seen in training),
// 04 "位置编码" (relative positions from a linear map). The code is in src/model/: norms.h
// (rms_norm), positions/rotary.h and alibi.h, multi_head/multi_head.h (grouped-query heads),
// attention/masks.h (window_mask); data/oracle/modern.py computes every expected value its own
// way (LLaMA's complex RoPE, ALiBi's reference slopes, repeated key/value heads).
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "ch10_modern_attention/grouped_query.h"
#include "ch10_modern_attention/inputs.h"
#include "ch10_modern_attention/longer_inputs.h"
#include "ch10_modern_attention/trained_runs.h"
#include "io/config_words.h"
#include "io/model_file.h"
#include "io/training_plan.h"
#include "model/attention/masks.h"
#include "model/positions/alibi.h"
#include "model/positions/positional.h"
#include "model/positions/rotary.h"
#include "model/transformer/norms.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"
#include "model/decoding/kv_cache.h"
#include "report/chapter.h"
#include "report/chart.h"
#include "report/heatmap.h"
#include "report/measure.h"
#include "report/model_summary.h"
#include "report/progress.h"
#include "report/recorded_gradients.h"
#include "text/translate.h"
#include "train/batch.h"
#include "train/evaluate.h"
#include "train/plan.h"
#include "train/reverse_task.h"
#include "train/trainer.h"

namespace {

void show_vector(Chapter& ch, const std::string& key, const std::string& title, const Matrix& v,
                 int decimals) {
    ch.matrix(title, v, {}, {}, decimals);
    ch.record(key, v, Shape::Vector);
}

// --- RMSNorm -------------------------------------------------------------------------------------

// The largest mean of a row, in size.
double largest_row_mean(const Matrix& m) {
    double largest = 0.0;
    for (std::size_t r = 0; r < m.rows; ++r) {
        double mean = 0.0;
        for (std::size_t c = 0; c < m.cols; ++c) mean += m(r, c) / static_cast<double>(m.cols);
        largest = std::max(largest, std::fabs(mean));
    }
    return largest;
}

// LayerNorm and RMSNorm timed on 2,048 rows of 512 (median of runs): seconds of each.
std::pair<double, double> norm_seconds() {
    Matrix big(2048, 512);
    Random rng(1);
    for (double& v : big.data) v = rng.normal();
    const Norm big_layer{Matrix(1, 512, 1.0), Matrix(1, 512), 1e-5, NormKind::Layer};
    const Norm big_rms{Matrix(1, 512, 1.0), Matrix(), 1e-5, NormKind::RMS};
    return {median_seconds([&] { layer_norm(big, big_layer); }, 5, 0.2),
            median_seconds([&] { rms_norm(big, big_rms); }, 5, 0.2)};
}

// Timed, and a model trained with either norm: measurements, not checks.
void rms_measured(Chapter& ch, const Inputs& in, Trained& trained) {
    const auto [t_layer, t_rms] = norm_seconds();
    // and a model trains with it: chapter 7's reversal, the same plan, either norm
    const std::size_t seed = in.seeds.empty() ? 1 : in.seeds.front();
    const std::vector<Example> heldout = heldout_examples(in.plan);
    std::vector<const TrainingRun*> runs;
    std::vector<double> rates;
    for (const NormKind kind : {NormKind::Layer, NormKind::RMS}) {
        runs.push_back(&trained.get(ch, in, PositionScheme::Sinusoidal, kind, seed));
        rates.push_back(exact_match(runs.back()->model, heldout).rate());
    }
    trained.done();
    ch.measured("layer_norm_seconds", t_layer);
    ch.measured("rms_norm_seconds", t_rms);
    ch.say(
        tr("Timed on 2,048 rows of 512 (median of runs, one thread): LayerNorm {} ms, "
           "RMSNorm {} ms ({}× LayerNorm's time) — next to a layer's matrix products, "
           "either is small.",
           fixed(1000 * t_layer, 2), fixed(1000 * t_rms, 2), fixed(t_rms / t_layer, 2)));
    Table t({tr("norm"), tr("final loss"), tr("held-out exact match")});
    for (std::size_t i = 0; i < 2; ++i) {
        const NormKind kind = i == 0 ? NormKind::Layer : NormKind::RMS;
        ch.measured("heldout_exact_match_" + norm_name(kind), rates[i]);
        t.add({kind == NormKind::RMS ? "RMSNorm" : "LayerNorm", fixed(runs[i]->losses.back(), 4),
               fixed(100 * rates[i], 1) + "%"});
    }
    ch.say(tr("Chapter 7's reversal model ({} steps, seed {}), once with each norm:",
              in.plan.settings.max_steps, seed));
    ch.table(t);
}

void rms_step(Chapter& ch, const Inputs& in, Trained& trained) {
    const std::size_t d = in.norm_x.cols;
    const Norm layer{Matrix(1, d, 1.0), Matrix(1, d), 1e-5, NormKind::Layer};
    const Norm rms{Matrix(1, d, 1.0), Matrix(), 1e-5, NormKind::RMS};
    const Matrix ln = layer_norm(in.norm_x, layer), rn = rms_norm(in.norm_x, rms);
    const double largest_mean = largest_row_mean(rn);
    ch.step(tr("RMSNorm beside LayerNorm (LLaMA's norm; chapter 6's LayerNorm)"));
    ch.matrix(tr("x, rows of {} features", d), in.norm_x, {}, {}, 2);
    ch.show("layer_norm", tr("LayerNorm(x): mean 0, variance 1 per row"), ln, {}, {}, 3);
    ch.show("rms_norm", tr("RMSNorm(x): root mean square 1 per row"), rn, {}, {}, 3);
    ch.say(
        tr("RMSNorm drops two things: the mean is not taken out (its rows here keep means up "
           "to {}), and there is no bias, only a gain. What remains is one pass over a row "
           "(the sum of squares) where LayerNorm makes two (the mean, then the variance "
           "around it).",
           fixed(largest_mean, 3)));
    if (!ch.options.check) rms_measured(ch, in, trained);  // measurements, not checks
}

// --- RoPE ----------------------------------------------------------------------------------------

// The score of the query q at position m and the key k at position n, both rotated.
double rope_score(const Matrix& q, const Matrix& k, std::size_t d_k, std::size_t m, std::size_t n) {
    const Matrix qm = rope_rotate(q, d_k, {m}), kn = rope_rotate(k, d_k, {n});
    double s = 0.0;
    for (std::size_t c = 0; c < d_k; ++c) s += qm(0, c) * kn(0, c);
    return s;
}

// Largest spread of scores among pairs at the same distance m − n.
double spread_by_distance(const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
                          const std::vector<double>& scores) {
    std::map<long, std::pair<double, double>> range;  // distance -> (min, max)
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const long dist = static_cast<long>(pairs[i].first) - static_cast<long>(pairs[i].second);
        auto it = range.find(dist);
        if (it == range.end())
            range[dist] = {scores[i], scores[i]};
        else
            it->second = {std::min(it->second.first, scores[i]),
                          std::max(it->second.second, scores[i])};
    }
    double worst = 0.0;
    for (const auto& [dist, r] : range) worst = std::max(worst, r.second - r.first);
    return worst;
}

// Pairs of positions at the same distance: RoPE's scores against scores with chapter 5's table
// added to q and k.
// Each pair's score with RoPE (rope) and with chapter 5's table added to q and k (added).
struct PairScores {
    Matrix rope, added;  // (1 x pairs)
};
PairScores pair_scores(const Inputs& in) {
    const std::size_t d_k = in.rope_d_k;
    std::size_t far = 0;  // the table's length: past the farthest position of any pair
    for (const auto& [a, b] : in.pairs) far = std::max({far, a + 1, b + 1});
    const Matrix pe = sinusoidal_encoding(far, d_k);
    PairScores s{Matrix(1, in.pairs.size()), Matrix(1, in.pairs.size())};
    for (std::size_t i = 0; i < in.pairs.size(); ++i) {
        const auto [m, n] = in.pairs[i];
        s.rope(0, i) = rope_score(in.rope_q, in.rope_k, d_k, m, n);
        double a = 0.0;
        for (std::size_t c = 0; c < d_k; ++c)
            a += (in.rope_q(0, c) + pe(m, c)) * (in.rope_k(0, c) + pe(n, c));
        s.added(0, i) = a;
    }
    return s;
}

void score_pairs(Chapter& ch, const Inputs& in) {
    const PairScores s = pair_scores(in);
    const double rope_spread = spread_by_distance(in.pairs, s.rope.data);
    const double added_spread = spread_by_distance(in.pairs, s.added.data);
    Table t({"m", "n", "m − n", tr("RoPE: q_m·k_n"), tr("added table: (q + PE_m)·(k + PE_n)")});
    for (std::size_t i = 0; i < in.pairs.size(); ++i) {
        const auto [m, n] = in.pairs[i];
        t.add({std::to_string(m), std::to_string(n),
               std::to_string(static_cast<long>(m) - static_cast<long>(n)), fixed(s.rope(0, i), 6),
               fixed(s.added(0, i), 6)});
    }
    ch.table(t);
    ch.record("rope_scores", s.rope, Shape::Vector);
    ch.record("added_scores", s.added, Shape::Vector);
    ch.record_number("rope_relative_max_diff", rope_spread, 1e-12);
    ch.say(
        tr("Pairs at the same distance m − n: their RoPE scores differ by at most {} (rounding), "
           "so the score depends on m − n only — the rotation by mθ and the one by nθ leave, in "
           "the dot product, the rotation by (m − n)θ. With chapter 5's table added instead, "
           "the same pairs differ by up to {}: the score still sees where each token stands.",
           sci(rope_spread), fixed(added_spread, 3)));
}

// RoPE's frequencies beside chapter 5's: the same ladder, per head.
void show_frequencies(Chapter& ch, const Inputs& in) {
    Matrix theta(1, in.freq_d_k / 2), omega(1, in.freq_d_model / 2);
    for (std::size_t i = 0; i < theta.cols; ++i) theta(0, i) = rope_frequency(i, in.freq_d_k);
    for (std::size_t i = 0; i < omega.cols; ++i)
        omega(0, i) =
            std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(in.freq_d_model));
    show_vector(ch, "rope_frequencies", tr("RoPE's θ_i, d_k = {}", in.freq_d_k), theta, 6);
    show_vector(ch, "sinusoidal_frequencies", tr("chapter 5's ω_i, d_model = {}", in.freq_d_model),
                omega, 6);
    ch.say(
        tr("The same geometric ladder from 1 down towards 1/10000, with d_k in place of "
           "d_model: each head has its own {} pairs, where chapter 5's table spreads {} pairs "
           "over the whole embedding.",
           in.freq_d_k / 2, in.freq_d_model / 2));
}

void rope_step(Chapter& ch, const Inputs& in) {
    const std::size_t d_k = in.rope_d_k;
    Matrix repeated(in.rope_positions.size(), d_k);  // the same q at every position
    for (std::size_t r = 0; r < repeated.rows; ++r) set_submatrix(repeated, r, 0, in.rope_q);
    const Matrix rotated = rope_rotate(repeated, d_k, in.rope_positions);
    ch.step(tr("RoPE: queries and keys rotated by their positions (02 and 04 位置编码)"));
    ch.say(
        tr("Instead of adding a position vector to the embedding, RoPE rotates each pair of "
           "columns (2i, 2i + 1) of a query or key at position p by the angle p·θ_i, θ_i = "
           "10000^(−2i/d_k), after the projections, in every head. The same q (d_k = {}) at "
           "positions {}:",
           d_k, seq(in.rope_positions)));
    Labels rows;
    for (const std::size_t p : in.rope_positions) rows.push_back("p = " + std::to_string(p));
    ch.show("rope_rotated_q", tr("q rotated by its position"), rotated, rows, {}, 4);
    score_pairs(ch, in);
    show_frequencies(ch, in);
}

// --- ALiBi ---------------------------------------------------------------------------------------

void alibi_step(Chapter& ch, const Inputs& in) {
    ch.step(tr("ALiBi: a penalty for distance, and no position vector at all"));
    ch.say(
        tr("ALiBi adds to the score of a query at i for a key at j the bias −m·|i − j|, with a "
           "slope m of each head's own: for h heads, h a power of two, the geometric sequence "
           "2^(−8/h), 2^(−16/h), …"));
    for (const std::size_t h : in.alibi_heads) {
        const Matrix m = row_matrix(alibi_slopes(h));
        show_vector(ch, "alibi_slopes_" + std::to_string(h), tr("slopes for {} heads", h), m, 5);
        std::size_t below = 1;  // the largest power of two not above h
        while (below * 2 <= h) below *= 2;
        if (below != h)
            ch.say(tr("{} is not a power of two: the paper's code takes the sequence of the "
                      "largest power of two below it, {} (2^(−8/{}), …, the first {} slopes "
                      "above), then every other slope of the sequence for {} (2^(−8/{}), "
                      "2^(−24/{}), …) for the remaining {}: two geometric sequences, the second's "
                      "values falling between the first's, appended after it.",
                      h, below, below, below, 2 * below, 2 * below, 2 * below, h - below));
    }
    const std::vector<double> s = alibi_slopes(in.alibi_heads.front());
    ch.show("alibi_bias_first_head", tr("bias of head 1 (slope {})", general(s.front(), 4)),
            alibi_bias(in.alibi_n, in.alibi_n, s.front()), {}, {}, 3);
    ch.show("alibi_bias_last_head",
            tr("bias of head {} (slope {})", s.size(), general(s.back(), 4)),
            alibi_bias(in.alibi_n, in.alibi_n, s.back()), {}, {}, 3);
    ch.say(
        tr("The first head all but ignores keys a few positions away; the last barely "
           "penalises distance. Nothing is added to the embeddings: the model learns where "
           "tokens stand only from these biases (and, in the decoder, from the causal mask)."));
}

// --- sliding window ------------------------------------------------------------------------------

// How many positions reach the last one through each number of layers of in.window_layers,
// under the mask: one step of attention per layer, counted by propagating who reads whom.
Matrix window_reach(const Inputs& in, const Matrix& mask) {
    const std::size_t n = in.window_n;
    Matrix reach(1, in.window_layers.size());
    for (std::size_t i = 0; i < in.window_layers.size(); ++i) {
        std::vector<bool> reached(n, false);
        reached[n - 1] = true;
        for (std::size_t layer = 0; layer < in.window_layers[i]; ++layer) {
            std::vector<bool> next = reached;
            for (std::size_t q = 0; q < n; ++q)
                if (reached[q])
                    for (std::size_t k = 0; k < n; ++k)
                        if (!std::isinf(mask(q, k))) next[k] = true;
            reached = next;
        }
        reach(0, i) = static_cast<double>(std::count(reached.begin(), reached.end(), true));
    }
    return reach;
}

void window_step(Chapter& ch, const Inputs& in) {
    const std::size_t n = in.window_n, w = in.window;
    const Matrix mask = add(causal_mask(n), window_mask(n, n, w));
    const Matrix reach = window_reach(in, mask);
    ch.step(tr("Sliding-window attention: each query sees the last {} positions", in.window));
    ch.record("window_mask_hidden", hidden_positions(mask));
    ch.shaded(tr("causal + window {} mask over {} positions", w, n), hidden_positions(mask),
              tr("█ hidden, blank seen"));
    Table t({tr("layers"), tr("positions reaching the last"), tr("L·(w − 1) + 1, at most n")});
    for (std::size_t i = 0; i < in.window_layers.size(); ++i)
        t.add({std::to_string(in.window_layers[i]), std::to_string(std::size_t(reach(0, i))),
               std::to_string(std::min(n, in.window_layers[i] * (w - 1) + 1))});
    ch.table(t);
    ch.record("window_reach", reach, Shape::Vector);
    ch.say(
        tr("One layer lets a token read {}; every further layer reaches {} further back, "
           "through the tokens in between (counted by propagating who reads whom, as chapter 8 "
           "counts path lengths). The maximum path length grows from 1 to about n / (w − 1): "
           "the price of attention that costs n·w instead of n².",
           count_of(w, N_("{} position"), N_("{} positions")),
           count_of(w - 1, N_("{} position"), N_("{} positions"))));
}

// --- the switches on one model, against PyTorch --------------------------------------------------

// The KV cache against recomputation (model/decoding/kv_cache.h) on one example's decoder input.
double kv_cache_gap(const Transformer& m, const Example& e) {
    return cache_against_recomputation(m, e.source, shifted_right(e.target, m.config.bos_id))
        .worst();
}

// One variant on the batch: its logits, loss and gradients, and the KV cache's largest
// difference from recomputing.
struct VariantRun {
    Matrix logits;
    double loss = 0, cache_gap = 0;
    Transformer grad;
};
VariantRun run_variant(const Inputs& in, const Variant& v) {
    std::vector<Tokens> sources, inputs;
    for (const Example& e : in.batch) {
        sources.push_back(e.source);
        inputs.push_back(shifted_right(e.target, v.model.config.bos_id));
    }
    VariantRun r;
    r.logits = decode(v.model, inputs, encode(v.model, sources), sources);
    r.loss = batch_gradients(v.model, in.batch, in.smoothing, r.grad);
    for (const Example& e : in.batch) r.cache_gap = std::max(r.cache_gap, kv_cache_gap(v.model, e));
    return r;
}

void variants_step(Chapter& ch, const Inputs& in) {
    std::vector<VariantRun> runs;
    for (const Variant& v : in.variants) runs.push_back(run_variant(in, v));
    ch.step(tr("Every switch on one small model, against PyTorch: logits, gradients, KV cache"));
    ch.say(
        tr("A small encoder-decoder in {} combinations of the switches, each with its own "
           "weights; a batch of {} sequences; PyTorch computes the same model written out by "
           "hand (data/oracle/modern.py: RoPE as complex numbers, ALiBi as a bias matrix, "
           "key/value heads repeated), its gradients by autograd:",
           in.variants.size(), in.batch.size()));
    Table t({tr("variant"), tr("switches"), tr("loss"), tr("largest |gradient − PyTorch's|"),
             tr("KV cache vs recomputing")});
    Matrix gaps(1, in.variants.size());
    for (std::size_t i = 0; i < in.variants.size(); ++i) {
        const Variant& v = in.variants[i];
        const VariantRun& r = runs[i];
        ch.record("logits_" + v.name, r.logits, Shape::Matrix, tolerance::end_to_end);
        ch.record_number("loss_" + v.name, r.loss, tolerance::end_to_end);
        const double worst = record_gradients(ch, v.name, r.grad);
        gaps(0, i) = r.cache_gap;
        t.add({v.name, variant_text(v.model.config), fixed(r.loss, 10), sci(worst),
               sci(r.cache_gap)});
    }
    ch.table(t);
    ch.record("kv_cache_max_abs_diff", gaps, Shape::Vector, 0.0);
    Words names;
    for (const Variant& v : in.variants) names.push_back(v.name);
    ch.reported("variants", names);
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data);
    Trained trained;
    if (!ch.options.check) {  // every model the chapter trains, two (or more) at a time
        const std::size_t first = in.seeds.empty() ? 1 : in.seeds.front();
        std::vector<Trained::Run> runs = {{PositionScheme::Sinusoidal, NormKind::Layer, first},
                                          {PositionScheme::Sinusoidal, NormKind::RMS, first}};
        for (const PositionScheme s : in.schemes)
            for (const std::size_t seed : in.seeds) runs.push_back({s, NormKind::Layer, seed});
        trained.train_all(ch, in, runs);
    }
    rms_step(ch, in, trained);
    rope_step(ch, in);
    alibi_step(ch, in);
    gqa_step(ch, in);
    window_step(ch, in);
    variants_step(ch, in);
    ch.correction(
        "04 位置编码",
        tr("\"PE(pos + k) is a linear combination of PE(pos), so the position vectors hold "
           "relative positions\": the linear map exists (chapter 5), but with the table added "
           "to the embeddings a score q·k still sees both absolute positions — pairs at the "
           "same distance scored differently above. RoPE is what makes the score a function of "
           "the distance alone."));
    if (ch.options.check) return;  // the experiment trains models: a measurement, not a check
    const Finding f = length_step(ch, in, trained);
    if (f.any_beyond && f.best == f.worst)
        ch.correction(
            "02 位置编码",
            tr("requirement (3), \"positions must represent sentence lengths the model never "
               "saw in training\": a formula defined at every position is not enough. Trained "
               "on lengths up to {}, the reversal model read longer inputs at {}% whatever its "
               "positions, as measured above.",
               in.plan.task.max_source_length, fixed(100 * f.best, 1)));
    else if (f.any_beyond)
        ch.correction(
            "02 位置编码",
            tr("requirement (3), \"positions must represent sentence lengths the model never "
               "saw in training\": a formula defined at every position is not enough. Trained "
               "on lengths up to {}, the reversal model read longer inputs at {}% at best ({}) "
               "and {}% at worst ({}), as measured above.",
               in.plan.task.max_source_length, fixed(100 * f.best, 1), listed(f.best_names),
               fixed(100 * f.worst, 1), listed(f.worst_names)));
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch10_modern_attention",
        N_("attention since 2017, one switch at a time: RMSNorm, RoPE, ALiBi, grouped-query and "
           "sliding-window attention, and which positions read longer inputs"),
        N_("02 \"位置编码\" and 04 \"位置编码\" (what positions must do); LLaMA's RMSNorm and "
           "RoPE, ALiBi (Press et al. 2022), GQA (Ainslie et al. 2023)"),
        {svg_flag()}};
    return run_chapter(argc, argv, info, walkthrough);
}
