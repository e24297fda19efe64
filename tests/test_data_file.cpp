// test_data_file.cpp — loading data files: every kind of bad input gets a precise message.
#include <doctest/doctest.h>

#include <string>

#include "io/data_file.h"
#include "helpers.h"

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
          "in.S[0][1]: expected a number, found string");
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
    CHECK(key_error(text, [](const DataFile& d) { d.integer("n"); }) ==
          "n: expected a whole number");
    CHECK(key_error(text, [](const DataFile& d) { d.integer("i", 0, 5); }) ==
          "i: expected a whole number from 0 to 5");
    CHECK(key_error(text, [](const DataFile& d) { d.number("s"); }) ==
          "s: expected a number, found string");
    CHECK(key_error(text, [](const DataFile& d) { d.texts("t"); }) == "t[1]: expected a string");
    CHECK(key_error(text, [](const DataFile& d) { d.integers("l", 1, 9); }) ==
          "l[1]: expected a whole number from 1 to 9");
    CHECK(key_error(text, [](const DataFile& d) { d.vector("s"); }) ==
          "s: expected an array of numbers, found string");
}
