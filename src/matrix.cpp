// matrix.cpp — the Matrix operations. Plain loops; see matrix.h for the contract.
#include "matrix.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

Matrix::Matrix(std::size_t r, std::size_t c, double fill) : rows(r), cols(c), data(r * c, fill) {}

Matrix::Matrix(std::initializer_list<std::initializer_list<double>> nested) {
    rows = nested.size();
    cols = rows ? nested.begin()->size() : 0;
    for (const auto& line : nested) {
        if (line.size() != cols)
            throw std::invalid_argument("Matrix: ragged rows (" + std::to_string(line.size()) +
                                        " values in a row, expected " + std::to_string(cols) + ")");
        data.insert(data.end(), line.begin(), line.end());
    }
}

static void check_index(const Matrix& m, std::size_t r, std::size_t c) {
    if (r >= m.rows || c >= m.cols)
        throw std::out_of_range("Matrix::at(" + std::to_string(r) + ", " + std::to_string(c) +
                                ") outside " + shape_of(m));
}
double& Matrix::at(std::size_t r, std::size_t c) { check_index(*this, r, c); return (*this)(r, c); }
double Matrix::at(std::size_t r, std::size_t c) const { check_index(*this, r, c); return (*this)(r, c); }

std::string shape_of(const Matrix& m) {
    return "(" + std::to_string(m.rows) + "x" + std::to_string(m.cols) + ")";
}

static void require_same_shape(const char* op, const Matrix& a, const Matrix& b) {
    if (a.rows != b.rows || a.cols != b.cols)
        throw std::invalid_argument(std::string(op) + ": " + shape_of(a) + " and " + shape_of(b) +
                                    ": shapes differ");
}

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
        throw std::invalid_argument("matmul_bt: " + shape_of(a) + "·" + shape_of(b) + "ᵀ: inner dimensions differ");
    Matrix c(a.rows, b.rows);
    for (std::size_t j0 = 0; j0 < b.rows; j0 += 256) {
        const std::size_t count = std::min<std::size_t>(256, b.rows - j0);
        const Matrix part = matmul(a, transpose(row_block(b, j0, count)));  // (n x count)
        for (std::size_t i = 0; i < c.rows; ++i) std::copy(part.row(i), part.row(i) + count, c.row(i) + j0);
    }
    return c;
}

// aᵀ·b as a sum of outer products: row k of a times row k of b, added into c (rows stream).
Matrix matmul_at(const Matrix& a, const Matrix& b) {
    if (a.rows != b.rows)
        throw std::invalid_argument("matmul_at: " + shape_of(a) + "ᵀ·" + shape_of(b) + ": inner dimensions differ");
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

Matrix transpose(const Matrix& a) {
    Matrix t(a.cols, a.rows);
    for (std::size_t r = 0; r < a.rows; ++r)
        for (std::size_t c = 0; c < a.cols; ++c) t(c, r) = a(r, c);
    return t;
}

Matrix add(const Matrix& a, const Matrix& b) {
    require_same_shape("add", a, b);
    Matrix s = a;
    for (std::size_t i = 0; i < s.data.size(); ++i) s.data[i] += b.data[i];
    return s;
}

void add_to(Matrix& into, const Matrix& b) {
    require_same_shape("add_to", into, b);
    for (std::size_t i = 0; i < into.data.size(); ++i) into.data[i] += b.data[i];
}

Matrix scale(const Matrix& a, double s) {
    Matrix out = a;
    for (double& x : out.data) x *= s;
    return out;
}

Matrix map(const Matrix& a, const std::function<double(double)>& f) {
    Matrix out = a;
    for (double& x : out.data) x = f(x);
    return out;
}

// Row-wise softmax, mirroring torch.softmax(x, dim=-1).
// A row whose entries are all -inf (every position masked) has no finite maximum; we define
// its weights as all zeros instead of the 0/0 = NaN the formula would give.
Matrix softmax_rows(const Matrix& a) {
    const double neg_inf = -std::numeric_limits<double>::infinity();
    Matrix p(a.rows, a.cols);
    for (std::size_t r = 0; r < a.rows; ++r) {
        const double* x = a.row(r);
        double* y = p.row(r);
        // 1. the row maximum, subtracted so that exp() never overflows (exp(x - max) <= 1)
        double max = neg_inf;
        for (std::size_t c = 0; c < a.cols; ++c) max = std::max(max, x[c]);
        if (max == neg_inf) continue;  // fully masked row: weights stay 0
        // 2. exponentiate and sum
        double sum = 0.0;
        for (std::size_t c = 0; c < a.cols; ++c) sum += (y[c] = std::exp(x[c] - max));
        // 3. normalise so the row sums to 1
        for (std::size_t c = 0; c < a.cols; ++c) y[c] /= sum;
    }
    return p;
}

Matrix row_of(const Matrix& a, std::size_t r) {
    if (r >= a.rows)
        throw std::out_of_range("row_of: row " + std::to_string(r) + " outside " + shape_of(a));
    Matrix out(1, a.cols);
    std::copy(a.row(r), a.row(r) + a.cols, out.row(0));
    return out;
}

double max_abs_diff(const Matrix& a, const Matrix& b) {
    require_same_shape("max_abs_diff", a, b);
    double worst = 0.0;
    for (std::size_t i = 0; i < a.data.size(); ++i)
        worst = std::max(worst, std::fabs(a.data[i] - b.data[i]));
    return worst;
}

Matrix row_block(const Matrix& a, std::size_t first, std::size_t count) {
    if (first + count > a.rows)
        throw std::out_of_range("row_block: rows " + std::to_string(first) + ".." + std::to_string(first + count) +
                                " outside " + shape_of(a));
    Matrix out(count, a.cols);
    std::copy(a.row(first), a.row(first) + count * a.cols, out.data.begin());
    return out;
}

Matrix column_block(const Matrix& a, std::size_t first, std::size_t count) {
    if (first + count > a.cols)
        throw std::out_of_range("column_block: columns " + std::to_string(first) + ".." + std::to_string(first + count) +
                                " outside " + shape_of(a));
    Matrix out(a.rows, count);
    for (std::size_t r = 0; r < a.rows; ++r) std::copy(a.row(r) + first, a.row(r) + first + count, out.row(r));
    return out;
}

Matrix concat_columns(const std::vector<Matrix>& blocks) {
    std::size_t cols = 0;
    for (const Matrix& b : blocks) cols += b.cols;
    Matrix out(blocks.empty() ? 0 : blocks[0].rows, cols);
    std::size_t at = 0;
    for (const Matrix& b : blocks) {
        if (b.rows != out.rows)
            throw std::invalid_argument("concat_columns: " + shape_of(b) + " and " + shape_of(blocks[0]) + ": row counts differ");
        for (std::size_t r = 0; r < b.rows; ++r) std::copy(b.row(r), b.row(r) + b.cols, out.row(r) + at);
        at += b.cols;
    }
    return out;
}
