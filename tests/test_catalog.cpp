// test_catalog.cpp — the Chinese catalog (data/translations/zh.json) against the code: every
// string the code translates (tr("…") and N_("…") in chapters/ and src/, tr("…") in the oracle's
// data/oracle/*.py) has a translation with
// the same placeholders, and every translation still belongs to such a string, so the catalog
// cannot rot. Then every chapter in Chinese: it runs, and prints no English sentence the code
// forgot to translate; tables of Chinese text line up.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "text/translate.h"
#include "helpers.h"
#include "json.h"
#include "io/catalog.h"
#include "report/terminal.h"

namespace {

// The string literals that follow tr( or N_( in a C++ source, adjacent literals joined, escapes
// undone; comments, character literals and other strings skipped.
std::vector<std::string> translated_literals(const std::string& s) {
    std::vector<std::string> out;
    std::string last_word;  // the identifier just before, and whether "(" followed it
    bool open_after_marker = false;
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        if (s.compare(i, 2, "//") == 0) {
            i = s.find('\n', i);
            if (i == std::string::npos) break;
            continue;
        }
        if (s.compare(i, 2, "/*") == 0) {
            i = s.find("*/", i) + 2;
            continue;
        }
        if (c == '\'') {
            i += s[i + 1] == '\\' ? 4 : 3;
            continue;
        }
        if (c == '"') {
            std::string text;
            for (;;) {  // one literal, then any adjacent ones
                std::size_t j = i + 1;
                for (; s[j] != '"'; ++j) {
                    if (s[j] != '\\') {
                        text += s[j];
                        continue;
                    }
                    const char e = s[++j];
                    text += e == 'n' ? '\n' : e == 't' ? '\t' : e;
                }
                i = j + 1;
                std::size_t k = i;
                while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
                if (k >= s.size() || s[k] != '"') break;
                i = k;
            }
            if (open_after_marker) out.push_back(text);
            open_after_marker = false;
            last_word.clear();
            continue;
        }
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t j = i;
            while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_'))
                ++j;
            last_word = s.substr(i, j - i);
            open_after_marker = false;
            i = j;
            continue;
        }
        if (!std::isspace(static_cast<unsigned char>(c))) {
            open_after_marker = c == '(' && (last_word == "tr" || last_word == "N_");
            last_word.clear();
        }
        ++i;
    }
    return out;
}

std::set<std::string> code_strings() {
    std::set<std::string> all;
    for (const char* dir : {"chapters", "src"})
        for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
            const std::string ext = e.path().extension().string();
            if (ext != ".cpp" && ext != ".h") continue;
            for (const std::string& s : translated_literals(read_file(e.path().string())))
                all.insert(s);
        }
    // the oracle's lines (data/oracle/common.py's tr): one literal each, in double quotes
    const std::regex python_tr("\\btr\\(\"((?:[^\"\\\\]|\\\\.)*)\"");
    for (const auto& e : std::filesystem::directory_iterator("data/oracle")) {
        if (e.path().extension() != ".py") continue;
        const std::string text = read_file(e.path().string());
        for (std::sregex_iterator it(text.begin(), text.end(), python_tr), end; it != end; ++it)
            all.insert((*it)[1]);
    }
    return all;
}

// How many arguments a pattern takes: its {} in order, or the largest {n}.
std::size_t arity(const std::string& pattern) {
    std::size_t sequential = 0, largest = 0;
    for (std::size_t i = 0; i + 1 < pattern.size(); ++i) {
        if (pattern[i] != '{') continue;
        if (pattern[i + 1] == '}')
            ++sequential;
        else if (i + 2 < pattern.size() && pattern[i + 1] >= '1' && pattern[i + 1] <= '9' &&
                 pattern[i + 2] == '}')
            largest =
                std::max<std::size_t>(largest, static_cast<std::size_t>(pattern[i + 1] - '0'));
    }
    return std::max(sequential, largest);
}

// Three or more lowercase English words in a row: a sentence the code forgot to translate.
bool english_run(const std::string& line) {
    std::istringstream words(line);
    int run = 0;
    for (std::string w; words >> w;) {
        while (!w.empty() && std::string(".,:;()").find(w.back()) != std::string::npos)
            w.pop_back();
        while (!w.empty() && std::string("(").find(w.front()) != std::string::npos) w.erase(0, 1);
        bool lower = w.size() >= 2 && w[0] >= 'a' && w[0] <= 'z';
        for (char c : w) lower = lower && ((c >= 'a' && c <= 'z') || c == '-' || c == '\'');
        run = lower ? run + 1 : 0;
        if (run >= 3) return true;
    }
    return false;
}

