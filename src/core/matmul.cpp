// matmul.cpp — the matrix products. Three loops compute the same numbers, bit for bit:
//
//   naive_product    the definition c(i,j) = Σ_p a(i,p)·b(p,j), written as it reads: the
//                    reference the other two are tested against (tests/test_matrix.cpp)
//   blocked_product  for large matrices (the base model's): b packed block by block so that
//                    it is read from the cache, and c computed in tiles held in registers
//   small_product    for small ones (chapter 7's, 100 x 32): the same tiles, b read in place
//   dot_product      for a few rows times a transposed b (decoding's logits y·Eᵀ, one row):
//                    each c(i,j) a dot product of two contiguous rows, several side by side
//
// Each adds a(i,p)·b(p,j) into c(i,j) for p = 0, 1, 2, … in this order, with the same madd(),
// so each c(i,j) is rounded the same way whichever loop computed it. The threads (threads.h)
// share out whole tiles of c, so the same is true whatever their number.
#include "core/matmul.h"

#include "core/threads.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace {

// c + a·b, the one multiply-add every product here is made of: std::fma, rounded once.
// Measured on this project's machine (512³, the best of 25 runs): 84–86 GFLOP/s with fma,
// 76–78 with a separate multiply and add (-ffp-contract=off keeps the compiler from fusing on
// its own). fma is correctly rounded by definition, so it gives the same bits on every
// machine — in one instruction where the CPU has FMA, in software where it has not.
inline double madd(double c, double a, double b) { return std::fma(a, b, c); }

// A matrix, or the transpose of one, read through strides: element (r, c) is at data[r·rs + c·cs].
// matmul_bt and matmul_at read their transposed argument in place, never copying it first.
struct View {
    const double* data;
    std::size_t rows, cols, rs, cs;
    double operator()(std::size_t r, std::size_t c) const { return data[r * rs + c * cs]; }
};

View as_is(const Matrix& m) { return {m.data.data(), m.rows, m.cols, m.cols, 1}; }
View transposed(const Matrix& m) { return {m.data.data(), m.cols, m.rows, 1, m.cols}; }
View transposed(const View& v) { return {v.data, v.cols, v.rows, v.cs, v.rs}; }

Matrix naive_product(const View& a, const View& b) {
    Matrix c(a.rows, b.cols);
    for (std::size_t i = 0; i < a.rows; ++i)
        for (std::size_t j = 0; j < b.cols; ++j) {
            double sum = 0.0;
            for (std::size_t p = 0; p < a.cols; ++p) sum = madd(sum, a(i, p), b(p, j));
            c(i, j) = sum;
        }
    return c;
}

// The blocking, in GotoBLAS's levels:
constexpr std::size_t NB = 1024;  // columns of b packed at a time (KB x NB: 2 MB, near the cache;
                                  // the output projection's b is 37000 wide, 150 MB packed whole)
constexpr std::size_t KB = 256;   // k-block: KB rows of b, packed once, then used by every row of a
constexpr std::size_t MR = 6;     // a tile of c is MR rows …
constexpr std::size_t NR = 32;    // … by NR columns: 6 x 4 vectors of 8 doubles, 24 registers

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
        // row by row of the strip, each written whole: 32 columns read side by side, each
        // cache line of a column used by 8 rows in turn
        for (std::size_t p = 0; p < kb; ++p) {
            for (std::size_t j = 0; j < NR; ++j) strip[p * NR + j] = column[j][p];
            std::fill(strip + p * NR + nr, strip + (p + 1) * NR, 0.0);
        }
    }
}

