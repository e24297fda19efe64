// embedding.cpp — token embedding with positions, and its backward pass.
#include "model/embedding.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "model/positional.h"

Matrix embed(const Matrix& table, const Tokens& ids) {
    return embed(table, std::vector<Tokens>{ids});
}

Matrix embed(const Matrix& table, const std::vector<Tokens>& sequences) {
    std::size_t rows = 0, longest = 0;
    for (const Tokens& ids : sequences) {
        rows += ids.size();
        longest = std::max(longest, ids.size());
    }
    const Matrix pe = sinusoidal_encoding(longest, table.cols);  // once, for every sequence
    const double scale_by = std::sqrt(static_cast<double>(table.cols));
    Matrix x(rows, table.cols);
    std::size_t r = 0;
    for (const Tokens& ids : sequences)
        for (std::size_t t = 0; t < ids.size(); ++t, ++r) {  // position t of its sequence
            if (ids[t] < 0 || static_cast<std::size_t>(ids[t]) >= table.rows)
                throw std::out_of_range("token id " + std::to_string(ids[t]) +
                                        " outside the vocabulary of " + std::to_string(table.rows));
            const double* row = table.row(static_cast<std::size_t>(ids[t]));
            for (std::size_t c = 0; c < table.cols; ++c) x(r, c) = row[c] * scale_by + pe(t, c);
        }
    return x;
}

void embed_backward(const Matrix& dx, const Tokens& ids, Matrix& d_table) {
    const double s = std::sqrt(static_cast<double>(d_table.cols));
    for (std::size_t t = 0; t < ids.size(); ++t) {
        double* row = d_table.row(static_cast<std::size_t>(ids[t]));
        for (std::size_t c = 0; c < d_table.cols; ++c) row[c] += dx(t, c) * s;  // x = table[id]·√d
    }
}
