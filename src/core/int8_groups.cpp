// int8_groups.cpp — one group of numbers to 8-bit integers and a scale.
#include "core/int8_groups.h"

#include <algorithm>
#include <cmath>

float quantize_group(const float* x, std::size_t count, std::int8_t* q) {
    float largest = 0.0f;
    for (std::size_t i = 0; i < count; ++i) largest = std::fmax(largest, std::fabs(x[i]));
    const float scale = largest / 127.0f;
    for (std::size_t i = 0; i < count; ++i)
        q[i] = scale == 0.0f ? 0 : static_cast<std::int8_t>(std::round(x[i] / scale));
    return scale;
}

std::vector<float> quantize_row(const float* x, std::size_t n, std::int8_t* q) {
    std::vector<float> scales;
    for (std::size_t first = 0; first < n; first += int8_group)
        scales.push_back(quantize_group(x + first, std::min(int8_group, n - first), q + first));
    return scales;
}
