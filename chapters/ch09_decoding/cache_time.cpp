// ch09_decoding/cache_time.cpp — time: generating n tokens by recomputing the prefix at every
// step, against the KV cache; the fitted exponents against the counted ones.
#include "ch09_decoding/cache_time.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <string>

#include "ch09_decoding/inputs.h"
#include "core/elementary.h"
#include "io/model_file.h"
#include "io/platform.h"
#include "io/training_plan.h"
#include "model/decoding/beam_search.h"
#include "model/decoding/decoding.h"
#include "model/decoding/kv_cache.h"
#include "model/decoding/sampling.h"
#include "model/transformer/transformer.h"
#include "report/chapter.h"
#include "report/chart.h"
#include "report/measure.h"
#include "report/progress.h"
#include "report/token_text.h"
#include "text/translate.h"
#include "train/evaluate.h"
#include "train/numerals_task.h"
#include "train/trainer.h"


namespace ch09_decoding {

namespace {

// Seconds to feed n tokens: recomputing the whole prefix at every step, or with the cache.
std::pair<double, double> generation_seconds(const Transformer& m, const Tokens& source,
                                             std::size_t n) {
    std::vector<int> ids;  // tokens the model may generate: what a real decoder would feed back
    for (int id = 0; id < static_cast<int>(m.config.tgt_vocab); ++id)
        if (may_generate(id, m.config)) ids.push_back(id);
    Tokens fed = {m.config.bos_id};
    for (std::size_t t = 1; t < n; ++t) fed.push_back(ids[t % ids.size()]);
    const Matrix memory = encode(m, {source});
    const double recompute = median_seconds(
        [&] {
            for (std::size_t t = 1; t <= n; ++t)
                decode(m, {Tokens(fed.begin(), fed.begin() + static_cast<std::ptrdiff_t>(t))}, memory,
                       {source});
        },
        1);
    const double cached = median_seconds(
        [&] {
            KVCache cache = start_decoding(m, source);
            for (const int token : fed) decode_step(m, cache, token);
        },
        3);
    return {recompute, cached};
}

std::vector<double> as_doubles(const std::vector<std::size_t>& v) {
    return std::vector<double>(v.begin(), v.end());
}

// Both totals against n on log-log axes, with their fitted slopes and n³, n² beside them.
void time_picture(Chapter& ch, const Inputs& in, const std::vector<double>& ns,
                  const std::array<std::vector<double>, 2>& seconds, std::array<double, 2> slopes) {
    const std::vector<double>& recompute = seconds[0];
    const std::vector<double>& cached = seconds[1];
    const double p_recompute = slopes[0], p_cached = slopes[1];
    LineChart chart{tr("time to generate n tokens (d_model {})", in.model.config.d_model),
                    "n",
                    tr("seconds"),
                    true,
                    true,
                    {},
                    ns};  // ticks at the lengths measured
    chart.series.push_back({tr("recomputing the prefix"), ns, recompute, true, false,
                            tr("slope {}", fixed(p_recompute, 2))});
    chart.series.push_back(
        {tr("KV cache"), ns, cached, true, false, tr("slope {}", fixed(p_cached, 2))});
    for (const double power : {3.0, 2.0}) {  // through each series' first point: n³ and n²
        const std::vector<double>& from = power == 3 ? recompute : cached;
        Series ref{power == 3 ? "∝ n³" : "∝ n²", {}, {}, false, true, power == 3 ? "n³" : "n²"};
        for (const double n : ns)
            ref.xs.push_back(n), ref.ys.push_back(from[0] * elementary::pow(n / ns[0], power));
        chart.series.push_back(ref);
    }
    ch.picture("ch09_time.svg", line_chart_svg(chart));
}

// "short of", "close to" or "above": a fitted exponent against the power it is counted at.
std::string against(double fitted, double counted) {
    if (fitted < counted - 0.15) return tr("short of");
    if (fitted > counted + 0.15) return tr("above");
    return tr("close to");
}

}  // namespace

void timed(Chapter& ch, const Inputs& in) {
    ch.step(tr("Time: recomputing against caching"));
    ch.say(
        tr("To generate n tokens, recomputation runs prefixes of 1, 2, …, n rows: its attention "
           "scores number Σ t² ≈ n³/3 per layer, its projections Σ t ≈ n²/2 rows. The cache runs n "
           "single rows: Σ t ≈ n²/2 scores, n rows of projections. Measured (on {}, median of "
           "runs):",
           threads_used()));
    std::vector<double> recompute, cached;
    ProgressBar progress;  // on stderr: the longest recomputations take seconds
    for (std::size_t i = 0; i < in.timing_lengths.size(); ++i) {
        const std::size_t n = in.timing_lengths[i];
        progress.status(tr("timing n = {} ({} of {})", n, i + 1, in.timing_lengths.size()));
        const auto [r, c] = generation_seconds(in.model, in.sources[0], n);
        recompute.push_back(r), cached.push_back(c);
    }
    progress.done();
    Table t({tr("n tokens"), tr("recompute (s)"), tr("cached (s)"), tr("per token: recompute (ms)"),
             tr("per token: cached (ms)"), tr("speed-up")});
    for (std::size_t i = 0; i < in.timing_lengths.size(); ++i) {
        const std::size_t n = in.timing_lengths[i];
        const double r = recompute[i], c = cached[i], per = 1000.0 / static_cast<double>(n);
        t.add({std::to_string(n), general(r, 3), general(c, 3), general(r * per, 3),
               general(c * per, 3), fixed(r / c, 1) + "×"});
    }
    ch.table(t);
    const std::vector<double> ns = as_doubles(in.timing_lengths);
    if (distinct_sizes(ns) < 2) {
        ch.say(
            tr("One length only (inputs.timing_lengths): no exponent can be fitted; give two "
               "lengths or more."));
        return;
    }
    const double p_recompute = fitted_exponent(ns, recompute),
                 p_cached = fitted_exponent(ns, cached);
    ch.measured("time_exponent_recompute", p_recompute);
    ch.measured("time_exponent_cached", p_cached);
    ch.say(
        tr("Fitted here: recomputation ∝ n^{}, the cache ∝ n^{} in total, so one power less per "
           "generated token (n^{} and n^{}). Recomputation's exponent is {} the 3 of the "
           "attention work, the cache's {} the 2.",
           fixed(p_recompute, 2), fixed(p_cached, 2), fixed(p_recompute - 1, 2),
           fixed(p_cached - 1, 2), against(p_recompute, 3), against(p_cached, 2)));
    if (p_recompute < 2.85 || p_cached < 1.85)
        ch.say(
            tr("The exponents fall short of the count because with d_model {} the per-row work "
               "(projections, feed-forward, output layer) still weighs beside the attention "
               "scores, and it grows one power slower; the longer the output, the closer the "
               "exponents come.",
               in.model.config.d_model));
    if (p_recompute > 3.15 || p_cached > 2.15)
        ch.say(
            tr("Above the count: the machine's doing — caches overflow as the matrices grow, "
               "or other work shared the cores while it was timed (a timing varies from run to "
               "run)."));
    time_picture(ch, in, ns, {recompute, cached}, {p_recompute, p_cached});
}

}  // namespace ch09_decoding
