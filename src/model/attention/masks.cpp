// masks.cpp — causal and padding masks.
#include "model/attention/masks.h"

#include <cmath>

Matrix causal_mask(std::size_t n) {
    Matrix m(n, n, masked);  // torch.full((n, n), float("-inf"))
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j <= i; ++j) m(i, j) = 0.0;  // torch.triu(m, diagonal=1)
    return m;
}

Matrix causal_mask(std::size_t n, std::size_t m, std::size_t q_first) {
    if (n == m && q_first == 0) return causal_mask(n);
    Matrix mask(n, m);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = q_first + i + 1; j < m; ++j) mask(i, j) = masked;
    return mask;
}

Matrix padding_mask(std::size_t n_queries, const std::vector<bool>& key_is_padding) {
    Matrix m(n_queries, key_is_padding.size());
    for (std::size_t i = 0; i < n_queries; ++i)
        for (std::size_t j = 0; j < key_is_padding.size(); ++j)
            if (key_is_padding[j]) m(i, j) = masked;
    return m;
}

std::vector<bool> padding_after(std::size_t length, std::size_t n_keys) {
    std::vector<bool> pad(n_keys, false);
    for (std::size_t j = length; j < n_keys; ++j) pad[j] = true;
    return pad;
}

Matrix hidden_positions(const Matrix& mask) {
    return map(mask, [](double x) { return std::isinf(x) && x < 0 ? 1.0 : 0.0; });
}

Matrix window_mask(std::size_t n, std::size_t m, std::size_t window, std::size_t q_first) {
    Matrix mask(n, m);
    if (window == 0) return mask;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j) {
            const std::size_t q = q_first + i, distance = q > j ? q - j : j - q;
            if (distance >= window) mask(i, j) = masked;
        }
    return mask;
}
