// peers.h — the peer `make bench` compares with: PyTorch on the fastest BLAS kernel this CPU can
// run. Debian's PyTorch calls the system's libblas.so.3, and which kernel that runs is a choice:
// OpenBLAS detects the CPU (0.3.21 took a 2-core Xeon of family 6 model 207 for an SSE3
// "Prescott" and ran 9 GFLOP/s where its own SkylakeX kernel runs 70) and can be told with
// OPENBLAS_CORETYPE; BLIS, where it is installed, can be put first with LD_LIBRARY_PATH. So the
// bench times PyTorch's products under each candidate, keeps the fastest for each figure, and
// says which kernel it was.
#pragma once
#include <string>
#include <vector>

#include "../json.h"

// Runs a command and returns what it printed, or "" if it failed.
std::string output_of(const std::string& command);

// How a kernel is chosen: a name for the candidate and the environment that selects it
// ("OPENBLAS_CORETYPE=SkylakeX", "LD_LIBRARY_PATH=…/blis-pthread", "" for the library's own
// choice); PyTorch reports which kernel really ran (torch_bench.py's "kernel").
struct PeerKernel {
    std::string candidate, env;
};

// The candidates this CPU can run: OpenBLAS's kernels its /proc/cpuinfo flags allow (SkylakeX,
// Cooperlake on AVX-512; Haswell, Zen on AVX2), OpenBLAS's own choice, and BLIS where it is.
std::vector<PeerKernel> peer_kernels();

// The vector unit a kernel reported by name runs on ("OpenBLAS SkylakeX" → "AVX-512",
// "BLIS zen3" → "AVX2"), and whether it is no wider than our build's (kernel::vector_unit): the
// AVX2 build (make ARCH=x86-64-v3) is compared with AVX2 kernels only.
std::string unit_of_kernel(const std::string& kernel);
bool within_unit(const std::string& kernel, const std::string& our_unit);

// PyTorch's figures under one kernel's environment on `threads` threads (its BLAS on
// blas_threads, 0: as many); matmul_only: only the products (torch_bench.py --matmul). Null when
// PyTorch is missing or failed.
Json torch_figures(const PeerKernel& kernel, int threads, int blas_threads, bool matmul_only);

// Every candidate's products on `threads` threads: one entry each {candidate, kernel, unit,
// matmul_gflops, matmul_gflops_1024}, the ones wider than our_unit left out.
Json matmul_sweep(const std::vector<PeerKernel>& kernels, int threads, const std::string& our_unit);

// The candidate with the most GFLOP/s at `key` in a sweep (the first kernel if the sweep is
// empty).
PeerKernel fastest(const Json& sweep, const std::vector<PeerKernel>& kernels, const char* key);
