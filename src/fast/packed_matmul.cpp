// packed_matmul.cpp — a matrix packed once into strips, and the products that read it.
#include "fast/packed_matmul.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "fast/threads.h"
#include "fast/tiles.h"

using namespace kernel;

PreparedTable pack_transposed(const Matrix& b) {
    const View bt = transposed(b);
    PreparedTable packed{bt.rows, bt.cols, {}, {}};
    const std::size_t strips = (bt.cols + NR - 1) / NR;
    packed.packed.resize(strips * bt.rows * NR);
    // one strip, all rows, each as pack_strip lays it out; a copy from memory, counted 16 to
    // the element as matmul.cpp counts its memory-bound loops
    parallel_for(strips, 16 * bt.rows * bt.cols, [&](std::size_t s) {
        pack_strip(bt, 0, bt.rows, s * NR, std::min(NR, bt.cols - s * NR),
                   packed.packed.data() + s * bt.rows * NR);
    });
    return packed;
}

// The tiles of a·b read each strip as blocked_product reads its packed copy, whole (kb = all
// of b's rows: each c(i,j) summed in one pass, in order); the threads take strips.
Matrix matmul_packed(const Matrix& a, const PreparedTable& b) {
    if (a.cols != b.inner)
        throw std::invalid_argument("matmul_packed: " + shape_of(a) + "·(" +
                                    std::to_string(b.inner) + "x" + std::to_string(b.cols) +
                                    "): inner dimensions differ");
    Matrix c(a.rows, b.cols);
    const View av = as_is(a);
    const std::size_t strips = (b.cols + NR - 1) / NR;
    // few rows of a: bound by b's memory, counted as matmul.cpp's dot_product
    const std::size_t work = std::max<std::size_t>(a.rows, 16) * a.cols * b.cols;
    parallel_for(strips, work, [&](std::size_t s) {
        const double* strip = b.packed.data() + s * b.inner * NR;
        for (std::size_t i0 = 0; i0 < a.rows; i0 += MR) {
            tile(rows_of_a(av, i0), strip, NR, a.cols, c.row(i0) + s * NR, c.cols,
                 std::min(MR, a.rows - i0), std::min(NR, b.cols - s * NR));
        }
    });
    return c;
}
