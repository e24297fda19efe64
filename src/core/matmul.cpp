// matmul.cpp — the matrix products: the definition, written as it reads, and one call into the
// fast code (fast/fast_product.h), which computes the same numbers bit for bit.
//
//   c(i,j) = Σ_p a(i,p)·b(p,j), its terms added for p = 0, 1, 2, … in this order, each with
//   one std::fma (a multiply and an add rounded once: the same bits on every machine)
//
// tests/test_matrix.cpp holds the fast code to this loop, shape by shape.
#include "core/matmul.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/fused_multiply_add.h"
#include "fast/fast_product.h"

namespace {

// Element (i, j) of m, or of its transpose.
double element(const Matrix& m, bool transposed, std::size_t i, std::size_t j) {
    return transposed ? m(j, i) : m(i, j);
}

Matrix naive_product(const Matrix& a, bool a_t, const Matrix& b, bool b_t) {
    const std::size_t rows = a_t ? a.cols : a.rows, inner = a_t ? a.rows : a.cols;
    const std::size_t cols = b_t ? b.rows : b.cols;
    Matrix c(rows, cols);
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) {
            double sum = 0.0;
            for (std::size_t p = 0; p < inner; ++p)
                sum = fused_multiply_add(element(a, a_t, i, p), element(b, b_t, p, j), sum);
            c(i, j) = sum;
        }
    return c;
}

// a or its transpose times b or its transpose, after checking that the inner sizes agree:
// "matmul_bt: (3x5)·(4x3)ᵀ: inner dimensions differ"
Matrix checked(const char* op, const Matrix& a, bool a_t, const Matrix& b, bool b_t,
               bool naive = false) {
    if ((a_t ? a.rows : a.cols) != (b_t ? b.cols : b.rows))
        throw std::invalid_argument(std::string(op) + ": " + shape_of(a) + (a_t ? "ᵀ·" : "·") +
                                    shape_of(b) + (b_t ? "ᵀ" : "") + ": inner dimensions differ");
    return naive ? naive_product(a, a_t, b, b_t) : fast_product(a, a_t, b, b_t);
}

}  // namespace

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
