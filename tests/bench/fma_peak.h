// fma_peak.h — the most multiply-adds this machine can do: a loop of independent FMAs on each
// vector unit the CPU has, so that every product in `make bench` can be given as a fraction of
// the machine's own ceiling rather than only against another library.
#pragma once
#include <string>
#include <vector>

struct FmaPeak {
    std::string unit;  // "AVX-512" (8 doubles a register) or "AVX2" (4)
    double gflops;     // double-precision GFLOP/s (a multiply-add counts 2) on `threads` threads
};

// The peak of each unit the CPU runs (x86-64 Linux and macOS only: elsewhere none), on `threads` threads at once;
// seconds: how long each measurement runs (the best of 5 is kept).
std::vector<FmaPeak> fma_peaks(int threads, double seconds);
