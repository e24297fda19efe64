// test_live_book.cpp — what the live book asks of the native programs: a page written with
// --live carries what live_page.js reads (the chapter on <body>, the walkthrough in <main>, the
// panel's words as JSON, the script), and one without it carries none; --cache keeps chapter
// 2's width sweep and reads it back to the same bits, and a damaged cache file is recomputed;
// edited inputs turn the page's check line into what it means, and a result the data file
// has no expected value for is a mismatch, not a crash. (The module itself is run under node
// and in chromium by tests/cross_machines.sh: tests/web/.)
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "helpers.h"
#include "json.h"
#include "report/input_names.h"
#include "xml_check.h"

namespace {

// The data file with the first number of inputs.X (or n_heads) replaced, as the panel writes it.
std::string edited(const std::string& chapter, const std::string& from, const std::string& to) {
    std::string text = read_file("data/" + chapter + ".json");
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

// The live chapters, as the Makefile lists them (WEB_CHAPTERS, over its continued lines).
std::vector<std::string> web_chapters() {
    std::ifstream in("Makefile");
    std::vector<std::string> chapters;
    bool in_list = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("WEB_CHAPTERS :=", 0) == 0) {
            in_list = true;
            line = line.substr(line.find('=') + 1);
        }
        if (!in_list) continue;
        std::istringstream words(line);
        for (std::string w; words >> w;)
            if (w != "\\") chapters.push_back(w);
        if (line.empty() || line.back() != '\\') break;
    }
    return chapters;
}

// Every key under an object of a data file's inputs, split at its dots (a model's weights are
// named "encoder.layers.0.norm1.bias"), numbers left out: [the part before it, part], as
// live_page.js's nameOf reads them.
void keys_of(const Json& node, const std::string& parent,
             std::vector<std::pair<std::string, std::string>>& out) {
    if (!node.is_object()) return;
    for (const auto& item : node.items()) {
        std::string previous = parent;
        std::istringstream parts(item.key());
        for (std::string part; std::getline(parts, part, '.');) {
            if (part.find_first_not_of("0123456789") != std::string::npos)
                out.emplace_back(previous, part);
            previous = part;
        }
        keys_of(item.value(), previous, out);
    }
}

}  // namespace

TEST_CASE("the live panel names every input of every live chapter, in the reader's words") {
    std::set<std::string> named;
    for (const auto& [key, name] : input_names()) {
        CHECK(!name.empty());
        named.insert(key);
    }
    const std::vector<std::string> chapters = web_chapters();
    REQUIRE(chapters.size() >= 8);
    for (const std::string& chapter : chapters) {
        std::ifstream in("data/" + chapter + ".json");
        const Json data = Json::parse(in);
        std::vector<std::pair<std::string, std::string>> keys;
        keys_of(data.at("inputs"), "inputs", keys);
        for (const auto& [parent, key] : keys) {
            CAPTURE(chapter);
            CAPTURE(key);
            CHECK((named.count(key) || named.count(parent + "." + key)));
        }
    }
}

TEST_CASE("--live: the page carries its chapter, its walkthrough in <main>, the panel's words") {
    const std::string dir = temp_directory("live_page");
    for (const char* lang : {"en", "zh"}) {
        CAPTURE(lang);
        REQUIRE(run_program("ch03_masked_attention",
                            std::string("--lang ") + lang + " --html " + dir + " --live")
                    .exit_code == 0);
        const std::string page = read_file(dir + "/ch03_masked_attention.html");
        CHECK(xml_problem(page.substr(std::string("<!DOCTYPE html>\n").size())) == "");
        CHECK(page.find("<body data-chapter=\"ch03_masked_attention\" data-lang=\"") !=
              std::string::npos);
        const std::size_t main = page.find("<main id=\"walkthrough\">"),
                          check = page.find("<p class=\"check\">"), end = page.find("</main>");
        CHECK(main < check);
        CHECK(check < end);  // the check line is replaced with the walkthrough
        CHECK(page.find("<script src=\"../live/live_page.js\"></script>") > end);
        // the words: one JSON object of strings, every key live_page.js reads, none empty
        std::smatch m;
        REQUIRE(std::regex_search(page, m, std::regex("id=\"live-words\">([^<]*)</script>")));
        const std::string words = m[1];
        for (const char* key : {"heading", "intro", "shorter", "data_file", "recompute", "reset", "language",
                                "computing", "moved", "same", "not_json", "stopped",
                                "no_module", "not_live", "fault", "refused", "panel_file", "stop",
                                "stopped_run", "computing_for", "long_run", "waited",
                                "name:key_padding", "name:layers"}) {
            CAPTURE(key);
            CHECK(std::regex_search(words, std::regex("\"" + std::string(key) + "\": \"[^\"]+\"")));
        }
        CHECK((std::string(lang) == "zh") == (words.find("重新计算") != std::string::npos));
    }
    const std::string plain = temp_directory("plain_page");
    REQUIRE(run_program("ch03_masked_attention", "--html " + plain).exit_code == 0);
    const std::string page = read_file(plain + "/ch03_masked_attention.html");
    for (const char* live_only : {"<script", "<main", "data-chapter", "live-words"})
        CHECK(page.find(live_only) == std::string::npos);
    const Run alone = run_program("ch03_masked_attention", "--live");
    CHECK(alone.exit_code == 2);
    CHECK(alone.err.find("--live") != std::string::npos);
}

