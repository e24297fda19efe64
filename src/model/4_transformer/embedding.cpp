// embedding.cpp — token embedding with positions, and its backward pass.
#include "model/4_transformer/embedding.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "model/2_positions/positional.h"

namespace {

// Row r of x = table[id] · √d_model + pe_row (x's row r, the id's position's encoding).
void embed_row(Matrix& x, std::size_t r, const Matrix& table, int id, const double* pe_row) {
    if (id < 0 || static_cast<std::size_t>(id) >= table.rows)
        throw std::out_of_range("token id " + std::to_string(id) + " outside the vocabulary of " +
                                std::to_string(table.rows));
    const double scale_by = std::sqrt(static_cast<double>(table.cols));
    const double* row = table.row(static_cast<std::size_t>(id));
    for (std::size_t c = 0; c < table.cols; ++c) x(r, c) = row[c] * scale_by + pe_row[c];
}

}  // namespace

Matrix embed(const Matrix& table, const Tokens& ids) {
    return embed(table, std::vector<Tokens>{ids});
}

Matrix embed_at(const Matrix& table, int id, std::size_t position) {
    const Matrix pe = sinusoidal_encoding(1, table.cols, position);
    Matrix x(1, table.cols);
    embed_row(x, 0, table, id, pe.row(0));
    return x;
}

Matrix embed(const Matrix& table, const std::vector<Tokens>& sequences) {
    std::size_t rows = 0, longest = 0;
    for (const Tokens& ids : sequences) {
        rows += ids.size();
        longest = std::max(longest, ids.size());
    }
    const Matrix pe = sinusoidal_encoding(longest, table.cols);  // once, for every sequence
    Matrix x(rows, table.cols);
    std::size_t r = 0;
    for (const Tokens& ids : sequences)
        for (std::size_t t = 0; t < ids.size(); ++t, ++r)  // position t of its sequence
            embed_row(x, r, table, ids[t], pe.row(t));
    return x;
}

void embed_backward(const Matrix& dx, const Tokens& ids, Matrix& d_table) {
    const double s = std::sqrt(static_cast<double>(d_table.cols));
    for (std::size_t t = 0; t < ids.size(); ++t) {
        double* row = d_table.row(static_cast<std::size_t>(ids[t]));
        for (std::size_t c = 0; c < d_table.cols; ++c) row[c] += dx(t, c) * s;  // x = table[id]·√d
    }
}
