// test_data_file.cpp — loading data files: every kind of bad input gets a precise message.
#include <doctest/doctest.h>

#include <string>

#include "io/data_file.h"
#include "helpers.h"
#include "model/transformer/tokens.h"

static std::string load_error(const std::string& text) {
    try {
        DataFile::load(temp_file("bad.json", text));
    } catch (const DataError& e) {
        return e.what();
    }
    return "(loaded)";
}

static std::string key_error(const std::string& text,
                             const std::function<void(const DataFile&)>& use) {
    const DataFile f = DataFile::load(temp_file("case.json", text));
    try {
        use(f);
    } catch (const DataError& e) {
        const std::string m = e.what();
        return m.substr(m.find(", ") + 2);  // drop the temporary path
    }
    return "(no error)";
}

TEST_CASE("a missing file and invalid JSON are named with where the problem is") {
    try {
        DataFile::load("/nonexistent/x.json");
        FAIL("loaded a missing file");
    } catch (const DataError& e) {
        CHECK(std::string(e.what()) ==
              "/nonexistent/x.json: cannot open the file (does it exist?)");
    }
    const std::string m = load_error("{\n  \"a\": [1, 2,\n  \"b\": 3\n}");
    CHECK(m.find("line 3 column") != std::string::npos);
    CHECK(m.find("not valid JSON") != std::string::npos);
    CHECK(load_error("[1, 2]").find("expected a JSON object") != std::string::npos);
    CHECK(load_error("{\"x\": 1e999}").find("not valid JSON") != std::string::npos);  // overflow
}

TEST_CASE("a matrix must be rectangular and finite") {
    const std::string text =
        R"({"in": {"X": [[1, 2], [3, 4]], "R": [[1, 2], [3]], "S": [[1, "2"]], "E": [], "N": 5}})";
    const DataFile f = DataFile::load(temp_file("m.json", text));
    const Matrix X = f.matrix("in.X");
    CHECK(X.rows == 2);
    CHECK(X(1, 0) == 3);
    CHECK(key_error(text, [](const DataFile& d) { d.matrix("in.R"); }) ==
          "in.R: row 1 has 1 values, expected 2 like row 0");
    CHECK(key_error(text, [](const DataFile& d) { d.matrix("in.S"); }) ==
          "in.S[0][1]: expected a number, found the string \"2\" (a number in quotes: write it "
          "without them)");
    CHECK(key_error(text, [](const DataFile& d) { d.matrix("in.E"); }).find("expected a matrix") !=
          std::string::npos);
    CHECK(key_error(text, [](const DataFile& d) { d.matrix("in.N"); }).find("expected a matrix") !=
          std::string::npos);
    CHECK(key_error(text, [](const DataFile& d) { d.matrix("in.Y"); }) ==
          "in.Y: missing (this key is required)");
    CHECK(key_error(text, [](const DataFile& d) { d.matrix("nothing.here"); }) ==
          "nothing.here: missing (this key is required)");
}

TEST_CASE("numbers, whole numbers and strings are checked for their type and range") {
    const std::string text =
        R"({"n": 2.5, "i": 7, "s": "笔", "t": ["a", 1], "v": [1, 2, 3], "l": [4, 0]})";
    const DataFile f = DataFile::load(temp_file("t.json", text));
    CHECK(f.number("n") == 2.5);
    CHECK(f.integer("i", 0, 10) == 7);
    CHECK(f.text("s") == "笔");
    CHECK(f.vector("v").cols == 3);
    CHECK(key_error(text, [](const DataFile& d) { d.integer("n", 0, 10); }) ==
          "n: expected a whole number from 0 to 10");
    CHECK(key_error(text, [](const DataFile& d) { d.integer("i", 0, 5); }) ==
          "i: expected a whole number from 0 to 5");
    CHECK(key_error(text, [](const DataFile& d) { d.number("s"); }) ==
          "s: expected a number, found the string \"笔\"");
    CHECK(key_error(text, [](const DataFile& d) { d.texts("t"); }) == "t[1]: expected a string");
    CHECK(key_error(text, [](const DataFile& d) { d.integers("l", 1, 9); }) ==
          "l[1]: expected a whole number from 1 to 9");
    CHECK(key_error(text, [](const DataFile& d) { d.vector("s"); }) ==
          "s: expected an array of numbers, found the string \"笔\"");
}

