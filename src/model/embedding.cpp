// embedding.cpp — token embedding with positions, and its backward pass.
#include "model/embedding.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "model/positional.h"

Matrix embed(const Matrix& table, const Tokens& ids) {
    Matrix x(ids.size(), table.cols);
    const double scale_by = std::sqrt(static_cast<double>(table.cols));
    for (std::size_t t = 0; t < ids.size(); ++t) {
        if (ids[t] < 0 || static_cast<std::size_t>(ids[t]) >= table.rows)
            throw std::out_of_range("token id " + std::to_string(ids[t]) +
                                    " outside the vocabulary of " + std::to_string(table.rows));
        const double* row = table.row(static_cast<std::size_t>(ids[t]));
        for (std::size_t c = 0; c < table.cols; ++c) x(t, c) = row[c] * scale_by;
    }
    return add(x, sinusoidal_encoding(ids.size(), table.cols));
}

void embed_backward(const Matrix& dx, const Tokens& ids, Matrix& d_table) {
    const double s = std::sqrt(static_cast<double>(d_table.cols));
    for (std::size_t t = 0; t < ids.size(); ++t) {
        double* row = d_table.row(static_cast<std::size_t>(ids[t]));
        for (std::size_t c = 0; c < d_table.cols; ++c) row[c] += dx(t, c) * s;  // x = table[id]·√d
    }
}
