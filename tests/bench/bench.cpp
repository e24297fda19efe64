// bench.cpp — `make bench`: our speed against the same work in PyTorch, on one thread and on
// every core (the same count for both), and peak memory. Prints a table and writes
// build/bench.json. A benchmark, not a test: nothing here fails.
//
// `build/bench BUILD --smoke` (make test) runs every measurement once at a small size, without
// PyTorch or the chapter programs, and writes nothing: the bench is built and run by the tests,
// so that it cannot break unseen.
//
// PyTorch (tests/bench/torch_bench.py) runs on the fastest BLAS kernel this CPU can run: each
// candidate's products timed first, the whole-model figures under the fastest (peers.h);
// tests/bench/fair_blas.sh has made sure beforehand that PyTorch's BLAS is an optimised one
// where it could. The machine's FMA peak (fma_peak.h) is measured beside, and our products and
// the fastest kernel's dgemm are timed once more in turns in one process (in_turns.h); the
// tables are in tables.cpp.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <tuple>

#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>  // first: psapi.h needs its definitions

#include <psapi.h>
#else
#include <sys/resource.h>
#endif

#include "../json.h"
#include "core/allocation.h"
#include "core/matmul.h"
#include "core/random.h"
#include "fast/threads.h"
#include "fast/tile_shape.h"
#include "io/atomic_file.h"
#include "io/data_file.h"
#include "io/model_file.h"
#include "model/gpt/gpt.h"
#include "model/transformer/parameters.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"
#include "report/measure.h"
#include "report/terminal.h"
#include "train/adam.h"
#include "train/batch.h"
#include "train/gpt_training.h"
#include "train/reverse_task.h"

#include "decoding.h"
#include "fma_peak.h"
#include "in_turns.h"
#include "peers.h"
#include "tables.h"

