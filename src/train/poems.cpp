// poems.cpp — characters, the vocabulary, poems as tokens.
#include "train/poems.h"

std::vector<std::string> characters(const std::string& s) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        // the length of a UTF-8 sequence from its first byte (a stray byte counts as one)
        const std::size_t n = c < 0x80         ? 1
                              : (c >> 5) == 6  ? 2
                              : (c >> 4) == 14 ? 3
                              : (c >> 3) == 30 ? 4
                                               : 1;
        out.push_back(s.substr(i, n));
        i += n;
    }
    return out;
}

int CharVocabulary::id(const std::string& character) const {
    const auto it = ids.find(character);
    return it == ids.end() ? unknown : it->second;
}

CharVocabulary vocabulary_of(const std::vector<std::string>& texts, std::size_t min_count) {
    std::map<std::string, std::size_t> seen;  // std::string orders UTF-8 by code point
    for (const std::string& t : texts)
        for (const std::string& c : characters(t))
            if (c != "\n") ++seen[c];
    CharVocabulary v;
    v.names = {"<pad>", "<bos>", "<eos>", "<unk>", "\n"};
    for (const auto& [c, n] : seen)
        if (n >= min_count) v.names.push_back(c);
    for (std::size_t i = 0; i < v.names.size(); ++i) v.ids[v.names[i]] = static_cast<int>(i);
    return v;
}

std::string poem_text(const std::string& title, const std::vector<std::string>& lines) {
    std::string text = "《" + title + "》";
    for (const std::string& line : lines) text += "\n" + line;
    return text;
}

Tokens encode(const CharVocabulary& v, const std::string& text, bool whole) {
    Tokens ids = {CharVocabulary::bos};
    for (const std::string& c : characters(text)) ids.push_back(v.id(c));
    if (whole) ids.push_back(CharVocabulary::eos);
    return ids;
}

std::string decode(const CharVocabulary& v, const Tokens& ids) {
    std::string out;
    for (int id : ids)
        if (id == CharVocabulary::newline || id > CharVocabulary::newline)
            out += v.names[static_cast<std::size_t>(id)];
    return out;
}

bool held_out(std::size_t index, std::size_t every) {
    return every > 0 && index % every == every - 1;
}

bool regulated_form(const std::string& line) {
    const std::vector<std::string> c = characters(line);
    const auto is_han = [](const std::string& ch) {  // a CJK ideograph: U+3400 … U+9FFF
        if (ch.size() != 3) return false;
        const auto b = [&](std::size_t i) {
            return static_cast<unsigned>(static_cast<unsigned char>(ch[i]));
        };
        const unsigned code = ((b(0) & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
        return code >= 0x3400 && code <= 0x9FFF;
    };
    for (const std::size_t half : {std::size_t(5), std::size_t(7)}) {
        if (c.size() != 2 * half + 2 || c[half] != "，") continue;
        if (c.back() != "。" && c.back() != "？" && c.back() != "！") continue;
        bool characters_only = true;
        for (std::size_t i = 0; i + 1 < c.size(); ++i)
            if (i != half && !is_han(c[i])) characters_only = false;
        if (characters_only) return true;
    }
    return false;
}
