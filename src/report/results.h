// results.h — what a chapter computed, by name, and how it is checked against the data file.
//
// A chapter records each result under the key its data file uses in "expected". Then
//   --json   prints them all as one JSON object,
//   --check  compares every entry with expected.<key> at the result's tolerance.
#pragma once
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/matrix.h"
#include "io/data_file.h"

// Tolerances, relative: an entry passes when |got − expected| ≤ tol · max(1, |expected|),
// so values near zero are held to the same absolute size as values near one.
namespace tolerance {
constexpr double single_op = 1e-12;   // float64 against float64, one operation deep
constexpr double end_to_end = 1e-9;   // float64 against float64 through a whole model
}  // namespace tolerance

enum class Shape { Number, Vector, Matrix };  // how the value is written in JSON

struct Result {
    std::string name;
    Matrix value;      // a number is (1x1), a vector (1xn)
    Shape shape;
    double tol;
    bool checked = true;  // false: reported by --json, never compared (timings, machine figures)
};

class Results {
public:
    void add(const std::string& name, const Matrix& m, Shape shape = Shape::Matrix,
             double tol = tolerance::single_op);
    void add_measurement(const std::string& name, double x);  // in --json only: seconds, rates
    void add_json(const std::string& name, const Json& value) {  // in --json only: words, lists
        extra_.push_back({name, value});
    }
    void add_figure(const std::string& file_name, const std::string& svg) {
        figures_.push_back({file_name, svg});
    }
    const std::vector<Result>& all() const { return items_; }
    const std::vector<std::pair<std::string, std::string>>& figures() const {
        return figures_;
    }  // name, SVG
    const Result* find(const std::string& name) const;
    Json to_json() const;
private:
    std::vector<Result> items_;
    std::vector<std::pair<std::string, std::string>> figures_;
    std::vector<std::pair<std::string, Json>> extra_;
};

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
void print_mismatches(std::ostream& out, const std::vector<Mismatch>& rows, std::size_t limit = 40);