// Where the tile finds a's rows i0 … i0+MR−1, columns p0 on: in place when they are
// contiguous, else (a transposed view, matmul_at's) copied into this thread's scratch. Rows
// past the last one are not read (tile_of<R> reads R rows).
void rows_of_a(const View& a, std::size_t i0, std::size_t p0, std::size_t kb,
               const double* rows[MR]) {
    thread_local std::vector<double> copy;  // each thread its own
    if (a.cs != 1 && copy.size() < MR * kb) copy.resize(MR * kb);
    for (std::size_t r = 0; r < MR; ++r) {
        if (i0 + r >= a.rows) {
            rows[r] = nullptr;
        } else if (a.cs == 1) {
            rows[r] = a.data + (i0 + r) * a.rs + p0;
        } else {
            for (std::size_t p = 0; p < kb; ++p) copy[r * kb + p] = a(i0 + r, p0 + p);
            rows[r] = copy.data() + r * kb;
        }
    }
}

// One MR x NR tile of c (row stride ldc; R rows and nr columns are real) gets kb terms added:
// a[r][p] times row p of b (ldb apart). acc holds the tile through all kb terms — with fixed
// trip counts the compiler keeps it in 24 vector registers. Loading c into acc first and
// storing it after keeps each c(i,j)'s terms in the naive order. R is a template argument so
// that a tile of fewer rows (a one-row product, when decoding) does only its own work.
template <std::size_t R>
void tile_of(const double* const a[MR], const double* b, std::size_t ldb, std::size_t kb, double* c,
             std::size_t ldc, std::size_t nr) {
    double acc[R][NR] = {};
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t j = 0; j < nr; ++j) acc[r][j] = c[r * ldc + j];
    if (nr == NR) {
        for (std::size_t p = 0; p < kb; ++p, b += ldb)
            for (std::size_t r = 0; r < R; ++r)
                for (std::size_t j = 0; j < NR; ++j) acc[r][j] = madd(acc[r][j], a[r][p], b[j]);
    } else {  // the last, narrower strip
        for (std::size_t p = 0; p < kb; ++p, b += ldb)
            for (std::size_t r = 0; r < R; ++r)
                for (std::size_t j = 0; j < nr; ++j) acc[r][j] = madd(acc[r][j], a[r][p], b[j]);
    }
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t j = 0; j < nr; ++j) c[r * ldc + j] = acc[r][j];
}

void tile(const double* const a[MR], const double* b, std::size_t ldb, std::size_t kb, double* c,
          std::size_t ldc, std::size_t mr, std::size_t nr) {
    using Tile = void (*)(const double* const*, const double*, std::size_t, std::size_t, double*,
                          std::size_t, std::size_t);
    static constexpr Tile of_rows[MR + 1] = {nullptr,    tile_of<1>, tile_of<2>, tile_of<3>,
                                             tile_of<4>, tile_of<5>, tile_of<6>};
    of_rows[mr](a, b, ldb, kb, c, ldc, nr);
}

// Up to G strips side by side (kb x NR each, one after another in `strips`): columns j0 …
// j0+n−1 of rows p0 … p0+kb−1 of b. b's rows are read once, as runs of n columns — 128 doubles
// rather than one strip's 32, which memory streams faster — and dealt out to the strips. A
// transposed view is packed strip by strip (pack_strip reads along its columns).
constexpr std::size_t G = 4;
void pack_strips(const View& b, std::size_t p0, std::size_t kb, std::size_t j0, std::size_t n,
                 double* strips) {
    const std::size_t count = (n + NR - 1) / NR;
    if (b.cs != 1) {
        for (std::size_t s = 0; s < count; ++s)
            pack_strip(b, p0, kb, j0 + s * NR, std::min(NR, n - s * NR), strips + s * kb * NR);
        return;
    }
    for (std::size_t p = 0; p < kb; ++p) {
        const double* row = b.data + (p0 + p) * b.rs + j0;
        for (std::size_t s = 0; s < count; ++s) {
            double* out = strips + (s * kb + p) * NR;
            const std::size_t nr = std::min(NR, n - s * NR);
            for (std::size_t j = 0; j < nr; ++j) out[j] = row[s * NR + j];
            std::fill(out + nr, out + NR, 0.0);
        }
    }
}

