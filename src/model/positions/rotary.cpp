// rotary.cpp — RoPE: rotating pairs of columns with cos and sin.
#include "model/positions/rotary.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/elementary.h"

double rope_frequency(std::size_t i, std::size_t d_k) {
    return std::pow(rope_base, -2.0 * static_cast<double>(i) / static_cast<double>(d_k));
}

Matrix rope_rotate(const Matrix& x, std::size_t d_k, const std::vector<std::size_t>& positions,
                   bool inverse) {
    if (!rope_fits(d_k) || x.cols % d_k != 0 || positions.size() != x.rows)
        throw std::invalid_argument(
            "rope_rotate: " + shape_of(x) + " with d_k = " + std::to_string(d_k) +
            " (even, dividing the columns) and " + std::to_string(positions.size()) + " positions");
    Matrix y(x.rows, x.cols);
    std::vector<double> theta(d_k / 2);  // each pair's frequency, once for every row
    for (std::size_t i = 0; i < d_k / 2; ++i) theta[i] = rope_frequency(i, d_k);
    for (std::size_t r = 0; r < x.rows; ++r)
        for (std::size_t i = 0; i < d_k / 2; ++i) {
            const double angle = static_cast<double>(positions[r]) * theta[i];
            double s, c;
            elementary::sin_cos(angle, s, c);
            if (inverse) s = -s;
            for (std::size_t head = 0; head < x.cols / d_k; ++head) {
                const std::size_t a = head * d_k + 2 * i;  // the pair (a, a + 1)
                y(r, a) = x(r, a) * c - x(r, a + 1) * s;
                y(r, a + 1) = x(r, a) * s + x(r, a + 1) * c;
            }
        }
    return y;
}
