// test_reader_files.cpp — nothing a reader writes can crash a chapter or cost them a file
// (issue 19), each case as it was reported: deeply nested JSON, empty lists, models and
// settings that overflow, read-only and linked --save targets, temporaries left by a killed
// save, numbers out of range, and a damaged translation catalog. Every file here is made by the
// test in its own temporary directory.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "helpers.h"
#include "io/atomic_file.h"
#include "io/catalog.h"
#include "io/platform.h"
#include "json.h"

namespace fs = std::filesystem;

namespace {

int lines_of(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

Json data_file(const std::string& chapter) {
    return Json::parse(read_file("data/" + chapter + ".json"));
}

// The contract for bad input: exit code 2, nothing on stdout, one line on stderr starting
// "error: ", and whatever the line must name.
void check_one_error_line(const Run& r, const std::string& names) {
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(lines_of(r.err) == 1);
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK_MESSAGE(r.err.find(names) != std::string::npos, r.err);
    CHECK(r.err.find("json.exception") == std::string::npos);
}

Run run_on(const std::string& chapter, const Json& doc, const std::string& flags = "") {
    return run_program(chapter, "--data " + temp_file(chapter + ".mine.json", doc.dump()) + flags);
}

// The permission bits of the file itself (a link's own, not its target's)
unsigned mode_of(const std::string& path) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(path, ec);
    REQUIRE(!ec);
    return static_cast<unsigned>(st.permissions() & fs::perms::mask);
}

}  // namespace

TEST_CASE("a value nested 10,000 levels deep, in a key nothing reads, is one error line") {
    std::string deep = "{\"unread\": ";
    for (int i = 0; i < 10000; ++i) deep += "[";
    for (int i = 0; i < 10000; ++i) deep += "]";
    const std::string text = read_file("data/ch01_dictionary_lookup.json");
    const std::string path = temp_file("deep.json", deep + ", " + text.substr(text.find('{') + 1));
    const Run r = run_program("ch01_dictionary_lookup", "--data " + path);
    check_one_error_line(r, "nested deeper than");
}

TEST_CASE("an empty list where numbers are needed is an error, not a crash in --json") {
    Json doc = data_file("ch07_training");
    doc["inputs"]["numerals"]["check_numbers"] = Json::array();
    check_one_error_line(run_on("ch07_training", doc, " --task numerals --steps 2 --json"),
                         "inputs.numerals.check_numbers");
}

TEST_CASE("a number where a list is expected names the key, not the JSON library's exception") {
    Json doc = data_file("ch07_training");
    doc["inputs"]["gradient_batch"] = 5;
    check_one_error_line(run_on("ch07_training", doc, " --steps 2"), "inputs.gradient_batch");
}

TEST_CASE("every number is range-checked where it is read") {
    SUBCASE("a learning-rate factor of 1e308, label smoothing of 2 and of -1") {
        for (const auto& change : {std::pair<std::string, double>{"factor", 1e308},
                                   {"smoothing", 2.0},
                                   {"smoothing", -1.0}}) {
            const std::string& key = change.first;
            const double value = change.second;
            CAPTURE(key);
            Json doc = data_file("ch07_training");
            doc["inputs"]["training"][key] = value;
            const std::string model = temp_directory("ranges") + "/model.json";
            check_one_error_line(run_on("ch07_training", doc, " --steps 2 --save " + model),
                                 "inputs.training." + key);
            CHECK_FALSE(fs::exists(model));
        }
    }
    SUBCASE("top_k of 1e20 and a temperature of 0") {
        for (const Json& row : {Json::array({1.0, 1e20}), Json::array({0.0, 0})}) {
            Json doc = data_file("ch09_decoding");
            doc["inputs"]["sampling"]["settings"][0] = row;
            check_one_error_line(run_on("ch09_decoding", doc, " --check"),
                                 "inputs.sampling.settings");
        }
    }
    SUBCASE("a token id of 4294967299, which a 32-bit read would take for 3") {
        Json doc = data_file("ch09_decoding");
        doc["inputs"]["sources"][0][0] = 4294967299.0;
        check_one_error_line(run_on("ch09_decoding", doc, " --check"), "inputs.sources[0][0]");
    }
}

