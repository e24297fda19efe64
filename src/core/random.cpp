// random.cpp — SplitMix64 and the normal distribution built on it.
#include "core/random.h"

#include <cmath>

#include "core/elementary.h"

std::uint64_t Random::next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double Random::uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }

double Random::normal() {
    const double pi = 3.14159265358979323846;
    const double u1 = uniform(),
                 u2 = uniform();  // evaluated in this order, as in data/oracle/common.py
    return std::sqrt(-2.0 * elementary::log(u1)) * elementary::cos(2.0 * pi * u2);
}
