// computed_once.cpp — a result kept in --cache DIR, keyed by the digest of the inputs it depends
// on (the digest the data file's expected_from uses).
#include "report/computed_once.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <locale>
#include <sstream>

#include "io/atomic_file.h"
#include "io/platform.h"
#include "report/chapter.h"
#include "text/translate.h"

namespace {

// "rows cols" on the first line, then each row's values: %.17g reads back to the same double.
std::string matrix_text(const Matrix& m) {
    std::string out = std::to_string(m.rows) + " " + std::to_string(m.cols) + "\n";
    char number[32];
    for (std::size_t r = 0; r < m.rows; ++r) {
        for (std::size_t c = 0; c < m.cols; ++c) {
            std::snprintf(number, sizeof number, "%.17g", m(r, c));
            out += (c ? " " : "") + std::string(number);
        }
        out += "\n";
    }
    return out;
}

// The matrix a cache file holds, or false where it is missing, short or not numbers.
bool read_matrix_text(const std::string& path, Matrix& m) {
    std::ifstream in = open_for_reading(path);
    std::size_t rows = 0, cols = 0;
    if (!in || !(in >> rows >> cols) || rows == 0 || cols == 0 || rows > 4096 || cols > 4096)
        return false;
    Matrix read(rows, cols);
    for (double& x : read.data) {
        std::string word;
        if (!(in >> word)) return false;
        std::istringstream number(word);
        number.imbue(std::locale::classic());
        if (!(number >> x)) return false;
    }
    m = read;
    return true;
}

}  // namespace

Matrix computed_once(Chapter& ch, const std::string& name, const std::string& inputs_key,
                     const std::function<Matrix()>& compute) {
    const std::string& dir = ch.options.cache_dir;
    if (dir.empty()) return compute();
    const std::string chapter = ch.data.has("chapter") ? ch.data.text("chapter") + "." : "";
    const std::string file = chapter + name + "." + ch.data.digest(inputs_key) + ".txt",
                      path = dir + "/" + file;
    Matrix m;
    if (read_matrix_text(path, m)) {
        std::cerr << tr("note: {} read back from {}, computed by an earlier run from the same {}",
                        name, path, inputs_key)
                  << "\n";
        return m;
    }
    m = compute();
    make_directory(dir);
    write_file_atomically(dir, file, matrix_text(m));
    return m;
}
