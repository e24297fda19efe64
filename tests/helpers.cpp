// helpers.cpp — running chapter programs and making temporary files for the tests.
#include "helpers.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/platform.h"

#ifdef _WIN32
#include <process.h>
#else
#include <sys/wait.h>
#endif

static std::string read_all(const std::string& path) {
    std::ifstream in = open_for_reading(path);  // the bytes as written
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

static std::string& made_dir() {
    static std::string dir;
    return dir;
}

// A fresh folder in the system's temporary directory, tbh-tests-PID-N, made once (written with
// "/" on every system: the tests join paths with it and hand them to a shell).
static std::string temp_dir() {
    std::string& dir = made_dir();
    if (dir.empty()) {
        namespace fs = std::filesystem;
        const fs::path base = fs::temp_directory_path();
        const std::string pid = std::to_string(platform::process_id());
        for (int i = 0; dir.empty() && i < 1000; ++i) {
            const fs::path p = base / ("tbh-tests-" + pid + "-" + std::to_string(i));
            std::error_code ec;
            if (fs::create_directory(p, ec)) dir = p.generic_u8string();
        }
        REQUIRE(!dir.empty());
    }
    return dir;
}

// The command's exit code, run by a POSIX shell: sh -c. On Windows that is MSYS2's sh (which
// make test runs in): std::system would hand the command to cmd.exe, which reads none of the
// tests' shell syntax. Its one argument quoted as the C runtime unquotes it.
static int shell_status(const std::string& command) {
#ifdef _WIN32
    std::string quoted = "\"";
    std::size_t backslashes = 0;
    for (const char c : command) {
        if (c == '\\') {
            ++backslashes;
            continue;
        }
        quoted.append(c == '"' ? 2 * backslashes + 1 : backslashes, '\\');
        backslashes = 0;
        quoted += c;
    }
    quoted.append(2 * backslashes, '\\');
    quoted += '"';
    std::fflush(nullptr);
    return static_cast<int>(_spawnlp(_P_WAIT, "sh", "sh", "-c", quoted.c_str(), nullptr));
#else
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
#endif
}

std::string temp_file(const std::string& name, const std::string& text) {
    const std::string path = temp_dir() + "/" + name;
    std::ofstream(path) << text;
    return path;
}

Run run_command(const std::string& command) {
    const std::string out = temp_dir() + "/stdout", err = temp_dir() + "/stderr";
    const int code = shell_status("(" + command + ") >" + out + " 2>" + err);
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
        replace_value("batch_sizes", "[1, 4]");
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
