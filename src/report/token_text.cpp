// token_text.cpp — names of token ids.
#include "report/token_text.h"
#include "model/transformer/config.h"
#include "model/transformer/tokens.h"

#include <algorithm>

std::string name_of(const Vocabulary& vocabulary, int id) {
    const bool named = id >= 0 && static_cast<std::size_t>(id) < vocabulary.size();
    return named ? vocabulary[static_cast<std::size_t>(id)] : "#" + std::to_string(id);
}

std::string text_of(const Vocabulary& vocabulary, const Tokens& ids) {
    std::string s;
    for (int id : ids) s += (s.empty() ? "" : " ") + name_of(vocabulary, id);
    return s;
}

Vocabulary names_of(const TransformerConfig& c) {
    if (!c.vocabulary.empty()) return c.vocabulary;
    Vocabulary names;
    for (int id = 0; id < static_cast<int>(std::max(c.src_vocab, c.tgt_vocab)); ++id)
        names.push_back(id == c.pad_id   ? "<pad>"
                        : id == c.bos_id ? "<bos>"
                        : id == c.eos_id ? "<eos>"
                                         : std::to_string(id));
    return names;
}

Vocabulary source_names_of(const TransformerConfig& c) {
    return c.source_vocabulary.empty() ? names_of(c) : c.source_vocabulary;
}

std::string text_of(const TransformerConfig& c, const Tokens& ids) {
    return text_of(names_of(c), ids);
}

std::string source_text_of(const TransformerConfig& c, const Tokens& ids) {
    return text_of(source_names_of(c), ids);
}

std::string joined_text(const Vocabulary& names, const Tokens& ids, const TransformerConfig& c) {
    std::string out;
    for (const int id : ids)
        if (id != c.bos_id && id != c.eos_id) out += name_of(names, id);
    return out;
}
