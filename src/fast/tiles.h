// tiles.h — the pieces every fast matrix product here is made of (matmul.cpp,
// packed_matmul.cpp): the one multiply-add, views of a matrix or its transpose, b packed in
// strips, and the register tile of c that adds a strip's terms.
#pragma once
#include <cmath>
#include <cstddef>

#include "core/fused_multiply_add.h"
#include "core/matrix.h"
#include "fast/tile_shape.h"

namespace kernel {

// c + a·b, the one multiply-add every product here is made of: std::fma, rounded once (faster
// than a separate multiply and add where the CPU has FMA; -ffp-contract=off keeps the compiler
// from fusing on its own). fma is correctly rounded by definition, so it gives the same bits on every
// machine — in one instruction where the CPU has FMA, in software where it has not.
inline double madd(double c, double a, double b) { return fused_multiply_add(a, b, c); }

// A matrix, or the transpose of one, read through strides: element (r, c) is at data[r·rs + c·cs].
// matmul_bt and matmul_at read their transposed argument in place, never copying it first.
struct View {
    const double* data;
    std::size_t rows, cols, rs, cs;
    double operator()(std::size_t r, std::size_t c) const { return data[r * rs + c * cs]; }
};

inline View as_is(const Matrix& m) { return {m.data.data(), m.rows, m.cols, m.cols, 1}; }
inline View transposed(const Matrix& m) { return {m.data.data(), m.cols, m.rows, 1, m.cols}; }
inline View transposed(const View& v) { return {v.data, v.cols, v.rows, v.cs, v.rs}; }

// The blocking, in GotoBLAS's levels (MR and NR, the register tile, in tile_shape.h), each size
// chosen by measuring the base model's 64-row products (tests/bench/README.md):
//
// KB, the k-block: KB rows of b packed once, then used by every row of a. The models' products
// with k ≤ 512 take one block, each tile of c loaded and stored once.
constexpr std::size_t KB = 512;
// NB: columns of b packed at a time (the output projection's b is 37000 wide, 150 MB packed
// whole): 1024 rounded up to a whole number of strips, so that a b of 1024 columns is one block
// (rounded down, AVX2's 12-column strips left a block of 4 columns, one strip for one thread).
constexpr std::size_t NB = NR * ((1024 + NR - 1) / NR);
// G: strips packed together (pack_strips), about 96 columns: 3 strips on AVX-512, 8 on AVX2. An
// output projection's 64 columns are one group, so its 150 MB table is streamed once.
constexpr std::size_t G = (96 + NR - 1) / NR;

// Asks for the cache line that holds *p, to be read soon: a hint, which computes nothing. b's
// rows lie a page or more apart, where the CPU's own prefetcher does not follow them, so the
// packing asks for them ahead (tiles.cpp, fast_product.cpp).
inline void fetch_soon(const double* p) { __builtin_prefetch(p); }

// Rows p0 … p0+kb−1, columns j0 … j0+nr−1 (nr ≤ NR) of b as one strip, kb x NR and
// contiguous, so that the tile reads its row p of b as one run; columns past nr are 0. Read in
// the order b's memory is laid out: along rows of b, or for a transposed view (matmul_bt's
// embedding table), along its columns.
void pack_strip(const View& b, std::size_t p0, std::size_t kb, std::size_t j0, std::size_t nr,
                double* strip);

// Up to G strips side by side (kb x NR each, one after another in `strips`): columns j0 …
// j0+n−1 of rows p0 … p0+kb−1 of b. b's rows are read once, as runs of n columns — about 96
// doubles rather than one strip's 12 or 32, which memory streams faster — and dealt out to the
// strips, each row asked for (fetch_soon) a few rows ahead. A transposed view is packed strip
// by strip (pack_strip reads along its columns).
void pack_strips(const View& b, std::size_t p0, std::size_t kb, std::size_t j0, std::size_t n,
                 double* strips);

// Where the tile finds rows i0 … i0+MR−1 of a: a(i0 + r, p) is row[r][p·step]. For a as it
// lies, step is 1 and each row contiguous; for a transposed view (matmul_at's xᵀ, a weight's
// gradient) step is the row length of the matrix it views, and the MR values of one p lie side
// by side — the layout GotoBLAS packs a into, here without a copy (faster than copying it
// first: tests/bench/README.md). Rows past the last one are
// nullptr, never read (tile_of<R> reads R rows).
struct RowsOfA {
    const double* row[MR];
    std::size_t step;
};
RowsOfA rows_of_a(const View& a, std::size_t i0);

// One MR x NR tile of c (row stride ldc; mr rows and nr columns are real) gets kb terms added:
// a(r,p) times row p of b (ldb apart), held in registers through all kb terms; c is loaded
// first and stored after, so each c(i,j)'s terms stay in the naive order (tiles.cpp). Each row
// of b holds NR readable values, zeros past the nr real ones (a packed strip, or small_product's
// padded copy).
void tile(const RowsOfA& a, const double* b, std::size_t ldb, std::size_t kb, double* c,
          std::size_t ldc, std::size_t mr, std::size_t nr);

}  // namespace kernel
