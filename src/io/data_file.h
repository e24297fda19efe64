// data_file.h — reading a chapter's JSON data file (inputs, expected values, the tutorial's
// printed numbers) with errors a reader can act on.
//
// Every problem becomes a DataError whose message reads "FILE, KEY: what was expected", e.g.
//   data/ch02_self_attention.json, inputs.X: row 2 has 4 values, expected 5 like row 0
// Keys are paths from the top of the file: names joined by dots, array entries by [index]
// ("inputs.X", "expected.XXt", "inputs.gradient_batch[2][0]").
//
// JSON stays inside this layer (src/io/): what a program gets is our own types — Matrix,
// numbers checked against their range, strings, token ids — so that nothing above io/ includes
// nlohmann/json (a heavy header: every file that includes it compiles for seconds).
#pragma once
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <cstdint>
#include <string>
#include <vector>

#include "core/matrix.h"

struct DataError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// How deeply arrays and objects may nest: far more than any data file needs, far less than
// would exhaust the stack of a program that copies the parsed document.
constexpr std::size_t max_json_depth = 256;
// How many values one array may hold: as many as the largest vocabulary a reader may ask for
// (2^20 rows of an embedding table). Checked as the file is read, before anything is built, so
// that a file with a matrix of ten million rows is refused at once, not after gigabytes.
constexpr std::size_t max_json_array = std::size_t(1) << 20;

class DataFile {
public:
    // Missing or unreadable file, invalid JSON, nesting deeper than max_json_depth, an array
    // longer than max_json_array, a top level that is not an object -> DataError.
    static DataFile load(const std::string& path);
    // The same for JSON text in hand; name stands for the file in errors.
    static DataFile parse(const std::string& name, const std::string& json_text);

    const std::string& path() const { return path_; }
    bool has(const std::string& key) const;
    std::size_t length(const std::string& key) const;             // entries of an array
    std::vector<std::string> keys(const std::string& key) const;  // an object's names, in order
    bool is_text(const std::string& key) const;                   // a string
    bool is_array(const std::string& key) const;                  // an array (of anything)
    bool is_matrix(const std::string& key) const;  // an array whose first entry is an array
    bool same(const std::string& key_a, const std::string& key_b) const;  // equal JSON values
    // A fingerprint of the value at key (64-bit FNV-1a of a canonical encoding, hex), the same
    // the oracle writes under expected_from for each input its expected values were computed from.
    std::string digest(const std::string& key) const;

    Matrix matrix(const std::string& key) const;  // array of equal-length arrays of finite numbers
    Matrix vector(const std::string& key) const;  // array of finite numbers, as a (1 x n) Matrix
    double number(const std::string& key) const;  // one finite number
    double number(const std::string& key, double min, double max) const;  // ... in [min, max]
    // A whole number in [min, max]: 64 bits on every machine (long is 32 on Windows and wasm32).
    std::int64_t integer(const std::string& key, std::int64_t min, std::int64_t max) const;
    // An array of whole numbers in [min, max]; empty only when allow_empty.
    std::vector<std::int64_t> integers(const std::string& key, std::int64_t min, std::int64_t max,
                                       bool allow_empty = false) const;
    // A random generator's seed: a whole number from 0 to 2^62 (the oracle's are below 2^53).
    std::uint64_t seed(const std::string& key) const;
    // A size or an index: a whole number in [min, max], as std::size_t.
    std::size_t size(const std::string& key, std::size_t min, std::size_t max) const;
    std::vector<std::size_t> sizes(const std::string& key, std::size_t min, std::size_t max) const;
    bool flag(const std::string& key) const;                // true or false
    std::vector<bool> flags(const std::string& key) const;  // array of true/false
    std::string text(const std::string& key) const;
    std::vector<std::string> texts(const std::string& key) const;  // array of strings
    // A non-empty array of token ids from 0 to vocab − 1; and an array of such arrays.
    // token ids (Tokens, model/transformer/tokens.h, is this std::vector<int>)
    std::vector<int> tokens(const std::string& key, std::size_t vocab) const;
    std::vector<std::vector<int>> token_lists(const std::string& key, std::size_t vocab) const;

    // "FILE, KEY: what" — the one format of every error about this file
    DataError error(const std::string& key, const std::string& what) const;

    struct Document;  // the parsed JSON (io/json.h), shared by copies of this DataFile
    const Document& document() const { return *document_; }

private:
    std::string path_;
    std::shared_ptr<const Document> document_;
};