TEST_CASE("--cache: chapter 2's width sweep kept, read back to the same bits, recomputed when damaged") {
    const std::string cache = temp_directory("live_cache");
    const Run plain = run_program("ch02_self_attention", "--json");
    const Run first = run_program("ch02_self_attention", "--json --cache " + cache);
    const Run again = run_program("ch02_self_attention", "--json --cache " + cache);
    REQUIRE(plain.exit_code == 0);
    CHECK(first.out == plain.out);
    CHECK(first.err.find("note:") == std::string::npos);
    CHECK(again.out == plain.out);
    CHECK(again.err.find("note: why_scale read back from") != std::string::npos);
    // the file is named by the digest of inputs.why_scale: edited X leaves it, edited trials not
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(cache)) files.push_back(e.path().string());
    REQUIRE(files.size() == 1);
    const std::string other_x = temp_file("ch02_other_x.json",
                                          edited("ch02_self_attention", "[1, 2, 1, 2, 1]", "[2, 2, 1, 2, 1]"));
    CHECK(run_program("ch02_self_attention", "--json --cache " + cache + " --data " + other_x)
              .err.find("note: why_scale read back") != std::string::npos);
    const std::string other_trials = temp_file(
        "ch02_other_trials.json", edited("ch02_self_attention", "\"trials\": 400", "\"trials\": 40"));
    CHECK(run_program("ch02_self_attention", "--json --cache " + cache + " --data " + other_trials)
              .err.find("note:") == std::string::npos);
    // a damaged file: computed again, the same bits, no error
    { std::ofstream(files[0]) << "5 4\n1 2 x\n"; }
    const Run damaged = run_program("ch02_self_attention", "--json --cache " + cache);
    CHECK(damaged.exit_code == 0);
    CHECK(damaged.out == plain.out);
    CHECK(damaged.err.find("note:") == std::string::npos);
}

TEST_CASE("edited inputs: the page's check line says what it means; a result with no expected value is a mismatch") {
    const std::string dir = temp_directory("live_edited");
    const std::string heads = temp_file(
        "ch04_four_heads.json", edited("ch04_multi_head_attention", "\"n_heads\": 2", "\"n_heads\": 4"));
    REQUIRE(run_program("ch04_multi_head_attention", "--data " + heads + " --html " + dir).exit_code == 0);
    const std::string page = read_file(dir + "/ch04_multi_head_attention.html");
    CHECK(std::regex_search(page, std::regex("edited inputs \\(inputs.n_heads\\): the expected values "
                                             "in [^ ]+ were computed from other inputs, so nothing is "
                                             "checked against them; [0-9]+ of [0-9]+ results still equal them")));
    CHECK(run_program("ch04_multi_head_attention", "--check --data " + heads).exit_code == 1);
    // a result the file has no expected value for: one mismatch named "missing", exit 1
    const std::string renamed = temp_file(
        "ch04_renamed.json",
        edited("ch04_multi_head_attention", "\"weights_self_head1\"", "\"weights_self_headX\""));
    const Run check = run_program("ch04_multi_head_attention", "--check --data " + renamed);
    CHECK(check.exit_code == 1);
    CHECK(std::regex_search(check.out, std::regex("weights_self_head1 +missing")));
    CHECK(check.out.find(" 1 failed") != std::string::npos);
    CHECK(check.err == "");
}
