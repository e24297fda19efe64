// poem_measures.cpp — counting lines by their shape, copies and repeats.
#include "train/poem_measures.h"

#include <algorithm>

#include "train/poems.h"

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
