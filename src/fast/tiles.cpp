// tiles.cpp — packing b into strips, and the register tile (tiles.h).
#include "fast/tiles.h"

#include <algorithm>

namespace kernel {

// Rows p0 … p0+kb−1, columns j0 … j0+nr−1 (nr ≤ NR) of b as one strip, kb x NR and
// contiguous, so that the tile reads its row p of b as one run; columns past nr are 0. Read in
// the order b's memory is laid out: along rows of b, or for a transposed view (matmul_bt's
// embedding table), along its columns.
void pack_strip(const View& b, std::size_t p0, std::size_t kb, std::size_t j0, std::size_t nr,
                double* strip) {
    if (b.cs == 1) {  // b's rows are contiguous: copy each row's run of nr
        for (std::size_t p = 0; p < kb; ++p) {  // (a loop the compiler inlines: std::copy
            const double* row = b.data + (p0 + p) * b.rs + j0;  // called memmove for each row)
            for (std::size_t j = 0; j < nr; ++j) strip[p * NR + j] = row[j];
            std::fill(strip + p * NR + nr, strip + (p + 1) * NR, 0.0);
        }
    } else {  // a transposed view: its columns are contiguous, each one column of the strip
        const double* column[NR];  // past the last real column, the last again (then zeroed)
        for (std::size_t j = 0; j < NR; ++j)
            column[j] = b.data + (j0 + std::min(j, nr - 1)) * b.cs + p0;
        // row by row of the strip, each written whole: NR columns read side by side, each
        // cache line of a column used by 8 rows in turn
        for (std::size_t p = 0; p < kb; ++p) {
            for (std::size_t j = 0; j < NR; ++j) strip[p * NR + j] = column[j][p];
            std::fill(strip + p * NR + nr, strip + (p + 1) * NR, 0.0);
        }
    }
}

void pack_strips(const View& b, std::size_t p0, std::size_t kb, std::size_t j0, std::size_t n,
                 double* strips) {
    const std::size_t count = (n + NR - 1) / NR;
    if (b.cs != 1) {
        for (std::size_t s = 0; s < count; ++s)
            pack_strip(b, p0, kb, j0 + s * NR, std::min(NR, n - s * NR), strips + s * kb * NR);
        return;
    }
    constexpr std::size_t ahead = 4;  // rows of b asked for before they are copied
    for (std::size_t p = 0; p < kb; ++p) {
        const double* row = b.data + (p0 + p) * b.rs + j0;
        if (p + ahead < kb)  // one cache line holds 8 doubles
            for (std::size_t j = 0; j < n; j += 8) fetch_soon(row + ahead * b.rs + j);
        for (std::size_t s = 0; s < count; ++s) {
            double* out = strips + (s * kb + p) * NR;
            const std::size_t nr = std::min(NR, n - s * NR);
            for (std::size_t j = 0; j < nr; ++j) out[j] = row[s * NR + j];
            std::fill(out + nr, out + NR, 0.0);
        }
    }
}

RowsOfA rows_of_a(const View& a, std::size_t i0) {
    RowsOfA rows;
    for (std::size_t r = 0; r < MR; ++r)
        rows.row[r] = i0 + r < a.rows ? a.data + (i0 + r) * a.rs : nullptr;
    rows.step = a.cs;
    return rows;
}

// One MR x NR tile of c (row stride ldc) gets kb terms added, its first R rows real: a(r,p)
// times row p of b (ldb apart). acc holds the tile through all kb terms, and every trip count is
// fixed, so that the compiler can keep it in vector registers (tile_shape.h: how many there
// are): each step reads row p of b once, NR values, and adds a(r,p) times it to each row r of
// the tile. Loading c into acc first and storing it after keeps each c(i,j)'s terms in the
// naive order. R is a template argument so that a tile of fewer rows (a one-row product, when
// decoding) does only its own work.
//
// The unroll pragma asks for the loop over the tile's rows to be written out in full: g++ 12
// otherwise keeps it a loop and acc in memory, at a third of the speed (tests/bench/README.md).
// It changes which instructions run, never what they compute; a compiler that does not
// know it ignores it. a's row pointers are copied in first: read through the argument, clang
// reloaded them at every step.
//
// A strip of b (KB rows of NR doubles, 128 KB on AVX-512) is larger than the first-level cache,
// so each row comes from the second level, and the CPU's own prefetcher does not bring it in
// time for a core with two FMA units: each step asks for the row `tile_ahead` steps on (16: the
// distance that measured best, tests/bench/README.md). The last `tile_ahead` steps ask for
// nothing: there is no such row.
constexpr std::size_t tile_ahead = 16;

template <std::size_t R>
void full_tile(const RowsOfA& a, const double* b, std::size_t ldb, std::size_t kb, double* c,
               std::size_t ldc) {
    const double* a_rows[R];
    const std::size_t step = a.step;
    double acc[R][NR];
    for (std::size_t r = 0; r < R; ++r) {
        a_rows[r] = a.row[r];
        for (std::size_t j = 0; j < NR; ++j) acc[r][j] = c[r * ldc + j];
    }
    // term p: a(r,p) times row p of b, added to each row r of the tile
    const auto add_term = [&](std::size_t p, const double* b_row) {
#pragma GCC unroll 8
        for (std::size_t r = 0; r < R; ++r) {
            const double arp = a_rows[r][p * step];
            for (std::size_t j = 0; j < NR; ++j) acc[r][j] = madd(acc[r][j], arp, b_row[j]);
        }
    };
    std::size_t p = 0;
    for (; p + tile_ahead < kb; ++p, b += ldb) {
        for (std::size_t j = 0; j < NR; j += 8) fetch_soon(b + tile_ahead * ldb + j);
        add_term(p, b);
    }
    for (; p < kb; ++p, b += ldb) add_term(p, b);
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t j = 0; j < NR; ++j) c[r * ldc + j] = acc[r][j];
}

