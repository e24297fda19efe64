// ch08_cost — what attention costs, counted and timed beside the paper's Table 1.
//
// Tutorial: 04's table "Layer Type | Complexity per Layer | Sequential Operations | Maximum
// Path Length" (self-attention O(n²·d), 1, 1; recurrent O(n·d²), n, n; convolutional
// O(k·n·d²), 1, log_k(n)). The table writes d for d_model.
#include <cmath>
#include <string>

#include "core/elementary.h"
#include "core/random.h"
#include "model/layer_cost/counted_layers.h"
#include "report/chapter.h"
#include "report/chart.h"
#include "report/measure.h"
#include "text/translate.h"

namespace {

const char* const layer_names[] = {N_("self-attention"), N_("recurrent"), N_("convolution")};
const LayerType layer_types[] = {LayerType::SelfAttention, LayerType::Recurrent,
                                 LayerType::Convolution};

struct Inputs {
    std::vector<std::size_t> ns, ds;  // the grid of sequence lengths and widths counted
    std::size_t k;                    // the convolution's kernel width
    std::size_t fixed_d, fixed_n;     // the width while n varies, the length while d varies
    std::vector<std::size_t> memory_ns;
    double min_seconds;  // per timed point
    std::uint64_t seed;
};

Inputs read_inputs(const DataFile& data) {
    return {data.sizes("inputs.ns", 2, 1 << 14),
            data.sizes("inputs.ds", 1, 1 << 12),
            data.size("inputs.kernel", 2, 64),
            data.size("inputs.fixed_d", 1, 1 << 12),
            data.size("inputs.fixed_n", 2, 1 << 14),
            data.sizes("inputs.memory_ns", 1, std::size_t(1) << 20),
            data.number("inputs.min_seconds_per_point"),
            data.seed("inputs.seed")};
}

Matrix random_matrix(Random& rng, std::size_t rows, std::size_t cols, double s) {
    Matrix m(rows, cols);
    for (double& x : m.data) x = s * rng.normal();
    return m;
}

// A random sequence of n positions and width d, and the weights of the three layers.
struct Setup {
    Matrix x, W_h, W_x;
    std::vector<Matrix> W;  // the convolution's k taps
};

Setup setup_for(Random& rng, std::size_t n, std::size_t d, std::size_t k) {
    const double s = 1.0 / static_cast<double>(d);
    Setup setup{random_matrix(rng, n, d, 1.0),
                random_matrix(rng, d, d, s),
                random_matrix(rng, d, d, s),
                {}};
    for (std::size_t j = 0; j < k; ++j) setup.W.push_back(random_matrix(rng, d, d, s));
    return setup;
}

LayerRun run_layer(int layer, const Setup& s) {
    if (layer == 0) return self_attention_layer(s.x);
    if (layer == 1) return recurrent_layer(s.x, s.W_h, s.W_x);
    return convolution_layer(s.x, s.W);
}

// Multiply-adds per (n, d), sequential steps and maximum path lengths per n, for each layer type.
struct Counts {
    Matrix macs[3], steps, paths;
};

Counts count_layers(const Inputs& in, Random& rng) {
    const Matrix per_n_d(in.ns.size(), in.ds.size());
    Counts c{{per_n_d, per_n_d, per_n_d}, Matrix(in.ns.size(), 3), Matrix(in.ns.size(), 3)};
    for (std::size_t a = 0; a < in.ns.size(); ++a)
        for (std::size_t b = 0; b < in.ds.size(); ++b) {
            const Setup s = setup_for(rng, in.ns[a], in.ds[b], in.k);
            for (int layer = 0; layer < 3; ++layer) {
                const LayerRun r = run_layer(layer, s);
                c.macs[layer](a, b) = static_cast<double>(r.multiply_adds);
                c.steps(a, layer) = static_cast<double>(r.sequential_steps);
                c.paths(a, layer) =
                    static_cast<double>(maximum_path_length(layer_types[layer], in.ns[a], in.k));
            }
        }
    return c;
}

void counted(Chapter& ch, const Inputs& in, Random& rng) {
    const Counts c = count_layers(in, rng);
    ch.step(tr("The paper's table, counted on our own layers (04 性能)"));
    ch.say(tr("Each layer maps n positions of width d to n positions of width d; kernel k = {}.",
              in.k));
    ch.record("attention_multiply_adds", c.macs[0]);
    ch.record("recurrent_multiply_adds", c.macs[1]);
    ch.record("convolution_multiply_adds", c.macs[2]);
    ch.record("sequential_steps", c.steps);
    ch.record("maximum_path_length", c.paths);
    const std::size_t last_n = in.ns.size() - 1, last_d = in.ds.size() - 1;
    const std::string n = std::to_string(in.ns.back()), k = std::to_string(in.k);
    Table t({tr("layer type"), tr("paper: per layer"), tr("sequential"), tr("max path"),
             tr("multiply-adds at n={}, d={}", n, in.ds.back())});
    const char* paper[] = {"O(n²·d)", "O(n·d²)", "O(k·n·d²)"};
    for (int layer = 0; layer < 3; ++layer)
        t.add({tr(layer_names[layer]), paper[layer], general(c.steps(last_n, layer), 6),
               general(c.paths(last_n, layer), 6),
               grouped(static_cast<unsigned long long>(c.macs[layer](last_n, last_d)))});
    ch.table(t);
    const std::string conv_path = general(c.paths(last_n, 2), 6);
    ch.say(tr(
        "Sequential steps and path lengths at n = {}, counted by following each layer's "
        "connections: the RNN must take its n steps one after another, and a signal from the first "
        "position passes n cells to reach the last; attention links every pair of positions in one "
        "layer. A convolution of width k = {} reaches ⌊k/2⌋ = {} further each layer, "
        "both ways: {} layers from the first position to the last.",
        n, k, count_of(in.k / 2, N_("{} position"), N_("{} positions")), conv_path));
    ch.say(
        tr("05 is right that self-attention connects every pair of words directly, near or far: "
           "its path length is 1 whatever n is."));
    ch.correction(
        "04 性能",
        tr("the convolution's maximum path length O(log_k n) is the paper's figure for dilated "
           "convolutions. "
           "With contiguous kernels, as its complexity column assumes, it is O(n/k): our centred "
           "kernel of width {} needs {} stacked layers from the first of {} positions to the last "
           "(PyTorch's Conv1d, stacked in the oracle, agrees).",
           k, conv_path, n));
}

void memory(Chapter& ch, const Inputs& in) {
    Matrix bytes(1, in.memory_ns.size());  // 8 bytes for each of the n × n weights
    for (std::size_t i = 0; i < in.memory_ns.size(); ++i) {
        const double n = static_cast<double>(in.memory_ns[i]);
        bytes(0, i) = 8.0 * n * n;
    }
    ch.step(tr("Memory of the n × n attention matrix (one head, float64; 04 性能)"));
    Table t({"n", tr("bytes"), tr("in MiB")});
    for (std::size_t i = 0; i < in.memory_ns.size(); ++i) {
        t.add({std::to_string(in.memory_ns[i]),
               grouped(static_cast<unsigned long long>(bytes(0, i))),
               fixed(bytes(0, i) / (1 << 20), 1)});
    }
    ch.record("attention_matrix_bytes", bytes, Shape::Vector);
    ch.table(t);
    ch.say(
        tr("Quadratic: doubling the sequence quadruples it — the reason long contexts are "
           "expensive."));
}

// Seconds of each layer (rows) at each size (columns); n varies when vary_n, else d.
Matrix timings(const Inputs& in, Random& rng, bool vary_n) {
    const std::vector<std::size_t>& sizes = vary_n ? in.ns : in.ds;
    Matrix seconds(3, sizes.size());
    for (std::size_t a = 0; a < sizes.size(); ++a) {
        const Setup s =
            setup_for(rng, vary_n ? sizes[a] : in.fixed_n, vary_n ? in.fixed_d : sizes[a], in.k);
        for (int layer = 0; layer < 3; ++layer)
            seconds(layer, a) = median_seconds([&] { run_layer(layer, s); }, 3, in.min_seconds);
    }
    return seconds;
}

std::vector<double> as_doubles(const std::vector<std::size_t>& v) {
    return std::vector<double>(v.begin(), v.end());
}

// Which layers' fitted exponents agree with the table's counted powers (within 0.3), worded
// from the measured values; a timing varies from run to run, so it says "here".
void judge_slopes(Chapter& ch, const std::vector<double>& measured, const double (&counted)[3],
                  bool in_n) {
    std::vector<std::string> agree, below, above;
    for (int layer = 0; layer < 3; ++layer) {
        const double p = measured[static_cast<std::size_t>(layer)];
        const std::string name = tr(layer_names[layer]);
        if (std::fabs(p - counted[layer]) <= 0.3)
            agree.push_back(name);
        else
            (p < counted[layer] ? below : above).push_back(name);
    }
    const std::string size = in_n ? "n" : "d";
    if (!agree.empty())
        ch.say(
            tr("In {}, the slope agrees with the table here (within 0.3 of the counted power) "
               "for: {}.",
               size, listed(agree)));
    if (!below.empty())
        ch.say(
            tr("In {}, the slope falls short of the count for: {}. What does not grow with {} "
               "still weighs at these sizes — attention's softmax takes n² exponentials "
               "whatever d is; the RNN and the convolution pay a fixed cost per step and per "
               "row.",
               size, listed(below), size));
    if (!above.empty())
        ch.say(
            tr("In {}, the slope is above the count for: {} — the machine's doing: caches "
               "overflow as the sizes grow, or other work shared the cores while it was timed.",
               size, listed(above)));
}

// The least-squares slope of log time against log size, for each layer (0 where fewer than two
// sizes were timed).
std::vector<double> slopes_of(const Matrix& seconds, const std::vector<std::size_t>& sizes) {
    std::vector<double> slopes;
    for (int layer = 0; layer < 3; ++layer) {
        const std::vector<double> t(seconds.row(layer), seconds.row(layer) + sizes.size());
        slopes.push_back(distinct_sizes(sizes) >= 2 ? fitted_exponent(as_doubles(sizes), t) : 0.0);
    }
    return slopes;
}

void timed(Chapter& ch, const Inputs& in, Random& rng) {
    ch.step(tr("Timed: how the time grows with n and with d (04 性能)"));
    const Matrix time_n = timings(in, rng, true), time_d = timings(in, rng, false);
    const std::vector<double> slopes_n = slopes_of(time_n, in.ns), slopes_d = slopes_of(time_d, in.ds);
    Table f({tr("layer type"), tr("paper"), tr("time ∝ n^p at d={}", in.fixed_d),
             tr("time ∝ d^p at n={}", in.fixed_n)});
    const char* names[] = {"attention", "recurrent", "convolution"};
    const char* expect[] = {"n²·d", "n·d²", "k·n·d²"};
    const double counted_n[3] = {2, 1, 1}, counted_d[3] = {1, 2, 2};
    const bool fit_n = distinct_sizes(in.ns) >= 2, fit_d = distinct_sizes(in.ds) >= 2;
    LineChart chart{tr("time of one layer against sequence length (d = {})", in.fixed_d),
                    "n",
                    tr("seconds"),
                    true,
                    true,
                    {},
                    as_doubles(in.ns)};  // ticks at the lengths measured
    for (int layer = 0; layer < 3; ++layer) {
        const std::vector<double> tn(time_n.row(layer), time_n.row(layer) + in.ns.size());
        const double pn = slopes_n[std::size_t(layer)], pd = slopes_d[std::size_t(layer)];
        f.add({tr(layer_names[layer]), expect[layer], fit_n ? "p = " + fixed(pn, 2) : "—",
               fit_d ? "p = " + fixed(pd, 2) : "—"});
        if (fit_n) ch.measured(std::string(names[layer]) + "_exponent_n", pn);
        if (fit_d) ch.measured(std::string(names[layer]) + "_exponent_d", pd);
        chart.series.push_back({tr(layer_names[layer]), as_doubles(in.ns), tn, true, false,
                                fit_n ? tr("slope {}", fixed(pn, 2)) : ""});
    }
    for (const double power : {1.0, 2.0}) {  // reference lines through attention's first point
        Series ref{power == 1 ? "∝ n" : "∝ n²", {}, {}, false, true, power == 1 ? "∝ n" : "∝ n²"};
        for (std::size_t a = 0; a < in.ns.size(); ++a) {
            ref.xs.push_back(static_cast<double>(in.ns[a]));
            ref.ys.push_back(time_n(0, 0) *
                             elementary::pow(static_cast<double>(in.ns[a]) / in.ns[0], power));
        }
        chart.series.push_back(ref);
    }
    ch.table(f);
    ch.say(
        tr("(on {}; the median of repeated runs; least-squares slopes of log time against "
           "log n and log d — a timing varies from run to run, so read them as this run's)",
           threads_used()));
    if (fit_n)
        judge_slopes(ch, slopes_n, counted_n, true);
    else
        ch.say(tr("One sequence length only (inputs.ns): no slope in n can be fitted."));
    if (fit_d)
        judge_slopes(ch, slopes_d, counted_d, false);
    else
        ch.say(tr("One width only (inputs.ds): no slope in d can be fitted."));
    ch.say(tr("The counted multiply-adds above grow exactly as the table says, on any machine."));
    ch.picture("ch08_time_vs_n.svg", line_chart_svg(chart));
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data);
    Random rng(in.seed);
    counted(ch, in, rng);
    memory(ch, in);
    if (!ch.options.check)
        timed(ch, in, rng);  // timings are measurements: --check compares the counts
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch08_cost",
        N_("what attention costs: the paper's Table 1, counted and timed"),
        N_("04's table of complexity per layer, sequential operations and maximum path length"),
        {svg_flag()}};
    return run_chapter(argc, argv, info, walkthrough);
}
