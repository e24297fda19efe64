// positional.cpp — the position encodings.
#include "model/positions/positional.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/elementary.h"

Matrix integer_positions(std::size_t n) {
    Matrix p(n, 1);
    for (std::size_t pos = 0; pos < n; ++pos) p(pos, 0) = static_cast<double>(pos);
    return p;
}

Matrix scaled_positions(std::size_t n) {
    Matrix p(n, 1);
    const double last = n > 1 ? static_cast<double>(n - 1) : 1.0;  // one position: 0
    for (std::size_t pos = 0; pos < n; ++pos) p(pos, 0) = static_cast<double>(pos) / last;
    return p;
}

Matrix binary_positions(std::size_t n, std::size_t bits) {
    Matrix p(n, bits);
    for (std::size_t pos = 0; pos < n; ++pos)
        for (std::size_t b = 0; b < bits && b < 64; ++b)
            p(pos, b) = static_cast<double>((std::uint64_t(pos) >> b) & 1U);  // 64 bits anywhere
    return p;
}

// ω_i = 1 / 10000^(2i / d_model): the angular speed of column pair i
static double frequency(std::size_t pair, std::size_t d_model) {
    return 1.0 / elementary::pow(10000.0, static_cast<double>(2 * pair) / static_cast<double>(d_model));
}

Matrix sinusoidal_encoding(std::size_t n, std::size_t d_model, std::size_t first) {
    std::vector<double> omega(d_model);  // each column's speed, computed once
    for (std::size_t c = 0; c < d_model; ++c) omega[c] = frequency(c / 2, d_model);
    Matrix pe(n, d_model);
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < d_model; ++c) {
            const std::size_t pos = first + r;
            const double angle = static_cast<double>(pos) * omega[c];
            pe(r, c) = c % 2 == 0 ? elementary::sin(angle) : elementary::cos(angle);
        }
    return pe;
}

Matrix offset_rotation(std::size_t offset, std::size_t d_model) {
    Matrix m(d_model, d_model);
    for (std::size_t c = 0; c + 1 < d_model; c += 2) {
        const double a = static_cast<double>(offset) * frequency(c / 2, d_model);
        // [sin, cos](pos + offset) = [sin, cos](pos) · [[cos a, −sin a], [sin a, cos a]]
        double sin_a, cos_a;
        elementary::sin_cos(a, sin_a, cos_a);
        m(c, c) = cos_a;
        m(c, c + 1) = -sin_a;
        m(c + 1, c) = sin_a;
        m(c + 1, c + 1) = cos_a;
    }
    return m;
}
