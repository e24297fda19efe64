// translate.cpp — the catalog in use, and placeholders.
#include "text/translate.h"

#include <cctype>
#include <utility>

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

std::string listed(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? tr(" and ") : tr(", ")) + items[i];
    return out;
}

std::string count_of(std::size_t n, const char* one, const char* many) {
    return tr(n == 1 ? one : many, n);
}
