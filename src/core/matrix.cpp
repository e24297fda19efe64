// matrix.cpp — the Matrix type and its elementwise and row-wise operations. Plain loops.
#include "core/matrix.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/elementary.h"

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
double& Matrix::at(std::size_t r, std::size_t c) {
    check_index(*this, r, c);
    return (*this)(r, c);
}
double Matrix::at(std::size_t r, std::size_t c) const {
    check_index(*this, r, c);
    return (*this)(r, c);
}

std::string shape_of(const Matrix& m) {
    return "(" + std::to_string(m.rows) + "x" + std::to_string(m.cols) + ")";
}

static void require_same_shape(const char* op, const Matrix& a, const Matrix& b) {
    if (a.rows != b.rows || a.cols != b.cols)
        throw std::invalid_argument(std::string(op) + ": " + shape_of(a) + " and " + shape_of(b) +
                                    ": shapes differ");
}

Matrix transpose(const Matrix& a) {
    Matrix t(a.cols, a.rows);
    for (std::size_t r = 0; r < a.rows; ++r)
        for (std::size_t c = 0; c < a.cols; ++c) t(c, r) = a(r, c);
    return t;
}

Matrix add(const Matrix& a, const Matrix& b) {
    Matrix s = a;
    add_to(s, b);
    return s;
}

