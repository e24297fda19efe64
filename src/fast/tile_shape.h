// tile_shape.h — how large a tile of c the register tile holds, for the machine being compiled
// for. The one place where the code depends on the machine: every other line is the same
// everywhere, and so is every result (below).
//
// A product spends its time in one loop (tiles.cpp): MR rows x NR columns of c are added to
// while b is read a row of NR at a time. Each row of b that is loaded feeds MR multiply-adds per
// column, so the larger the tile, the fewer loads per multiply-add — up to the point where the
// tile no longer fits the vector registers and the compiler must keep part of it in memory,
// reading and writing it at every term. So the tile is as large as the registers allow:
//
//   vector unit          registers        MR x NR   accumulators  + a row of b  + a(r,p)
//   AVX-512              32 of 8 doubles  6 x 32    24            4             1    = 29
//   AVX2 with FMA        16 of 4 doubles  4 x 12    12            3             1    = 16
//   arm64 (NEON)         32 of 2 doubles  6 x 8     24            4             1    = 29
//   anything else (SSE2) 16 of 2 doubles  4 x 4      8            2             1    = 11
//
// Why the AVX2 tile is not AVX-512's: 6 x 32 doubles are 48 registers of 4 where 16 exist, and
// the compiler would keep part of the tile in memory. On AVX2, 6 x 8 (12 + 2 + 1) does nearly as
// well as 4 x 12; 4 x 12 reads one register of b for every four multiply-adds, 6 x 8 one for six,
// but 4 x 12 leaves a register free to load the next row of b early (tests/bench/README.md).
// The registers only help if the compiler keeps a row of b in them: g++ 12 scheduling for Zen 3
// read it from memory again for each of the tile's rows instead (16 loads for 12 multiply-adds,
// not 7), at half the speed, so the Makefile schedules for no CPU in particular (-mtune=generic).
//
// Same bits on every machine: the tile only decides which c(i,j) are computed together. Each
// c(i,j) still adds its terms a(i,p)·b(p,j) for p = 0, 1, 2, … in that order, each with one
// std::fma (rounded once, by definition the same on every machine), so every shape gives the
// naive loop's bits — tests/test_matrix.cpp checks it for this machine's shape, and `make cross`
// compares the chapters' numbers with a build for arm64 and one without AVX
// (tests/cross_machines.sh).
//
// The compiler says which unit it is compiling for (the -march flag the Makefile chose): these
// names are its predefined macros.
#pragma once
#include <cstddef>

namespace kernel {

#if defined(__AVX512F__)
constexpr std::size_t MR = 6, NR = 32;
constexpr const char* vector_unit = "AVX-512";
#elif defined(__AVX2__) && defined(__FMA__)
constexpr std::size_t MR = 4, NR = 12;
constexpr const char* vector_unit = "AVX2";
#elif defined(__aarch64__)
constexpr std::size_t MR = 6, NR = 8;
constexpr const char* vector_unit = "arm64 NEON";
#else
constexpr std::size_t MR = 4, NR = 4;
constexpr const char* vector_unit = "generic";
#endif

}  // namespace kernel