// The code points of a UTF-8 string (the catalog is valid UTF-8: load_catalog checked it).
std::vector<char32_t> code_points(const std::string& s) {
    std::vector<char32_t> out;
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const int extra = b < 0x80 ? 0 : b < 0xE0 ? 1 : b < 0xF0 ? 2 : 3;
        char32_t c = extra == 0 ? b : b & (0x3F >> extra);
        for (int k = 1; k <= extra && i + k < s.size(); ++k)
            c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        out.push_back(c);
        i += static_cast<std::size_t>(extra) + 1;
    }
    return out;
}

bool han(char32_t c) { return c >= 0x3400 && c <= 0x9FFF; }  // a Chinese character

// Where a Chinese sentence uses Western punctuation: an ASCII quote or one of , ; : ? ! touching
// a Chinese character (or followed by a space and one), or brackets around Chinese words,
// "you(填充)" (but not p(第一个词元), a function of one letter). Quotes around what a reader types
// (--source "2 0 2 6") and formulas, "O(n/k)：", touch no Chinese character and pass. Returns the
// offending stretch.
std::string western_punctuation(const std::string& text) {
    const std::vector<char32_t> c = code_points(text);
    const auto at = [&](std::size_t i, std::ptrdiff_t d) -> char32_t {
        const std::ptrdiff_t j = static_cast<std::ptrdiff_t>(i) + d;
        return j < 0 || j >= static_cast<std::ptrdiff_t>(c.size()) ? U' ' : c[j];
    };
    for (std::size_t i = 0; i < c.size(); ++i) {
        const char32_t p = c[i];
        bool bad = false;
        if (p == U'"') bad = han(at(i, -1)) || han(at(i, 1));
        if (p == U',' || p == U';' || p == U':' || p == U'?' || p == U'!')
            bad = han(at(i, -1)) || han(at(i, 1)) || (at(i, 1) == U' ' && han(at(i, 2)));
        if (p == U'(') {  // brackets whose words start and end in Chinese
            std::size_t close = i + 1;
            while (close < c.size() && c[close] != U')') ++close;
            const bool function =
                std::isalpha(static_cast<int>(at(i, -1) < 0x80 ? at(i, -1) : 0)) &&
                !std::isalpha(static_cast<int>(at(i, -2) < 0x80 ? at(i, -2) : 0));
            bad = !function && han(at(i, 1)) && close < c.size() && han(c[close - 1]);
        }
        if (!bad) continue;
        std::string around;
        for (std::size_t k = i < 8 ? 0 : i - 8; k < std::min(c.size(), i + 8); ++k) {
            const char32_t x = c[k];  // back to UTF-8, for the message
            if (x < 0x80)
                around += static_cast<char>(x);
            else if (x < 0x800)
                around +=
                    {static_cast<char>(0xC0 | (x >> 6)), static_cast<char>(0x80 | (x & 0x3F))};
            else if (x < 0x10000)
                around += {static_cast<char>(0xE0 | (x >> 12)),
                           static_cast<char>(0x80 | ((x >> 6) & 0x3F)),
                           static_cast<char>(0x80 | (x & 0x3F))};
            else
                around += {static_cast<char>(0xF0 | (x >> 18)),
                           static_cast<char>(0x80 | ((x >> 12) & 0x3F)),
                           static_cast<char>(0x80 | ((x >> 6) & 0x3F)),
                           static_cast<char>(0x80 | (x & 0x3F))};
        }
        return around;
    }
    return "";
}

}  // namespace

TEST_CASE(
    "the extractor finds tr() and N_() strings, joined and unescaped, and nothing in comments") {
    const auto found = translated_literals(
        "// tr(\"in a comment\")\nx = tr(\"one \" \"two\\n\", 3); N_(\"three \\\"q\\\"\"); f(\"not "
        "this\"); c = '\"';");
    CHECK(found == std::vector<std::string>{"one two\n", "three \"q\""});
}

TEST_CASE("the catalog holds exactly the strings the code translates, with the same placeholders") {
    const auto catalog = load_catalog("data/translations/zh.json");
    const std::set<std::string> code = code_strings();
    REQUIRE(code.size() > 400);
    for (const std::string& s : code) {
        CAPTURE(s);
        const auto it = catalog.find(s);
        CHECK_MESSAGE(it != catalog.end(), "no translation: add it to data/translations/zh.json");
        if (it != catalog.end()) {
            CHECK(arity(it->second) == arity(s));
            CHECK(!it->second.empty());
        }
    }
    for (const auto& entry : catalog) {
        const std::string& english = entry.first;  // (no structured binding: clang 14 cannot
                                                   // capture one in doctest's lambdas)
        CHECK_MESSAGE(code.count(english) == 1,
                      "a translation no string in the code uses: " << english);
    }
}

