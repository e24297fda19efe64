// xml_check.h — a small well-formedness check for the SVG files we write: every tag closed in
// order, attributes quoted, no stray '<' or '&'. Enough to catch what a browser would reject.
#pragma once
#include <string>
#include <vector>

// "" when well-formed, else what is wrong and where.
inline std::string xml_problem(const std::string& s) {
    std::vector<std::string> open;
    std::size_t i = 0;
    if (s.rfind("<?xml", 0) == 0) i = s.find("?>") + 2;
    while (i < s.size()) {
        if (s[i] == '&') {
            const std::size_t semi = s.find(';', i);
            const std::string entity = semi == std::string::npos ? "" : s.substr(i, semi - i + 1);
            if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
                entity != "&apos;")
                return "bad entity at " + std::to_string(i);
            i = semi + 1;
            continue;
        }
        if (s[i] == '>') return "stray '>' at " + std::to_string(i);
        if (s[i] != '<') { ++i; continue; }
        const std::size_t end = s.find('>', i);
        if (end == std::string::npos) return "unclosed tag at " + std::to_string(i);
        std::string tag = s.substr(i + 1, end - i - 1);
        if (tag.find('<') != std::string::npos) return "'<' inside a tag at " + std::to_string(i);
        std::size_t quotes = 0;
        for (char c : tag) quotes += c == '"';
        if (quotes % 2) return "unbalanced quotes at " + std::to_string(i);
        if (tag[0] == '/') {
            if (open.empty() || open.back() != tag.substr(1))
                return "</" + tag.substr(1) + "> closes nothing open at " + std::to_string(i);
            open.pop_back();
        } else if (tag.back() != '/') {
            open.push_back(tag.substr(0, tag.find_first_of(" \n\t")));
        }
        i = end + 1;
    }
    return open.empty() ? "" : "<" + open.back() + "> never closed";
}

inline std::size_t count_of(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
}

// One element's start tag, read loosely: its name, its attributes, and the text up to the next
// '<' (a <text>'s content).
struct Element {
    std::string name, text;
    std::vector<std::pair<std::string, std::string>> attributes;
    std::string operator[](const std::string& key) const {  // "" when absent
        for (const auto& [k, v] : attributes)
            if (k == key) return v;
        return "";
    }
};

// Every start tag of the given name, in document order.
inline std::vector<Element> elements(const std::string& s, const std::string& name) {
    std::vector<Element> out;
    for (std::size_t at = s.find("<" + name); at != std::string::npos; at = s.find("<" + name, at + 1)) {
        const std::size_t end = s.find('>', at), after = at + 1 + name.size();
        if (end == std::string::npos || (s[after] != ' ' && s[after] != '>' && s[after] != '/')) continue;
        Element e{name, "", {}};
        for (std::size_t i = after; i < end;) {
            const std::size_t eq = s.find("=\"", i);
            if (eq == std::string::npos || eq > end) break;
            const std::size_t close = s.find('"', eq + 2);
            const std::size_t key = s.find_last_of(" \n", eq) + 1;
            e.attributes.emplace_back(s.substr(key, eq - key), s.substr(eq + 2, close - eq - 2));
            i = close + 1;
        }
        e.text = s.substr(end + 1, s.find('<', end) - end - 1);
        out.push_back(e);
    }
    return out;
}