TEST_CASE("a string where a number belongs is shown, with why it is not one") {
    const std::string text =
        R"({"wide": "２", "neg": "－０．５", "empty": "", "huge": "1e999", "word": "abc\u0007def",
            "long": "一二三四五六七八九十一二三四五六七八九十"})";
    const auto said = [&](const char* key) {
        return key_error(text, [&](const DataFile& d) { d.number(key); });
    };
    CHECK(said("wide") == "wide: expected a number, found the string \"２\" (full-width "
                          "characters: a number is typed half-width, as 2)");
    CHECK(said("neg").find("as -0.5)") != std::string::npos);
    CHECK(said("empty") == "empty: expected a number, found an empty string");
    CHECK(said("huge") ==
          "huge: expected a number, found the string \"1e999\" (beyond the range of float64)");
    CHECK(said("word") == "word: expected a number, found the string \"abc?def\"");
    // 40 bytes at most, cut at a character's first byte: 13 characters of 3 bytes, then …
    CHECK(said("long") == "long: expected a number, found the string \"一二三四五六七八九十一二三…\"");
}

TEST_CASE("keys reach into arrays by index, and objects list their names in order") {
    const DataFile f = DataFile::parse(
        "k.json",
        R"({"b": [[3, [1, 2]], [4, [5]]], "o": {"z": 1, "a": 2}, "p": {"z": 1, "a": 2}})");
    CHECK(f.integer("b[1][0]", 0, 9) == 4);
    CHECK(f.tokens("b[0][1]", 3) == Tokens{1, 2});
    CHECK(f.length("b") == 2);
    CHECK(f.keys("o") == std::vector<std::string>{"z", "a"});
    CHECK(f.same("o", "p"));
    CHECK_FALSE(f.same("o", "b"));
    CHECK_FALSE(f.has("b[2]"));
    CHECK_FALSE(f.has("b[x]"));
    CHECK(f.is_matrix("b"));
    CHECK_FALSE(f.is_matrix("o"));
}

TEST_CASE("whole numbers are never truncated, token ids stay inside the vocabulary") {
    const std::string text = R"({"big": 4294967299, "huge": 18446744073709551615, "neg": -3,
                                 "ids": [1, 2, 13], "none": []})";
    CHECK(key_error(text, [](const DataFile& d) { d.integer("big", 0, 12); }) ==
          "big: expected a whole number from 0 to 12");
    CHECK(key_error(text, [](const DataFile& d) {
              d.integer("huge", 0, std::int64_t(1) << 40);
          }).find("expected a whole number") != std::string::npos);
    CHECK(key_error(text, [](const DataFile& d) { d.size("neg", 0, 5); }) ==
          "neg: expected a whole number from 0 to 5");
    CHECK(key_error(text, [](const DataFile& d) { d.tokens("ids", 13); }) ==
          "ids[2]: expected a whole number from 0 to 12");
    CHECK(key_error(text, [](const DataFile& d) { d.tokens("none", 13); }) ==
          "none: expected a non-empty array of token ids from 0 to 12");
    CHECK(key_error(text, [](const DataFile& d) { d.token_lists("none", 13); }) ==
          "none: expected at least one sequence of token ids");
}

TEST_CASE("nesting deeper than a data file needs is refused before it is parsed") {
    const std::string deep = "{\"x\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    const std::string m = load_error(deep);
    CHECK(m.find("nested deeper than 256 levels") != std::string::npos);
    CHECK(m.find("line 1 column 262") != std::string::npos);  // where the 257th level opens
    // brackets inside strings do not count, and a file just inside the limit loads
    CHECK(load_error("{\"s\": \"" + std::string(1000, '[') + "\"}") == "(loaded)");
    CHECK(load_error("{\"x\": " + std::string(255, '[') + std::string(255, ']') + "}") ==
          "(loaded)");
}
