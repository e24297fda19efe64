// random.h — a small seeded random number generator, identical on every machine.
//
// SplitMix64 (Steele, Lea & Flood 2014): 64-bit state, one add and two multiply-xorshifts per
// number. data/oracle/common.py has the same generator in Python, so a seeded experiment gives the
// same samples in both languages.
#pragma once
#include <cstdint>

class Random {
public:
    explicit Random(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();  // 64 random bits
    double uniform();      // in (0, 1): the top 53 bits, centred in their interval
    double normal();       // mean 0, variance 1 (Box-Muller, one value per two uniforms)
private:
    std::uint64_t state_;
};
