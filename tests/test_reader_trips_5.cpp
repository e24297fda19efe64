// test_reader_trips_5.cpp — what a reader still tripped over (issue 53), each as it was reported:
// bad input that crashed chapter 14 or exhausted chapter 11's memory, an error line split by a
// newline in a flag's value, a pronunciation table that is a directory or empty, and words the
// programs print.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "helpers.h"
#include "json.h"

namespace {

Json smallest(const std::string& chapter) {
    std::ifstream in("tests/data/" + chapter + ".smallest.json");
    return Json::parse(in);
}

// exactly one line on stderr, starting "error: ", nothing on stdout, exit code 2
void one_error_line(const Run& r, const std::string& must_contain) {
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK(r.err.find('\n') == r.err.size() - 1);
    CHECK_MESSAGE(r.err.find(must_contain) != std::string::npos, r.err);
}

}  // namespace

TEST_CASE("ch14: punctuation that takes every character leaves nothing to draw: one line, no crash") {
    Json doc = smallest("ch14_inside_the_poet");
    Json all = Json::array();
    for (const Json& name : doc["inputs"]["small"]["vocabulary"]) all.push_back(name);
    doc["inputs"]["punctuation"] = all;
    const std::string path = temp_file("ch14_all_punctuation.json", doc.dump());
    one_error_line(run_program("ch14_inside_the_poet", "--check --data " + path),
                   "inputs.punctuation: leaves no character of the small model's");
}

TEST_CASE("ch11: a memory tile longer than every sequence is refused by name, before any work") {
    Json doc = smallest("ch11_long_sequences");
    doc["inputs"]["memory"]["tile"] = 65536;
    const std::string path = temp_file("ch11_tile.json", doc.dump());
    const Run r = run_program("ch11_long_sequences", "--json --data " + path);
    one_error_line(r, "inputs.memory.tile: expected a whole number from 1 to");
    CHECK(r.err.find("bad_alloc") == std::string::npos);
}

TEST_CASE("a newline inside a flag's value or a path is written \\n: the error stays one line") {
    one_error_line(run_program("ch07_training", "--norm \"$(printf 'rms\\nx')\""),
                   "--norm: expected layer or rms, got \"rms\\nx\"");
    const Run corpus = run_program("ch12_gpt", "--steps 1 --corpus \"$(printf 'no\\nsuch')\"");
    CHECK(corpus.exit_code == 2);  // (after the checks of the data file's small examples)
    CHECK(corpus.err.find('\n') == corpus.err.size() - 1);
    CHECK_MESSAGE(corpus.err.find("no\\nsuch") != std::string::npos, corpus.err);
}

TEST_CASE("--pinyin: a directory, an empty file and /dev/null are refused as the other files are") {
    const std::string dir = temp_directory("pinyin_dir");
    const std::string empty = temp_file("empty.pinyin.txt", "");
    for (const std::string& bad : {dir, empty, std::string("/dev/null")}) {
        CAPTURE(bad);
        one_error_line(run_program("ch12_gpt", "--corpus tests/data/tang_sample.txt --steps 1 "
                                               "--poems 1 --pinyin " +
                                                   bad),
                       bad + ": ");
    }
}

TEST_CASE("words: ch12's --help promises what it shows, and sends the heads to chapter 14") {
    // the help wrapped to the terminal's width: its lines joined again
    const auto unwrapped = [](std::string text) {
        for (std::size_t at; (at = text.find("\n  ")) != std::string::npos;) text.replace(at, 3, " ");
        return text;
    };
    const std::string zh = unwrapped(run_program("ch12_gpt", "--help --lang zh").out);
    CHECK(zh.find("它的注意力头在看什么，见第 14 章") != std::string::npos);
    CHECK(zh.find("看它的注意力头在看什么") == std::string::npos);
    const std::string en = unwrapped(run_program("ch12_gpt", "--help").out);
    CHECK(en.find("(what its heads look at is chapter 14)") != std::string::npos);
}
