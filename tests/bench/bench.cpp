// bench.cpp — `make bench`: our speed against the same work in PyTorch, and peak memory.
// Prints a table and writes build/bench.json. A benchmark, not a test: nothing here fails.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>

#include "core/matmul.h"
#include "io/atomic_file.h"
#include "io/data_file.h"
#include "io/model_file.h"
#include "model/parameters.h"
#include "report/measure.h"
#include "report/terminal.h"
#include "train/adam.h"
#include "train/reverse_task.h"

namespace {

Matrix random_matrix(Random& rng, std::size_t r, std::size_t c) {
    Matrix m(r, c);
    for (double& x : m.data) x = rng.normal();
    return m;
}

double matmul_gflops(const std::function<Matrix(const Matrix&, const Matrix&)>& mm, int runs) {
    Random rng(1);
    const Matrix a = random_matrix(rng, 512, 512), b = random_matrix(rng, 512, 512);
    return 2.0 * 512 * 512 * 512 / median_seconds([&] { mm(a, b); }, runs) / 1e9;
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
    return median_seconds([&] { logits_teacher_forced(m, src, tgt); }, 3);
}

double train_step_seconds(const DataFile& data) {
    const std::string k = "inputs.training.";
    TransformerConfig c;
    read_model_shape(data, k, c);
    c.src_vocab = c.tgt_vocab = reverse_vocab_size;
    Transformer m = random_transformer(c, 1);
    Random rng(static_cast<std::uint64_t>(data.integer(k + "seed")));
    const std::vector<Example> batch = random_reversals(rng, data.size(k + "batch_size", 1, 1000),
                                                        data.size(k + "min_length", 1, 100),
                                                        data.size(k + "max_length", 1, 100));
    AdamSettings s;
    s.d_model = c.d_model;
    Adam adam(s);
    const std::vector<Matrix*> params = parameter_matrices(m);
    return median_seconds([&] {
        Transformer grad;
        batch_gradients(m, batch, data.number(k + "smoothing"), grad);
        adam.step(params, parameter_matrices(grad));
    }, 21);
}

// Max RSS of `build/ch06_encoder_decoder --config base --json`, in bytes (a child process, so
// that nothing else of this program counts).
double peak_memory_of_base_forward(const std::string& build) {
    const std::string cmd = build + "/ch06_encoder_decoder --config base --json > /dev/null";
    if (std::system(cmd.c_str()) != 0) return -1;
    struct rusage usage {};
    getrusage(RUSAGE_CHILDREN, &usage);
    return static_cast<double>(usage.ru_maxrss) * 1024.0;  // ru_maxrss is in KiB on Linux
}

// PyTorch's figures from tests/bench/torch_bench.py, or why there are none.
Json torch_figures(std::string& why_not) {
    if (std::system("/usr/bin/python3 -c 'import torch' > /dev/null 2>&1") != 0) {
        why_not = "PyTorch is not installed (apt-get install python3-torch python3-numpy)";
        return nullptr;
    }
    FILE* p = popen(
        "OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 /usr/bin/python3 tests/bench/torch_bench.py",
        "r");
    std::string text;
    char buf[4096];
    while (p && fgets(buf, sizeof buf, p)) text += buf;
    if (!p || pclose(p) != 0) {
        why_not = "tests/bench/torch_bench.py failed";
        return nullptr;
    }
    return Json::parse(text);
}

// "Intel(R) Xeon(R) … , 2 cores": the CPU model from /proc/cpuinfo and the core count
std::string machine() {
    std::ifstream info("/proc/cpuinfo");
    std::string line, model = "unknown CPU";
    int cores = 0;
    while (std::getline(info, line)) {
        if (line.rfind("model name", 0) == 0 && model == "unknown CPU")
            model = line.substr(line.find(':') + 2);
        cores += line.rfind("processor", 0) == 0;
    }
    return model + ", " + std::to_string(cores) + " cores";
}

// Our figures.
Json measure_ours(const std::string& build) {
    const DataFile ch07 = DataFile::load("data/ch07_training.json");
    Json r = Json::object();
    r["machine"] = machine();
    r["matmul_gflops"] = matmul_gflops([](const Matrix& a, const Matrix& b) { return matmul(a, b); }, 7);
    r["matmul_naive_gflops"] =
        matmul_gflops([](const Matrix& a, const Matrix& b) { return matmul_naive(a, b); }, 3);
    r["forward_base_seconds"] = forward_base_seconds();
    r["train_step_seconds"] = train_step_seconds(ch07);
    const double weights = static_cast<double>(parameter_count(random_transformer(base_config(), 0))) * 8.0;
    r["peak_memory_base_forward_bytes"] = peak_memory_of_base_forward(build);
    r["weight_bytes_base"] = weights;
    r["peak_memory_to_weights"] = r["peak_memory_base_forward_bytes"].get<double>() / weights;
    return r;
}

// ours ÷ theirs, or null without PyTorch's figure
Json ratio(const Json& ours, const Json& torch, const char* key) {
    return torch.is_null() ? Json(nullptr) : Json(ours[key].get<double>() / torch[key].get<double>());
}

void print_table(const Json& r, const Json& t) {
    auto num = [](const Json& j, int digits) { return j.is_null() ? std::string("—") : general(j.get<double>(), digits); };
    auto theirs = [&](const char* key) { return t.is_null() ? std::string("—") : num(t[key], 3); };
    Table table({"figure", "ours", "PyTorch (1 thread)", "ratio"});
    table.add({"matmul 512³, GFLOP/s", num(r["matmul_gflops"], 3), theirs("matmul_gflops"),
               num(r["matmul_fraction_of_torch"], 3) + " (ours ÷ theirs)"});
    table.add({"naive i-j-k matmul, GFLOP/s", num(r["matmul_naive_gflops"], 3), "", ""});
    table.add({"base model forward, 64+64 tokens, s", num(r["forward_base_seconds"], 3),
               theirs("forward_base_seconds"), num(r["forward_base_ratio"], 3) + " (ours ÷ theirs)"});
    table.add({"one ch07 training step, s", num(r["train_step_seconds"], 3), theirs("train_step_seconds"),
               num(r["train_step_ratio"], 3) + " (ours ÷ theirs)"});
    table.add({"peak memory of the base forward, MiB",
               fixed(r["peak_memory_base_forward_bytes"].get<double>() / (1 << 20), 0), "",
               fixed(r["peak_memory_to_weights"].get<double>(), 2) + " × the weights' " +
                   fixed(r["weight_bytes_base"].get<double>() / (1 << 20), 0) + " MiB"});
    table.print(std::cout);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string build = argc > 1 ? argv[1] : "build";
    try {
        std::cerr << "measuring (about a minute)...\n";
        Json r = measure_ours(build);
        std::string why_not;
        const Json t = torch_figures(why_not);
        r["torch"] = t;
        r["torch_missing_because"] = why_not.empty() ? Json(nullptr) : Json(why_not);
        r["matmul_fraction_of_torch"] = ratio(r, t, "matmul_gflops");
        r["forward_base_ratio"] = ratio(r, t, "forward_base_seconds");
        r["train_step_ratio"] = ratio(r, t, "train_step_seconds");
        print_table(r, t);
        if (!why_not.empty()) std::cout << "no PyTorch figures: " << why_not << "\n";
        else
            std::cout << "PyTorch " << t["torch_version"].get<std::string>() << ", BLAS: "
                      << t["torch_blas"].get<std::string>() << "\n";
        write_file_atomically(build, "bench.json", r.dump(2) + "\n");
        std::cout << "wrote " << build << "/bench.json\n";
    } catch (const std::exception& e) {
        std::cerr << "error: bench: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
