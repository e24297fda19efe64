// stacking.cpp — where each sequence of a stack begins.
#include "model/multi_head/stacking.h"

Stacking stacking_of_lengths(const std::vector<std::size_t>& lengths) {
    Stacking s;
    for (const std::size_t n : lengths) s.starts.push_back(s.starts.back() + n);
    return s;
}

Stacking one_sequence(std::size_t rows) { return Stacking{{0, rows}}; }
