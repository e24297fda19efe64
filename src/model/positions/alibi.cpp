// alibi.cpp — ALiBi's slopes and bias matrices.
#include "model/positions/alibi.h"

#include <cmath>

#include "core/elementary.h"

namespace {

// m_k = start^k, start = 2^(−8/h): the sequence for a power of 2.
std::vector<double> power_of_two_slopes(std::size_t h) {
    const double start = elementary::pow(2.0, -8.0 / static_cast<double>(h));
    std::vector<double> slopes;
    for (std::size_t k = 1; k <= h; ++k) slopes.push_back(elementary::pow(start, static_cast<double>(k)));
    return slopes;
}

}  // namespace

std::vector<double> alibi_slopes(std::size_t n_heads) {
    std::size_t below = 1;  // the largest power of 2 not above n_heads
    while (below * 2 <= n_heads) below *= 2;
    std::vector<double> slopes = power_of_two_slopes(below);
    const std::vector<double> twice = power_of_two_slopes(2 * below);
    for (std::size_t k = 0; slopes.size() < n_heads; k += 2) slopes.push_back(twice[k]);
    return slopes;
}

Matrix alibi_bias(std::size_t n, std::size_t m, double slope, std::size_t q_first) {
    Matrix b(n, m);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j) {
            const double q = static_cast<double>(q_first + i), k = static_cast<double>(j);
            b(i, j) = -slope * std::fabs(q - k);
        }
    return b;
}
