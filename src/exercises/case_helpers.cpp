// case_helpers.cpp — the pieces the exercise lists build their cases from.
#include "exercises/case_helpers.h"

#include <cmath>

namespace cases {

Matrix random_matrix(Random& rng, std::size_t rows, std::size_t cols, double spread) {
    Matrix m(rows, cols);
    for (double& x : m.data) x = spread * rng.normal();
    return m;
}

std::size_t random_size(Random& rng, std::size_t lo, std::size_t hi) {
    return lo + static_cast<std::size_t>(rng.uniform() * static_cast<double>(hi - lo + 1));
}

Matrix number(double x) { return Matrix(1, 1, x); }

std::size_t size_of(const Shown& s) { return static_cast<std::size_t>(s.value(0, 0)); }

std::vector<bool> flags_of(const Shown& s) {
    std::vector<bool> f;
    for (double x : s.value.data) f.push_back(x != 0);
    return f;
}

Matrix flags(const std::vector<bool>& f) {
    Matrix m(1, f.size());
    for (std::size_t i = 0; i < f.size(); ++i) m(0, i) = f[i] ? 1 : 0;
    return m;
}

std::vector<Matrix> column_blocks(const Matrix& x, std::size_t n) {
    std::vector<Matrix> blocks;
    for (std::size_t h = 0; h < n; ++h) blocks.push_back(column_block(x, h * (x.cols / n), x.cols / n));
    return blocks;
}

Matrix stacked(const std::vector<Matrix>& blocks) {
    Matrix m;
    for (const Matrix& b : blocks) append_rows(m, b);
    return m;
}

DataFile chapter_data(const std::string& data_dir, const std::string& name) {
    return DataFile::load(data_dir + "data/" + name + ".json");
}

Case golden_case(const DataFile& d, const std::string& expected_key, Inputs inputs,
                 Matrix expected, Call run) {
    const std::string key = "expected." + expected_key;
    if (expected.empty()) expected = d.is_matrix(key) ? d.matrix(key) : d.is_array(key) ? d.vector(key) : number(d.number(key));
    return {d.path() + ", " + key, std::move(inputs), std::move(expected), std::move(run)};
}

}  // namespace cases