TEST_CASE("a count out of a total keeps its order in Chinese: \"{} of {}\" is numbered there") {
    // "3 of 5 weights" reads "5 个权重里有 3 个" in Chinese: the total comes first, so the
    // translation must name its placeholders by position ({2} … {1}); bare {} would swap them
    // (as "0 个权重里有 4 个是有限数" did). A Chinese ordinal, "第 {} 个，共 {} 个", keeps the order.
    std::size_t checked = 0;
    for (const auto& entry : load_catalog("data/translations/zh.json")) {
        const std::string &english = entry.first, &chinese = entry.second;
        if (english.find("{} of {}") == std::string::npos) continue;
        CAPTURE(english);
        CAPTURE(chinese);
        const bool numbered = chinese.find("{1}") != std::string::npos;
        const bool ordinal = chinese.find("第 {}") != std::string::npos;
        CHECK((numbered || ordinal));
        ++checked;
    }
    CHECK(checked >= 3);
}

TEST_CASE("the scan for untranslated English") {
    CHECK(english_run("the weights of a row"));
    CHECK_FALSE(english_run("权重 softmax(Q·Kᵀ) 与 d_k"));
    CHECK_FALSE(english_run("--lang zh|en  讲解所用的语言"));
}

TEST_CASE("the scan for Western punctuation inside Chinese sentences") {
    CHECK(western_punctuation("填充(you)") == "");
    CHECK(western_punctuation("you(填充)") != "");
    CHECK(western_punctuation("p(第一个词元)") == "");
    CHECK(western_punctuation("长度 3: 三个") != "");
    CHECK(western_punctuation("说\"编码器\"") != "");
    CHECK(western_punctuation("应为 O(n/k)：我们") == "");
    CHECK(western_punctuation("是不是想写 \"2 0 2 6\"？") == "");
    CHECK(western_punctuation("错误：ch02: --bogus") == "");
}

TEST_CASE("Chinese sentences use Chinese punctuation: “” quotes, full-width ，；：？！（）") {
    for (const auto& entry : load_catalog("data/translations/zh.json")) {
        const std::string &english = entry.first, &chinese = entry.second;
        CAPTURE(english);
        CHECK_MESSAGE(western_punctuation(chinese) == "", "in: " << western_punctuation(chinese));
    }
}

TEST_CASE("placeholders: in order, by position, and braces that are not placeholders") {
    CHECK(fill_placeholders("{} of {}", {"a", "b"}) == "a of b");
    CHECK(fill_placeholders("{2} 的 {1}", {"a", "b"}) == "b 的 a");
    CHECK(fill_placeholders("y_{t−1} and {}", {"z"}) == "y_{t−1} and z");
    CHECK(tr("{} tokens", 12) == "12 tokens");  // English: the key itself, filled
}

TEST_CASE("every chapter narrates in Chinese with --lang zh, and from a zh locale" * doctest::test_suite("native")) {
    const std::vector<std::string> runs = {"ch01_dictionary_lookup",
                                           "ch02_self_attention",
                                           "ch03_masked_attention",
                                           "ch04_multi_head_attention",
                                           "ch05_positional_encoding",
                                           "ch06_encoder_decoder",
                                           "ch07_training --steps 3",
                                           "ch07_training --task numerals --steps 3",
                                           "ch08_cost",
                                           "ch09_decoding",
                                           "ch10_modern_attention",
                                           "ch11_long_sequences",
                                           "ch12_gpt",
                                           "ch13_precision",
                                           "ch14_inside_the_poet",
                                           "ch07_training --attention tiled --steps 3",
                                           "ch06_encoder_decoder --config base",
                                           "ch03_masked_attention --help"};
    // the tutorial's own tokens ("I like you") and the dictionary's keys are not sentences
    for (const std::string& run : runs) {
        CAPTURE(run);
        const std::string program = run.substr(0, run.find(' '));
        std::string args = run.size() > program.size() ? run.substr(program.size()) : "";
        if (args.empty()) args = quick_flags(program);  // ch09, ch10: their measurements cut short
        const bool pictures =
            program != "ch01_dictionary_lookup" && program != "ch06_encoder_decoder";
        const Run r = run_program(
            program, "--lang zh" + args + (pictures ? " --svg " + temp_directory("zh_svg") : ""));
        CHECK(r.exit_code == 0);
        CHECK(r.out.find(args.find("--help") == std::string::npos ? "==" : "用法") !=
              std::string::npos);
        std::size_t lines = 0, english_lines = 0;
        std::string line;
        std::istringstream in(r.out);
        while (std::getline(in, line)) {
            ++lines;
            if (english_run(line) && line.find("apple") == std::string::npos &&
                line.find("like") == std::string::npos) {
                ++english_lines;
                MESSAGE(line);
            }
        }
        CHECK(english_lines == 0);
        CHECK(lines > 3);
    }
    const Run env = run_command("LC_ALL=zh_CN.UTF-8 " + program_path("ch01_dictionary_lookup"));
    CHECK(env.out.find("字典") != std::string::npos);  // the locale chooses Chinese
    const Run en =
        run_command("LC_ALL=zh_CN.UTF-8 " + program_path("ch01_dictionary_lookup") + " --lang en");
    CHECK(en.out.find("dictionary") != std::string::npos);  // and --lang overrides it
    const Run bad = run_program("ch01_dictionary_lookup", "--lang fr");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("--lang: expected zh or en") != std::string::npos);
    const Run error = run_program("ch01_dictionary_lookup", "--lang zh --data /nonexistent.json");
    CHECK(error.exit_code == 2);
    CHECK(error.err.rfind("错误：", 0) == 0);  // one line, in Chinese
}

