// fma_peak.cpp — a loop of independent fused multiply-adds on each vector unit (fma_peak.h).
//
// A multiply-add takes several cycles to finish (4 on current cores), and a core starts one or
// two each cycle, so a loop can keep every FMA unit busy only with at least latency × ports
// independent chains: here 16 accumulators (24 registers of 32 on AVX-512; 12 of 16 on AVX2,
// which leaves room for the two constants). Each chain is a = a·x + y with x slightly above 1,
// so the values stay finite, and the sum of the chains is returned so that none is thrown away.
// The functions are compiled for their unit whatever the build's -march (a target attribute),
// and run only where the CPU says it has that unit. Not on Windows: MinGW's g++ does not align
// the stack for 32- and 64-byte vectors (GCC bug 54412), and a spilled accumulator would fault.
#include "fma_peak.h"

#include <algorithm>
#include <chrono>
#include <thread>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(_WIN32)
#include <immintrin.h>

namespace {

constexpr long kChunk = 1 << 16;  // iterations between looks at the clock

__attribute__((target("avx512f"))) double fma_chains_512(long iterations) {
    constexpr int chains = 16;
    __m512d acc[chains];
    for (int k = 0; k < chains; ++k) acc[k] = _mm512_set1_pd(1.0 + k * 1e-3);
    const __m512d x = _mm512_set1_pd(1.0 + 1e-12), y = _mm512_set1_pd(1e-9);
    for (long i = 0; i < iterations; ++i)
#pragma GCC unroll 16
        for (int k = 0; k < chains; ++k) acc[k] = _mm512_fmadd_pd(acc[k], x, y);
    __m512d sum = acc[0];
    for (int k = 1; k < chains; ++k) sum = _mm512_add_pd(sum, acc[k]);
    double lanes[8];
    _mm512_storeu_pd(lanes, sum);
    double total = 0;
    for (double lane : lanes) total += lane;
    return total;
}

__attribute__((target("avx2,fma"))) double fma_chains_256(long iterations) {
    constexpr int chains = 12;
    __m256d acc[chains];
    for (int k = 0; k < chains; ++k) acc[k] = _mm256_set1_pd(1.0 + k * 1e-3);
    const __m256d x = _mm256_set1_pd(1.0 + 1e-12), y = _mm256_set1_pd(1e-9);
    for (long i = 0; i < iterations; ++i)
#pragma GCC unroll 12
        for (int k = 0; k < chains; ++k) acc[k] = _mm256_fmadd_pd(acc[k], x, y);
    __m256d sum = acc[0];
    for (int k = 1; k < chains; ++k) sum = _mm256_add_pd(sum, acc[k]);
    double lanes[4];
    _mm256_storeu_pd(lanes, sum);
    double total = 0;
    for (double lane : lanes) total += lane;
    return total;
}

// GFLOP/s of `chains` on `threads` threads, each running `iterations` of them; the best of 5.
double peak_of(double (*chains)(long), double flops_per_iteration, int threads, double seconds) {
    // iterations for about `seconds`, from a first timed chunk on one thread
    auto start = std::chrono::steady_clock::now();
    volatile double sink = chains(kChunk);
    const double chunk_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const long iterations =
        std::max(kChunk, static_cast<long>(kChunk * seconds / std::max(chunk_seconds, 1e-9)));
    double best = 0;
    for (int run = 0; run < 5; ++run) {
        std::vector<std::thread> team;
        std::vector<double> sums(threads);
        start = std::chrono::steady_clock::now();
        for (int t = 0; t < threads; ++t)
            team.emplace_back([&, t] { sums[t] = chains(iterations); });
        for (std::thread& member : team) member.join();
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        sink = sink + sums[0];
        best = std::max(best, flops_per_iteration * static_cast<double>(iterations) * threads /
                                  elapsed / 1e9);
    }
    return best;
}

}  // namespace

std::vector<FmaPeak> fma_peaks(int threads, double seconds) {
    std::vector<FmaPeak> peaks;
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))  // 16 chains x 8 doubles x 2 flops
        peaks.push_back({"AVX-512", peak_of(fma_chains_512, 16 * 8 * 2, threads, seconds)});
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))  // 12 x 4 x 2
        peaks.push_back({"AVX2", peak_of(fma_chains_256, 12 * 4 * 2, threads, seconds)});
    return peaks;
}

#else

std::vector<FmaPeak> fma_peaks(int, double) { return {}; }

#endif
