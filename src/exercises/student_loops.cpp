// student_loops.cpp — the plain loops the mistakes are built from.
#include "exercises/student_loops.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace student {

Matrix product(const Matrix& a, const Matrix& b, bool b_transposed) {
    const std::size_t cols = b_transposed ? b.rows : b.cols;
    const std::size_t inner = b_transposed ? b.cols : b.rows;
    if (a.cols != inner) throw std::invalid_argument("shapes do not fit");
    Matrix c(a.rows, cols);
    for (std::size_t i = 0; i < a.rows; ++i)
        for (std::size_t j = 0; j < cols; ++j)
            for (std::size_t k = 0; k < inner; ++k)
                c(i, j) += a(i, k) * (b_transposed ? b(j, k) : b(k, j));
    return c;
}

// softmax of each row: stable, a row of −inf all zeros (the correct one, for the mistakes of
// later exercises to build on)
Matrix softmax(const Matrix& x) {
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        double m = -inf, sum = 0;
        for (std::size_t c = 0; c < x.cols; ++c) m = std::max(m, x(r, c));
        if (m == -inf) continue;
        for (std::size_t c = 0; c < x.cols; ++c) sum += y(r, c) = std::exp(x(r, c) - m);
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) /= sum;
    }
    return y;
}

Matrix attend(const Matrix& Q, const Matrix& K, const Matrix& V, double scale, const Matrix& mask) {
    Matrix s = product(Q, K, true);
    for (std::size_t i = 0; i < s.data.size(); ++i)
        s.data[i] = s.data[i] * scale + (mask.empty() ? 0.0 : mask.data[i]);
    return product(softmax(s), V, false);
}

void append(Matrix& into, const Matrix& row) {
    if (into.empty()) into = Matrix(0, row.cols);
    into.data.insert(into.data.end(), row.data.begin(), row.data.end());
    into.rows += 1;
}

}  // namespace student
