// ch11_long_sequences/memory.cpp — the bytes one attention call holds, counted, and its time: the
// standard pass against the tiled one, at each length.
#include "ch11_long_sequences/memory.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/elementary.h"
#include "core/random.h"
#include "model/attention/attention.h"
#include "report/allocation_counter.h"
#include "report/chapter.h"
#include "report/chart.h"
#include "report/measure.h"
#include "text/translate.h"

namespace ch11_long_sequences {

namespace {

Matrix random_matrix(Random& rng, std::size_t rows, std::size_t cols) {
    Matrix m(rows, cols);
    for (double& x : m.data) x = rng.normal();
    return m;
}

double mib(double bytes) { return bytes / (1 << 20); }

// The bytes and seconds of one attention call at each length, both ways.
struct MemoryRun {
    std::vector<double> lengths, standard_lengths, bytes_standard, bytes_tiled;
    std::vector<double> seconds_standard, seconds_tiled;
    double budget = 0;           // the most the standard pass may need: half the free memory
    double stopped_needing = 0;  // what the first length not run would have needed
    bool budget_known = true;    // false where the system does not say what is free (Windows)
};

// What the standard pass needs at least: the n × n scores and weights, 8 bytes each.
double standard_needs(double n) { return 2 * 8 * n * n; }

MemoryRun measure_memory(const Inputs& in) {
    MemoryRun r;
    r.budget = available_memory_bytes() / 2;
    if (r.budget <= 0) r.budget = double(1u << 30), r.budget_known = false;  // cannot tell: 1 GiB
    Random rng(in.seed);
    {  // the products keep a packing buffer per thread from their first call on (core/matmul.cpp):
       // allocated here, before any measurement, so that no length is charged for it
        const Matrix x = random_matrix(rng, in.tile, in.d_k);
        tiled_attention(x, x, x, {}, {in.tile, in.tile});
        attention(x, x, x);
    }
    for (std::size_t n : in.lengths) {
        const Matrix Q = random_matrix(rng, n, in.d_k), K = random_matrix(rng, n, in.d_k),
                     V = random_matrix(rng, n, in.d_k);
        r.lengths.push_back(static_cast<double>(n));
        double seconds = 0;
        r.bytes_tiled.push_back(static_cast<double>(peak_bytes_of([&] {
            seconds = median_seconds([&] { tiled_attention(Q, K, V, {}, {in.tile, in.tile}); }, 1);
        })));
        r.seconds_tiled.push_back(seconds);
        if (standard_needs(static_cast<double>(n)) > r.budget) {
            if (r.stopped_needing == 0) r.stopped_needing = standard_needs(static_cast<double>(n));
            continue;
        }
        r.standard_lengths.push_back(static_cast<double>(n));
        r.bytes_standard.push_back(static_cast<double>(
            peak_bytes_of([&] { seconds = median_seconds([&] { attention(Q, K, V); }, 1); })));
        r.seconds_standard.push_back(seconds);
    }
    return r;
}

LineChart memory_chart(const MemoryRun& r, bool time) {
    // bytes drawn in MiB, so that the axis reads 0.5, 1, 10, 100, 1,000
    const auto in_mib = [](std::vector<double> v) {
        for (double& x : v) x = mib(x);
        return v;
    };
    LineChart chart{time ? tr("time of one attention call against n")
                         : tr("memory one attention call holds at its peak, against n"),
                    "n",
                    time ? tr("seconds") : "MiB",
                    true,
                    true,
                    {},
                    r.lengths};
    chart.series.push_back(
        {tr("standard"), r.standard_lengths, time ? r.seconds_standard : in_mib(r.bytes_standard)});
    chart.series.push_back(
        {tr("tiled"), r.lengths, time ? r.seconds_tiled : in_mib(r.bytes_tiled)});
    if (!time && !r.lengths.empty())
        for (const double power : {1.0, 2.0}) {  // reference lines through the tiled first point
            Series ref{power == 1 ? "∝ n" : "∝ n²", {}, {}, false, true,
                       power == 1 ? "∝ n" : "∝ n²"};
            for (double n : r.lengths) {
                ref.xs.push_back(n);
                ref.ys.push_back(mib(r.bytes_tiled[0]) * elementary::pow(n / r.lengths[0], power));
            }
            chart.series.push_back(ref);
        }
    return chart;
}

// The fitted exponent of bytes against n, over every length (all) and over the longer half
// (tail), where what does not grow with n — the tiled pass's few blocks — weighs least; false
// when fewer than two lengths were run.
bool fit(const std::vector<double>& ns, const std::vector<double>& ys, double& all, double& tail) {
    if (distinct_sizes(ns) < 2) return false;
    all = fitted_exponent(ns, ys);
    const std::size_t from = std::min(ns.size() / 2, ns.size() - 2);
    const std::vector<double> xs(ns.begin() + static_cast<std::ptrdiff_t>(from), ns.end()),
        zs(ys.begin() + static_cast<std::ptrdiff_t>(from), ys.end());
    tail = distinct_sizes(xs) >= 2 ? fitted_exponent(xs, zs) : all;
    return true;
}

// The bytes and seconds of each length, shown and recorded.
void show_memory_table(Chapter& ch, const MemoryRun& r) {
    Table t({"n", tr("standard"), tr("tiled"), tr("standard ÷ tiled"), tr("standard: seconds"),
             tr("tiled: seconds")});
    for (std::size_t a = 0; a < r.lengths.size(); ++a) {
        const bool ran = a < r.standard_lengths.size();
        t.add({grouped(static_cast<unsigned long long>(r.lengths[a])),
               ran ? bytes_text(r.bytes_standard[a])
                   : tr("not run (≥ {})", bytes_text(standard_needs(r.lengths[a]))),
               bytes_text(r.bytes_tiled[a]),
               ran ? fixed(r.bytes_standard[a] / r.bytes_tiled[a], 1) : "—",
               ran ? fixed(r.seconds_standard[a], 3) : "—", fixed(r.seconds_tiled[a], 3)});
    }
    ch.table(t);
    ch.measured("lengths", row_matrix(r.lengths));
    ch.measured("bytes_standard", row_matrix(r.bytes_standard));
    ch.measured("bytes_tiled", row_matrix(r.bytes_tiled));
    ch.measured("seconds_standard", row_matrix(r.seconds_standard));
    ch.measured("seconds_tiled", row_matrix(r.seconds_tiled));
}

// How far the standard pass ran on this machine's free memory.
void word_standard_reach(Chapter& ch, const MemoryRun& r) {
    const unsigned long long last_standard = static_cast<unsigned long long>(
        r.standard_lengths.empty() ? 0 : r.standard_lengths.back());
    if (r.stopped_needing > 0 && r.budget_known)
        ch.say(
            tr("The standard pass stopped at n = {}: the next length would need at least {}, "
               "more than half of the {} this machine has free.",
               grouped(last_standard), bytes_text(r.stopped_needing), bytes_text(2 * r.budget)));
    else if (r.stopped_needing > 0)
        ch.say(tr("The standard pass stopped at n = {}: the next length would need at least {}, "
                  "more than the {} this program allows itself where the system does not say "
                  "how much memory is free.",
                  grouped(last_standard), bytes_text(r.stopped_needing), bytes_text(r.budget)));
    else
        ch.say(tr("The standard pass ran at every length: at n = {} it held {}.",
                  grouped(static_cast<unsigned long long>(r.lengths.back())),
                  bytes_text(r.bytes_standard.back())));
}

// The exponents of both passes' bytes against n, fitted over the longer half and over every
// length; fs, ft: whether each side ran at two lengths or more.
struct MemoryGrowth {
    double ps = 0, pt = 0, ps_all = 0, pt_all = 0;
    bool fs = false, ft = false;
};
MemoryGrowth memory_growth(const MemoryRun& r) {
    MemoryGrowth g;
    g.fs = fit(r.standard_lengths, r.bytes_standard, g.ps_all, g.ps);
    g.ft = fit(r.lengths, r.bytes_tiled, g.pt_all, g.pt);
    return g;
}

// The fitted exponents of the bytes, recorded and worded from what they came out as.
void word_memory_growth(Chapter& ch, const Inputs& in, const MemoryGrowth& g) {
    const double ps = g.ps, pt = g.pt, ps_all = g.ps_all, pt_all = g.pt_all;
    const bool fs = g.fs, ft = g.ft;
    if (fs) {
        ch.measured("memory_exponent_standard", ps);
        ch.measured("memory_exponent_standard_all", ps_all);
    }
    if (ft) {
        ch.measured("memory_exponent_tiled", pt);
        ch.measured("memory_exponent_tiled_all", pt_all);
    }
    if (fs && ft) {
        ch.say(
            tr("Fitted over the longer half of the lengths: the standard pass's bytes grow as "
               "n^{}, the tiled pass's as n^{}; over every length, n^{} and n^{}.",
               fixed(ps, 2), fixed(pt, 2), fixed(ps_all, 2), fixed(pt_all, 2)));
        ch.say(
            std::fabs(ps - 2) <= 0.25 && std::fabs(pt - 1) <= 0.25
                ? tr("Squares against lines: the standard pass holds the n × n scores and "
                     "weights, the tiled one the n × d_v output and a few blocks of {}×{}, "
                     "the same at every n — which is why its fit over every length, short "
                     "ones included, comes out lower.",
                     in.tile, in.tile)
                : tr("At these lengths the growth does not show yet: what a call allocates "
                     "whatever n is (a few blocks, the bookkeeping) weighs as much as what "
                     "grows with n. Longer lengths (inputs.memory.lengths) let the growth show."));
    } else
        ch.say(tr("Fewer than two lengths on one side: no exponent can be fitted."));
}

// The tiled pass's bytes at the longest length, and the time of both, worded from the ratio.
void word_memory_time(Chapter& ch, const Inputs& in, const MemoryRun& r) {
    ch.say(tr("At n = {} the tiled pass held {}, of which the output itself is {}.",
              grouped(static_cast<unsigned long long>(r.lengths.back())),
              bytes_text(r.bytes_tiled.back()),
              bytes_text(8.0 * r.lengths.back() * static_cast<double>(in.d_k))));
    if (!r.standard_lengths.empty()) {
        const std::size_t a = r.standard_lengths.size() - 1;
        const double ratio = r.seconds_tiled[a] / r.seconds_standard[a];
        ch.say(ratio > 1
                   ? tr("Time at n = {}: the tiled pass took {}× the standard one's on this CPU. "
                        "Both do the same n²·d multiply-adds; the tiled one also rescales its "
                        "accumulators block by block and copies blocks. What it buys here is "
                        "memory, not time (on a GPU, where the n × n matrix would travel to slow "
                        "memory and back, it buys time as well).",
                        grouped(static_cast<unsigned long long>(r.standard_lengths[a])),
                        fixed(ratio, 2))
               : r.bytes_standard[a] > 64.0 * (1 << 20)  // beyond any cache of this machine
                   ? tr("Time at n = {}: the tiled pass took {}× the standard one's on this CPU — "
                        "faster here: the standard pass asks the system for fresh memory to hold "
                        "two n × n matrices, then writes and reads them far outside the caches.",
                        grouped(static_cast<unsigned long long>(r.standard_lengths[a])),
                        fixed(ratio, 2))
                   : tr("Time at n = {}: the tiled pass took {}× the standard one's on this CPU "
                        "(one run of a short call: read it as this run's).",
                        grouped(static_cast<unsigned long long>(r.standard_lengths[a])),
                        fixed(ratio, 2)));
    }
    ch.say(tr("(one run per length; times vary from run to run, the bytes do not)"));
}

}  // namespace

// "48 bytes", "12.5 KiB", "8.33 MiB", "4.01 GiB"
std::string bytes_text(double bytes) {
    if (bytes < 1024) return tr("{} bytes", grouped(static_cast<unsigned long long>(bytes)));
    if (bytes < double(1u << 20)) return fixed(bytes / 1024, 1) + " KiB";
    if (bytes < double(1u << 30)) return fixed(mib(bytes), 2) + " MiB";
    return fixed(bytes / double(1u << 30), 2) + " GiB";
}

MemoryFinding memory(Chapter& ch, const Inputs& in) {
    ch.step(tr("Memory, counted: the bytes one attention call holds (one head, float64)"));
    ch.say(
        tr("Q, K and V of n rows and d_k = d_v = {} columns; tiled in blocks of {} queries × "
           "{} keys. The program counts every byte allocated and freed (its own operator new) "
           "and reports the most held at once during the call, the output included.",
           in.d_k, in.tile, in.tile));
    // a tile's block of scores and weights is what the tiled pass holds: one past half the free
    // memory is refused with the key that asked for it, before it is allocated
    if (const double needs = standard_needs(static_cast<double>(in.tile)),
        budget = available_memory_bytes() / 2;
        budget > 0 && needs > budget)
        throw ch.data.error("inputs.memory.tile",
                            tr("a tile of {} queries × {} keys holds {} of scores and weights, "
                               "more than half the free memory ({}); expected a smaller tile",
                               in.tile, in.tile, bytes_text(needs), bytes_text(2 * budget)));
    const MemoryRun r = measure_memory(in);
    show_memory_table(ch, r);
    word_standard_reach(ch, r);
    const MemoryGrowth g = memory_growth(r);
    word_memory_growth(ch, in, g);
    word_memory_time(ch, in, r);
    ch.picture("ch11_memory_vs_n.svg", line_chart_svg(memory_chart(r, false)));
    ch.picture("ch11_time_vs_n.svg", line_chart_svg(memory_chart(r, true)));
    return {r.bytes_tiled.back(), g.ft ? g.pt : 0.0};
}

}  // namespace ch11_long_sequences