namespace {

// The sizes of a run: make bench's, or --smoke's (each figure once, small).
struct Scale {
    bool smoke = false;
    std::size_t matmul_n = 512, decode_steps = 256;
    int repeats(int n) const { return smoke ? 1 : n; }
};
Scale scale;

Matrix random_matrix(Random& rng, std::size_t r, std::size_t c) {
    Matrix m(r, c);
    for (double& x : m.data) x = rng.normal();
    return m;
}

double matmul_gflops(Matrix (*product)(const Matrix&, const Matrix&), int runs,
                     std::size_t n = scale.matmul_n) {
    Random rng(1);
    const Matrix a = random_matrix(rng, n, n), b = random_matrix(rng, n, n);
    const double flops = 2.0 * static_cast<double>(n * n * n);
    return flops / best_seconds([&] { product(a, b); }, scale.repeats(runs)) / 1e9;
}

TransformerConfig base_config() {
    TransformerConfig c;  // d_model 512, h 8, N 6, d_ff 2048
    c.src_vocab = c.tgt_vocab = 37000;
    c.share_embeddings = true;
    if (scale.smoke) c.d_model = 64, c.n_heads = 2, c.d_ff = 128, c.src_vocab = c.tgt_vocab = 500;
    return c;
}

long minor_page_faults() {
#ifdef _WIN32
    PROCESS_MEMORY_COUNTERS c{};  // Windows counts every page fault, soft ones included
    GetProcessMemoryInfo(GetCurrentProcess(), &c, sizeof c);
    return static_cast<long>(c.PageFaultCount);
#else
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
#endif
}

// The base model's forward pass: its best time, and the minor page faults (pages the kernel
// had to map and zero) per forward after the first, which has warmed up the allocator.
struct Forward {
    double seconds, page_faults;
};
Forward forward_base() {
    const Transformer m = random_transformer(base_config(), 2017);
    Random rng(64);
    Tokens src(64), tgt(64);
    const std::size_t ids = base_config().src_vocab - 3;
    for (int& id : src) id = 3 + static_cast<int>(rng.next() % ids);
    for (int& id : tgt) id = 3 + static_cast<int>(rng.next() % ids);
    logits_teacher_forced(m, src, tgt);  // warm-up
    const long before = minor_page_faults();
    const int runs = scale.repeats(5);
    for (int i = 0; i < runs; ++i) logits_teacher_forced(m, src, tgt);
    const double faults = static_cast<double>(minor_page_faults() - before) / runs;
    return {best_seconds([&] { logits_teacher_forced(m, src, tgt); }, runs), faults};
}

// One step of chapter 7's training (forward, backward, Adam) on one of its batches.
double train_step_seconds(const DataFile& data) {
    const std::string k = "inputs.training.";
    TransformerConfig c;
    read_model_shape(data, k, c);
    c.src_vocab = c.tgt_vocab = reverse_vocab_size;
    Transformer m = random_transformer(c, 1);
    Random rng(data.size(k + "seed", 0, 1000000));
    const std::vector<Example> batch =
        random_reversals(rng, data.size(k + "batch_size", 1, 1000),
                         data.size(k + "min_length", 1, 100), data.size(k + "max_length", 1, 100));
    AdamSettings s;
    s.d_model = c.d_model;
    Adam adam(s);
    const std::vector<Matrix*> params = parameter_matrices(m);
    return best_seconds(
        [&] {
            Transformer grad;
            batch_gradients(m, batch, data.number(k + "smoothing"), grad);
            adam.step(params, parameter_matrices(grad));
        },
        scale.repeats(41));
}

// chapter 7's whole training run (the data file's steps), as build/ch07_training reports it.
// ch07's default training run on one thread (the first table's column).
double ch07_training_seconds(const std::string& build) {
    const std::string text =
        output_of("OMP_NUM_THREADS=1 " + build + "/ch07_training --json --save " + build +
                  "/bench_ch07_model.json");
    return text.empty() ? -1 : Json::parse(text)["train_seconds"].get<double>();
}

// One training step of chapter 12's poet at its defined shape (data/ch12_gpt.json's model:
// d_model 96, 4 heads over 2 key/value heads, d_ff 256, 4 pre-norm layers, RMSNorm, RoPE, an
// output table of its own; 3,005 characters, the vocabulary its corpus gives) on a batch of 16
// windows of 64 tokens, AdamW as the chapter steps it (its training inputs: peak rate 0.008,
// weight decay 0.1, no smoothing) — the same work as torch_bench.py's gpt_train_step_seconds.
constexpr std::size_t kPoetVocab = 3005, kPoetBatch = 16, kPoetContext = 64;
double gpt_train_step_seconds() {
    TransformerConfig c;
    c.d_model = 96, c.n_heads = 4, c.n_kv_heads = 2, c.d_ff = 256;
    c.n_encoder_layers = 0, c.n_decoder_layers = 4, c.share_embeddings = false;
    c.norm = NormKind::RMS, c.norm_first = true, c.positions = PositionScheme::Rope;
    std::size_t vocab = kPoetVocab, batch = kPoetBatch, context = kPoetContext;
    if (scale.smoke) vocab = 300, batch = 2, context = 8;
    c.src_vocab = c.tgt_vocab = vocab;
    Gpt m = random_gpt(c, 12);
    Random rng(12);
    std::vector<Tokens> inputs(batch), targets(batch);
    for (std::size_t b = 0; b < batch; ++b) {
        Tokens window(context + 1);
        for (int& t : window) t = 3 + static_cast<int>(rng.next() % (vocab - 3));
        inputs[b].assign(window.begin(), window.end() - 1);
        targets[b].assign(window.begin() + 1, window.end());
    }
    TrainingSettings s;
    s.smoothing = 0;
    s.adam.schedule = AdamSettings::Schedule::Cosine;
    s.adam.peak = 0.008, s.adam.warmup = 100, s.adam.steps = 5000, s.adam.final_fraction = 0.05;
    s.adam.weight_decay = 0.1, s.adam.d_model = c.d_model;
    constexpr std::size_t steps = 3;
    s.max_steps = steps;
    return best_seconds([&] { steps_on_batch(m, inputs, targets, s); }, scale.repeats(5)) / steps;
}

std::string contents(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// `ch07_training --task numerals` run whole (4,000 steps, then the held-out set) on `threads`
// threads: its wall time, its held-out result, and the model it saved.
struct NumeralsRun {
    double wall_seconds = -1, heldout = -1;
    std::string model;
};
NumeralsRun ch07_numerals(const std::string& build, int threads) {
    const std::string saved = build + "/bench_numerals_" + std::to_string(threads) + "t.json";
    const auto start = std::chrono::steady_clock::now();
    const std::string text = output_of("OMP_NUM_THREADS=" + std::to_string(threads) + " " + build +
                                       "/ch07_training --task numerals --json --save " + saved);
    NumeralsRun run;
    if (text.empty()) return run;
    run.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.heldout = Json::parse(text)["heldout_exact_match"].get<double>();
    run.model = contents(saved);
    return run;
}

// Max RSS of `build/ch06_encoder_decoder --config base --json`, in bytes (a child process, so
// that nothing else of this program counts).
double peak_memory_of_base_forward(const std::string& build) {
    if (std::system((build + "/ch06_encoder_decoder --config base --json > /dev/null").c_str()) !=
        0)
        return -1;
#ifdef _WIN32
    return -1;  // Windows keeps no figure for a finished child process
#else
    struct rusage usage {};
    getrusage(RUSAGE_CHILDREN, &usage);
    return static_cast<double>(usage.ru_maxrss) * 1024.0;  // ru_maxrss is in KiB on Linux
#endif
}

// PyTorch on every core at its best, under `kernel`: its threads and its BLAS's threads contend
// (on this project's machine, 2 + 2 on 2 cores made the base forward twice as slow as one
// thread), so it runs twice, its BLAS on every core and on one, and each figure keeps the faster.
Json torch_on_every_core(const PeerKernel& kernel, int threads) {
    Json best = torch_figures(kernel, threads, 0, false);
    const Json other = torch_figures(kernel, threads, 1, false);
    if (best.is_null() || other.is_null()) return best.is_null() ? other : best;
    for (const char* rate : {"matmul_gflops", "decode_tokens_per_second",
                             "decode_tokens_per_second_float32",
                             "decode_tokens_per_second_bfloat16"})
        best[rate] = std::max(best[rate].get<double>(), other[rate].get<double>());
    for (const char* time : {"forward_base_seconds", "train_step_seconds", "gpt_train_step_seconds",
                             "gpt_train_step_seconds_float32"})
        best[time] = std::min(best[time].get<double>(), other[time].get<double>());
    best["blas_threads"] = "the faster of " + std::to_string(threads) + " and 1, figure by figure";
    return best;
}

// PyTorch's figures on `threads` threads with the fastest kernel: every candidate's products
// timed (the sweep, kept in r as peer_sweep + suffix), the whole-model figures run under the
// kernel fastest at 512³, and each product figure the best any candidate reached, with the
// kernel that reached it (peer_kernel_matmul…).
Json fastest_peer(Json& r, int threads, const std::string& suffix) {
    const std::vector<PeerKernel> kernels = peer_kernels();
    const Json sweep = matmul_sweep(kernels, threads, kernel::vector_unit);
    r["peer_sweep" + suffix] = sweep;
    const PeerKernel best = fastest(sweep, kernels, "matmul_gflops");
    Json t = threads == 1 ? torch_figures(best, 1, 0, false) : torch_on_every_core(best, threads);
    if (t.is_null()) return t;
    t["peer_kernel"] = t["kernel"];
    for (const std::string key : {"matmul_gflops", "matmul_gflops_1024"}) {
        if (!t.contains(key)) t[key] = 0.0;
        t["peer_kernel_" + key] = t["kernel"];
        for (const Json& k : sweep)
            if (k[key].get<double>() > t[key].get<double>())
                t[key] = k[key], t["peer_kernel_" + key] = k["kernel"];
    }
    return t;
}

// Ours and the fastest kernel's products in turns in one process, on one thread (in_turns.h).
void measure_in_turns(Json& r, const std::string& build) {
    r["in_turns_1t"] = products_in_turns(build, r["peer_sweep_1t"], scale.matmul_n);
}

// "AMD EPYC …": the CPU model from /proc/cpuinfo; and the number of cores
std::string cpu_model(int& cores) {
    std::ifstream info("/proc/cpuinfo");
    std::string line, model = "unknown CPU";
    cores = 0;
    while (std::getline(info, line)) {
        if (line.rfind("model name", 0) == 0 && model == "unknown CPU")
            model = line.substr(line.find(':') + 2);
        cores += line.rfind("processor", 0) == 0;
    }
    return model;
}

// Our products on `threads` threads, each figure the faster of this measurement and one already
// in r: main measures them again after the peers', so that ours, like theirs (a process for each
// kernel), are taken in more than one stretch of time — on a virtual machine the same product
// ran 69 and 88 GFLOP/s minutes apart.
void measure_products(Json& r, int threads, const std::string& suffix) {
    set_thread_count(threads);
    for (const auto& [key, runs, n] :
         {std::tuple<std::string, int, std::size_t>{"matmul_gflops", 9, scale.matmul_n},
          {"matmul_gflops_1024", 5, 2 * scale.matmul_n}}) {
        const double g = matmul_gflops(matmul, runs, n);
        r[key + suffix] = r.contains(key + suffix) ? std::max(r[key + suffix].get<double>(), g) : g;
    }
}

// Each product as a fraction of the FMA peak on our unit, and the products' speed-up on every
// core ÷ the threads.
void products_of_peak(Json& r, int threads) {
    for (const std::string suffix : {"", "_nt"}) {
        const Json& peaks = r["fma_peak_gflops" + suffix];
        const bool ours = peaks.contains(kernel::vector_unit);
        for (const std::string key : {"matmul_gflops", "matmul_gflops_1024"})
            r[key + "_of_peak" + suffix] =
                ours ? Json(r[key + suffix].get<double>() / peaks[kernel::vector_unit].get<double>())
                     : Json(nullptr);
    }
    r["parallel_efficiency"]["matmul"] =
        r["matmul_gflops_nt"].get<double>() / r["matmul_gflops"].get<double>() / threads;
}

// The timed figures on `threads` threads, with `suffix` on their keys ("" on one thread, "_nt"
// on every core).
void measure_speed(Json& r, const DataFile& ch07, int threads, const std::string& suffix) {
    measure_products(r, threads, suffix);
    const Forward f = forward_base();
    r["forward_base_seconds" + suffix] = f.seconds;
    r["page_faults_per_forward" + suffix] = f.page_faults;
    r["train_step_seconds" + suffix] = train_step_seconds(ch07);
    r["gpt_train_step_seconds" + suffix] = gpt_train_step_seconds();
    const DecodingScale d{scale.smoke, scale.decode_steps, scale.repeats(5)};
    const std::string t = suffix.empty() ? "_1t" : suffix;
    r["decode_tokens_per_second" + suffix] = decode_tokens_per_second("float64", d);
    r["decode_tokens_per_second_f32" + t] = decode_tokens_per_second("float32", d);
    r["decode_tokens_per_second_int8" + t] = decode_tokens_per_second("int8", d);
    r["decode_tokens_per_second_int8_activations" + t] = decode_tokens_per_second("int8x8", d);
    r["memory_read_gbs" + t] = memory_read_gbs(scale.smoke, scale.repeats(5));
}

Json measure_ours(const std::string& build, int threads) {
    const DataFile ch07 = DataFile::load("data/ch07_training.json");
    Json r = Json::object();
    int cores = 0;
    r["cpu_model"] = cpu_model(cores);
    r["machine"] = r["cpu_model"].get<std::string>() + ", " + std::to_string(cores) + " cores";
    r["threads"] = threads;
    r["register_tile"] = std::string(kernel::vector_unit) + ", " + std::to_string(kernel::MR) +
                         " x " + std::to_string(kernel::NR);
    measure_speed(r, ch07, 1, "");
    measure_speed(r, ch07, threads, "_nt");
    // the machine's own ceiling, and each product as a fraction of it on our unit
    for (const auto& [t, suffix] : {std::pair<int, std::string>{1, ""}, {threads, "_nt"}}) {
        Json peaks = Json::object();
        for (const FmaPeak& p : fma_peaks(t, scale.smoke ? 0.005 : 0.2)) peaks[p.unit] = p.gflops;
        r["fma_peak_gflops" + suffix] = peaks;
    }
    r["decode_tokens_per_second_1t"] = r["decode_tokens_per_second"];
    decode_bytes(r, scale.smoke);
    // the formats against float64, each measured in this same run
    for (const char* f : {"f32", "int8"})
        for (const char* t : {"_1t", "_nt"})
            r[std::string("decode_") + f + "_to_f64" + t] =
                r[std::string("decode_tokens_per_second_") + f + t].get<double>() /
                r[std::string("decode_tokens_per_second") + (std::string(t) == "_1t" ? "" : "_nt")]
                    .get<double>();
    // each speed-up on every core ÷ the threads (rates: nt ÷ 1t; times: 1t ÷ nt)
    auto speed_up = [&](const std::string& key, bool rate) {
        const double one = r[key].get<double>(), all = r[key + "_nt"].get<double>();
        return (rate ? all / one : one / all) / threads;
    };
    Json e = Json::object();
    e["forward_base"] = speed_up("forward_base_seconds", false);
    e["train_step"] = speed_up("train_step_seconds", false);
    e["decode"] = speed_up("decode_tokens_per_second", true);
    r["parallel_efficiency"] = e;
    products_of_peak(r, threads);
    r["matmul_naive_gflops"] = matmul_gflops(matmul_naive, 3);
    if (scale.smoke) return r;  // the chapter programs' runs are theirs, not the library's
    r["ch07_training_seconds"] = ch07_training_seconds(build);
    // twice each, alternating, the faster run kept: a run that shared the machine with other
    // work is slower, never faster
    NumeralsRun one = ch07_numerals(build, 1), all = ch07_numerals(build, threads);
    const NumeralsRun one_again = ch07_numerals(build, 1),
                      all_again = ch07_numerals(build, threads);
    if (one_again.wall_seconds > 0 && one_again.wall_seconds < one.wall_seconds) one = one_again;
    if (all_again.wall_seconds > 0 && all_again.wall_seconds < all.wall_seconds) all = all_again;
    r["ch07_numerals_wall_seconds_1t"] = one.wall_seconds;
    r["ch07_numerals_wall_seconds_nt"] = all.wall_seconds;
    r["ch07_numerals_nt_to_1t"] = all.wall_seconds / one.wall_seconds;
    r["ch07_numerals_heldout"] = one.heldout;
    r["ch07_numerals_same_model_bits"] = !one.model.empty() && one.model == all.model;
    const double weights =
        static_cast<double>(parameter_count(random_transformer(base_config(), 0))) * 8.0;
    r["peak_memory_base_forward_bytes"] = peak_memory_of_base_forward(build);
    r["weight_bytes_base"] = weights;
    r["peak_memory_to_weights"] = r["peak_memory_base_forward_bytes"].get<double>() / weights;
    return r;
}

// The reason a comparison with this PyTorch would not be fair, or "".
std::string unfair(const Json& torch) {
    if (torch.is_null()) return "PyTorch is not installed or tests/bench/torch_bench.py failed";
    const std::string blas = torch["torch_blas"].get<std::string>();
    if (blas.find("/blas/libblas.so") != std::string::npos)
        return "PyTorch runs on the reference BLAS (" + blas + "); install libopenblas0-pthread";
    return "";
}

// ours ÷ theirs (matmul: theirs ÷ ours is the slowdown, so GFLOP/s are divided the other way);
// ours: the figures whose keys end in `ours` ("" one thread, "_nt" every core)
// (t is a copy: r holds it, and adding keys to r may move what a reference into r points at)
void add_ratios(Json& r, const Json t, const std::string& ours, const std::string& suffix) {
    auto ratio = [&](const char* key) {
        return r[key + ours].get<double>() / t[key].get<double>();
    };
    const bool fair = unfair(t).empty();
    r["matmul_fraction_of_torch" + suffix] = fair ? Json(ratio("matmul_gflops")) : Json(nullptr);
    r["matmul_1024_fraction_of_torch" + suffix] =
        fair ? Json(ratio("matmul_gflops_1024")) : Json(nullptr);
    r["forward_base_ratio" + suffix] = fair ? Json(ratio("forward_base_seconds")) : Json(nullptr);
    r["train_step_ratio" + suffix] = fair ? Json(ratio("train_step_seconds")) : Json(nullptr);
    r["gpt_train_step_ratio" + suffix] =
        fair ? Json(ratio("gpt_train_step_seconds")) : Json(nullptr);
    r["gpt_train_step_ratio_float32" + suffix] =
        fair ? Json(r["gpt_train_step_seconds" + ours].get<double>() /
                    t["gpt_train_step_seconds_float32"].get<double>())
             : Json(nullptr);
    r["decode_speed_of_torch" + suffix] =
        fair ? Json(ratio("decode_tokens_per_second")) : Json(nullptr);
}

// --smoke: every figure of ours once, small; each must be a finite positive number (the
// counts of page faults may be 0). Exit 1 otherwise.
// The peer's choice on made-up names and figures: each kernel's unit, which kernels the AVX2
// build may be compared with, and the fastest of a sweep. Prints each wrong answer; their count.
int check_peer_choice() {
    int wrong = 0;
    const auto expect = [&](bool ok, const std::string& what) {
        if (!ok) std::cout << "bench --smoke: peer choice: " << what << "\n", ++wrong;
    };
    const std::pair<const char*, const char*> units[] = {
        {"OpenBLAS SkylakeX", "AVX-512"}, {"OpenBLAS Cooperlake", "AVX-512"},
        {"OpenBLAS Haswell", "AVX2"},     {"OpenBLAS Zen", "AVX2"},
        {"BLIS zen3", "AVX2"},            {"BLIS zen4", "AVX-512"},
        {"BLIS skx", "AVX-512"},          {"OpenBLAS Sandybridge", "AVX"},
        {"OpenBLAS Prescott", "other"}};
    for (const auto& [kernel, unit] : units)
        expect(unit_of_kernel(kernel) == unit, std::string(kernel) + " runs on " + unit);
    expect(!within_unit("OpenBLAS SkylakeX", "AVX2"), "an AVX-512 kernel beside the AVX2 build");
    expect(within_unit("BLIS zen3", "AVX2") && within_unit("OpenBLAS Haswell", "AVX-512"),
           "an AVX2 kernel is a peer of both builds");
    expect(within_unit("OpenBLAS SkylakeX", "arm64 NEON"), "any kernel beside a build of its own");
    const Json sweep = Json::parse(
        R"([{"candidate":"a","kernel_env":"A=1","matmul_gflops":40,"matmul_gflops_1024":50},
            {"candidate":"b","kernel_env":"B=1","matmul_gflops":45,"matmul_gflops_1024":44}])");
    const std::vector<PeerKernel> kernels = {{"a", "A=1"}, {"b", "B=1"}};
    expect(fastest(sweep, kernels, "matmul_gflops").candidate == "b", "the fastest at 512³");
    expect(fastest(sweep, kernels, "matmul_gflops_1024").env == "A=1", "the fastest at 1024³");
    expect(fastest(Json::array(), kernels, "matmul_gflops").candidate == "a",
           "no sweep: the first candidate");
    return wrong;
}

int smoke_run(const std::string& build, int threads) {
    scale.smoke = true, scale.matmul_n = 64, scale.decode_steps = 4;
    const Json r = measure_ours(build, threads);
    std::size_t figures = 0, bad = 0;
    for (const auto& item : r.items()) {
        if (!item.value().is_number()) continue;
        const double x = item.value().get<double>();
        const bool count = item.key().find("page_faults") != std::string::npos;
        ++figures;
        if (!std::isfinite(x) || x < 0 || (x == 0 && !count)) {
            std::cout << "bench --smoke: " << item.key() << " = " << x << "\n";
            ++bad;
        }
    }
    // no product beats the machine's own FMA peak: a peak loop that lost its FMAs would
    for (const auto& item : r.items())
        if (item.key().find("_of_peak") != std::string::npos && item.value().is_number() &&
            item.value().get<double>() > 1.05) {
            std::cout << "bench --smoke: " << item.key() << " = " << item.value() << " of the peak\n";
            ++bad;
        }
    std::cout << "bench --smoke: " << figures << " figures measured once at a small size, " << bad
              << " not a positive number or above the FMA peak (register tile: "
              << r["register_tile"].get<std::string>() << ")\n";
    bad += smoke_in_turns(build);
    bad += smoke_decode_child(build);
    const int peers_wrong = check_peer_choice();
    return bad == 0 && peers_wrong == 0 && figures > 10 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    reuse_freed_memory();  // as the chapter programs do (core/allocation.h)
    const std::string build = argc > 1 ? argv[1] : "build";
    try {
        if (argc > 2 && std::string(argv[2]) == "--tables") {  // the last run's tables again
            std::ifstream in(build + "/bench.json");
            if (!in) throw std::runtime_error(build + "/bench.json: no benchmark run yet");
            print_tables(Json::parse(in));
            return 0;
        }
        if (argc > 4 && std::string(argv[2]) == "--in-turns")  // the child of in_turns()
            return in_turns_child(std::stoul(argv[3]), std::stoi(argv[4]));
        if (argc > 4 && std::string(argv[2]) == "--decode")  // llama2c_in_turns.sh's
            return decode_child(argv[3], argv[4]);
        const int threads = thread_count();
        if (argc > 2 && std::string(argv[2]) == "--smoke") return smoke_run(build, threads);
        std::cerr << "measuring on 1 and " << threads << " threads (a few minutes)...\n";
        Json r = measure_ours(build, threads);
        r["torch"] = fastest_peer(r, 1, "_1t");
        r["torch_nt"] = fastest_peer(r, threads, "_nt");
        measure_in_turns(r, build);
        measure_products(r, 1, "");  // ours again, after theirs
        measure_products(r, threads, "_nt");
        products_of_peak(r, threads);
        r["torch_blas"] = r["torch"].is_null() ? Json(nullptr) : r["torch"]["torch_blas"];
        const std::string why_not = unfair(r["torch"]);
        r["torch_missing_because"] = why_not.empty() ? Json(nullptr) : Json(why_not);
        add_ratios(r, r["torch"], "", "");
        add_ratios(r, r["torch"], "", "_1t");
        add_ratios(r, r["torch_nt"], "_nt", "_nt");
        print_tables(r);
        if (!r["torch"].is_null())
            r["decode_tokens_per_second_torch_float32_1t"] =
                r["torch"]["decode_tokens_per_second_float32"];
        std::cout << "machine: " << r["machine"].get<std::string>() << "\n";
        if (!why_not.empty())
            std::cout << "no ratios: " << why_not << "\n";
        else
            std::cout << "PyTorch " << r["torch"]["torch_version"].get<std::string>() << " on "
                      << r["torch_blas"].get<std::string>() << "\n";
        write_file_atomically(build, "bench.json", r.dump(2) + "\n");
        std::cout << "wrote " << build << "/bench.json\n";
    } catch (const std::exception& e) {
        std::cerr << "error: bench: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
