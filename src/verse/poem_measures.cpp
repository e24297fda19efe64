// poem_measures.cpp — counting lines by their shape, copies and repeats.
#include "verse/poem_measures.h"

#include <algorithm>

#include "verse/poems.h"

namespace {

// The verses of some lines: each cut at its commas, full stops and other stops, the marks dropped.
std::vector<std::vector<std::string>> verses_of(const std::vector<std::string>& lines) {
    std::vector<std::vector<std::string>> out;
    for (const std::string& line : lines) {
        std::vector<std::string> verse;
        for (const std::string& c : characters(line)) {
            if (c != "，" && c != "。" && c != "？" && c != "！" && c != "；") {
                verse.push_back(c);
                continue;
            }
            if (!verse.empty()) out.push_back(verse);
            verse.clear();
        }
        if (!verse.empty()) out.push_back(verse);
    }
    return out;
}

}  // namespace

bool shares_a_verse(const std::string& text, const std::set<std::string>& training_lines) {
    const auto poem = verses_of(body_lines(text));
    const auto trained = verses_of({training_lines.begin(), training_lines.end()});
    for (const auto& t : trained)
        for (const auto& verse : poem) {
            if (t.size() != verse.size()) continue;
            std::size_t differ = 0;
            for (std::size_t i = 0; i < verse.size() && differ < 2; ++i) differ += t[i] != verse[i];
            if (differ < 2) return true;
        }
    return false;
}

std::vector<std::string> body_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == '\n') {
            lines.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    if (!lines.empty() && lines.front().compare(0, 3, "《") == 0) lines.erase(lines.begin());
    lines.erase(std::remove(lines.begin(), lines.end(), std::string()), lines.end());
    return lines;
}

PoemLines measure_lines(const std::vector<std::string>& texts,
                        const std::set<std::string>& training_lines) {
    PoemLines m;
    std::set<std::string> openings;
    for (const std::string& text : texts) {
        const std::vector<std::string> lines = body_lines(text);
        ++m.poems;
        if (!lines.empty() && !openings.insert(lines.front()).second) ++m.first_lines_repeated;
        for (const std::string& line : lines) {
            ++m.lines;
            m.in_form += regulated_form(line);
            m.copied += training_lines.count(line);
            m.repeats += repeats_a_character(line);
        }
    }
    return m;
}