// Block by block of b, the threads share out groups of its strips: each packs a group into its
// own buffer (read from its cache by every panel) and computes that group's tiles, one panel of
// MR rows of a after another, every strip of the group for each panel (a's rows read once for
// all of them). Packing — streaming b from memory — and the tiles' arithmetic thus overlap
// across threads, with no wait between them. A group has G strips, or fewer when that would
// leave a thread without one (the output projection's b, yᵀ, has only 2 strips).
Matrix blocked_product(const View& a, const View& b) {
    Matrix c(a.rows, b.cols);
    const std::size_t threads = static_cast<std::size_t>(thread_count());
    for (std::size_t j0 = 0; j0 < b.cols; j0 += NB) {  // NB columns of b at a time
        const std::size_t nb = std::min(NB, b.cols - j0), strips = (nb + NR - 1) / NR;
        const std::size_t per = std::clamp<std::size_t>(strips / threads, 1, G);
        const std::size_t groups = (strips + per - 1) / per;
        for (std::size_t p0 = 0; p0 < a.cols; p0 += KB) {  // their k-blocks, in order
            const std::size_t kb = std::min(KB, a.cols - p0);
            parallel_for(groups, a.rows * kb * nb, [&](std::size_t g) {
                thread_local std::vector<double> buffer(G * KB * NR);  // each thread its own
                const std::size_t s0 = g * per, count = std::min(per, strips - s0);
                pack_strips(b, p0, kb, j0 + s0 * NR, std::min(count * NR, nb - s0 * NR),
                            buffer.data());
                for (std::size_t i0 = 0; i0 < a.rows; i0 += MR) {
                    const double* rows[MR];
                    rows_of_a(a, i0, p0, kb, rows);
                    for (std::size_t s = s0; s < s0 + count; ++s)
                        tile(rows, buffer.data() + (s - s0) * kb * NR, NR, kb,
                             c.row(i0) + j0 + s * NR, c.cols, std::min(MR, a.rows - i0),
                             std::min(NR, nb - s * NR));
                }
            });
        }
    }
    return c;
}

// One row of a times b as it lies in memory, on one thread (decoding: every weight read once
// per token): c = Σ_p a(0,p)·(row p of b), row after row, so that b streams from memory in its
// own order while c, b.cols values, stays in the cache. Each c(0,j) still adds its terms for
// p = 0, 1, … with madd, as every loop here does. Measured on a decoder at llama2.c's stories15M
// shape: 156–199 tokens/s on one thread, against 130–149 with the tiles of small_product. On
// two threads the tiles do better (184–208 tokens/s, against 168–182 with each thread reading
// half of every row of b), so a product shared out keeps them.
Matrix row_product(const View& a, const View& b) {
    Matrix c(1, b.cols);
    double* out = c.row(0);
    for (std::size_t p = 0; p < a.cols; ++p) {
        const double ap = a(0, p), *row = b.data + p * b.rs;
        for (std::size_t j = 0; j < b.cols; ++j) out[j] = madd(out[j], ap, row[j]);
    }
    return c;
}

// Small matrices fit the cache as they are: b is read in place (its rows made contiguous when it
// is a transposed view), a's rows too, and the same tile() runs; the threads share the tiles.
Matrix small_product(const View& a, const View& b) {
    std::vector<double> b_rows;
    const double* bd = b.data;
    if (b.cs != 1) {
        b_rows.resize(b.rows * b.cols);
        for (std::size_t j = 0; j < b.cols; ++j)
            for (std::size_t p = 0; p < b.rows; ++p) b_rows[p * b.cols + j] = b(p, j);
        bd = b_rows.data();
    }
    const std::size_t ldb = b.cs == 1 ? b.rs : b.cols;
    Matrix c(a.rows, b.cols);
    const std::size_t panels = (a.rows + MR - 1) / MR, strips = (b.cols + NR - 1) / NR;
    // with fewer than 16 rows of a, the loop waits on b's memory more than on its arithmetic
    // (decoding's one row: each element of b read for one multiply-add): counted as for
    // dot_product below, so that a decoder's one-row products are shared out too
    const std::size_t work = std::max<std::size_t>(a.rows, 16) * a.cols * b.cols;
    parallel_for(panels * strips, work, [&](std::size_t t) {
        const std::size_t i0 = t / strips * MR, j0 = t % strips * NR;  // MR rows x NR columns
        const double* rows[MR];
        rows_of_a(a, i0, 0, a.cols, rows);
        tile(rows, bd + j0, ldb, a.cols, c.row(i0) + j0, c.cols, std::min(MR, a.rows - i0),
             std::min(NR, b.cols - j0));
    });
    return c;
}

