// vector_measures.cpp — lengths of rows and the distances between neighbouring rows.
#include "report/vector_measures.h"

#include <cmath>

Matrix row_norms(const Matrix& m) {
    Matrix out(m.rows, 1);
    for (std::size_t r = 0; r < m.rows; ++r) {
        double s = 0.0;
        for (std::size_t c = 0; c < m.cols; ++c) s += m(r, c) * m(r, c);
        out(r, 0) = std::sqrt(s);
    }
    return out;
}

Matrix neighbour_distances(const Matrix& m) {
    Matrix out(m.rows > 0 ? m.rows - 1 : 0, 1);
    for (std::size_t r = 0; r + 1 < m.rows; ++r) {
        double s = 0.0;
        for (std::size_t c = 0; c < m.cols; ++c) {
            const double step = m(r + 1, c) - m(r, c);
            s += step * step;
        }
        out(r, 0) = std::sqrt(s);
    }
    return out;
}
