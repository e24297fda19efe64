// in_turns.cpp — our product and the peer kernel's in turns, in one process (in_turns.h).
#include "in_turns.h"

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cmath>
#include <functional>
#include <iostream>
#include <vector>

#if (defined(__linux__) || defined(__APPLE__)) && !defined(__EMSCRIPTEN__)
#define HAVE_DLOPEN 1
#include <dlfcn.h>
#endif

#include "core/matmul.h"
#include "core/random.h"
#include "fast/threads.h"

namespace {

// The Fortran BLAS entry every BLAS exports: C = alpha·op(A)·op(B) + beta·C, column-major.
using Dgemm = void (*)(const char*, const char*, const int*, const int*, const int*,
                       const double*, const double*, const int*, const double*, const int*,
                       const double*, double*, const int*);

#ifdef HAVE_DLOPEN
double seconds_of(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The kernel the loaded library runs, asked of it as torch_bench.py asks: OpenBLAS names its
// core; BLIS's libblas.so.3 does not, its libblis.so.4 beside it does; Debian's reference BLAS
// lives in a folder of its own (…/blas/).
std::string kernel_name(void* blas, Dgemm dgemm) {
    using Name = const char* (*)();
    if (auto corename = reinterpret_cast<Name>(dlsym(blas, "openblas_get_corename")))
        return std::string("OpenBLAS ") + corename();
    Dl_info info;
    if (!dladdr(reinterpret_cast<void*>(dgemm), &info) || !info.dli_fname) return "unknown";
    const std::string path = info.dli_fname, folder = path.substr(0, path.rfind('/') + 1);
    if (void* blis = dlopen((folder + "libblis.so.4").c_str(), RTLD_NOW | RTLD_LOCAL)) {
        using Arch = int (*)();
        using ArchName = const char* (*)(int);
        auto query = reinterpret_cast<Arch>(dlsym(blis, "bli_arch_query_id"));
        auto name = reinterpret_cast<ArchName>(dlsym(blis, "bli_arch_string"));
        if (query && name) return std::string("BLIS ") + name(query());
    }
    return path.find("/blas/") != std::string::npos ? "reference BLAS" : "unknown";
}
#endif

}  // namespace

int in_turns_child(std::size_t n, int rounds) {
#ifdef HAVE_DLOPEN
    // one thread each, whatever the environment says (in_turns.h: why not two)
    set_thread_count(1);
    setenv("OPENBLAS_NUM_THREADS", "1", 1), setenv("BLIS_NUM_THREADS", "1", 1);
    void* blas = dlopen("libblas.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!blas) return 1;
    const auto dgemm = reinterpret_cast<Dgemm>(dlsym(blas, "dgemm_"));
    if (!dgemm) return 1;
    Random rng(3);
    Matrix a(n, n), b(n, n), c(n, n);
    for (double& x : a.data) x = rng.normal();
    for (double& x : b.data) x = rng.normal();
    const int N = static_cast<int>(n);
    const double one = 1, zero = 0;
    // row-major c = a·b is column-major cᵀ = bᵀ·aᵀ: the same memory, the arguments swapped
    const auto theirs = [&] {
        dgemm("N", "N", &N, &N, &N, &one, b.data.data(), &N, a.data.data(), &N, &zero,
              c.data.data(), &N);
    };
    const auto ours = [&] { c = matmul(a, b); };
    // warm up (pages touched, threads started), and check that the call computes a·b: the two
    // products sum in different orders, so they agree to rounding, not to the bit
    theirs();
    const Matrix from_blas = c;
    ours();
    double largest = 0, apart = 0;
    for (std::size_t i = 0; i < c.data.size(); ++i) {
        largest = std::max(largest, std::abs(c.data[i]));
        apart = std::max(apart, std::abs(c.data[i] - from_blas.data[i]));
    }
    const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
    double best_ours = 0, best_theirs = 0;
    std::vector<double> ratios;
    for (int r = 0; r < rounds; ++r) {
        const double t_ours = seconds_of(ours);
        const double t_theirs = seconds_of(theirs);
        best_ours = std::max(best_ours, flops / t_ours / 1e9);
        best_theirs = std::max(best_theirs, flops / t_theirs / 1e9);
        ratios.push_back(t_theirs / t_ours);
    }
    std::sort(ratios.begin(), ratios.end());
    Json r = Json::object();
    r["kernel"] = kernel_name(blas, dgemm);
    r["ours"] = best_ours, r["theirs"] = best_theirs, r["rounds"] = rounds;
    r["median_ratio"] = ratios[ratios.size() / 2];
    r["agrees"] = apart <= 1e-12 * largest * static_cast<double>(n);
    std::cout << r.dump() << "\n";
    return 0;
#else
    (void)n, (void)rounds;
    return 1;
#endif
}

Json in_turns(const std::string& build, const PeerKernel& kernel, std::size_t n, int rounds) {
    const std::string text =
        output_of("env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE " + kernel.env +
                  " OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 BLIS_NUM_THREADS=1 " + build +
                  "/bench " + build + " --in-turns " + std::to_string(n) + " " +
                  std::to_string(rounds) + " 2>/dev/null");
    if (text.empty()) return Json(nullptr);
    try {
        return Json::parse(text);
    } catch (const std::exception&) {
        return Json(nullptr);
    }
}

Json products_in_turns(const std::string& build, const Json& sweep, std::size_t n) {
    const std::vector<PeerKernel> kernels = peer_kernels();
    Json turns = Json::object();
    turns["matmul_gflops"] = in_turns(build, fastest(sweep, kernels, "matmul_gflops"), n, 21);
    turns["matmul_gflops_1024"] =
        in_turns(build, fastest(sweep, kernels, "matmul_gflops_1024"), 2 * n, 11);
    return turns;
}

int smoke_in_turns(const std::string& build) {
    const Json turns = in_turns(build, {"OpenBLAS, its own choice", ""}, 64, 2);
    if (turns.is_null()) {
        std::cout << "bench --smoke: no BLAS to load: the products in turns are left out\n";
        return 0;
    }
    if (turns["ours"].get<double>() > 0 && turns["theirs"].get<double>() > 0 &&
        turns["agrees"].get<bool>()) {
        std::cout << "bench --smoke: in turns with " << turns["kernel"].get<std::string>()
                  << ": the same product, both timed\n";
        return 0;
    }
    std::cout << "bench --smoke: in turns with " << turns["kernel"].get<std::string>() << ": "
              << turns.dump() << "\n";
    return 1;
}