// A few rows of a (fewer than MR) times a transposed view: c(i,j) = a's row i · b's column j,
// both contiguous. JB dot products run side by side — independent chains of multiply-adds that
// overlap in the CPU, and as many rows of b streamed from memory at once — and b is read once,
// in its own order: no transposed copy of it (which for the 32,000 x 288 table of a decoder's
// logits would cost more than the product). Measured on that table here: 8 chains 4.6–5.5 ms,
// 16 chains 3.8–4.6 ms; from 20 on the compiler runs out of registers (9 ms and more).
constexpr std::size_t JB = 16;
Matrix dot_product(const View& a, const View& b) {
    Matrix c(a.rows, b.cols);
    const std::size_t k = a.cols, blocks = (b.cols + JB - 1) / JB;
    // bound by memory, not arithmetic: each element of b is read once for a.rows multiply-adds,
    // about 16 times the time of a multiply-add in a tile (decoding at stories15M's shape runs
    // at ~2.8 G multiply-adds/s, the tiles at ~45), so its work counts 16 per multiply-add
    parallel_for(blocks, 16 * a.rows * k * b.cols, [&](std::size_t t) {
        const std::size_t j0 = t * JB, jb = std::min(JB, b.cols - j0);
        const double* column[JB];  // b's columns j0 …; past the last, the last again (unused)
        for (std::size_t j = 0; j < JB; ++j) column[j] = b.data + (j0 + std::min(j, jb - 1)) * b.cs;
        for (std::size_t i = 0; i < a.rows; ++i) {
            const double* row = a.data + i * a.rs;
            double acc[JB] = {};
            for (std::size_t p = 0; p < k; ++p)
                for (std::size_t j = 0; j < JB; ++j) acc[j] = madd(acc[j], row[p], column[j][p]);
            for (std::size_t j = 0; j < jb; ++j) c(i, j0 + j) = acc[j];
        }
    });
    return c;
}

// A large transposed b (the output projection's y·Eᵀ, E 37,000 x 512) is slow to pack: its
// strips are columns of E, gathered 32 at a time (about 38 of the base forward's 250 ms). But
// a·b = (bᵀ·aᵀ)ᵀ, and bᵀ is E as it is: its rows are read in place as a's are, and the packed
// side is aᵀ, small. When c is smaller than b, computing cᵀ and transposing it costs less (the
// output projection: 86 -> 66 ms). The same terms in the same order, and fma(x, y, s) equals
// fma(y, x, s): the same bits.
Matrix transposed_product(const View& a, const View& b) {
    const Matrix ct = blocked_product(transposed(b), transposed(a));  // (b.cols x a.rows)
    Matrix c(a.rows, b.cols);
    // 8 rows of c at a time: each row of ct read once, a cache line of 8 values
    constexpr std::size_t RB = 8;
    parallel_for((c.rows + RB - 1) / RB, 16 * c.rows * c.cols, [&](std::size_t t) {
        const std::size_t i0 = t * RB, rb = std::min(RB, c.rows - i0);
        for (std::size_t j = 0; j < c.cols; ++j)
            for (std::size_t i = i0; i < i0 + rb; ++i) c(i, j) = ct(j, i);
    });
    return c;
}

