// peers.cpp — the candidate BLAS kernels and the fastest of them (peers.h).
#include "peers.h"

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

std::string output_of(const std::string& command) {
    FILE* p = popen(command.c_str(), "r");
    std::string text;
    char buf[4096];
    while (p && fgets(buf, sizeof buf, p)) text += buf;
    return p && pclose(p) == 0 ? text : "";
}

namespace {

// The CPU's feature flags (the first "flags" line of /proc/cpuinfo; none elsewhere).
std::set<std::string> cpu_flags() {
    std::ifstream info("/proc/cpuinfo");
    std::string line;
    while (std::getline(info, line))
        if (line.rfind("flags", 0) == 0) {
            std::istringstream words(line.substr(line.find(':') + 1));
            std::set<std::string> flags;
            for (std::string w; words >> w;) flags.insert(w);
            return flags;
        }
    return {};
}

bool has_all(const std::set<std::string>& flags, std::initializer_list<const char*> wanted) {
    for (const char* w : wanted)
        if (!flags.count(w)) return false;
    return true;
}

// A BLIS libblas.so.3 (Debian's libblis4-pthread or -openmp), or "".
std::string blis_folder() {
    for (const char* f : {"/usr/lib/x86_64-linux-gnu/blis-pthread", "/usr/lib/x86_64-linux-gnu/blis-openmp",
                          "/usr/lib/aarch64-linux-gnu/blis-pthread", "/usr/lib/aarch64-linux-gnu/blis-openmp"})
        if (std::ifstream(std::string(f) + "/libblas.so.3")) return f;
    return "";
}

int rank_of_unit(const std::string& unit) {
    return unit == "AVX-512" ? 3 : unit == "AVX2" ? 2 : unit == "AVX" ? 1 : 0;
}

}  // namespace

std::vector<PeerKernel> peer_kernels() {
    const std::set<std::string> flags = cpu_flags();
    std::vector<PeerKernel> kernels = {{"OpenBLAS, its own choice", ""}};
    const bool avx512 = has_all(flags, {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"});
    if (avx512) kernels.push_back({"OpenBLAS SkylakeX", "OPENBLAS_CORETYPE=SkylakeX"});
    if (avx512 && flags.count("avx512_bf16"))
        kernels.push_back({"OpenBLAS Cooperlake", "OPENBLAS_CORETYPE=Cooperlake"});
    if (has_all(flags, {"avx2", "fma"})) {
        kernels.push_back({"OpenBLAS Haswell", "OPENBLAS_CORETYPE=Haswell"});
        kernels.push_back({"OpenBLAS Zen", "OPENBLAS_CORETYPE=Zen"});
    }
    const std::string blis = blis_folder();
    if (!blis.empty()) kernels.push_back({"BLIS", "LD_LIBRARY_PATH=" + blis});
    return kernels;
}

std::string unit_of_kernel(const std::string& kernel) {
    for (const char* wide : {"SkylakeX", "Cooperlake", "SapphireRapids", "skx", "knl", "zen4", "zen5"})
        if (kernel.find(wide) != std::string::npos) return "AVX-512";
    for (const char* avx2 : {"Haswell", "Zen", "zen", "haswell"})
        if (kernel.find(avx2) != std::string::npos) return "AVX2";
    if (kernel.find("Sandybridge") != std::string::npos || kernel.find("sandybridge") != std::string::npos)
        return "AVX";
    return "other";
}

bool within_unit(const std::string& kernel, const std::string& our_unit) {
    const int ours = rank_of_unit(our_unit);
    return ours == 0 || rank_of_unit(unit_of_kernel(kernel)) <= ours;  // arm64 and generic: any
}

Json torch_figures(const PeerKernel& kernel, int threads, int blas_threads, bool matmul_only) {
    const std::string n = std::to_string(threads),
                      b = std::to_string(blas_threads ? blas_threads : threads);
    // the user's own kernel choice is unset first: each candidate is exactly what it names
    const std::string env = "env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE " + kernel.env +
                            " OMP_NUM_THREADS=" + n + " OPENBLAS_NUM_THREADS=" + b +
                            " BLIS_NUM_THREADS=" + b + " MKL_NUM_THREADS=" + b + " ";
    const std::string text = output_of(env + "/usr/bin/python3 tests/bench/torch_bench.py " + n +
                                       (matmul_only ? " --matmul" : "") + " 2>/dev/null");
    if (text.empty()) return Json(nullptr);
    Json r = Json::parse(text);
    r["candidate"] = kernel.candidate;
    r["kernel_env"] = kernel.env;
    return r;
}

Json matmul_sweep(const std::vector<PeerKernel>& kernels, int threads, const std::string& our_unit) {
    Json sweep = Json::array();
    for (const PeerKernel& k : kernels) {
        Json r = torch_figures(k, threads, 0, true);
        if (r.is_null()) continue;
        r["unit"] = unit_of_kernel(r["kernel"].get<std::string>());
        if (within_unit(r["kernel"].get<std::string>(), our_unit)) sweep.push_back(r);
    }
    return sweep;
}

PeerKernel fastest(const Json& sweep, const std::vector<PeerKernel>& kernels, const char* key) {
    PeerKernel best = kernels.front();
    double most = -1;
    for (const Json& r : sweep)
        if (r[key].get<double>() > most) {
            most = r[key].get<double>();
            best = {r["candidate"].get<std::string>(), r["kernel_env"].get<std::string>()};
        }
    return best;
}