void add_to(Matrix& into, const Matrix& b) {
    require_same_shape("add", into, b);
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

void add_to_each_row(Matrix& m, const Matrix& row) {
    if (row.rows != 1 || row.cols != m.cols)
        throw std::invalid_argument("add_to_each_row: row " + shape_of(row) + " for " +
                                    shape_of(m));
    for (std::size_t r = 0; r < m.rows; ++r)
        for (std::size_t c = 0; c < m.cols; ++c) m(r, c) += row(0, c);
}

void add_column_sums(Matrix& into, const Matrix& m) {
    if (into.rows != 1 || into.cols != m.cols)
        throw std::invalid_argument("add_column_sums: " + shape_of(into) + " for " + shape_of(m));
    for (std::size_t r = 0; r < m.rows; ++r)
        for (std::size_t c = 0; c < m.cols; ++c) into(0, c) += m(r, c);
}

double max_abs_diff(const Matrix& a, const Matrix& b) {
    require_same_shape("max_abs_diff", a, b);
    double worst = 0.0;
    for (std::size_t i = 0; i < a.data.size(); ++i)
        worst = std::max(worst, std::fabs(a.data[i] - b.data[i]));
    return worst;
}

std::size_t argmax(const Matrix& m, std::size_t r) {
    if (r >= m.rows || m.cols == 0)
        throw std::out_of_range("argmax: row " + std::to_string(r) + " of " + shape_of(m));
    std::size_t best = 0;  // the first of equal maxima, as torch.argmax
    for (std::size_t c = 1; c < m.cols; ++c)
        if (m(r, c) > m(r, best)) best = c;
    return best;
}

Matrix row_matrix(const std::vector<double>& values) {
    Matrix m(1, values.size());
    std::copy(values.begin(), values.end(), m.data.begin());
    return m;
}

Matrix row_of(const Matrix& a, std::size_t r) { return row_block(a, r, 1); }

Matrix row_block(const Matrix& a, std::size_t first, std::size_t count) {
    if (first + count > a.rows)
        throw std::out_of_range("row_block: rows " + std::to_string(first) + ".." +
                                std::to_string(first + count) + " outside " + shape_of(a));
    Matrix out(count, a.cols);
    std::copy(a.row(first), a.row(first) + count * a.cols, out.data.begin());
    return out;
}

Matrix column_block(const Matrix& a, std::size_t first, std::size_t count) {
    if (first + count > a.cols)
        throw std::out_of_range("column_block: columns " + std::to_string(first) + ".." +
                                std::to_string(first + count) + " outside " + shape_of(a));
    Matrix out(a.rows, count);
    for (std::size_t r = 0; r < a.rows; ++r)
        std::copy(a.row(r) + first, a.row(r) + first + count, out.row(r));
    return out;
}

void append_rows(Matrix& into, const Matrix& rows) {
    if (into.rows == 0) into.cols = rows.cols;
    if (rows.cols != into.cols)
        throw std::invalid_argument("append_rows: " + shape_of(into) + " and " + shape_of(rows) +
                                    ": column counts differ");
    into.data.insert(into.data.end(), rows.data.begin(), rows.data.end());
    into.rows += rows.rows;
}

Matrix concat_columns(const std::vector<Matrix>& blocks) {
    std::size_t cols = 0;
    for (const Matrix& b : blocks) cols += b.cols;
    Matrix out(blocks.empty() ? 0 : blocks[0].rows, cols);
    std::size_t at = 0;
    for (const Matrix& b : blocks) {
        if (b.rows != out.rows)
            throw std::invalid_argument("concat_columns: " + shape_of(b) + " and " +
                                        shape_of(blocks[0]) + ": row counts differ");
        set_submatrix(out, 0, at, b);
        at += b.cols;
    }
    return out;
}

Matrix submatrix(const Matrix& a, std::size_t r0, std::size_t rows, std::size_t c0,
                 std::size_t cols) {
    if (r0 + rows > a.rows || c0 + cols > a.cols)
        throw std::out_of_range("submatrix: rows " + std::to_string(r0) + "+" +
                                std::to_string(rows) + ", columns " + std::to_string(c0) + "+" +
                                std::to_string(cols) + " outside " + shape_of(a));
    Matrix out(rows, cols);
    for (std::size_t r = 0; r < rows; ++r)
        std::copy(a.row(r0 + r) + c0, a.row(r0 + r) + c0 + cols, out.row(r));
    return out;
}

void set_submatrix(Matrix& into, std::size_t r0, std::size_t c0, const Matrix& block) {
    if (r0 + block.rows > into.rows || c0 + block.cols > into.cols)
        throw std::out_of_range("set_submatrix: " + shape_of(block) + " at (" + std::to_string(r0) +
                                ", " + std::to_string(c0) + ") of " + shape_of(into));
    for (std::size_t r = 0; r < block.rows; ++r)
        std::copy(block.row(r), block.row(r) + block.cols, into.row(r0 + r) + c0);
}

void add_to_submatrix(Matrix& into, std::size_t r0, std::size_t c0, const Matrix& block) {
    if (r0 + block.rows > into.rows || c0 + block.cols > into.cols)
        throw std::out_of_range("add_to_submatrix: " + shape_of(block) + " at (" +
                                std::to_string(r0) + ", " + std::to_string(c0) + ") of " +
                                shape_of(into));
    for (std::size_t r = 0; r < block.rows; ++r)
        for (std::size_t c = 0; c < block.cols; ++c) into(r0 + r, c0 + c) += block(r, c);
}

Matrix softmax_rows(const Matrix& x) {
    const double neg_inf = -std::numeric_limits<double>::infinity();
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        const double* in = x.row(r);
        double* out = y.row(r);
        // 1. the row maximum, subtracted so that exp() never overflows (exp(x - max) <= 1)
        double max = neg_inf;
        for (std::size_t c = 0; c < x.cols; ++c) max = std::max(max, in[c]);
        if (max == neg_inf) continue;  // fully masked row: weights stay 0
        // columns first … end−1 hold every score that is not masked (−∞): those outside have
        // weight exactly 0, left as the zeros y starts with, and adding 0 to the sum changes
        // nothing (a causal row of 64 is unmasked up to its own column: half the exponentials)
        std::size_t first = 0, end = x.cols;
        while (in[first] == neg_inf) ++first;
        while (in[end - 1] == neg_inf) --end;
        // 2. exponentiate (elementary.h: a loop the compiler runs in vector registers), then
        //    sum in order
        for (std::size_t c = first; c < end; ++c) out[c] = elementary::exp(in[c] - max);
        double sum = 0.0;
        for (std::size_t c = first; c < end; ++c) sum += out[c];
        // 3. normalise so the row sums to 1
        for (std::size_t c = first; c < end; ++c) out[c] /= sum;
    }
    return y;
}

Matrix log_softmax_rows(const Matrix& x) {
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        double max = -std::numeric_limits<double>::infinity(), sum = 0.0;
        for (std::size_t c = 0; c < x.cols; ++c) max = std::max(max, x(r, c));
        for (std::size_t c = 0; c < x.cols; ++c) sum += elementary::exp(x(r, c) - max);
        const double log_sum = elementary::log(sum);
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) = x(r, c) - max - log_sum;
    }
    return y;
}

Matrix softmax_rows_backward(const Matrix& dy, const Matrix& y) {
    require_same_shape("softmax_rows_backward", dy, y);
    Matrix dx(y.rows, y.cols);
    for (std::size_t r = 0; r < y.rows; ++r) {
        // y_c = exp(x_c) / Σ exp  ->  dy/dx couples the row: dx_c = y_c·(dy_c − Σ_c' dy_c'·y_c')
        double dot = 0.0;
        for (std::size_t c = 0; c < y.cols; ++c) dot += dy(r, c) * y(r, c);
        for (std::size_t c = 0; c < y.cols; ++c) dx(r, c) = y(r, c) * (dy(r, c) - dot);
    }
    return dx;
}
