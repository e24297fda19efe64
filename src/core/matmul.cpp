// matmul.cpp — the matrix products: the reference loop and the fast one, which must agree to
// the last bit (tests/test_matrix.cpp).
#include "core/matmul.h"

#include <algorithm>
#include <stdexcept>

static void require_inner(const char* op, const Matrix& a, const Matrix& b) {
    if (a.cols != b.rows)
        throw std::invalid_argument(std::string(op) + ": " + shape_of(a) + "·" + shape_of(b) +
                                    ": inner dimensions differ");
}

// (n x k)·(k x m) -> (n x m), in i-k-j order: for each a(i,k) we walk row k of b and row i of
// c side by side, so both stream through memory contiguously (the i-j-k order would jump down
// a column of b, one cache line per multiply-add). Two refinements, same arithmetic:
//  - k in blocks of 128: those rows of b stay in the cache while every row of a uses them
//    (for 512 x 512, all of b is 2 MB and would be fetched again for each row of c);
//  - rows of c four at a time: each value loaded from b serves four rows.
// Every c(i,j) still adds a(i,k)·b(k,j) for k = 0, 1, 2, … in order: the result is bit for bit
// that of matmul_naive (tested).
Matrix matmul(const Matrix& a, const Matrix& b) {
    require_inner("matmul", a, b);
    const std::size_t n = a.rows, inner = a.cols, m = b.cols, block = 128;
    Matrix c(n, m);
    for (std::size_t k0 = 0; k0 < inner; k0 += block) {
        const std::size_t k1 = std::min(inner, k0 + block);
        std::size_t i = 0;
        for (; i + 4 <= n; i += 4) {  // four rows of c at a time
            double *c0 = c.row(i), *c1 = c.row(i + 1), *c2 = c.row(i + 2), *c3 = c.row(i + 3);
            for (std::size_t k = k0; k < k1; ++k) {
                const double a0 = a(i, k), a1 = a(i + 1, k), a2 = a(i + 2, k), a3 = a(i + 3, k);
                const double* bk = b.row(k);
                for (std::size_t j = 0; j < m; ++j) {
                    c0[j] += a0 * bk[j];
                    c1[j] += a1 * bk[j];
                    c2[j] += a2 * bk[j];
                    c3[j] += a3 * bk[j];
                }
            }
        }
        for (; i < n; ++i) {  // the rows left over
            double* ci = c.row(i);
            for (std::size_t k = k0; k < k1; ++k) {
                const double aik = a(i, k);
                const double* bk = b.row(k);
                for (std::size_t j = 0; j < m; ++j) ci[j] += aik * bk[j];
            }
        }
    }
    return c;
}

// The definition c(i,j) = Σ_k a(i,k)·b(k,j), written as it reads. Kept as the reference the
// faster loop order is tested against.
Matrix matmul_naive(const Matrix& a, const Matrix& b) {
    require_inner("matmul_naive", a, b);
    Matrix c(a.rows, b.cols);
    for (std::size_t i = 0; i < a.rows; ++i)
        for (std::size_t j = 0; j < b.cols; ++j) {
            double sum = 0.0;
            for (std::size_t k = 0; k < a.cols; ++k) sum += a(i, k) * b(k, j);
            c(i, j) = sum;
        }
    return c;
}

// a·bᵀ. Written as dot products of rows (c(i,j) = a_i · b_j) the inner loop is a sum, which
// the compiler may not reorder into vector lanes without -ffast-math. So b is transposed, a
// block of 256 of its rows at a time, and multiplied with matmul's streaming loop: the copy
// stays small even when b is the 37000 x 512 embedding table of the output projection.
Matrix matmul_bt(const Matrix& a, const Matrix& b) {
    if (a.cols != b.cols)
        throw std::invalid_argument("matmul_bt: " + shape_of(a) + "·" + shape_of(b) +
                                    "ᵀ: inner dimensions differ");
    Matrix c(a.rows, b.rows);
    for (std::size_t j0 = 0; j0 < b.rows; j0 += 256) {
        const std::size_t count = std::min<std::size_t>(256, b.rows - j0);
        const Matrix part = matmul(a, transpose(row_block(b, j0, count)));  // (n x count)
        for (std::size_t i = 0; i < c.rows; ++i)
            std::copy(part.row(i), part.row(i) + count, c.row(i) + j0);
    }
    return c;
}

// aᵀ·b as a sum of outer products: row k of a times row k of b, added into c (rows stream).
Matrix matmul_at(const Matrix& a, const Matrix& b) {
    if (a.rows != b.rows)
        throw std::invalid_argument("matmul_at: " + shape_of(a) + "ᵀ·" + shape_of(b) +
                                    ": inner dimensions differ");
    Matrix c(a.cols, b.cols);
    for (std::size_t k = 0; k < a.rows; ++k) {
        const double* ak = a.row(k);
        const double* bk = b.row(k);
        for (std::size_t i = 0; i < a.cols; ++i) {
            const double aki = ak[i];
            double* ci = c.row(i);
            for (std::size_t j = 0; j < b.cols; ++j) ci[j] += aki * bk[j];
        }
    }
    return c;
}

