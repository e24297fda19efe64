// simple_factor.cpp — naming a ratio: n, 1/n (n ≤ 64), √n, 1/√n (n ≤ 4096), −n, −1.
#include "report/simple_factor.h"

#include <cmath>

std::string simple_factor(double r) {
    const auto same = [r](double x) { return std::fabs(r - x) <= 1e-6 * std::fabs(x); };
    for (int n = 2; n <= 4096; ++n) {
        const double root = std::sqrt(static_cast<double>(n));
        const std::string k = std::to_string(n);
        if (n <= 64 && same(n)) return k;
        if (n <= 64 && same(1.0 / n)) return "1/" + k;
        if (same(root)) return "√" + k;
        if (same(1.0 / root)) return "1/√" + k;
        if (n <= 64 && same(-1.0 * n)) return "−" + k;
    }
    return same(-1.0) ? "−1" : "";
}
