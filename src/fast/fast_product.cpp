// fast_product.cpp — the fast loops behind matmul(), and which one a product takes. Every loop
// here computes the naive loop's numbers, bit for bit:
//
//   blocked_product    for large matrices (the base model's): b packed block by block so that
//                      it is read from the cache, and c computed in tiles held in registers
//   transposed_product a·bᵀ with a large b and a smaller result (an output projection): (b·aᵀ)ᵀ
//   small_product      for small ones (chapter 7's, 100 x 32): the same tiles, b read in place
//   row_product        one row times b, on one thread (decoding): b streamed row after row
//   dot_product        for a few rows times a transposed b (decoding's logits y·Eᵀ, one row):
//                      each c(i,j) a dot product of two contiguous rows, several side by side
//
// Each adds a(i,p)·b(p,j) into c(i,j) for p = 0, 1, 2, … in this order, with the same madd(),
// so each c(i,j) is rounded the same way whichever loop computed it. The threads (threads.h)
// share out whole tiles of c, so the same is true whatever their number. The pieces the tiles
// are made of — views, packed strips, the register tile — are in tiles.h. Why each loop is
// shaped as it is, with the measurements that chose it: tests/bench/README.md.
#include "fast/fast_product.h"

#include <algorithm>
#include <vector>

#include "fast/threads.h"
#include "fast/tiles.h"

