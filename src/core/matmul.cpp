// matmul.cpp — the matrix products: the definition, written as it reads.
//
//   c(i,j) = Σ_p a(i,p)·b(p,j), its terms added for p = 0, 1, 2, … in this order, each with
//   one std::fma (a multiply and an add rounded once: the same bits on every machine)
//
// Every product runs through this loop unless a faster one is plugged in (product_loops.h); the
// fast loops add the same terms in the same order, and tests/test_matrix.cpp holds them to this
// loop shape by shape. Built with make PLAIN=1, this loop is what every chapter runs: change it
// and their numbers move.
#include "core/product_loops.h"

#include <stdexcept>
#include <string>

#include "core/fused_multiply_add.h"

namespace {

// Element (i, j) of m, or of its transpose.
double element(const Matrix& m, bool transposed, std::size_t i, std::size_t j) {
    return transposed ? m(j, i) : m(i, j);
}

Matrix plain_product(const Matrix& a, bool a_t, const Matrix& b, bool b_t) {
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

// The plain loop's prepared table is the table itself.
PreparedTable plain_prepare(const Matrix& b) { return {b.cols, b.rows, b, {}}; }
Matrix plain_prepared_product(const Matrix& a, const PreparedTable& t) {
    return plain_product(a, false, t.b, true);
}

constexpr ProductLoops plain_loops = {"plain", plain_product, plain_prepare,
                                      plain_prepared_product};
ProductLoops loops = plain_loops;  // what every product runs through; plug_in_products changes it

// a or its transpose times b or its transpose, after checking that the inner sizes agree:
// "matmul_bt: (3x5)·(4x3)ᵀ: inner dimensions differ"
Matrix checked(const char* op, const Matrix& a, bool a_t, const Matrix& b, bool b_t,
               const ProductLoops& with) {
    if ((a_t ? a.rows : a.cols) != (b_t ? b.cols : b.rows))
        throw std::invalid_argument(std::string(op) + ": " + shape_of(a) + (a_t ? "ᵀ·" : "·") +
                                    shape_of(b) + (b_t ? "ᵀ" : "") + ": inner dimensions differ");
    return with.product(a, a_t, b, b_t);
}

}  // namespace

void plug_in_products(const ProductLoops& with) { loops = with; }
const ProductLoops& product_loops() { return loops; }

Matrix matmul(const Matrix& a, const Matrix& b) {
    return checked("matmul", a, false, b, false, loops);
}
Matrix matmul_naive(const Matrix& a, const Matrix& b) {
    return checked("matmul_naive", a, false, b, false, plain_loops);
}
Matrix matmul_bt(const Matrix& a, const Matrix& b) {
    return checked("matmul_bt", a, false, b, true, loops);
}
Matrix matmul_at(const Matrix& a, const Matrix& b) {
    return checked("matmul_at", a, true, b, false, loops);
}

PreparedTable prepare_bt(const Matrix& b) { return loops.prepare(b); }
Matrix matmul_bt_prepared(const Matrix& a, const PreparedTable& t) {
    if (a.cols != t.inner)
        throw std::invalid_argument("matmul_bt_prepared: " + shape_of(a) + "·(" +
                                    std::to_string(t.inner) + "x" + std::to_string(t.cols) +
                                    "): inner dimensions differ");
    // a table the plain loop prepared (before the fast loops were plugged in) is read as it is
    return t.packed.empty() ? plain_prepared_product(a, t) : loops.prepared_product(a, t);
}
