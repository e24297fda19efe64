// rotary.cpp — RoPE: rotating pairs of columns with cos and sin.
#include "model/positions/rotary.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/elementary.h"

double rope_frequency(std::size_t i, std::size_t d_k) {
    return elementary::pow(rope_base, -2.0 * static_cast<double>(i) / static_cast<double>(d_k));
}

Matrix rope_rotate(const Matrix& x, std::size_t d_k, const std::vector<std::size_t>& positions,
                   bool inverse) {
    if (!rope_fits(d_k) || x.cols % d_k != 0 || positions.size() != x.rows)
        throw std::invalid_argument(
            "rope_rotate: " + shape_of(x) + " with d_k = " + std::to_string(d_k) +
            " (even, dividing the columns) and " + std::to_string(positions.size()) + " positions");
    Matrix y(x.rows, x.cols);
    const std::size_t half = d_k / 2;
    std::vector<double> theta(half);  // each pair's frequency, once for every row
    for (std::size_t i = 0; i < half; ++i) theta[i] = rope_frequency(i, d_k);
    // sin and cos of position·θ_i: once for each position when the rows repeat positions (a
    // batch of windows, each at 0, 1, 2, …: chapter 12's training computed each 8 times), else
    // row by row, kept while the rows stay at one position (decoding a batch of poems: every row
    // one step further along, at the same place). The same angles, the same values.
    std::size_t last = 0;
    for (std::size_t p : positions) last = std::max(last, p);
    const bool repeated = last < x.rows;
    std::vector<double> sines, cosines;  // [position·half + i]
    const auto angles_of = [&](std::size_t position, double* s, double* c) {
        for (std::size_t i = 0; i < half; ++i)
            elementary::sin_cos(static_cast<double>(position) * theta[i], s[i], c[i]);
    };
    if (repeated) {
        sines.resize((last + 1) * half), cosines.resize((last + 1) * half);
        for (std::size_t p = 0; p <= last; ++p) angles_of(p, &sines[p * half], &cosines[p * half]);
    } else {
        sines.resize(half), cosines.resize(half);
    }
    for (std::size_t r = 0; r < x.rows; ++r) {
        const double *sin_row = sines.data(), *cos_row = cosines.data();
        if (repeated)
            sin_row += positions[r] * half, cos_row += positions[r] * half;
        else if (r == 0 || positions[r] != positions[r - 1])
            angles_of(positions[r], sines.data(), cosines.data());
        for (std::size_t i = 0; i < half; ++i) {
            const double s = inverse ? -sin_row[i] : sin_row[i], c = cos_row[i];
            for (std::size_t head = 0; head < x.cols / d_k; ++head) {
                const std::size_t a = head * d_k + 2 * i;  // the pair (a, a + 1)
                y(r, a) = x(r, a) * c - x(r, a + 1) * s;
                y(r, a + 1) = x(r, a) * s + x(r, a + 1) * c;
            }
        }
    }
    return y;
}
