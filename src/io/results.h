// results.h — what a chapter computed, by name, written as JSON and checked against the data
// file.
//
// A chapter records each result under the key its data file uses in "expected". Then
//   --json   prints them all as one JSON object (results_json()),
//   --check  compares every entry with expected.<key> at the result's tolerance.
#pragma once
#include <string>
#include <vector>

#include "core/matrix.h"
#include "io/data_file.h"

// Tolerances, relative: an entry passes when |got − expected| ≤ tol · max(1, |expected|),
// so values near zero are held to the same absolute size as values near one.
namespace tolerance {
constexpr double single_op = 1e-12;  // float64 against float64, one operation deep
constexpr double end_to_end = 1e-9;  // float64 against float64 through a whole model
}  // namespace tolerance

enum class Shape { Number, Vector, Matrix };  // how the value is written in JSON

struct Result {
    std::string name;
    Matrix value;  // a number is (1x1), a vector (1xn)
    Shape shape;
    double tol;
    bool checked = true;  // false: reported by --json, never compared (timings, machine figures)
};

using Words = std::vector<std::string>;

class Results {
public:
    void add(const std::string& name, const Matrix& m, Shape shape = Shape::Matrix,
             double tol = tolerance::single_op);
    void add_measurement(const std::string& name, double x);  // in --json only: seconds, rates
    void add_measurement(const std::string& name, const Matrix& m);  // a table of them
    // In --json only: words (a decoded output), or a list of them (several outputs).
    void add_words(const std::string& name, const Words& words);
    void add_word_lists(const std::string& name, const std::vector<Words>& lists);
    void add_text(const std::string& name, const std::string& text);  // one string
    const std::vector<Result>& all() const { return items_; }
    const Result* find(const std::string& name) const;

private:
    friend std::string results_json(const Results& results);
    struct WordLists {
        std::string name;
        std::vector<Words> lists;
        bool one_list;      // written as one list of words, not a list of lists
        bool text = false;  // written as one string: lists[0][0]
    };
    std::vector<Result> items_;
    std::vector<WordLists> words_;
};

// Every result as one JSON object, in the order recorded, two spaces of indentation.
std::string results_json(const Results& results);

struct Mismatch {
    std::string name, index;  // index "[r,c]", "[i]", "" or "shape"
    std::string got, expected;
    double diff, tol;
};

struct CheckReport {
    int passed = 0;
    int failed = 0;
    std::vector<Mismatch> mismatches;
    void add(const CheckReport& other);
};

// Compares every result with expected.<name> in the file; a missing key is a DataError.
CheckReport check_results(const Results& results, const DataFile& data);

// The inputs ("inputs.X", …) that are not what the file's expected values were computed from
// (their fingerprints differ from expected_from): a reader edited them without `make rewrite`.
std::vector<std::string> inputs_changed_since_expected(const DataFile& data);
