// stacking.cpp — where each sequence of a stack begins.
#include "model/stacking.h"

Stacking stacking_of(const std::vector<Tokens>& sequences) {
    Stacking s;
    for (const Tokens& t : sequences) s.starts.push_back(s.starts.back() + t.size());
    return s;
}

Stacking one_sequence(std::size_t rows) { return Stacking{{0, rows}}; }

Tokens concatenated(const std::vector<Tokens>& sequences) {
    Tokens all;
    for (const Tokens& t : sequences) all.insert(all.end(), t.begin(), t.end());
    return all;
}
