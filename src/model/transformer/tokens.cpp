// tokens.cpp — shifting, padding flags and stacking of token sequences.
#include "model/transformer/tokens.h"
#include "model/multi_head/stacking.h"

#include <cstddef>

Tokens shifted_right(const Tokens& target, int bos_id) {
    Tokens in = {bos_id};
    if (!target.empty()) in.insert(in.end(), target.begin(), target.end() - 1);
    return in;
}

std::vector<bool> is_padding(const Tokens& ids, int pad_id) {
    std::vector<bool> pad(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) pad[i] = ids[i] == pad_id;
    return pad;
}

Stacking stacking_of(const std::vector<Tokens>& sequences) {
    std::vector<std::size_t> lengths;
    for (const Tokens& t : sequences) lengths.push_back(t.size());
    return stacking_of_lengths(lengths);
}

Tokens concatenated(const std::vector<Tokens>& sequences) {
    Tokens all;
    for (const Tokens& t : sequences) all.insert(all.end(), t.begin(), t.end());
    return all;
}
