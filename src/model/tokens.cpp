// tokens.cpp — shifting, padding flags and names of token sequences.
#include "model/tokens.h"

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

std::string name_of(const Vocabulary& vocabulary, int id) {
    const bool named = id >= 0 && static_cast<std::size_t>(id) < vocabulary.size();
    return named ? vocabulary[static_cast<std::size_t>(id)] : "#" + std::to_string(id);
}

std::string text_of(const Vocabulary& vocabulary, const Tokens& ids) {
    std::string s;
    for (int id : ids) s += (s.empty() ? "" : " ") + name_of(vocabulary, id);
    return s;
}
