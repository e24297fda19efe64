// matrix.h — the one data type of this book: a dense row-major matrix of doubles.
//
// Shapes are written (rows x cols). A vector is a 1 x n matrix. Every operation is a
// free function that returns a new Matrix by value; a shape mismatch throws
// std::invalid_argument naming both shapes, e.g. "matmul: (3x5)·(4x3): inner dimensions differ".
#pragma once
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

struct Matrix {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<double> data;  // row r, column c lives at data[r * cols + c]

    Matrix() = default;
    Matrix(std::size_t rows, std::size_t cols, double fill = 0.0);
    Matrix(std::initializer_list<std::initializer_list<double>> nested);  // {{1, 2}, {3, 4}}

    double& operator()(std::size_t r, std::size_t c) { return data[r * cols + c]; }
    double operator()(std::size_t r, std::size_t c) const { return data[r * cols + c]; }
    double& at(std::size_t r, std::size_t c);  // bounds-checked: throws std::out_of_range
    double at(std::size_t r, std::size_t c) const;
    double* row(std::size_t r) { return data.data() + r * cols; }
    const double* row(std::size_t r) const { return data.data() + r * cols; }
};

std::string shape_of(const Matrix& m);  // "(3x5)"

Matrix matmul(const Matrix& a, const Matrix& b);        // (n x k)·(k x m) -> (n x m)
Matrix matmul_naive(const Matrix& a, const Matrix& b);  // the textbook i-j-k loop, the reference
Matrix matmul_bt(const Matrix& a, const Matrix& b);     // a·bᵀ: (n x k)·(m x k)ᵀ -> (n x m)
Matrix matmul_at(const Matrix& a, const Matrix& b);     // aᵀ·b: (k x n)ᵀ·(k x m) -> (n x m), no transpose made
Matrix transpose(const Matrix& a);                      // (n x m) -> (m x n)
Matrix add(const Matrix& a, const Matrix& b);           // elementwise, same shapes
void add_to(Matrix& into, const Matrix& b);             // into += b (gradients accumulate)
Matrix scale(const Matrix& a, double s);                // every entry times s
Matrix map(const Matrix& a, const std::function<double(double)>& f);  // f on every entry
Matrix softmax_rows(const Matrix& a);                   // each row -> probabilities summing to 1
Matrix row_of(const Matrix& a, std::size_t r);          // (1 x cols)
Matrix row_block(const Matrix& a, std::size_t first, std::size_t count);     // rows first.. (count x cols)
Matrix column_block(const Matrix& a, std::size_t first, std::size_t count);  // columns first.. (rows x count)
Matrix concat_columns(const std::vector<Matrix>& blocks);                     // side by side
double max_abs_diff(const Matrix& a, const Matrix& b);  // largest |a - b|, same shapes
