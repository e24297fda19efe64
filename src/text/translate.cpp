// translate.cpp — the catalog in use, and placeholders.
#include "text/translate.h"

#include <cctype>
#include <utility>

#include "text/numbers.h"

namespace {
Language language = Language::English;
std::unordered_map<std::string, std::string> catalog;
}  // namespace

void set_translations(Language l, std::unordered_map<std::string, std::string> c) {
    language = l;
    catalog = std::move(c);
}

Language current_language() { return language; }

const std::string& translate(const std::string& english) {
    if (language == Language::English) return english;
    const auto it = catalog.find(english);
    return it == catalog.end() ? english : it->second;
}

std::string fill_placeholders(const std::string& pattern, const std::vector<std::string>& args) {
    std::string out;
    std::size_t next = 0;  // the argument the next {} takes
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const bool open = pattern[i] == '{' && i + 1 < pattern.size();
        if (open && pattern[i + 1] == '}' && next < args.size()) {
            out += args[next++];
            ++i;
        } else if (open && i + 2 < pattern.size() &&
                   std::isdigit(static_cast<unsigned char>(pattern[i + 1])) &&
                   pattern[i + 2] == '}' && pattern[i + 1] != '0' &&
                   static_cast<std::size_t>(pattern[i + 1] - '0') <= args.size()) {
            out += args[static_cast<std::size_t>(pattern[i + 1] - '1')];
            i += 2;
        } else {
            out += pattern[i];
        }
    }
    return out;
}

std::vector<std::size_t> placeholder_uses(const std::string& pattern) {
    std::vector<std::size_t> uses;
    std::size_t next = 0;
    for (std::size_t i = 0; i + 1 < pattern.size(); ++i) {
        if (pattern[i] != '{') continue;
        if (pattern[i + 1] == '}') {
            uses.push_back(++next);
            ++i;
        } else if (i + 2 < pattern.size() && pattern[i + 1] >= '1' && pattern[i + 1] <= '9' &&
                   pattern[i + 2] == '}') {
            uses.push_back(static_cast<std::size_t>(pattern[i + 1] - '0'));
            i += 2;
        }
    }
    return uses;
}

// " and " as the language writes it between two items: Chinese puts no space between 和 and a
// Chinese word (守住体式和押韵), only beside a Latin letter or a digit (K 和 V)
static std::string joined_by(const std::string& word, const std::string& left,
                             const std::string& right) {
    std::string j = word;
    const auto latin = [](char c) { return static_cast<unsigned char>(c) < 0x80; };
    if (j.find_first_not_of(' ') == std::string::npos || latin(j[j.find_first_not_of(' ')]))
        return j;  // " and ": English keeps its spaces whatever stands beside it
    if (!j.empty() && j.back() == ' ' && !right.empty() && !latin(right.front())) j.pop_back();
    if (!j.empty() && j.front() == ' ' && !left.empty() && !latin(left.back())) j.erase(0, 1);
    return j;
}

std::string listed(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? joined_by(tr(" and "), out, items[i])
                                                    : tr(", ")) +
               items[i];
    return out;
}

std::string clauses(const std::vector<std::string>& items) {
    std::string out = items.empty() ? "" : items[0];
    for (std::size_t i = 1; i < items.size(); ++i)
        out = i + 1 == items.size() ? tr("{}, and {}", out, items[i]) : tr("{}, {}", out, items[i]);
    return out;
}

std::string count_of(std::size_t n, const char* one, const char* many) {
    return tr(n == 1 ? one : many, grouped(n));  // 3,559 poems, as every other count
}
