// poems.cpp — characters, the vocabulary, poems as tokens.
#include "verse/poems.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <utility>

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

CharVocabulary vocabulary_of(const std::vector<std::string>& texts, std::size_t min_count,
                             std::size_t max_characters) {
    std::map<std::string, std::size_t> seen;  // std::string orders UTF-8 by code point
    for (const std::string& t : texts)
        for (const std::string& c : characters(t))
            if (c != "\n") ++seen[c];
    std::vector<std::pair<std::size_t, std::string>> kept;  // (count, character), frequent first
    for (const auto& [c, n] : seen)
        if (n >= min_count) kept.emplace_back(n, c);
    std::stable_sort(kept.begin(), kept.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    if (max_characters > 0 && kept.size() > max_characters) kept.resize(max_characters);
    std::sort(kept.begin(), kept.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
    CharVocabulary v;
    v.names = {"<pad>", "<bos>", "<eos>", "<unk>", "\n"};
    for (const auto& [n, c] : kept) v.names.push_back(c);
    for (std::size_t i = 0; i < v.names.size(); ++i) v.ids[v.names[i]] = static_cast<int>(i);
    return v;
}

std::string poem_text(const std::string& title, const std::vector<std::string>& lines) {
    std::string text = "《" + title + "》";
    for (const std::string& line : lines) text += "\n" + line;
    return text;
}

std::string poem_start(const std::string& prompt) {
    if (prompt.empty() || prompt.find("《") != std::string::npos) return prompt;
    for (const char* mark : {"，", "。", "？", "！", "\n"})
        if (prompt.find(mark) != std::string::npos) return prompt;
    return "《" + prompt;
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

bool regulated_poem(const Poem& p) {
    if (p.lines.size() != 2 && p.lines.size() != 4) return false;
    for (const std::string& line : p.lines)
        if (!regulated_form(line) || line.size() != p.lines.front().size()) return false;
    return true;
}

std::vector<Poem> distinct_poems(const std::vector<Poem>& poems) {
    std::set<std::vector<std::string>> seen;
    std::vector<Poem> out;
    for (const Poem& p : poems)
        if (seen.insert(p.lines).second) out.push_back(p);
    return out;
}

bool held_out(std::size_t index, std::size_t every) {
    return every > 0 && index % every == every - 1;
}

// A couplet's near forms: the couplet with one of its characters blotted out, for each place in
// turn. Two couplets of one length that differ in at most one character share one (a couplet
// that matches word for word shares them all). A line shorter than a couplet of two
// five-character verses (12 with their marks; below 10 here) is matched word for word only: two
// short lines a character apart ("兮，" and "归，") are not one poem's.
static std::vector<std::string> blotted(const std::string& couplet) {
    const std::vector<std::string> chars = characters(couplet);
    if (chars.size() < 10) return {couplet};
    std::vector<std::string> out;
    for (std::size_t k = 0; k < chars.size(); ++k) {
        std::string form;
        for (std::size_t i = 0; i < chars.size(); ++i) form += i == k ? "\xff" : chars[i];  // 0xff: no UTF-8 byte
        out.push_back(std::move(form));
    }
    return out;
}

std::vector<std::size_t> kin_groups(const std::vector<Poem>& poems) {
    // union-find: each poem points towards the earliest poem of its group
    std::vector<std::size_t> parent(poems.size());
    for (std::size_t i = 0; i < poems.size(); ++i) parent[i] = i;
    const auto root = [&](std::size_t i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    };
    std::unordered_map<std::string, std::size_t> first_with;  // a near form -> the first poem
    for (std::size_t i = 0; i < poems.size(); ++i)
        for (const std::string& couplet : poems[i].lines)
            for (std::string& form : blotted(couplet)) {
                const auto found = first_with.emplace(std::move(form), i);
                if (found.second) continue;
                const std::size_t a = root(i), b = root(found.first->second);
                parent[std::max(a, b)] = std::min(a, b);
            }
    std::vector<std::size_t> group(poems.size());
    std::map<std::size_t, std::size_t> number;  // a root -> its group, in order of first poem
    for (std::size_t i = 0; i < poems.size(); ++i)
        group[i] = number.emplace(root(i), number.size()).first->second;
    return group;
}

PoemSplit split_poems(const std::vector<Poem>& poems, std::size_t heldout_every,
                      std::size_t validation_every, std::size_t validation_max) {
    PoemSplit split;
    const std::vector<std::size_t> group = kin_groups(poems);
    split.groups = poems.empty() ? 0 : *std::max_element(group.begin(), group.end()) + 1;
    std::vector<std::size_t> size(split.groups, 0);
    for (std::size_t g : group) ++size[g];
    for (std::size_t n : size)
        if (n > 1) ++split.kin, split.in_kin += n;
    // each group's side: held out, validation (v) or training (t)
    std::vector<char> side(split.groups, 't');
    std::size_t rest = 0;  // the groups not held out
    for (std::size_t g = 0; g < split.groups; ++g) {
        if (held_out(g, heldout_every)) side[g] = 'h';
        else ++rest;
    }
    // spread over the whole corpus: with more candidates than validation_max, a longer stride
    std::size_t every = std::max<std::size_t>(validation_every, 1);
    if (validation_max > 0 && rest / every > validation_max) every = rest / validation_max;
    rest = 0;
    std::size_t validation = 0;
    for (std::size_t g = 0; g < split.groups; ++g) {
        if (side[g] == 'h') continue;
        if (held_out(rest++, every) && validation + size[g] <= validation_max)
            side[g] = 'v', validation += size[g];
    }
    for (std::size_t i = 0; i < poems.size(); ++i)
        (side[group[i]] == 'h' ? split.heldout
         : side[group[i]] == 'v' ? split.validation
                                 : split.training)
            .push_back(poems[i]);
    return split;
}

bool repeats_a_character(const std::string& line, std::size_t run) {
    const std::vector<std::string> c = characters(line);
    std::size_t same = 1;
    for (std::size_t i = 1; i < c.size(); ++i) {
        same = c[i] == c[i - 1] ? same + 1 : 1;
        if (same >= run) return true;
    }
    return false;
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