TEST_CASE("ch09 runs on a model of three target tokens (the timing feeds only tokens it has)") {
    Json doc = data_file("ch09_decoding");
    Json& c = doc["inputs"]["config"];
    c["tgt_vocab"] = 3;
    c["vocabulary"] = Json::array({"<pad>", "<bos>", "<eos>"});
    Json& w = doc["inputs"]["weights"];
    for (const char* key : {"tgt_embedding.weight", "output.weight", "output.bias"}) {
        Json cut = Json::array();
        for (std::size_t i = 0; i < 3; ++i) cut.push_back(w[key][i]);
        w[key] = cut;
    }
    doc["inputs"]["kv_cache_padded"] = Json::array({1, 0, 2});  // within the three tokens
    doc["inputs"]["timing_lengths"] = Json::array({8, 16});  // the walkthrough, kept short
    doc["inputs"]["batch_sizes"] = Json::array({1, 4});
    doc["inputs"]["stopping"]["numbers"] = Json::array({7, 207});
    doc["inputs"]["stopping"]["training"]["max_steps"] = 2;
    const Run r = run_on("ch09_decoding", doc);
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out.find("nan") == std::string::npos);
    const Run check = run_on("ch09_decoding", doc, " --check");
    CHECK(check.exit_code == 1);  // its expected values are another model's: 1, not 2
    CHECK(check.err.empty());
}

TEST_CASE("a model whose logits overflow stops decoding with one line naming its file") {
    const std::string dir = temp_directory("overflow");
    REQUIRE(run_program("ch07_training", "--steps 2 --save " + dir + "/model.json").exit_code == 0);
    Json model = Json::parse(read_file(dir + "/model.json"));
    for (auto& row : model["weights"]["tgt_embedding.weight"])
        for (auto& x : row) x = 1e308;
    const std::string path = temp_file("overflowing_model.json", model.dump());
    const Run r = run_program("ch06_encoder_decoder", "--weights " + path + " --source \"1 2\"");
    CHECK(r.exit_code == 2);
    CHECK(lines_of(r.err) == 1);
    CHECK(r.err.find(path + ": decoding step 1") != std::string::npos);
}