// A tile whose last columns are past c's edge (the last, narrower strip: nr < NR real columns)
// is computed whole on a copy: its real columns copied in, the whole tile computed (b's rows
// hold NR values, zeros past nr), the real columns copied back. The same terms in the same
// order for every real c(i,j), and one loop for every tile.
template <std::size_t R>
void tile_of(const RowsOfA& a, const double* b, std::size_t ldb, std::size_t kb, double* c,
             std::size_t ldc, std::size_t nr) {
    if (nr == NR) return full_tile<R>(a, b, ldb, kb, c, ldc);
    double whole[R][NR] = {};
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t j = 0; j < nr; ++j) whole[r][j] = c[r * ldc + j];
    full_tile<R>(a, b, ldb, kb, &whole[0][0], NR);
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t j = 0; j < nr; ++j) c[r * ldc + j] = whole[r][j];
}

void tile(const RowsOfA& a, const double* b, std::size_t ldb, std::size_t kb, double* c,
          std::size_t ldc, std::size_t mr, std::size_t nr) {
    using Tile = void (*)(const RowsOfA&, const double*, std::size_t, std::size_t, double*,
                          std::size_t, std::size_t);
    // tile_of<1> … tile_of<MR>, by the number of real rows (entries past MR: never called, and
    // no more rows than the tile has)
    constexpr auto up_to_MR = [](std::size_t r) { return r < MR ? r : MR; };
    static constexpr Tile of_rows[] = {nullptr,
                                       tile_of<up_to_MR(1)>,
                                       tile_of<up_to_MR(2)>,
                                       tile_of<up_to_MR(3)>,
                                       tile_of<up_to_MR(4)>,
                                       tile_of<up_to_MR(5)>,
                                       tile_of<up_to_MR(6)>};
    static_assert(MR < sizeof of_rows / sizeof of_rows[0], "a tile_of<R> for every R up to MR");
    of_rows[mr](a, b, ldb, kb, c, ldc, nr);
}

}  // namespace kernel
