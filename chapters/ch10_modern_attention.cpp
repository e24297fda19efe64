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
#include "train/batch.h"
#include "train/evaluate.h"
#include "train/plan.h"
#include "train/reverse_task.h"
#include "train/trainer.h"

namespace {

struct KvShape {  // a published model's shape, for its KV cache
    std::string name;
    TransformerConfig config;
};

struct Variant {
    std::string name;
    Transformer model;
};

struct Inputs {
    Matrix norm_x;
    std::size_t rope_d_k = 0;
    Matrix rope_q, rope_k;  // (1 x d_k)
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    std::vector<std::size_t> rope_positions;
    std::size_t freq_d_model = 0, freq_d_k = 0;
    std::vector<std::size_t> alibi_heads;
    std::size_t alibi_n = 0;
    MultiHeadWeights gqa;  // 8 key/value heads; fewer are made from it
    std::vector<std::size_t> gqa_kv;
    Matrix gqa_x;
    std::vector<KvShape> kv_shapes;
    std::vector<double> bytes_per_number;
    TransformerConfig timing;  // the model whose decoding is timed, for each of timing_kv
    std::vector<std::size_t> timing_kv;
    std::size_t timing_tokens = 0;
    std::size_t window_n = 0, window = 0;
    std::vector<std::size_t> window_layers;
    std::vector<Variant> variants;
    std::vector<Example> batch;
    double smoothing = 0.1;
    TrainingPlan plan;  // the reversal task of chapter 7
    std::vector<PositionScheme> schemes;
    std::vector<std::uint64_t> seeds;
    std::vector<std::size_t> test_lengths;
    std::uint64_t test_seed = 0;
    std::size_t per_length = 0, max_positions = 0;
};

// An attention layer's weights in PyTorch's layout (in_proj stacked, as nn.MultiheadAttention).
MultiHeadWeights read_attention(const DataFile& data, const std::string& k, std::size_t heads) {
    const Matrix W = data.matrix(k + "in_proj_weight"), b = data.vector(k + "in_proj_bias");
    const std::size_t d = W.cols;
    if (W.rows != 3 * d || b.cols != 3 * d || d % heads != 0)
        throw data.error(k + "in_proj_weight",
                         tr("expected (3·d x d) with d divisible by {} heads", heads));
    MultiHeadWeights w;
    w.n_heads = heads;
    w.W_Q = transpose(row_block(W, 0, d)), w.W_K = transpose(row_block(W, d, d));
    w.W_V = transpose(row_block(W, 2 * d, d));
    w.b_Q = column_block(b, 0, d), w.b_K = column_block(b, d, d), w.b_V = column_block(b, 2 * d, d);
    w.W_O = transpose(data.matrix(k + "out_proj_weight"));
    w.b_O = data.vector(k + "out_proj_bias");
    if (w.W_O.rows != d || w.W_O.cols != d || w.b_O.cols != d)
        throw data.error(k + "out_proj_weight", tr("expected ({} x {})", d, d));
    return w;
}

// RoPE's q, k and the position pairs whose scores are compared; the frequencies' sizes.
void read_rope(const DataFile& data, Inputs& in) {
    in.rope_d_k = data.size("inputs.rope.d_k", 2, 1024);
    if (!rope_fits(in.rope_d_k)) throw data.error("inputs.rope.d_k", tr("expected an even width"));
    in.rope_q = data.vector("inputs.rope.q");
    in.rope_k = data.vector("inputs.rope.k");
    if (in.rope_q.cols != in.rope_d_k || in.rope_k.cols != in.rope_d_k)
        throw data.error("inputs.rope.q", tr("expected q and k of d_k = {} numbers", in.rope_d_k));
    const Matrix pairs = data.matrix("inputs.rope.pairs");
    if (pairs.cols != 2) throw data.error("inputs.rope.pairs", tr("expected rows [m, n]"));
    for (std::size_t r = 0; r < pairs.rows; ++r) {
        if (pairs(r, 0) < 0 || pairs(r, 1) < 0 || pairs(r, 0) > 1e6 || pairs(r, 1) > 1e6 ||
            pairs(r, 0) != std::floor(pairs(r, 0)) || pairs(r, 1) != std::floor(pairs(r, 1)))
            throw data.error("inputs.rope.pairs",
                             tr("expected positions, whole numbers from 0 to 1000000"));
        in.pairs.push_back(
            {static_cast<std::size_t>(pairs(r, 0)), static_cast<std::size_t>(pairs(r, 1))});
    }
    for (const std::int64_t p : data.integers("inputs.rope.positions", 0, 1000000))
        in.rope_positions.push_back(static_cast<std::size_t>(p));
    in.freq_d_model = data.size("inputs.frequencies.d_model", 2, 1 << 16);
    in.freq_d_k = data.size("inputs.frequencies.d_k", 2, 1 << 16);
}

// The key/value head counts at `key`, each one that divides n_heads (kv_heads_fit).
std::vector<std::size_t> read_kv_heads(const DataFile& data, const std::string& key,
                                       std::size_t n_heads) {
    std::vector<std::size_t> kv;
    for (const std::int64_t n : data.integers(key, 1, static_cast<std::int64_t>(n_heads))) {
        if (!kv_heads_fit(n_heads, static_cast<std::size_t>(n)))
            throw data.error(key, tr("expected divisors of {}", n_heads));
        kv.push_back(static_cast<std::size_t>(n));
    }
    return kv;
}

// Grouped-query attention's layer and input; the published shapes whose KV cache is counted.
void read_gqa(const DataFile& data, Inputs& in) {
    const std::size_t gqa_heads = data.size("inputs.gqa.n_heads", 1, 256);
    in.gqa = read_attention(data, "inputs.gqa.weights.", gqa_heads);
    in.gqa_kv = read_kv_heads(data, "inputs.gqa.kv_heads", gqa_heads);
    in.gqa_x = data.matrix("inputs.gqa.x");
    if (in.gqa_x.cols != in.gqa.d_model())
        throw data.error("inputs.gqa.x", tr("expected rows of d_model = {}", in.gqa.d_model()));
    for (std::size_t i = 0; i < data.length("inputs.kv_bytes.models"); ++i) {
        const std::string k = "inputs.kv_bytes.models[" + std::to_string(i) + "].";
        KvShape s;
        s.name = data.text(k + "name");
        s.config.n_encoder_layers = 0;
        s.config.n_decoder_layers = data.size(k + "layers", 1, 1000);
        s.config.n_heads = data.size(k + "n_heads", 1, 1024);
        s.config.d_model = data.size(k + "d_model", 1, 1 << 20);
        s.config.n_kv_heads = data.size(k + "n_kv_heads", 1, s.config.n_heads);
        check_config(data, k, s.config);
        in.kv_shapes.push_back(s);
    }
    in.bytes_per_number = data.vector("inputs.kv_bytes.bytes_per_number").data;
    for (const double b : in.bytes_per_number)
        if (b != 1 && b != 2 && b != 4 && b != 8)
            throw data.error("inputs.kv_bytes.bytes_per_number", tr("expected 1, 2, 4 or 8"));
}

// The model whose decoding is timed at each key/value head count; the window's reach.
void read_timing(const DataFile& data, Inputs& in) {
    TransformerConfig& t = in.timing;
    t.d_model = data.size("inputs.timing.d_model", 1, 4096);
    t.n_heads = data.size("inputs.timing.n_heads", 1, 256);
    t.d_ff = data.size("inputs.timing.d_ff", 1, 16384);
    t.n_encoder_layers = t.n_decoder_layers = data.size("inputs.timing.layers", 1, 24);
    t.src_vocab = t.tgt_vocab = reverse_vocab_size;
    check_config(data, "inputs.timing.", t);
    in.timing_kv = read_kv_heads(data, "inputs.timing.kv_heads", t.n_heads);
    in.timing_tokens = data.size("inputs.timing.tokens", 1, 4096);
    in.window_n = data.size("inputs.window.n", 1, 1024);
    in.window = data.size("inputs.window.window", 1, 1024);
    for (const std::int64_t l : data.integers("inputs.window.layers", 1, 1024))
        in.window_layers.push_back(static_cast<std::size_t>(l));
}

// The small encoder-decoders under five combinations of the switches, and their batch.
void read_variants(const DataFile& data, Inputs& in) {
    for (std::size_t i = 0; i < data.length("inputs.models.variants"); ++i) {
        const std::string k = "inputs.models.variants[" + std::to_string(i) + "]";
        in.variants.push_back({data.text(k + ".name"), load_transformer(data, k)});
    }
    if (in.variants.empty())
        throw data.error("inputs.models.variants", tr("expected at least one model"));
    std::size_t src = in.variants[0].model.config.src_vocab,
                tgt = in.variants[0].model.config.tgt_vocab;  // ids every variant reads
    for (const Variant& v : in.variants)
        src = std::min(src, v.model.config.src_vocab),
        tgt = std::min(tgt, v.model.config.tgt_vocab);
    in.batch = read_examples(data, "inputs.models.batch", src, tgt);
    in.smoothing = data.number("inputs.models.smoothing", 0.0, 0.999);
}

// Which positions read longer inputs: the plan, the schemes, the seeds and the test lengths.
void read_length_generalization(const DataFile& data, Inputs& in) {
    const std::string g = "inputs.length_generalization.";
    in.plan = read_training_plan(data, g + "training.", "reverse");
    for (const std::string& name : data.texts(g + "schemes")) {
        PositionScheme s;
        if (!positions_from_name(name, s))
            throw data.error(g + "schemes", tr("expected \"sinusoidal\", \"learned\", \"rope\", "
                                               "\"alibi\" or \"none\""));
        in.schemes.push_back(s);
    }
    for (const std::int64_t s : data.integers(g + "seeds", 0, std::int64_t(1) << 62))
        in.seeds.push_back(static_cast<std::uint64_t>(s));
    for (const std::int64_t l : data.integers(g + "test_lengths", 1, 100))
        in.test_lengths.push_back(static_cast<std::size_t>(l));
    in.per_length = data.size(g + "per_length", 1, 100000);
    in.test_seed = data.seed(g + "test_seed");
    in.max_positions = data.size(g + "max_positions", 1, 1 << 16);
    for (const std::size_t l : in.test_lengths)
        if (l + 1 > in.max_positions)
            throw data.error(g + "max_positions",
                             tr("expected room for the longest test, {} tokens", l + 1));
}

Inputs read_inputs(const DataFile& data) {
    Inputs in;
    in.norm_x = data.matrix("inputs.norms.x");
    read_rope(data, in);
    for (const std::int64_t h : data.integers("inputs.alibi.heads", 1, 256))
        in.alibi_heads.push_back(static_cast<std::size_t>(h));
    in.alibi_n = data.size("inputs.alibi.n", 1, 256);
    read_gqa(data, in);
    read_timing(data, in);
    read_variants(data, in);
    read_length_generalization(data, in);
    return in;
}

// A (1 x n) result, printed as a row and recorded as a vector (as the oracle writes it).
void show_vector(Chapter& ch, const std::string& key, const std::string& title, const Matrix& v,
                 int decimals) {
    ch.matrix(title, v, {}, {}, decimals);
    ch.record(key, v, Shape::Vector);
}

std::string seq(const std::vector<std::size_t>& xs) {
    std::string s;
    for (const std::size_t x : xs) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return s;
}

// --- models trained on chapter 7's reversal task ------------------------------------------------

// Each model is trained once: the RMSNorm step and the length experiment share the run with
// LayerNorm and sinusoidal positions. A status line on stderr says which run is training.
class Trained {
public:
    const TrainingRun& get(Chapter& ch, const Inputs& in, PositionScheme positions, NormKind norm,
                           std::size_t seed) {
        const std::string key =
            positions_name(positions) + "/" + norm_name(norm) + "/" + std::to_string(seed);
        auto it = runs_.find(key);
        if (it != runs_.end()) return it->second;
        TrainingPlan plan = in.plan;
        plan.config.positions = positions;
        plan.config.norm = norm;
        plan.config.max_positions = in.max_positions;
        plan.init_seed = seed, plan.settings.seed = seed + 1;
        progress_.status(tr("training {} positions, {}, seed {} ({} steps)",
                            positions_name(positions), norm_name(norm), seed,
                            plan.settings.max_steps));
        TrainingRun run = train_plan(plan);
        check_finite_run(ch.data, "inputs.length_generalization.training", run);
        return runs_.emplace(key, std::move(run)).first->second;
    }
    void done() { progress_.done(); }

private:
    std::map<std::string, TrainingRun> runs_;
    ProgressBar progress_;
};

// --- RMSNorm -------------------------------------------------------------------------------------

void rms_step(Chapter& ch, const Inputs& in, Trained& trained) {
    ch.step(tr("RMSNorm beside LayerNorm (LLaMA's norm; chapter 6's LayerNorm)"));
    const std::size_t d = in.norm_x.cols;
    const Norm layer{Matrix(1, d, 1.0), Matrix(1, d), 1e-5, NormKind::Layer};
    const Norm rms{Matrix(1, d, 1.0), Matrix(), 1e-5, NormKind::RMS};
    ch.matrix(tr("x, rows of {} features", d), in.norm_x, {}, {}, 2);
    const Matrix ln = layer_norm(in.norm_x, layer), rn = rms_norm(in.norm_x, rms);
    ch.show("layer_norm", tr("LayerNorm(x): mean 0, variance 1 per row"), ln, {}, {}, 3);
    ch.show("rms_norm", tr("RMSNorm(x): root mean square 1 per row"), rn, {}, {}, 3);
    double largest_mean = 0.0;
    for (std::size_t r = 0; r < rn.rows; ++r) {
        double mean = 0.0;
        for (std::size_t c = 0; c < d; ++c) mean += rn(r, c) / static_cast<double>(d);
        largest_mean = std::max(largest_mean, std::fabs(mean));
    }
    ch.say(
        tr("RMSNorm drops two things: the mean is not taken out (its rows here keep means up "
           "to {}), and there is no bias, only a gain. What remains is one pass over a row "
           "(the sum of squares) where LayerNorm makes two (the mean, then the variance "
           "around it).",
           fixed(largest_mean, 3)));
    if (ch.options.check) return;  // timings and training: measurements, not checks
    Matrix big(2048, 512);
    Random rng(1);
    for (double& v : big.data) v = rng.normal();
    const Norm big_layer{Matrix(1, 512, 1.0), Matrix(1, 512), 1e-5, NormKind::Layer};
    const Norm big_rms{Matrix(1, 512, 1.0), Matrix(), 1e-5, NormKind::RMS};
    const double t_layer = median_seconds([&] { layer_norm(big, big_layer); }, 5, 0.2);
    const double t_rms = median_seconds([&] { rms_norm(big, big_rms); }, 5, 0.2);
    ch.measured("layer_norm_seconds", t_layer);
    ch.measured("rms_norm_seconds", t_rms);
    ch.say(
        tr("Timed on 2,048 rows of 512 (median of runs, one thread): LayerNorm {} ms, "
           "RMSNorm {} ms ({}× LayerNorm's time) — next to a layer's matrix products, "
           "either is small.",
           fixed(1000 * t_layer, 2), fixed(1000 * t_rms, 2), fixed(t_rms / t_layer, 2)));
    // and a model trains with it: chapter 7's reversal, the same plan, either norm
    const std::size_t seed = in.seeds.empty() ? 1 : in.seeds.front();
    const std::vector<Example> heldout = heldout_examples(in.plan);
    Table t({tr("norm"), tr("final loss"), tr("held-out exact match")});
    for (const NormKind kind : {NormKind::Layer, NormKind::RMS}) {
        const TrainingRun& r = trained.get(ch, in, PositionScheme::Sinusoidal, kind, seed);
        const double rate = exact_match(r.model, heldout).rate();
        ch.measured("heldout_exact_match_" + norm_name(kind), rate);
        t.add({kind == NormKind::RMS ? "RMSNorm" : "LayerNorm", fixed(r.losses.back(), 4),
               fixed(100 * rate, 1) + "%"});
    }
    trained.done();
    ch.say(tr("Chapter 7's reversal model ({} steps, seed {}), once with each norm:",
              in.plan.settings.max_steps, seed));
    ch.table(t);
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
void score_pairs(Chapter& ch, const Inputs& in) {
    const std::size_t d_k = in.rope_d_k;
    Matrix scores(1, in.pairs.size()), added(1, in.pairs.size());
    std::vector<double> s_rope, s_added;
    const std::size_t far = [&] {
        std::size_t m = 0;
        for (const auto& [a, b] : in.pairs) m = std::max({m, a, b});
        return m + 1;
    }();
    const Matrix pe = sinusoidal_encoding(far, d_k);
    Table t({"m", "n", "m − n", tr("RoPE: q_m·k_n"), tr("added table: (q + PE_m)·(k + PE_n)")});
    for (std::size_t i = 0; i < in.pairs.size(); ++i) {
        const auto [m, n] = in.pairs[i];
        scores(0, i) = rope_score(in.rope_q, in.rope_k, d_k, m, n);
        double a = 0.0;
        for (std::size_t c = 0; c < d_k; ++c)
            a += (in.rope_q(0, c) + pe(m, c)) * (in.rope_k(0, c) + pe(n, c));
        added(0, i) = a;
        s_rope.push_back(scores(0, i));
        s_added.push_back(a);
        t.add({std::to_string(m), std::to_string(n),
               std::to_string(static_cast<long>(m) - static_cast<long>(n)), fixed(scores(0, i), 6),
               fixed(a, 6)});
    }
    ch.table(t);
    ch.record("rope_scores", scores, Shape::Vector);
    ch.record("added_scores", added, Shape::Vector);
    const double rope_spread = spread_by_distance(in.pairs, s_rope);
    const double added_spread = spread_by_distance(in.pairs, s_added);
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
    ch.step(tr("RoPE: queries and keys rotated by their positions (02 and 04 位置编码)"));
    const std::size_t d_k = in.rope_d_k;
    ch.say(
        tr("Instead of adding a position vector to the embedding, RoPE rotates each pair of "
           "columns (2i, 2i + 1) of a query or key at position p by the angle p·θ_i, θ_i = "
           "10000^(−2i/d_k), after the projections, in every head. The same q (d_k = {}) at "
           "positions {}:",
           d_k, seq(in.rope_positions)));
    Matrix repeated(in.rope_positions.size(), d_k);
    for (std::size_t r = 0; r < repeated.rows; ++r) set_submatrix(repeated, r, 0, in.rope_q);
    Labels rows;
    for (const std::size_t p : in.rope_positions) rows.push_back("p = " + std::to_string(p));
    ch.show("rope_rotated_q", tr("q rotated by its position"),
            rope_rotate(repeated, d_k, in.rope_positions), rows, {}, 4);
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
        const std::vector<double> s = alibi_slopes(h);
        Matrix m(1, s.size());
        for (std::size_t i = 0; i < s.size(); ++i) m(0, i) = s[i];
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

// --- grouped-query attention ---------------------------------------------------------------------

// The layer with kv key/value heads: each group's key (and value) heads averaged into one, as the
// GQA paper turns a multi-head checkpoint into a grouped one.
MultiHeadWeights with_kv_heads(const MultiHeadWeights& w, std::size_t kv) {
    const std::size_t h = w.n_heads, d_k = w.d_k(), group = h / kv;
    MultiHeadWeights out = w;
    out.n_kv_heads = kv;
    const auto pool = [&](const Matrix& W) {  // (rows x h·d_k) -> (rows x kv·d_k)
        Matrix p(W.rows, kv * d_k);
        for (std::size_t r = 0; r < W.rows; ++r)
            for (std::size_t j = 0; j < kv; ++j)
                for (std::size_t c = 0; c < d_k; ++c) {
                    double sum = 0.0;
                    for (std::size_t g = 0; g < group; ++g) sum += W(r, (j * group + g) * d_k + c);
                    p(r, j * d_k + c) = sum / static_cast<double>(group);
                }
        return p;
    };
    out.W_K = pool(w.W_K), out.W_V = pool(w.W_V), out.b_K = pool(w.b_K), out.b_V = pool(w.b_V);
    return out;
}

// Seconds per generated token with a KV cache, for a model of the given shape.
double seconds_per_token(const TransformerConfig& c, std::size_t tokens) {
    const Transformer m = random_transformer(c, 5);
    const Tokens source = {3, 4, 5, 6, 7, 8, 9, 10, 2};
    return median_seconds(
               [&] {
                   KVCache cache = start_decoding(m, source);
                   for (std::size_t t = 0; t < tokens; ++t)
                       decode_step(m, cache, t == 0 ? c.bos_id : 3 + static_cast<int>(t % 10));
               },
               3, 0.3) /
           static_cast<double>(tokens);
}

// The layer with every key/value head count of the data file, against all heads.
void show_grouped_outputs(Chapter& ch, const Inputs& in) {
    const MultiHeadWeights& full = in.gqa;
    ch.say(
        tr("One layer, d_model {} and {} query heads; its key and value heads averaged in "
           "groups into {} (the GQA paper's way of converting a trained model). Query head i "
           "reads key/value head i / (h / n_kv):",
           full.d_model(), full.n_heads, seq(in.gqa_kv)));
    const Attending all = within_one(in.gqa_x.rows, in.gqa_x.rows);
    Table t({tr("key/value heads"), tr("kind"), tr("K and V per token"),
             tr("largest change from all heads")});
    Matrix reference;
    for (const std::size_t kv : in.gqa_kv) {
        const Matrix out = multi_head_attention(in.gqa_x, in.gqa_x, with_kv_heads(full, kv), all);
        ch.record("gqa_output_kv" + std::to_string(kv), out, Shape::Matrix, tolerance::end_to_end);
        if (reference.empty()) reference = out;
        const std::string kind = kv == full.n_heads ? tr("multi-head")
                                 : kv == 1          ? tr("multi-query")
                                                    : tr("grouped-query");
        t.add({std::to_string(kv), kind, std::to_string(2 * kv * full.d_k()),
               fixed(max_abs_diff(out, reference), 4)});
    }
    ch.table(t);
}

// With n_kv = h, grouped-query attention is chapter 4's multi-head attention, bit for bit.
void show_equal_to_multi_head(Chapter& ch, const Inputs& in) {
    const MultiHeadWeights& full = in.gqa;
    const Attending all = within_one(in.gqa_x.rows, in.gqa_x.rows);
    const Matrix fused = multi_head_attention(in.gqa_x, in.gqa_x, full, all);
    const Matrix per_head = multi_head_attention_per_head(in.gqa_x, in.gqa_x, full);
    const double same = max_abs_diff(fused, per_head);
    ch.record("gqa_mha_output", fused, Shape::Matrix, tolerance::end_to_end);
    ch.record_number("gqa_equals_mha_max_abs_diff", same, 0.0);
    ch.say(same == 0.0
               ? tr("With n_kv = h it is chapter 4's multi-head attention: max |difference| = 0, "
                    "bit for bit against the per-head form, and PyTorch's nn.MultiheadAttention "
                    "to 1e-9 (--check).")
               : tr("With n_kv = h it should be chapter 4's multi-head attention, bit for bit; "
                    "here the two differ by {}.",
                    sci(same)));
}

// What the cache costs per token, for published shapes.
void show_kv_cache_sizes(Chapter& ch, const Inputs& in) {
    Table bytes({tr("model"), tr("layers"), tr("heads"), tr("key/value heads"), "d_k",
                 tr("per token, float64"), tr("per token, float16")});
    Matrix kb(in.kv_shapes.size(), in.bytes_per_number.size());
    for (std::size_t i = 0; i < in.kv_shapes.size(); ++i) {
        const TransformerConfig& c = in.kv_shapes[i].config;
        const double b64 = kv_cache_bytes(c, 1, 0);  // one token, float64
        for (std::size_t j = 0; j < in.bytes_per_number.size(); ++j)
            kb(i, j) = b64 * in.bytes_per_number[j] / 8.0;
        bytes.add({in.kv_shapes[i].name, std::to_string(c.n_decoder_layers),
                   std::to_string(c.n_heads), std::to_string(c.kv_heads()),
                   std::to_string(c.d_model / c.n_heads), grouped(static_cast<long long>(b64)),
                   grouped(static_cast<long long>(b64 / 4))});
    }
    ch.record("kv_bytes_per_token", kb);
    ch.say(
        tr("Every layer keeps one key and one value row of n_kv·d_k numbers per token (the "
           "encoder-decoder's decoder layers; the LLaMA models are decoder-only):"));
    ch.table(bytes);
    for (const KvShape& shape : in.kv_shapes) {  // the first that groups its heads
        const TransformerConfig& c = shape.config;
        if (c.kv_heads() == c.n_heads) continue;
        const double fp16 = kv_cache_bytes(c, 1, 0) / 4;
        const std::size_t ratio = c.n_heads / c.kv_heads();
        ch.say(
            tr("{} keeps {} bytes per token in float16 with its {} key/value heads; with one "
               "per query head it would keep {}, {}× as much — the saving that lets a model of "
               "that size serve long contexts.",
               shape.name, grouped(static_cast<long long>(fp16)), c.kv_heads(),
               grouped(static_cast<long long>(fp16 * static_cast<double>(ratio))), ratio));
        break;
    }
}

// The time per token, worded from what it did as the key/value heads went from most to fewest.
void word_kv_timing(Chapter& ch, const Inputs& in, double first, double last) {
    if (last > first * 1.05) {
        ch.say(tr("From {} to {} key/value heads the time per token went from {} ms to {} ms "
                  "here: fewer key/value heads did not make this small model faster. Its keys "
                  "and values are a small part of a step's work, and a difference this size is "
                  "within what a timing on a shared machine varies by; what shrinks for certain "
                  "is the cache.",
                  in.timing_kv.front(), in.timing_kv.back(), fixed(1000 * first, 3),
                  fixed(1000 * last, 3)));
        return;
    }
    ch.say(last < first * 0.95
               ? tr("From {} to {} key/value heads the time per token falls by {}%: fewer keys "
                    "and values to project and to read. The projections of the queries, the "
                    "feed-forward layers and the output stay, so the time does not fall as fast "
                    "as the cache shrinks.",
                    in.timing_kv.front(), in.timing_kv.back(), fixed(100 * (1 - last / first), 0))
               : tr("From {} to {} key/value heads the time per token hardly changes here ({} ms "
                    "against {} ms): at this size the queries, the feed-forward layers and the "
                    "output weigh more than the keys and values; what shrinks is the cache.",
                    in.timing_kv.front(), in.timing_kv.back(), fixed(1000 * first, 3),
                    fixed(1000 * last, 3)));
}

// Decoding timed at each key/value head count of inputs.timing.
void time_kv_heads(Chapter& ch, const Inputs& in) {
    Table times(
        {tr("key/value heads"), tr("ms per token"), tr("cache after {} tokens", in.timing_tokens)});
    std::vector<double> per;
    ProgressBar progress;
    for (const std::size_t kv : in.timing_kv) {
        progress.status(tr("timing {} key/value heads", kv));
        TransformerConfig c = in.timing;
        c.n_kv_heads = kv;
        const double s = seconds_per_token(c, in.timing_tokens);
        per.push_back(s);
        ch.measured("decode_seconds_per_token_kv" + std::to_string(kv), s);
        times.add({std::to_string(kv), fixed(1000 * s, 3),
                   grouped(static_cast<long long>(kv_cache_bytes(c, in.timing_tokens, 9))) + " B"});
    }
    progress.done();
    ch.say(
        tr("Decoding {} tokens with the cache on a model of d_model {}, {} heads, {}+{} layers "
           "(median of runs, on {}):",
           in.timing_tokens, in.timing.d_model, in.timing.n_heads, in.timing.n_encoder_layers,
           in.timing.n_decoder_layers, threads_used()));
    ch.table(times);
    word_kv_timing(ch, in, per.front(), per.back());
}

void gqa_step(Chapter& ch, const Inputs& in) {
    ch.step(tr("Grouped-query and multi-query attention: fewer key/value heads"));
    show_grouped_outputs(ch, in);
    show_equal_to_multi_head(ch, in);
    show_kv_cache_sizes(ch, in);
    if (!ch.options.check) time_kv_heads(ch, in);
}

// --- sliding window ------------------------------------------------------------------------------

void window_step(Chapter& ch, const Inputs& in) {
    ch.step(tr("Sliding-window attention: each query sees the last {} positions", in.window));
    const std::size_t n = in.window_n, w = in.window;
    const Matrix mask = add(causal_mask(n), window_mask(n, n, w));
    ch.record("window_mask_hidden", hidden_positions(mask));
    ch.shaded(tr("causal + window {} mask over {} positions", w, n), hidden_positions(mask),
              tr("█ hidden, blank seen"));
    // who can reach the last position after L layers: one step of attention per layer
    Table t({tr("layers"), tr("positions reaching the last"), tr("L·(w − 1) + 1, at most n")});
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
        const std::size_t count =
            static_cast<std::size_t>(std::count(reached.begin(), reached.end(), true));
        reach(0, i) = static_cast<double>(count);
        t.add({std::to_string(in.window_layers[i]), std::to_string(count),
               std::to_string(std::min(n, in.window_layers[i] * (w - 1) + 1))});
    }
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

void variants_step(Chapter& ch, const Inputs& in) {
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
        std::vector<Tokens> sources, inputs;
        for (const Example& e : in.batch) {
            sources.push_back(e.source);
            inputs.push_back(shifted_right(e.target, v.model.config.bos_id));
        }
        ch.record("logits_" + v.name, decode(v.model, inputs, encode(v.model, sources), sources),
                  Shape::Matrix, tolerance::end_to_end);
        Transformer grad;
        const double loss = batch_gradients(v.model, in.batch, in.smoothing, grad);
        ch.record_number("loss_" + v.name, loss, tolerance::end_to_end);
        const double worst = record_gradients(ch, v.name, grad);
        double gap = 0.0;
        for (const Example& e : in.batch) gap = std::max(gap, kv_cache_gap(v.model, e));
        gaps(0, i) = gap;
        t.add({v.name, variant_text(v.model.config), fixed(loss, 10), sci(worst), sci(gap)});
    }
    ch.table(t);
    ch.record("kv_cache_max_abs_diff", gaps, Shape::Vector, 0.0);
    Words names;
    for (const Variant& v : in.variants) names.push_back(v.name);
    ch.reported("variants", names);
}

// --- which positions read longer inputs ----------------------------------------------------------

double exact_at_length(const Transformer& m, std::size_t length, const Inputs& in) {
    Random rng(in.test_seed + length);
    return exact_match(m, random_reversals(rng, in.per_length, length, length)).rate();
}

// Exact match against length, one line per scheme; a dashed line where training stopped.
void length_picture(Chapter& ch, const Inputs& in, const Matrix& table, const Labels& names,
                    std::size_t trained) {
    std::vector<double> xs;
    for (const std::size_t l : in.test_lengths) xs.push_back(static_cast<double>(l));
    LineChart chart{tr("reversal: exact match by input length (trained on 1–{})", trained),
                    tr("input length"),
                    tr("exact match (%)"),
                    false,
                    false,
                    {},
                    xs};
    for (std::size_t s = 0; s < names.size(); ++s) {
        Series line{names[s], xs, {}, true, false};
        for (std::size_t l = 0; l < xs.size(); ++l) line.ys.push_back(100 * table(s, l));
        chart.series.push_back(line);
    }
    const double edge = static_cast<double>(trained) + 0.5;
    chart.series.push_back({tr("longest in training"), {edge, edge}, {0, 100}, false, true});
    ch.picture("ch10_length_generalization.svg", line_chart_svg(chart));
}

// The schemes at a value (to a tenth of a percent), in the table's order.
std::vector<std::string> at_value(const std::vector<double>& rates, const Labels& names, double x) {
    std::vector<std::string> out;
    for (std::size_t s = 0; s < rates.size(); ++s)
        if (std::fabs(rates[s] - x) < 5e-4) out.push_back(names[s]);
    return out;
}

struct Finding {  // what the experiment showed, for the closing corrections
    bool any_beyond = false;
    double best = 0.0, worst = 0.0;
    std::vector<std::string> best_names, worst_names;
};

struct LengthResults {
    Matrix table;                        // schemes x test lengths: exact match, mean over seeds
    std::vector<Matrix> per_seed;        // per scheme: seeds x test lengths
    std::vector<double> within, beyond;  // per scheme: mean within and beyond training lengths
    Labels names;                        // the schemes in the reader's words
    bool any_beyond = false;             // a test length longer than training's
};

// Every scheme trained with every seed, then read at every test length.
LengthResults measure_lengths(Chapter& ch, const Inputs& in, Trained& trained_runs) {
    const std::size_t trained = in.plan.task.max_source_length, n_seeds = in.seeds.size();
    LengthResults r;
    r.table = Matrix(in.schemes.size(), in.test_lengths.size());
    r.per_seed.assign(in.schemes.size(), Matrix(n_seeds, in.test_lengths.size()));
    for (std::size_t s = 0; s < in.schemes.size(); ++s)
        for (std::size_t k = 0; k < n_seeds; ++k) {
            const TrainingRun& run =
                trained_runs.get(ch, in, in.schemes[s], NormKind::Layer, in.seeds[k]);
            for (std::size_t l = 0; l < in.test_lengths.size(); ++l) {
                r.per_seed[s](k, l) = exact_at_length(run.model, in.test_lengths[l], in);
                r.table(s, l) += r.per_seed[s](k, l) / static_cast<double>(n_seeds);
            }
        }
    trained_runs.done();
    r.within.assign(in.schemes.size(), 0.0);
    r.beyond.assign(in.schemes.size(), 0.0);
    for (std::size_t s = 0; s < in.schemes.size(); ++s) {
        r.names.push_back(scheme_text(in.schemes[s]));
        std::size_t n_within = 0, n_beyond = 0;
        for (std::size_t l = 0; l < in.test_lengths.size(); ++l) {
            const bool past = in.test_lengths[l] > trained;
            (past ? r.beyond[s] : r.within[s]) += r.table(s, l);
            ++(past ? n_beyond : n_within);
        }
        if (n_within) r.within[s] /= static_cast<double>(n_within);
        if (n_beyond) r.beyond[s] /= static_cast<double>(n_beyond);
        r.any_beyond = n_beyond > 0;
    }
    return r;
}

// The table (lengths past training starred), recorded, and drawn.
void show_length_table(Chapter& ch, const Inputs& in, const LengthResults& r) {
    const std::size_t trained = in.plan.task.max_source_length;
    std::vector<std::string> header = {tr("positions")};
    for (const std::size_t l : in.test_lengths)
        header.push_back(tr("len {}", l) + (l > trained ? "*" : ""));
    Table shown(header);
    Labels codes;  // the config's names, for --json
    for (std::size_t s = 0; s < in.schemes.size(); ++s) {
        codes.push_back(positions_name(in.schemes[s]));
        std::vector<std::string> row = {r.names[s]};
        for (std::size_t l = 0; l < in.test_lengths.size(); ++l)
            row.push_back(fixed(100 * r.table(s, l), 1) + "%");
        shown.add(row);
    }
    ch.table(shown);
    ch.line(
        in.seeds.size() == 1
            ? tr("  * longer than any sequence in training; exact match, seed {}", seq(in.seeds))
            : tr("  * longer than any sequence in training; exact match, mean over seeds {}",
                 seq(in.seeds)));
    ch.measured("length_generalization", r.table);
    ch.reported("length_generalization_schemes", codes);
    length_picture(ch, in, r.table, r.names, trained);
}

// Within the training lengths: the schemes that did not learn the task at all.
void word_within(Chapter& ch, const Inputs& in, const LengthResults& r) {
    std::vector<std::string> weak;  // schemes with positions that did not learn the task
    for (std::size_t s = 0; s < in.schemes.size(); ++s) {
        if (r.within[s] >= 0.5) continue;
        if (in.schemes[s] == PositionScheme::None)
            ch.say(
                tr("Without positions the model reads only {}% right even at lengths it was "
                   "trained on: with nothing to say where a token stands, the encoder's output "
                   "is the same for every order of the same digits, and reversing needs the "
                   "order.",
                   fixed(100 * r.within[s], 1)));
        else
            weak.push_back(r.names[s] + " " + fixed(100 * r.within[s], 1) + "%");
    }
    if (!weak.empty())
        ch.say(
            tr("Within the training lengths some models read fewer than half right ({}): "
               "{} steps did not teach them the task, so what they do beyond it says little "
               "(inputs.length_generalization.training.max_steps trains longer).",
               listed(weak), in.plan.settings.max_steps));
}

// Beyond the training lengths: best and worst, how much the seeds agree, learned positions.
Finding word_beyond(Chapter& ch, const Inputs& in, const LengthResults& r) {
    const std::size_t trained = in.plan.task.max_source_length;
    Finding f;
    f.any_beyond = true;
    f.best = *std::max_element(r.beyond.begin(), r.beyond.end());
    f.worst = *std::min_element(r.beyond.begin(), r.beyond.end());
    f.best_names = at_value(r.beyond, r.names, f.best);
    f.worst_names = at_value(r.beyond, r.names, f.worst);
    if (f.best == f.worst)
        ch.say(
            tr("Beyond the training lengths (mean over the lengths above {}) every scheme "
               "reads {}%: none stands out here.",
               trained, fixed(100 * f.best, 1)));
    else
        ch.say(
            tr("Beyond the training lengths (mean over the lengths above {}): best {} with "
               "{}%, worst {} with {}%.",
               trained, listed(f.best_names), fixed(100 * f.best, 1), listed(f.worst_names),
               fixed(100 * f.worst, 1)));
    // how much the seeds agree, at the first length past training, for the best scheme
    std::size_t first_past = 0;
    while (in.test_lengths[first_past] <= trained) ++first_past;
    for (std::size_t s = 0; s < in.schemes.size(); ++s) {
        if (r.names[s] != f.best_names.front() || in.seeds.size() < 2) continue;
        double lo = 1.0, hi = 0.0;
        for (std::size_t k = 0; k < in.seeds.size(); ++k)
            lo = std::min(lo, r.per_seed[s](k, first_past)),
            hi = std::max(hi, r.per_seed[s](k, first_past));
        ch.say(
            tr("Seed to seed, {} at length {} read between {}% and {}%: one seed would not "
               "have settled it.",
               r.names[s], in.test_lengths[first_past], fixed(100 * lo, 1), fixed(100 * hi, 1)));
    }
    for (std::size_t s = 0; s < in.schemes.size(); ++s)
        if (in.schemes[s] == PositionScheme::Learned && r.beyond[s] < 0.05 && r.within[s] >= 0.5)
            ch.say(
                tr("learned positions cannot go further than training did: the table has {} "
                   "rows, but those past position {} were never trained, so they hold their "
                   "random starting values.",
                   in.max_positions, trained));
    return f;
}

Finding length_step(Chapter& ch, const Inputs& in, Trained& trained_runs) {
    ch.step(
        tr("Which positions read longer inputs than training had? (02 位置编码, requirement 3)"));
    const std::size_t trained = in.plan.task.max_source_length;
    ch.say(
        tr("Chapter 7's reversal task, trained on lengths 1 to {} with the same plan ({} steps, "
           "seeds {}) under each position scheme, then read on {} new sequences of each "
           "length:",
           trained, in.plan.settings.max_steps, seq(in.seeds), in.per_length));
    const LengthResults r = measure_lengths(ch, in, trained_runs);
    show_length_table(ch, in, r);
    word_within(ch, in, r);
    if (r.any_beyond) return word_beyond(ch, in, r);
    ch.say(
        tr("No test length here is longer than the training's {}: nothing to compare "
           "beyond them.",
           trained));
    return {};
}

}  // namespace

namespace {

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data);
    Trained trained;
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