namespace {

using namespace kernel;

// While one group's tiles are computed, the next group's rows of b are asked for, a slice of
// them with each tile (tile q of `tiles`), so that memory streams them while the arithmetic runs
// and pack_strips finds them in the cache (a thread's groups are consecutive: threads.h). Rows
// of a transposed view are b's columns, small here (an output projection's yᵀ): not asked for.
void ask_for_next_group(const View& b, std::size_t p0, std::size_t kb, std::size_t j0,
                        std::size_t n, std::size_t q, std::size_t tiles) {
    if (b.cs != 1) return;
    for (std::size_t p = q * kb / tiles; p < (q + 1) * kb / tiles; ++p)
        for (std::size_t j = 0; j < n; j += 8) fetch_soon(b.data + (p0 + p) * b.rs + j0 + j);
}

// A tile loads its part of c before its first multiply-add and waits for it, and a large c (8 MB
// at 1024 x 1024) is not in the cache. So while one tile runs, the next one's rows of c (rows i0
// …, columns j0 … j0+NR−1) are asked for (measured: tests/bench/README.md).
// Addresses at most 8 doubles (one cache line) apart, and the last: every line of the row's run.
void ask_for_tile(const Matrix& c, std::size_t i0, std::size_t j0) {
    const std::size_t end = std::min(j0 + NR, c.cols);
    for (std::size_t i = i0; i < std::min(i0 + MR, c.rows); ++i) {
        for (std::size_t j = j0; j < end; j += 8) fetch_soon(c.row(i) + j);
        fetch_soon(c.row(i) + end - 1);
    }
}

// Block by block of b, the threads share out groups of its strips: each packs a group into its
// own buffer (read from its cache by every panel) and computes that group's tiles, one panel of
// MR rows of a after another, every strip of the group for each panel (a's rows read once for
// all of them). Packing — streaming b from memory — and the tiles' arithmetic thus overlap
// across threads, with no wait between them. A group has at most G strips, fewer when that
// would leave a thread without one (an output projection's b, yᵀ, is 64 columns: 2 strips on
// AVX-512) or give one thread more strips than another.
Matrix blocked_product(const View& a, const View& b) {
    Matrix c(a.rows, b.cols);
    const std::size_t threads = static_cast<std::size_t>(thread_count());
    for (std::size_t j0 = 0; j0 < b.cols; j0 += NB) {  // NB columns of b at a time
        const std::size_t nb = std::min(NB, b.cols - j0), strips = (nb + NR - 1) / NR;
        // as many groups for each thread, of at most G strips each and sizes differing by at
        // most one, so that every thread gets the same number of strips, give or take one (a
        // fixed G would give 1024 columns 11 groups of 3 strips: 6 on one thread, 5 on the other)
        const std::size_t groups =
            std::min(strips, threads * ((strips + threads * G - 1) / (threads * G)));
        for (std::size_t p0 = 0; p0 < a.cols; p0 += KB) {  // their k-blocks, in order
            const std::size_t kb = std::min(KB, a.cols - p0);
            const View a_block{a.data + p0 * a.cs, a.rows, kb, a.rs, a.cs};  // its columns p0 …
            parallel_for(groups, a.rows * kb * nb, [&](std::size_t g) {
                thread_local std::vector<double> buffer(G * KB * NR);  // each thread its own
                const std::size_t s0 = g * strips / groups, s1 = (g + 1) * strips / groups,
                                  count = s1 - s0;
                pack_strips(b, p0, kb, j0 + s0 * NR, std::min(count * NR, nb - s0 * NR),
                            buffer.data());
                const std::size_t next = j0 + s1 * NR, per = (g + 2) * strips / groups - s1,
                                  tiles = (a.rows + MR - 1) / MR * count;
                for (std::size_t i0 = 0; i0 < a.rows; i0 += MR) {
                    const RowsOfA rows = rows_of_a(a_block, i0);
                    for (std::size_t s = s0; s < s0 + count; ++s) {
                        if (s + 1 < s0 + count)  // the next tile: the next strip, or the next panel
                            ask_for_tile(c, i0, j0 + (s + 1) * NR);
                        else if (i0 + MR < a.rows)
                            ask_for_tile(c, i0 + MR, j0 + s0 * NR);
                        if (g + 1 < groups)
                            ask_for_next_group(b, p0, kb, next, std::min(per * NR, j0 + nb - next),
                                               i0 / MR * count + s - s0, tiles);
                        tile(rows, buffer.data() + (s - s0) * kb * NR, NR, kb,
                             c.row(i0) + j0 + s * NR, c.cols, std::min(MR, a.rows - i0),
                             std::min(NR, nb - s * NR));
                    }
                }
            });
        }
    }
    return c;
}

// One row of a times b as it lies in memory, on one thread (decoding: every weight read once
// per token): c = Σ_p a(0,p)·(row p of b), row after row, so that b streams from memory in its
// own order while c, b.cols values, stays in the cache. Each c(0,j) still adds its terms for
// p = 0, 1, … with madd, as every loop here does. On one thread it beat the tiles; shared out,
// the tiles beat it, so a product shared out keeps them (measured: tests/bench/README.md).
Matrix row_product(const View& a, const View& b) {
    Matrix c(1, b.cols);
    double* out = c.row(0);
    for (std::size_t p = 0; p < a.cols; ++p) {
        const double ap = a(0, p), *row = b.data + p * b.rs;
        for (std::size_t j = 0; j < b.cols; ++j) out[j] = madd(out[j], ap, row[j]);
    }
    return c;
}

// Small matrices fit the cache as they are: b is read in place, a's rows too, and the same
// tile() runs; the threads share the tiles. Where b is a transposed view, or its rows are not a
// whole number of strips (the tile reads NR values of each row of b), b's rows are copied first,
// zeros added to a whole number of strips: a copy of b, a small part of the product's work. A
// transposed a is read in place (tiles.h: rows_of_a).
Matrix small_product(const View& a, const View& b) {
    std::vector<double> b_rows;
    const double* bd = b.data;
    std::size_t ldb = b.rs;
    if (b.cs != 1 || b.cols % NR != 0) {
        ldb = (b.cols + NR - 1) / NR * NR;
        b_rows.assign(b.rows * ldb, 0.0);
        if (b.cs == 1) {
            for (std::size_t p = 0; p < b.rows; ++p)
                for (std::size_t j = 0; j < b.cols; ++j) b_rows[p * ldb + j] = b(p, j);
        } else {  // a transposed view: read along its contiguous columns
            for (std::size_t j = 0; j < b.cols; ++j)
                for (std::size_t p = 0; p < b.rows; ++p) b_rows[p * ldb + j] = b(p, j);
        }
        bd = b_rows.data();
    }
    Matrix c(a.rows, b.cols);
    const std::size_t panels = (a.rows + MR - 1) / MR, strips = (b.cols + NR - 1) / NR;
    // with fewer than 16 rows of a, the loop waits on b's memory more than on its arithmetic
    // (decoding's one row: each element of b read for one multiply-add): counted as for
    // dot_product below, so that a decoder's one-row products are shared out too
    const std::size_t work = std::max<std::size_t>(a.rows, 16) * a.cols * b.cols;
    parallel_for(panels * strips, work, [&](std::size_t t) {
        const std::size_t i0 = t / strips * MR, j0 = t % strips * NR;  // MR rows x NR columns
        tile(rows_of_a(a, i0), bd + j0, ldb, a.cols, c.row(i0) + j0, c.cols,
             std::min(MR, a.rows - i0), std::min(NR, b.cols - j0));
    });
    return c;
}

// A few rows of a (fewer than MR) times a transposed view: c(i,j) = a's row i · b's column j,
// both contiguous. JB dot products run side by side — independent chains of multiply-adds that
// overlap in the CPU, and as many rows of b streamed from memory at once — and b is read once,
// in its own order: no transposed copy of it (which for the 32,000 x 288 table of a decoder's
// logits would cost more than the product). 16 chains beat 8; from 20 on the compiler runs out
// of registers (tests/bench/README.md).
constexpr std::size_t JB = 16;
Matrix dot_product(const View& a, const View& b) {
    Matrix c(a.rows, b.cols);
    const std::size_t k = a.cols, blocks = (b.cols + JB - 1) / JB;
    // bound by memory, not arithmetic: each element of b is read once for a.rows multiply-adds,
    // about 16 times the time of a multiply-add in a tile (tests/bench/README.md), so its work
    // counts 16 per multiply-add
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
// strips are columns of E, gathered 32 at a time. But a·b = (bᵀ·aᵀ)ᵀ, and bᵀ is E as it is: its
// rows are read in place as a's are, and the packed side is aᵀ, small. When c is smaller than b,
// computing cᵀ and transposing it costs less. So too for a large transposed a (matmul_at's
// dlogitsᵀ·y, the gradient of chapter 12's tied table, dlogits 512 x 3005): read by the tiles,
// each of its values comes from another row of dlogits, 24 KB apart, while packed as b its rows
// stream in order. The same terms in the same order, and fma(x, y, s) equals fma(y, x, s): the
// same bits. (The measurements that chose both: tests/bench/README.md.)
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

// Packing b pays once it is large; for small matrices it costs more than it saves: blocking
// everything slowed chapter 7's training, blocking nothing the base model's forward pass
// (tests/bench/README.md).
// A row or a few against a transposed b (decoding): dot products, b read in place.
Matrix product(const View& a, const View& b) {
    if (a.rows < MR && a.cs == 1 && b.rs == 1) return dot_product(a, b);
    // one row against b as it lies, on one thread: streamed (row_product); shared out: tiles
    const bool shared = worth_threads(16 * a.cols * b.cols);
    if (a.rows == 1 && b.cs == 1 && !shared) return row_product(a, b);
    const bool large = a.rows >= MR && a.cols >= 64 && b.cols >= 64;
    if (!large) return small_product(a, b);
    if (b.cs != 1 && a.rows < b.rows) return transposed_product(a, b);  // c smaller than b
    if (a.cs != 1 && b.cs == 1 && a.rows > b.cols) return transposed_product(a, b);  // a larger
    return blocked_product(a, b);
}

}  // namespace

Matrix fast_product(const Matrix& a, bool a_transposed, const Matrix& b, bool b_transposed) {
    return product(a_transposed ? transposed(a) : as_is(a), b_transposed ? transposed(b) : as_is(b));
}
