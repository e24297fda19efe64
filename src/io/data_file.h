// data_file.h — reading a chapter's JSON data file (inputs, expected values, the tutorial's
// printed numbers) with errors a reader can act on.
//
// Every problem becomes a DataError whose message reads "FILE, KEY: what was expected", e.g.
//   data/ch02_self_attention.json, inputs.X: row 2 has 4 values, expected 5 like row 0
// Keys are dotted paths from the top of the file ("inputs.X", "expected.XXt").
#pragma once
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/matrix.h"

using Json = nlohmann::ordered_json;  // keeps keys in the order they were written

struct DataError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class DataFile {
public:
    static DataFile load(const std::string& path);  // missing file, invalid JSON -> DataError
    static DataFile from_json(const std::string& name, Json root);  // for tests

    const std::string& path() const { return path_; }
    bool has(const std::string& key) const;
    const Json& at(const std::string& key) const;  // any JSON value; missing -> DataError

    Matrix matrix(const std::string& key) const;  // array of equal-length arrays of finite numbers
    Matrix vector(const std::string& key) const;  // array of finite numbers, as a (1 x n) Matrix
    double number(const std::string& key) const;  // one finite number
    long integer(const std::string& key) const;   // one whole number
    long integer(const std::string& key, long min, long max) const;  // ... in [min, max]
    std::vector<long> integers(const std::string& key, long min, long max) const;  // array of them
    // A size or an index: a whole number in [min, max], as std::size_t.
    std::size_t size(const std::string& key, std::size_t min, std::size_t max) const;
    std::vector<std::size_t> sizes(const std::string& key, std::size_t min, std::size_t max) const;
    bool flag(const std::string& key) const;                  // true or false
    std::vector<bool> flags(const std::string& key) const;  // array of true/false
    std::string text(const std::string& key) const;
    std::vector<std::string> texts(const std::string& key) const;  // array of strings

    // The same conversions for a JSON value already in hand; `where` names it in errors.
    Matrix matrix_of(const Json& value, const std::string& where) const;
    Matrix vector_of(const Json& value, const std::string& where) const;

    // "FILE, KEY: what" — the one format of every error about this file
    DataError error(const std::string& key, const std::string& what) const;

private:
    std::string path_;
    Json root_;
};
