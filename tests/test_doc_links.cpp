// test_doc_links.cpp — the documentation's links lead somewhere: every relative link of every
// README names a file that exists, and every #anchor a heading of that file, slugged as GitHub
// does (lower case; letters, digits, spaces, - and _ kept, other punctuation dropped; spaces
// become -; a repeated heading gets -1, -2, …).
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "helpers.h"

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> documents = {"README.md",
                                            "README.zh-CN.md",
                                            "chapters/README.md",
                                            "chapters/README.zh-CN.md",
                                            "src/README.md",
                                            "src/README.zh-CN.md",
                                            "data/oracle/README.md",
                                            "data/oracle/README.zh-CN.md",
                                            "tests/bench/README.md",
                                            "tests/bench/README.zh-CN.md"};

// Punctuation and symbols GitHub drops from an anchor, among the code points these pages use.
bool dropped(char32_t c) {
    if (c < 0x80) return !(std::isalnum(static_cast<int>(c)) || c == ' ' || c == '-' || c == '_');
    if (c >= 0xA1 && c <= 0xBF)
        return !(c == 0xB2 || c == 0xB3 || c == 0xB9 || c == 0xAA || c == 0xBA ||
                 (c >= 0xBC && c <= 0xBE));
    if (c == 0xD7 || c == 0xF7) return true;
    if (c >= 0x2000 && c <= 0x206F) return true;  // general punctuation: — ’ “ …
    if (c >= 0x2190 && c <= 0x23FF) return true;  // arrows, mathematical operators
    if (c >= 0x2500 && c <= 0x27BF) return true;  // box drawing, shapes, dingbats
    if (c >= 0x3000 && c <= 0x303F) return c != 0x3005 && c != 0x3007;  // 、。《》【】…
    if (c >= 0xFF01 && c <= 0xFF0F) return true;                        // ！（），…
    if (c >= 0xFF1A && c <= 0xFF20) return true;                        // ：；？…
    if (c >= 0xFF3B && c <= 0xFF40) return true;
    if (c >= 0xFF5B && c <= 0xFF65) return true;
    return false;
}

std::string slug(const std::string& heading) {
    std::string out;
    for (std::size_t i = 0; i < heading.size();) {
        const unsigned char b = static_cast<unsigned char>(heading[i]);
        const std::size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        char32_t c = n == 1 ? b : b & (0xFF >> (n + 1));
        for (std::size_t k = 1; k < n && i + k < heading.size(); ++k)
            c = (c << 6) | (static_cast<unsigned char>(heading[i + k]) & 0x3F);
        if (!dropped(c)) {
            if (c == ' ')
                out += '-';
            else if (c < 0x80)
                out += static_cast<char>(std::tolower(static_cast<int>(c)));
            else
                out += heading.substr(i, n);
        }
        i += n;
    }
    return out;
}

// The anchors of a markdown file's headings (outside code blocks).
std::set<std::string> anchors_of(const std::string& path) {
    std::set<std::string> anchors;
    std::map<std::string, int> seen;
    std::istringstream in(read_file(path));
    bool code = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("```", 0) == 0) code = !code;
        if (code || line.empty() || line[0] != '#') continue;
        const std::size_t text = line.find_first_not_of('#');
        if (text == std::string::npos || line[text] != ' ') continue;
        const std::string s = slug(line.substr(text + 1));
        const int n = seen[s]++;
        anchors.insert(n == 0 ? s : s + "-" + std::to_string(n));
    }
    return anchors;
}

}  // namespace

TEST_CASE("slugs as GitHub makes them") {
    CHECK(slug("Chapter 11: attention without the n × n matrix") ==
          "chapter-11-attention-without-the-n--n-matrix");
    CHECK(slug("How fast: `make bench`") == "how-fast-make-bench");
    CHECK(slug("训练一个模型，再和它对话") == "训练一个模型再和它对话");
    CHECK(slug("05 逐段对应") == "05-逐段对应");
}

TEST_CASE("every link of the documentation leads to a file and a heading that exist") {
    const std::regex link(R"(\]\(([^)\s]*)\))");
    std::size_t checked = 0;
    for (const std::string& doc : documents) {
        CAPTURE(doc);
        REQUIRE(fs::exists(doc));
        const std::string text = read_file(doc);
        for (std::sregex_iterator it(text.begin(), text.end(), link), end; it != end; ++it) {
            const std::string target = (*it)[1];
            if (target.rfind("http", 0) == 0) continue;
            CAPTURE(target);
            const std::size_t hash = target.find('#');
            const std::string file = target.substr(0, hash);
            const std::string path =
                file.empty() ? doc
                             : (fs::path(doc).parent_path() / file).lexically_normal().string();
            CHECK(fs::exists(path));
            if (hash != std::string::npos && path.size() > 3 &&
                path.compare(path.size() - 3, 3, ".md") == 0 && fs::exists(path))
                CHECK(anchors_of(path).count(target.substr(hash + 1)) == 1);
            ++checked;
        }
    }
    CHECK(checked > 40);
}
