// matrix_type.h — the Matrix type alone: a dense row-major matrix of doubles, (rows x cols),
// entry (r, c) at data[r * cols + c]. What is done with one is in matrix.h and matmul.h; the
// exercises' functions (src/exercises/your_functions.h) see this type and none of them.
#pragma once
#include <cstddef>
#include <initializer_list>
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
    bool empty() const { return data.empty(); }
};
