// ch11_long_sequences/memory.h — memory, counted: the standard pass against the tiled one.
#pragma once
#include <string>

#include "ch11_long_sequences/inputs.h"

class Chapter;

namespace ch11_long_sequences {

// What the measurement leaves for the closing step: the tiled pass's bytes at the longest
// length, and the exponent of its growth (0 when fewer than two lengths ran).
struct MemoryFinding {
    double tiled_peak_at_longest = 0, tiled_exponent = 0;
};

// Each length run both ways with every byte allocated counted (the standard pass only while it
// fits in half the free memory): a table, the fitted growth, the time, two charts.
MemoryFinding memory(Chapter& ch, const Inputs& in);
// Bytes as KiB, MiB or GiB.
std::string bytes_text(double bytes);

}  // namespace ch11_long_sequences
