// doubling.cpp — 叠字 and stutters (doubling.h).
#include "verse/doubling.h"

#include <algorithm>
#include <utility>

#include "verse/poem_measures.h"
#include "verse/verse.h"

bool across_caesura(std::size_t i, std::size_t n) {
    return (n == 5 && i == 2) || (n == 7 && (i == 2 || i == 4));
}

std::set<std::string> doubled_pairs(const std::vector<std::string>& texts) {
    std::set<std::string> pairs;
    for (const std::string& text : texts)
        for (const std::string& line : body_lines(text))
            for (const auto& verse : verses_of(line))
                for (std::size_t i = 1; i < verse.size(); ++i)
                    if (verse[i] == verse[i - 1]) pairs.insert(verse[i] + verse[i]);
    return pairs;
}

DoublingCounts count_doublings(const std::string& text, const std::set<std::string>& attested) {
    DoublingCounts c;
    for (const std::string& line : body_lines(text))
        for (const auto& verse : verses_of(line)) {
            if (verse.size() != 5 && verse.size() != 7) continue;
            for (std::size_t i = 1; i < verse.size(); ++i) {
                ++c.places;
                if (verse[i] != verse[i - 1]) continue;
                ++c.doublings;
                const bool poets = attested.count(verse[i] + verse[i]) &&
                                   !across_caesura(i, verse.size());
                ++(poets ? c.attested : c.stutters);
            }
        }
    return c;
}

DoublingPlaces::DoublingPlaces(const CharVocabulary& v, std::set<std::string> attested)
    : vocabulary_(&v), attested_(std::move(attested)) {}

bool DoublingPlaces::ends_verse(int id) const {
    if (id == CharVocabulary::newline) return true;
    if (id < 0 || std::size_t(id) >= vocabulary_->size()) return false;
    const std::string& name = vocabulary_->names[std::size_t(id)];
    return name == "，" || name == "。" || name == "？" || name == "！";
}

int DoublingPlaces::kind(const Tokens& so_far) const {
    if (so_far.empty()) return 1;
    const auto body = std::find(so_far.begin(), so_far.end(), CharVocabulary::newline);
    if (body == so_far.end()) return 1;  // the title
    const int last = so_far.back();
    if (ends_verse(last) || last < 0 || std::size_t(last) >= vocabulary_->size()) return 1;
    // the current verse: the characters since the last mark or line break
    std::size_t i = 0;
    for (auto it = so_far.rbegin(); it != so_far.rend() && !ends_verse(*it); ++it) ++i;
    // the poem's first verse's length, once it has ended
    std::size_t n = 5, count = 0;
    for (auto it = body + 1; it != so_far.end(); ++it) {
        if (ends_verse(*it)) {
            n = count ? count : 5;
            break;
        }
        ++count;
    }
    const std::string& name = vocabulary_->names[std::size_t(last)];
    return attested_.count(name + name) && !across_caesura(i, n) ? 0 : 1;
}
