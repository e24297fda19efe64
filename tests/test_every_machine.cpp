// test_every_machine.cpp — what differs on a reader's Windows laptop (and in the browser) and must
// not change a number, tested here on Linux: 64-bit seeds where `long` has 32 bits, files checked
// out with CRLF line endings. tests/cross_machines.sh runs the Windows build itself, under wine.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "helpers.h"
#include "io/data_file.h"
#include "json.h"

namespace {

constexpr std::uint64_t two_to_62 = std::uint64_t(1) << 62;

// Every seed of a data file set to 2^62 (keys "seed", "…_seed", and the arrays "seeds"); returns
// how many were set.
int seeds_set_to_2_62(Json& j) {
    int n = 0;
    if (j.is_object()) {
        for (auto& item : j.items()) {
            const std::string& key = item.key();
            const bool seed = key == "seed" || (key.size() > 5 && key.rfind("_seed") == key.size() - 5);
            if (seed && item.value().is_number_integer()) {
                item.value() = two_to_62;
                ++n;
            } else if (key == "seeds" && item.value().is_array()) {
                for (auto& s : item.value()) s = two_to_62, ++n;
            } else {
                n += seeds_set_to_2_62(item.value());
            }
        }
    } else if (j.is_array()) {
        for (auto& item : j) n += seeds_set_to_2_62(item);
    }
    return n;
}

// The text with every "\n" written "\r\n", as Git for Windows checks a file out by default.
std::string with_crlf(const std::string& text) {
    std::string out;
    for (const char c : text) out += c == '\n' ? std::string("\r\n") : std::string(1, c);
    return out;
}

}  // namespace

TEST_CASE("DataFile::seed: 0 to 2^62 on every machine (long has 32 bits on Windows and wasm32)") {
    const std::string path = temp_file(
        "seeds.json", "{\"a\": 4611686018427387904, \"b\": 4611686018427387905, \"c\": -1, "
                      "\"d\": 4294967299, \"e\": 9223372036854775807, \"f\": 18446744073709551615}");
    const DataFile f = DataFile::load(path);
    CHECK(f.seed("a") == two_to_62);
    CHECK(f.seed("d") == 4294967299u);  // past 2^32: not 3
    for (const char* bad : {"b", "c", "e", "f"}) {
        try {
            f.seed(bad);
            FAIL("seed ", bad, " was accepted");
        } catch (const DataError& e) {
            CHECK(std::string(e.what()).find("expected a whole number from 0 to 4611686018427387904") !=
                  std::string::npos);
        }
    }
    CHECK(f.integer("d", 0, std::int64_t(1) << 40) == 4294967299);
}

TEST_CASE("a seed of 2^62 is accepted by every data file that takes a seed" *
          doctest::test_suite("native")) {
    struct Target {
        const char* chapter;
        const char* flags;
    };
    // each chapter's smallest data file, in its quickest form (as test_fuzz.cpp runs them)
    const std::vector<Target> targets = {
        {"ch02_self_attention", " --json"},
        {"ch07_training", " --steps 2 --json"},
        {"ch08_cost", " --json"},
        {"ch09_decoding", " --json"},
        {"ch10_modern_attention", " --json"},
        {"ch11_long_sequences", " --json"},
        {"ch12_gpt", " --json"},
        {"ch13_precision", " --corpus tests/data/tang_sample.txt --steps 2 --json"},
        {"ch14_inside_the_poet", " --corpus tests/data/tang_sample.txt --steps 2 --json"}};
    const std::string dir = temp_directory("seeds");
    for (const Target& t : targets) {
        CAPTURE(t.chapter);
        Json doc = Json::parse(read_file(std::string("tests/data/") + t.chapter + ".smallest.json"));
        const int n = seeds_set_to_2_62(doc["inputs"]);
        CHECK(n > 0);
        const std::string path = dir + "/" + t.chapter + ".json";
        std::ofstream(path) << doc.dump(2);
        const Run r = run_program(t.chapter, "--data " + path + t.flags);
        CHECK_MESSAGE(r.exit_code == 0, r.err);
        CHECK(r.err.find("error:") == std::string::npos);
        CHECK(all_numbers_finite(Json::parse(r.out, nullptr, false)));
    }
}

TEST_CASE("a data file with CRLF line endings gives the same output as with LF" *
          doctest::test_suite("native")) {
    for (const char* chapter : {"ch01_dictionary_lookup", "ch03_masked_attention"}) {
        CAPTURE(chapter);
        const std::string data = std::string("data/") + chapter + ".json";
        const std::string crlf = temp_file(std::string(chapter) + ".crlf.json", with_crlf(read_file(data)));
        REQUIRE(read_file(crlf).find("\r\n") != std::string::npos);
        const Run lf = run_program(chapter, "--data " + data + " --json");
        const Run cr = run_program(chapter, "--data " + crlf + " --json");
        REQUIRE(lf.exit_code == 0);
        CHECK(cr.exit_code == 0);
        CHECK(cr.out == lf.out);
        const Run check = run_program(chapter, "--data " + crlf + " --check");
        CHECK_MESSAGE(check.exit_code == 0, check.out);
    }
}

TEST_CASE("a corpus and a pronunciation table with CRLF line endings give the same numbers" *
          doctest::test_suite("native")) {
    const std::string corpus = "tests/data/tang_sample.txt", pinyin = "tests/data/tang_sample.pinyin.txt";
    const std::string corpus_crlf = temp_file("tang_sample.crlf.txt", with_crlf(read_file(corpus)));
    const std::string pinyin_crlf = temp_file("tang_sample.crlf.pinyin.txt", with_crlf(read_file(pinyin)));
    const std::string flags = " --steps 3 --poems 2 --json";
    const Run lf = run_program("ch12_gpt", "--corpus " + corpus + " --pinyin " + pinyin + flags);
    const Run cr = run_program("ch12_gpt", "--corpus " + corpus_crlf + " --pinyin " + pinyin_crlf + flags);
    REQUIRE_MESSAGE(lf.exit_code == 0, lf.err);
    REQUIRE_MESSAGE(cr.exit_code == 0, cr.err);
    // a "\r" kept at a line's end would be a character of the vocabulary: every count would move
    CHECK(cr.out.find("\\r") == std::string::npos);
    // the same numbers, and the same text but for the corpus's path (which names the file read)
    Json lf_json = Json::parse(lf.out), cr_json = Json::parse(cr.out);
    REQUIRE(lf_json.contains("corpus"));
    CHECK(cr_json["corpus"] == corpus_crlf);
    lf_json.erase("corpus");
    cr_json.erase("corpus");
    const std::string a = temp_file("lf.json", lf_json.dump(2)), b = temp_file("crlf.json", cr_json.dump(2));
    const Run same = run_command(program_path("same_numbers") + " " + a + " " + b);
    CHECK_MESSAGE(same.exit_code == 0, same.out);
}
