// helpers.cpp — running chapter programs and making temporary files for the tests.
#include "helpers.h"

#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

static std::string read_all(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

static std::string& made_dir() {
    static std::string dir;
    return dir;
}

static std::string temp_dir() {
    std::string& dir = made_dir();
    if (dir.empty()) {
        char pattern[] = "/tmp/tbh-tests-XXXXXX";
        const char* made = mkdtemp(pattern);
        REQUIRE(made != nullptr);
        dir = made;
    }
    return dir;
}

std::string temp_file(const std::string& name, const std::string& text) {
    const std::string path = temp_dir() + "/" + name;
    std::ofstream(path) << text;
    return path;
}

Run run_command(const std::string& command) {
    const std::string out = temp_dir() + "/stdout", err = temp_dir() + "/stderr";
    const int status = std::system(("(" + command + ") >" + out + " 2>" + err).c_str());
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return {code, read_all(out), read_all(err)};
}

Run run_program(const std::string& program, const std::string& args) {
    return run_command(program_dir + "/" + program + " " + args);
}

std::string temp_directory(const std::string& name) {
    const std::string path = temp_dir() + "/" + name;
    std::filesystem::create_directories(path);
    return path;
}

std::string program_path(const std::string& program) { return program_dir + "/" + program; }

std::string read_file(const std::string& path) { return read_all(path); }

void remove_temp_files() {
    if (made_dir().empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(made_dir(), ec);
}

std::string quick_flags(const std::string& chapter) {
    if (chapter == "ch07_training") return " --steps 3";
    // ch12: a few steps on the ten poems of tests/data, a few poems written
    if (chapter == "ch12_gpt") return " --corpus tests/data/tang_sample.txt --steps 3 --poems 2";
    // ch13: the poet trained here for a few steps on the ten poems, never the reader's model
    if (chapter == "ch13_precision") return " --corpus tests/data/tang_sample.txt --steps 3";
    // ch14: likewise, the poet it reads trained here
    if (chapter == "ch14_inside_the_poet") return " --corpus tests/data/tang_sample.txt --steps 3";
    if (chapter != "ch09_decoding" && chapter != "ch10_modern_attention" &&
        chapter != "ch11_long_sequences")
        return "";
    std::string text = read_all("data/" + chapter + ".json");
    // plain text edits, so that this file needs no JSON library: each key's value replaced
    const auto replace_value = [&](const std::string& key, const std::string& value) {
        const std::size_t at = text.find("\"" + key + "\": ");
        REQUIRE_MESSAGE(at != std::string::npos, key);
        const std::size_t start = at + key.size() + 4;
        std::size_t end = start;
        int depth = 0;
        for (; end < text.size(); ++end) {
            const char c = text[end];
            if (c == '[' || c == '{') ++depth;
            if (c == ']' || c == '}') {
                if (depth == 0) break;
                --depth;
            }
            if (c == ',' && depth == 0) break;
            if (c == '\n' && depth == 0) break;
        }
        text.replace(start, end - start, value);
    };
    if (chapter == "ch09_decoding") {
        replace_value("numbers", "[7, 207]");  // inputs.stopping: two numbers, two steps
        replace_value("max_steps", "2");
        replace_value("timing_lengths", "[8, 16]");
    } else if (chapter == "ch11_long_sequences") {
        replace_value("lengths", "[64, 128, 256]");  // the memory table: short lengths, d_k 16
        replace_value("d_k", "16");
    } else {
        replace_value("max_steps", "2");  // the length experiment's training
        replace_value("seeds", "[1]");
        replace_value("test_lengths", "[9, 11]");
        replace_value("per_length", "3");
        replace_value("tokens", "4");  // the timed decoding
    }
    return " --data " + temp_file(chapter + ".quick.json", text);
}
