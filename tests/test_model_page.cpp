// test_model_page.cpp — src/README.md's "whole model on one page" names each step's function
// and where it is defined (`name` — path:line), and its map names every header; this holds both
// true.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "helpers.h"

namespace {
struct Page {
    const char* path;
    const char* heading;  // of the section that holds the whole model
};
const Page pages[] = {{"src/README.md", "## The whole model on one page, batched"},
                      {"src/README.zh-CN.md", "## 一页看完整个模型：成批"}};
}  // namespace

TEST_CASE("src/README's page of the whole model: every function is defined where it says") {
    for (const Page& p : pages) {
        CAPTURE(p.path);
        const std::string page = read_file(p.path);
        const std::size_t start = page.find(p.heading);
        REQUIRE(start != std::string::npos);
        const std::string section = page.substr(start, page.find("\n## ", start + 1) - start);
        const std::regex step("`([a-z_]+)` — (src/[a-z_/]+\\.cpp):([0-9]+)");
        std::size_t checked = 0;
        for (std::sregex_iterator it(section.begin(), section.end(), step), end; it != end; ++it) {
            const std::string name = (*it)[1], path = (*it)[2];
            const std::size_t line = std::stoul((*it)[3]);
            CAPTURE(name);
            CAPTURE(path);
            CAPTURE(line);
            std::ifstream in(path);
            REQUIRE(in);
            std::string text;
            for (std::size_t i = 0; i < line && std::getline(in, text); ++i) {
            }
            // a definition: at the start of the line, the name and its parenthesis
            CHECK(!text.empty());
            CHECK(!std::isspace(static_cast<unsigned char>(text[0])));
            CHECK(text.find(" " + name + "(") != std::string::npos);
            ++checked;
        }
        CHECK(checked >= 20);
    }
}

TEST_CASE("src/README's map of every file names every header under src/") {
    for (const Page& p : pages) {
        CAPTURE(p.path);
        const std::string page = read_file(p.path);
        std::size_t headers = 0;
        for (const auto& entry : std::filesystem::recursive_directory_iterator("src")) {
            if (entry.path().extension() != ".h") continue;
            CAPTURE(entry.path().string());
            CHECK(page.find(" " + entry.path().filename().string()) != std::string::npos);
            ++headers;
        }
        CHECK(headers > 60);
    }
}
