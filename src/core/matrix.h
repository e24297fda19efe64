// matrix.h — the one data type of this book: a dense row-major matrix of doubles, and the
// elementwise and row-wise operations on it (products are in matmul.h).
//
// Shapes are written (rows x cols); a vector is a (1 x cols) matrix. Every operation is a free
// function: most return a new Matrix by value; the six that return void (add_to,
// add_to_each_row, add_column_sums, append_rows, set_submatrix, add_to_submatrix) change their first argument in
// place, as a gradient or a result being filled in is. A shape mismatch throws
// std::invalid_argument naming both shapes, e.g. "add: (3x5) and (5x3): shapes differ".
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/matrix_type.h"


std::string shape_of(const Matrix& m);  // "(3x5)"

Matrix transpose(const Matrix& a);                       // (rows x cols) -> (cols x rows)
Matrix add(const Matrix& a, const Matrix& b);            // elementwise, same shapes
void add_to(Matrix& into, const Matrix& b);              // into += b (gradients accumulate)
Matrix scale(const Matrix& a, double s);                 // every entry times s
Matrix map(const Matrix& a, const std::function<double(double)>& f);  // f on every entry
void add_to_each_row(Matrix& m, const Matrix& row);      // m(r, c) += row(0, c): a bias
void add_column_sums(Matrix& into,
                     const Matrix& m);  // into(0, c) += Σ_r m(r, c): a bias's gradient
double max_abs_diff(const Matrix& a, const Matrix& b);   // largest |a - b|, same shapes
std::size_t argmax(const Matrix& m, std::size_t r);      // column of row r's largest entry

Matrix row_of(const Matrix& a, std::size_t r);                                // (1 x cols)
Matrix row_matrix(const std::vector<double>& values);                         // (1 x size)
Matrix row_block(const Matrix& a, std::size_t first, std::size_t count);     // (count x cols)
Matrix column_block(const Matrix& a, std::size_t first, std::size_t count);  // (rows x count)
Matrix concat_columns(const std::vector<Matrix>& blocks);                     // side by side
void append_rows(Matrix& into, const Matrix& rows);  // rows below into's (an empty into: any cols)
// rows r0 … r0+rows−1, columns c0 … c0+cols−1, as a (rows x cols) matrix; and written back
Matrix submatrix(const Matrix& a, std::size_t r0, std::size_t rows, std::size_t c0,
                 std::size_t cols);
void set_submatrix(Matrix& into, std::size_t r0, std::size_t c0, const Matrix& block);
void add_to_submatrix(Matrix& into, std::size_t r0, std::size_t c0, const Matrix& block);  // +=

// Each row -> probabilities that sum to 1 (torch.softmax(x, dim=-1)). A row whose entries are
// all −inf (every key masked) has no finite maximum; its weights are defined as all zeros
// instead of the 0/0 = NaN of the formula.
Matrix softmax_rows(const Matrix& x);

// Each row -> log-probabilities, x − max − log Σ exp(x − max) (torch.log_softmax(x, dim=-1)):
// the log of softmax_rows without its rounding to 0 for very unlikely entries.
Matrix log_softmax_rows(const Matrix& x);

// dL/dx of y = softmax_rows(x), given dL/dy and y: dx = y ⊙ (dy − Σ_c dy_c·y_c), row by row.
// Masked entries (y = 0) get no gradient.
Matrix softmax_rows_backward(const Matrix& dy, const Matrix& y);
