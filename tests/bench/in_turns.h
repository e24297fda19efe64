// in_turns.h — our product and the peer kernel's, timed in turns in one process.
//
// The bench's other product figures time ours in its own process and PyTorch's in another,
// seconds or minutes apart: on a virtual machine whose speed moves by a third within minutes
// (tests/bench/README.md), that compares two moments as much as two products. Here a child
// process, started under the kernel's environment (peers.h: OPENBLAS_CORETYPE, or BLIS's folder
// first on LD_LIBRARY_PATH), loads that BLAS's dgemm — the routine PyTorch's float64 matmul calls
// — and times it and our matmul in turns, round after round, so that both see the same moments.
#pragma once
#include <cstddef>
#include <string>

#include "../json.h"
#include "peers.h"

// On one thread only. On two, each library's idle threads get in the other's turn: after a call
// OpenBLAS's keep spinning for OPENBLAS_THREAD_TIMEOUT's 2^n clock ticks (told n = 28, about a
// tenth of a second, our 512³ product ran at half its speed in its turns on the 2-core Zen 3 of
// tests/bench/README.md), libgomp's for 300,000 turns of its waiting loop (its default); told to
// sleep at once instead (OPENBLAS_THREAD_TIMEOUT=4, OMP_WAIT_POLICY=passive), both paid a
// virtual core's wake-up at every call, and the same 1024³ product measured 28.5 and 44.7
// GFLOP/s in two such runs a minute apart. The two-thread comparison stays the one of separate
// processes.
//
// The child (`build/bench BUILD --in-turns N ROUNDS`, started with one thread for each library):
// ours and the loaded kernel's n x n products in turns, `rounds` rounds; prints one JSON object
// {kernel, ours, theirs (each its best GFLOP/s), rounds, median_ratio (of the rounds' ours ÷
// theirs), agrees (the two products equal to rounding)}. Exit 1 where no BLAS could be loaded
// (Windows, WebAssembly, no libblas.so.3).
int in_turns_child(std::size_t n, int rounds);

// The parent: the child run for `kernel` at n³. Null if it failed.
Json in_turns(const std::string& build, const PeerKernel& kernel, std::size_t n, int rounds);

// In turns with the kernel fastest at each size of the one-thread sweep (peers.h: matmul_sweep),
// n³ and (2n)³: {"matmul_gflops": …, "matmul_gflops_1024": …}, each in_turns()'s.
Json products_in_turns(const std::string& build, const Json& sweep, std::size_t n);

// make test's run of the bench (--smoke): in turns once at 64³ with the system's BLAS, if it has
// one. Prints what it found; 1 if a figure is missing or the two products differ, else 0.
int smoke_in_turns(const std::string& build);