// Packing b pays once it is large; for small matrices it costs more than it saves. Measured:
// blocking everything made chapter 7's 3,000 steps 1.23 times slower (5.8 s against 4.7 s),
// blocking nothing made the base model's forward pass 1.8 times slower (0.30 s against 0.17 s).
// A row or a few against a transposed b (decoding): dot products, b read in place.
Matrix product(const View& a, const View& b) {
    if (a.rows < MR && a.cs == 1 && b.rs == 1) return dot_product(a, b);
    // one row against b as it lies, on one thread: streamed (row_product); shared out: tiles
    const bool shared = worth_threads(16 * a.cols * b.cols);
    if (a.rows == 1 && b.cs == 1 && !shared) return row_product(a, b);
    const bool large = a.rows >= MR && a.cols >= 64 && b.cols >= 64;
    if (!large) return small_product(a, b);
    if (b.cs != 1 && a.rows < b.rows) return transposed_product(a, b);  // c smaller than b
    return blocked_product(a, b);
}

// a or its transpose times b or its transpose, after checking that the inner sizes agree:
// "matmul_bt: (3x5)·(4x3)ᵀ: inner dimensions differ"
Matrix checked(const char* op, const Matrix& a, bool a_t, const Matrix& b, bool b_t,
               bool naive = false) {
    const View x = a_t ? transposed(a) : as_is(a), y = b_t ? transposed(b) : as_is(b);
    if (x.cols != y.rows)
        throw std::invalid_argument(std::string(op) + ": " + shape_of(a) + (a_t ? "ᵀ·" : "·") +
                                    shape_of(b) + (b_t ? "ᵀ" : "") + ": inner dimensions differ");
    return naive ? naive_product(x, y) : product(x, y);
}

}  // namespace

PackedMatrix pack_transposed(const Matrix& b) {
    const View bt = transposed(b);
    PackedMatrix packed{bt.rows, bt.cols, {}};
    const std::size_t strips = (bt.cols + NR - 1) / NR;
    packed.strips.resize(strips * bt.rows * NR);
    // one strip, all rows, each as pack_strip lays it out; a copy from memory, counted as
    // dot_product's multiply-adds are
    parallel_for(strips, 16 * bt.rows * bt.cols, [&](std::size_t s) {
        pack_strip(bt, 0, bt.rows, s * NR, std::min(NR, bt.cols - s * NR),
                   packed.strips.data() + s * bt.rows * NR);
    });
    return packed;
}

// The tiles of a·b read each strip as blocked_product reads its packed copy, whole (kb = all
// of b's rows: each c(i,j) summed in one pass, in order); the threads take strips.
Matrix matmul_packed(const Matrix& a, const PackedMatrix& b) {
    if (a.cols != b.rows)
        throw std::invalid_argument("matmul_packed: " + shape_of(a) + "·(" +
                                    std::to_string(b.rows) + "x" + std::to_string(b.cols) +
                                    "): inner dimensions differ");
    Matrix c(a.rows, b.cols);
    const View av = as_is(a);
    const std::size_t strips = (b.cols + NR - 1) / NR;
    // few rows of a: bound by b's memory, counted as dot_product's
    const std::size_t work = std::max<std::size_t>(a.rows, 16) * a.cols * b.cols;
    parallel_for(strips, work, [&](std::size_t s) {
        const double* strip = b.strips.data() + s * b.rows * NR;
        for (std::size_t i0 = 0; i0 < a.rows; i0 += MR) {
            const double* rows[MR];
            rows_of_a(av, i0, 0, a.cols, rows);
            tile(rows, strip, NR, a.cols, c.row(i0) + s * NR, c.cols, std::min(MR, a.rows - i0),
                 std::min(NR, b.cols - s * NR));
        }
    });
    return c;
}

Matrix matmul(const Matrix& a, const Matrix& b) { return checked("matmul", a, false, b, false); }
Matrix matmul_naive(const Matrix& a, const Matrix& b) {
    return checked("matmul_naive", a, false, b, false, true);
}
Matrix matmul_bt(const Matrix& a, const Matrix& b) {
    return checked("matmul_bt", a, false, b, true);
}
Matrix matmul_at(const Matrix& a, const Matrix& b) {
    return checked("matmul_at", a, true, b, false);
}
