// embedding.cpp — token embedding with positions, and its backward pass.
#include "model/transformer/embedding.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "model/positions/positional.h"

namespace {

// Row r of x = table[id] · √d_model + the position's row (pe_row: none for nullptr).
void embed_row(Matrix& x, std::size_t r, const Matrix& table, int id, const double* pe_row) {
    if (id < 0 || static_cast<std::size_t>(id) >= table.rows)
        throw std::out_of_range("token id " + std::to_string(id) + " outside the vocabulary of " +
                                std::to_string(table.rows));
    const double scale_by = std::sqrt(static_cast<double>(table.cols));
    const double* row = table.row(static_cast<std::size_t>(id));
    for (std::size_t c = 0; c < table.cols; ++c)
        x(r, c) = pe_row ? row[c] * scale_by + pe_row[c] : row[c] * scale_by;
}

// The rows of positions first … first + n − 1 that are added, or an empty matrix for none.
Matrix added_rows(const AddedPositions& added, std::size_t n, std::size_t d_model,
                  std::size_t first) {
    switch (added.scheme) {
        case PositionScheme::Sinusoidal:
            return sinusoidal_encoding(n, d_model, first);
        case PositionScheme::Learned:
            if (!added.learned || first + n > added.learned->rows)
                throw std::out_of_range(
                    "position " + std::to_string(first + n - 1) + " beyond the learned table's " +
                    std::to_string(added.learned ? added.learned->rows : 0) + " positions");
            return row_block(*added.learned, first, n);
        default:
            return Matrix();  // RoPE, ALiBi, none: nothing is added
    }
}

}  // namespace

Matrix embed(const Matrix& table, const Tokens& ids, const AddedPositions& added) {
    return embed(table, std::vector<Tokens>{ids}, added);
}

Matrix embed_at(const Matrix& table, int id, std::size_t position, const AddedPositions& added) {
    const Matrix pe = added_rows(added, 1, table.cols, position);
    Matrix x(1, table.cols);
    embed_row(x, 0, table, id, pe.empty() ? nullptr : pe.row(0));
    return x;
}

Matrix embed(const Matrix& table, const std::vector<Tokens>& sequences,
             const AddedPositions& added) {
    std::size_t rows = 0, longest = 0;
    for (const Tokens& ids : sequences) {
        rows += ids.size();
        longest = std::max(longest, ids.size());
    }
    const Matrix pe = added_rows(added, longest, table.cols, 0);  // once, for every sequence
    Matrix x(rows, table.cols);
    std::size_t r = 0;
    for (const Tokens& ids : sequences)
        for (std::size_t t = 0; t < ids.size(); ++t, ++r)  // position t of its sequence
            embed_row(x, r, table, ids[t], pe.empty() ? nullptr : pe.row(t));
    return x;
}

void embed_backward(const Matrix& dx, const std::vector<Tokens>& sequences, Matrix& d_table,
                    Matrix* d_learned) {
    const double s = std::sqrt(static_cast<double>(d_table.cols));
    std::size_t r = 0;
    for (const Tokens& ids : sequences)
        for (std::size_t t = 0; t < ids.size(); ++t, ++r) {
            double* row = d_table.row(static_cast<std::size_t>(ids[t]));
            for (std::size_t c = 0; c < d_table.cols; ++c)
                row[c] += dx(r, c) * s;  // x = table[id]·√d + position row
            if (d_learned)
                for (std::size_t c = 0; c < d_table.cols; ++c) (*d_learned)(t, c) += dx(r, c);
        }
}
