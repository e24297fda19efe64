// bench.cpp — `make bench`: our speed against the same work in PyTorch on one thread, and peak
// memory. Prints a table and writes build/bench.json. A benchmark, not a test: nothing here fails.
//
// PyTorch runs twice (tests/bench/torch_bench.py): once in the environment as the user has it,
// and once as "torch_native_kernel", with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset for that
// process, so that OpenBLAS picks the kernel written for this CPU. tests/bench/fair_blas.sh has
// made sure beforehand that PyTorch's BLAS is an optimised one where it could.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <sys/resource.h>

#include "../json.h"
#include "core/allocation.h"
#include "core/matmul.h"
#include "core/random.h"
#include "io/atomic_file.h"
#include "io/data_file.h"
#include "io/model_file.h"
#include "model/4_transformer/parameters.h"
#include "model/4_transformer/transformer_init.h"
#include "report/measure.h"
#include "report/terminal.h"
#include "train/adam.h"
#include "train/batch.h"
#include "train/reverse_task.h"

namespace {

Matrix random_matrix(Random& rng, std::size_t r, std::size_t c) {
    Matrix m(r, c);
    for (double& x : m.data) x = rng.normal();
    return m;
}

double matmul_gflops(Matrix (*product)(const Matrix&, const Matrix&), int runs) {
    Random rng(1);
    const Matrix a = random_matrix(rng, 512, 512), b = random_matrix(rng, 512, 512);
    return 2.0 * 512 * 512 * 512 / median_seconds([&] { product(a, b); }, runs) / 1e9;
}

TransformerConfig base_config() {
    TransformerConfig c;  // d_model 512, h 8, N 6, d_ff 2048
    c.src_vocab = c.tgt_vocab = 37000;
    c.share_embeddings = true;
    return c;
}

double forward_base_seconds() {
    const Transformer m = random_transformer(base_config(), 2017);
    Random rng(64);
    Tokens src(64), tgt(64);
    for (int& id : src) id = 3 + static_cast<int>(rng.next() % 36997);
    for (int& id : tgt) id = 3 + static_cast<int>(rng.next() % 36997);
    return median_seconds([&] { logits_teacher_forced(m, src, tgt); }, 5);
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
    return median_seconds(
        [&] {
            Transformer grad;
            batch_gradients(m, batch, data.number(k + "smoothing"), grad);
            adam.step(params, parameter_matrices(grad));
        },
        41);
}

// Runs a command and returns what it printed, or "" if it failed.
std::string output_of(const std::string& command) {
    FILE* p = popen(command.c_str(), "r");
    std::string text;
    char buf[4096];
    while (p && fgets(buf, sizeof buf, p)) text += buf;
    return p && pclose(p) == 0 ? text : "";
}

// chapter 7's whole training run (the data file's steps), as build/ch07_training reports it.
double ch07_training_seconds(const std::string& build) {
    const std::string text =
        output_of(build + "/ch07_training --json --save " + build + "/bench_ch07_model.json");
    return text.empty() ? -1 : Json::parse(text)["train_seconds"].get<double>();
}

// Max RSS of `build/ch06_encoder_decoder --config base --json`, in bytes (a child process, so
// that nothing else of this program counts).
double peak_memory_of_base_forward(const std::string& build) {
    if (std::system((build + "/ch06_encoder_decoder --config base --json > /dev/null").c_str()) !=
        0)
        return -1;
    struct rusage usage {};
    getrusage(RUSAGE_CHILDREN, &usage);
    return static_cast<double>(usage.ru_maxrss) * 1024.0;  // ru_maxrss is in KiB on Linux
}

// PyTorch's figures (one thread), or null; native: unset OpenBLAS's kernel choice for this run.
Json torch_figures(bool native) {
    const std::string env =
        std::string(native ? "env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE " : "env ") +
        "OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 ";
    const std::string text =
        output_of(env + "/usr/bin/python3 tests/bench/torch_bench.py 2>/dev/null");
    return text.empty() ? Json(nullptr) : Json::parse(text);
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

Json measure_ours(const std::string& build) {
    const DataFile ch07 = DataFile::load("data/ch07_training.json");
    Json r = Json::object();
    int cores = 0;
    r["cpu_model"] = cpu_model(cores);
    r["machine"] = r["cpu_model"].get<std::string>() + ", " + std::to_string(cores) + " cores";
    r["matmul_gflops"] = matmul_gflops(matmul, 9);
    r["matmul_naive_gflops"] = matmul_gflops(matmul_naive, 3);
    r["forward_base_seconds"] = forward_base_seconds();
    r["train_step_seconds"] = train_step_seconds(ch07);
    r["ch07_training_seconds"] = ch07_training_seconds(build);
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

// ours ÷ theirs (matmul: theirs ÷ ours is the slowdown, so GFLOP/s are divided the other way)
void add_ratios(Json& r, const Json& t, const std::string& suffix) {
    auto ratio = [&](const char* key) { return r[key].get<double>() / t[key].get<double>(); };
    const bool fair = unfair(t).empty();
    r["matmul_fraction_of_torch" + suffix] = fair ? Json(ratio("matmul_gflops")) : Json(nullptr);
    r["forward_base_ratio" + suffix] = fair ? Json(ratio("forward_base_seconds")) : Json(nullptr);
    r["train_step_ratio" + suffix] = fair ? Json(ratio("train_step_seconds")) : Json(nullptr);
}

std::string num(const Json& j, int digits) {
    return j.is_null() ? std::string("—") : general(j.get<double>(), digits);
}

void print_table(const Json& r) {
    const Json &t = r["torch"], &n = r["torch_native_kernel"];
    auto theirs = [](const Json& torch, const char* key) {
        return torch.is_null() ? std::string("—") : num(torch[key], 3);
    };
    Table table({"figure", "ours", "PyTorch", "ratio", "PyTorch, native kernel", "ratio"});
    auto row = [&](const std::string& name, const char* key, const char* ratio) {
        table.add({name, num(r[key], 3), theirs(t, key), num(r[ratio], 3), theirs(n, key),
                   num(r[std::string(ratio) + "_native"], 3)});
    };
    row("matmul 512³, GFLOP/s", "matmul_gflops", "matmul_fraction_of_torch");
    row("base model forward, 64+64 tokens, s", "forward_base_seconds", "forward_base_ratio");
    row("one ch07 training step, s", "train_step_seconds", "train_step_ratio");
    table.add({"naive i-j-p matmul, GFLOP/s", num(r["matmul_naive_gflops"], 3), "", "", "", ""});
    table.add({"ch07's training run, s", num(r["ch07_training_seconds"], 3), "", "", "", ""});
    table.add({"peak memory of the base forward, MiB",
               fixed(r["peak_memory_base_forward_bytes"].get<double>() / (1 << 20), 0), "",
               fixed(r["peak_memory_to_weights"].get<double>(), 2) + " × the weights", "", ""});
    table.print(std::cout);
    std::cout << "(ratios: ours ÷ theirs; for matmul, GFLOP/s, so above 1 is faster, for seconds "
                 "below 1 is)\n";
}

}  // namespace

int main(int argc, char** argv) {
    reuse_freed_memory();  // as the chapter programs do (core/allocation.h)
    const std::string build = argc > 1 ? argv[1] : "build";
    try {
        std::cerr << "measuring (about a minute)...\n";
        Json r = measure_ours(build);
        r["torch"] = torch_figures(false);
        r["torch_native_kernel"] = torch_figures(true);
        r["torch_blas"] = r["torch"].is_null() ? Json(nullptr) : r["torch"]["torch_blas"];
        const std::string why_not = unfair(r["torch"]);
        r["torch_missing_because"] = why_not.empty() ? Json(nullptr) : Json(why_not);
        add_ratios(r, r["torch"], "");
        add_ratios(r, r["torch_native_kernel"], "_native");
        print_table(r);
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
