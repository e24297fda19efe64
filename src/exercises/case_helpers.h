// case_helpers.h — what the exercise lists use to build their cases: random matrices, inputs
// read back from Shown values, results made into one matrix.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "core/random.h"
#include "exercises/exercise_list.h"
#include "io/data_file.h"

namespace cases {

Matrix random_matrix(Random& rng, std::size_t rows, std::size_t cols, double spread = 1.0);
std::size_t random_size(Random& rng, std::size_t lo, std::size_t hi);  // in [lo, hi]
Matrix number(double x);                                 // (1x1)
std::size_t size_of(const Shown& s);                     // a (1x1) whole number
std::vector<bool> flags_of(const Shown& s);              // a row of 0 and 1
Matrix flags(const std::vector<bool>& f);
std::vector<Matrix> column_blocks(const Matrix& x, std::size_t n);  // n blocks side by side
Matrix stacked(const std::vector<Matrix>& blocks);                  // one below the other
// The data file at data_dir/data/NAME.json (DataError when it is not there)
DataFile chapter_data(const std::string& data_dir, const std::string& name);
// A case of the data file: source names its expected key
Case golden_case(const DataFile& d, const std::string& expected_key, Inputs inputs,
                 Matrix expected = Matrix(), Call run = nullptr);

}  // namespace cases