TEST_CASE("--save never replaces what the reader protected, and checks before training") {
    const std::string dir = temp_directory("save_targets");
    const std::string train = "ch07_training";
    SUBCASE("a read-only file is refused, kept as it was, mode and all") {
        const std::string mine = temp_file("save_targets/mine.json", "mine");
        fs::permissions(mine,
                        fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
        const Run r = run_program(train, "--steps 2 --save " + mine);
        check_one_error_line(r, "read-only");
        CHECK(read_file(mine) == "mine");
        CHECK((mode_of(mine) & 0777) == 0444);
    }
#ifndef _WIN32  // Windows: a symbolic link needs administrator rights or developer mode
    SUBCASE("a symbolic link is written through: the link stays, its target gets the model") {
        const std::string target = temp_file("save_targets/target.json", "old");
        fs::permissions(target,
                        fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
        const std::string link = dir + "/link.json";
        fs::remove(link);
        fs::create_symlink("target.json", link);
        REQUIRE(run_program(train, "--steps 2 --save " + link).exit_code == 0);
        CHECK(fs::is_symlink(fs::symlink_status(link)));
        CHECK(read_file(target).rfind("{\"config\"", 0) == 0);
        CHECK((mode_of(target) & 0777) == 0640);  // the target's own mode, kept
    }
#endif
    SUBCASE("a directory, a missing directory and an empty path are refused before training") {
        for (const std::string& bad : {dir + "/", dir, dir + "/missing/model.json"}) {
            CAPTURE(bad);
            const Run r = run_program(train, "--save " + bad);  // a full run, were it accepted
            check_one_error_line(r, bad);
        }
        CHECK_FALSE(fs::exists(dir + "/missing"));
        check_one_error_line(run_program(train, "--steps 2 --save ''"), "--save");
        check_one_error_line(run_program(train, "--data ''"), "--data");
    }
}

TEST_CASE("a save leaves no temporary behind, and removes those of a writer that was killed") {
    const std::string dir = temp_directory("temporaries");
    const Run child = run_command("sh -c 'echo $$'");  // a process that has ended
    const std::string dead = child.out.substr(0, child.out.find('\n'));
    const std::string stale = dir + "/.a.json.tmp." + dead + ".Xk3q9Z";
    const std::string alive = dir + "/.a.json.tmp." + std::to_string(platform::process_id()) + ".Ab12Cd";
    std::ofstream(stale) << "half a model";
    std::ofstream(alive) << "being written";
    write_file_atomically(dir + "/a.json", "whole");
    CHECK(read_file(dir + "/a.json") == "whole");
    CHECK_FALSE(fs::exists(stale));
    CHECK(fs::exists(alive));  // another writer, still running: not ours to remove
    fs::remove(alive);
    write_file_atomically(dir + "/a.json", "again");
    std::size_t entries = 0;
    for (const auto& e : fs::directory_iterator(dir)) entries += e.exists() ? 1 : 0;
    CHECK(entries == 1);
}

TEST_CASE("--source is capped at what a model could ever use") {
    const std::string path = temp_directory("long_source") + "/model.json";
    REQUIRE(run_program("ch07_training", "--steps 2 --save " + path).exit_code == 0);
    std::string source;
    for (int i = 0; i < 2000; ++i) source += i ? " 3" : "3";
    const Run r =
        run_program("ch06_encoder_decoder", "--weights " + path + " --source \"" + source + "\"");
    check_one_error_line(r, "--source");
    CHECK(r.err.find("1024") != std::string::npos);
}

// A copy of build/<chapter> and its data file in a directory of their own, with the given text
// as its catalog: the programs read data/translations/zh.json beside themselves.
static std::string with_catalog(const std::string& name, const std::string& catalog) {
    const std::string dir = temp_directory(name);
    fs::create_directories(dir + "/bin");
    fs::create_directories(dir + "/data/translations");
    fs::copy_file(program_path("ch01_dictionary_lookup"), dir + "/bin/ch01_dictionary_lookup",
                  fs::copy_options::overwrite_existing);
    fs::copy_file("data/ch01_dictionary_lookup.json", dir + "/data/ch01_dictionary_lookup.json",
                  fs::copy_options::overwrite_existing);
    std::ofstream(dir + "/data/translations/zh.json") << catalog;
    return dir;
}

TEST_CASE("a damaged catalog: English with one warning under a zh locale, an error for --lang zh") {
    for (const std::string& damaged :
         {std::string("{not json"), std::string("[1, 2]"), std::string("{\"about\": 1}"),
          std::string("{\"messages\": {\"error: \": \"\"}}")}) {
        CAPTURE(damaged);
        const std::string dir = with_catalog("damaged_catalog", damaged);
        const std::string run = "cd " + dir + " && LC_ALL=zh_CN.UTF-8 bin/ch01_dictionary_lookup";
        const Run locale = run_command(run);
        CHECK(locale.exit_code == 0);
        CHECK(locale.out.find("dictionary") != std::string::npos);  // English
        CHECK(lines_of(locale.err) == 1);
        CHECK(locale.err.rfind("warning: ", 0) == 0);
        CHECK(run_command(run + " --help").exit_code == 0);
        const Run asked = run_command(run + " --lang zh");
        CHECK(asked.exit_code == 2);
        CHECK(lines_of(asked.err) == 1);
        CHECK(asked.err.find("zh.json") != std::string::npos);
    }
}

TEST_CASE("every catalog entry is checked when the catalog is loaded") {
    const auto loads = [](const std::string& english, const std::string& chinese) {
        Json doc = {{"messages", {{english, chinese}}}};
        const std::string path = temp_file("one_entry.json", doc.dump());
        try {
            load_catalog(path);
            return std::string();
        } catch (const DataError& e) {
            return std::string(e.what());
        }
    };
    CHECK(loads("{} of {}", "{2} 的 {1}") == "");           // reordered: fine
    CHECK(loads("y_{t−1} and {}", "y_{t−1} 和 {}") == "");  // braces that are not placeholders
    CHECK(loads("error: ", "") != "");                      // a prefix dropped
    CHECK(loads("one line {}", "一行\n{}") != "");          // a line broken in two
    CHECK(loads("{} and {}", "{}{}{9}") != "");             // an argument that does not exist
    CHECK(loads("{} and {}", "只有 {1}") != "");            // an argument dropped
    CHECK(loads("a\nb", "甲\n乙") == "");                   // newlines where the English has them
}