TEST_CASE("tables of Chinese text line up: every column starts at the same terminal column") {
    Table t({"层的类型", "顺序操作数", "最大路径长度"});
    t.add({"自注意力", "1", "1"});
    t.add({"循环网络", "512", "512"});
    t.add({"卷积", "1", "511"});
    std::ostringstream out;
    t.print(out);
    std::vector<std::string> rows;
    std::string line;
    std::istringstream in(out.str());
    while (std::getline(in, line))
        if (line.find("---") == std::string::npos) rows.push_back(line);
    REQUIRE(rows.size() == 4);
    // every row has the same display width, and each right-aligned number ends where its header
    // does
    for (const std::string& r : rows) CHECK(display_width(r) == display_width(rows[0]));
    const std::size_t end_of_header = display_width(rows[0]);
    CHECK(display_width(rows[3]) == end_of_header);
}

TEST_CASE("one word for a verse and one for a couplet: 句 and 联, never the one for the other") {
    const Json catalog = Json::parse(read_file("data/translations/zh.json"))["messages"];
    const std::regex couplet("\\bcouplets?\\b"), verse("\\bverses?\\b"),
        printed_lines("\\b(poem'?s?|its|model's|real poems') lines\\b");
    std::size_t couplets = 0, verses = 0;
    for (const auto& [english, entry] : catalog.items()) {
        const std::string chinese = entry.get<std::string>();
        CAPTURE(english);
        CAPTURE(chinese);
        if (std::regex_search(english, couplet)) {  // a couplet is 联, not a 句 or 句子
            ++couplets;
            CHECK(chinese.find("联") != std::string::npos);
            CHECK(chinese.find("句子") == std::string::npos);
        }
        if (std::regex_search(english, verse)) {  // a verse is 句
            ++verses;
            CHECK(chinese.find("句") != std::string::npos);
            CHECK(chinese.find("句子") == std::string::npos);
        }
        // a poem's printed line is a couplet, and said so (a file's lines are another matter)
        if (english.find("expected") == std::string::npos &&
            english.find("Couplets: a poem's lines as printed") == std::string::npos)
            CHECK_FALSE(std::regex_search(english, printed_lines));
    }
    CHECK(couplets > 10);  // there were sentences to judge
    CHECK(verses > 5);
}

TEST_CASE("clauses are joined as sentences, not as nouns: no 和 between two statements") {
    const std::vector<std::string> en = {"4 of 4 second verses rhyme with it",
                                         "9 of 10 verses alternate their tones",
                                         "it keeps every rule"};
    CHECK(clauses(en) ==
          "4 of 4 second verses rhyme with it, 9 of 10 verses alternate their tones, and it keeps "
          "every rule");
    CHECK(clauses({"a"}) == "a");
    CHECK(clauses({}).empty());
    set_translations(Language::Chinese, load_catalog("data/translations/zh.json"));
    const std::string two = clauses({"4 个下句中有 0 个与它押韵", "10 句中有 9 句平仄相间"});
    const std::string nouns = listed({"体式", "押韵"});
    set_translations(Language::English, {});
    CHECK(two == "4 个下句中有 0 个与它押韵；10 句中有 9 句平仄相间");  // one clause a fact, joined by ；
    CHECK(nouns == "体式和押韵");  // nouns keep their 和
}
