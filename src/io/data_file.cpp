// data_file.cpp — JSON loading and checked conversion to Matrix, numbers and strings.
#include "io/data_file.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/translate.h"

DataError DataFile::error(const std::string& key, const std::string& what) const {
    return DataError(path_ + ", " + key + ": " + what);
}

DataFile DataFile::from_json(const std::string& name, Json root) {
    DataFile f;
    f.path_ = name;
    f.root_ = std::move(root);
    if (!f.root_.is_object()) throw f.error("(top level)", tr("expected a JSON object"));
    return f;
}

DataFile DataFile::load(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw DataError(tr("{}: cannot open the file (does it exist?)", path));
    std::stringstream text;
    text << in.rdbuf();
    try {
        return from_json(path, Json::parse(text.str()));
    } catch (const Json::parse_error& e) {
        // e.byte is the offset just past the problem; turn it into line and column
        const std::string s = text.str();
        std::size_t line = 1, col = 1;
        for (std::size_t i = 0; i + 1 < e.byte && i < s.size(); ++i) {
            if (s[i] == '\n') { ++line; col = 1; } else { ++col; }
        }
        throw DataError(tr("{}, line {} column {}: not valid JSON", path, line, col));
    } catch (const Json::exception& e) {  // e.g. a number too large for a double
        throw DataError(tr("{}: not valid JSON ({})", path, e.what()));
    }
}

static const Json* find(const Json& root, const std::string& key) {
    const Json* node = &root;
    std::size_t start = 0;
    while (start <= key.size()) {
        std::size_t dot = key.find('.', start);
        if (dot == std::string::npos) dot = key.size();
        const std::string part = key.substr(start, dot - start);
        if (!node->is_object() || !node->contains(part)) return nullptr;
        node = &(*node)[part];
        start = dot + 1;
    }
    return node;
}

bool DataFile::has(const std::string& key) const { return find(root_, key) != nullptr; }

const Json& DataFile::at(const std::string& key) const {
    const Json* node = find(root_, key);
    if (!node) throw error(key, tr("missing (this key is required)"));
    return *node;
}

// One entry of a vector or matrix: a JSON number that is finite.
static double finite_number(const DataFile& f, const std::string& where, const Json& v) {
    if (!v.is_number())
        throw f.error(where, tr("expected a number, found {}", v.type_name()));
    const double x = v.get<double>();
    if (!std::isfinite(x)) throw f.error(where, tr("expected a finite number"));
    return x;
}

Matrix DataFile::vector(const std::string& key) const { return vector_of(at(key), key); }

Matrix DataFile::vector_of(const Json& v, const std::string& key) const {
    if (!v.is_array())
        throw error(key, tr("expected an array of numbers, found {}", v.type_name()));
    Matrix m(1, v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        m(0, i) = finite_number(*this, key + "[" + std::to_string(i) + "]", v[i]);
    return m;
}

Matrix DataFile::matrix(const std::string& key) const { return matrix_of(at(key), key); }

Matrix DataFile::matrix_of(const Json& v, const std::string& key) const {
    const std::string expected =
        tr("expected a matrix (an array of equal-length arrays of numbers)");
    if (!v.is_array() || v.empty() || !v[0].is_array() || v[0].empty())
        throw error(key, expected);
    Matrix m(v.size(), v[0].size());
    for (std::size_t r = 0; r < m.rows; ++r) {
        const std::string row_key = key + "[" + std::to_string(r) + "]";
        if (!v[r].is_array()) throw error(row_key, expected);
        if (v[r].size() != m.cols)
            throw error(key,
                        tr("row {} has {} values, expected {} like row 0", r, v[r].size(), m.cols));
        for (std::size_t c = 0; c < m.cols; ++c)
            m(r, c) = finite_number(*this, row_key + "[" + std::to_string(c) + "]", v[r][c]);
    }
    return m;
}

double DataFile::number(const std::string& key) const { return finite_number(*this, key, at(key)); }

long DataFile::integer(const std::string& key) const {
    const Json& v = at(key);
    if (!v.is_number_integer()) throw error(key, tr("expected a whole number"));
    return v.get<long>();
}

long DataFile::integer(const std::string& key, long min, long max) const {
    const long v = integer(key);
    if (v < min || v > max)
        throw error(key, tr("expected a whole number from {} to {}", min, max));
    return v;
}

std::vector<long> DataFile::integers(const std::string& key, long min, long max) const {
    const Json& v = at(key);
    if (!v.is_array() || v.empty())
        throw error(key, tr("expected a non-empty array of whole numbers"));
    std::vector<long> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string where = key + "[" + std::to_string(i) + "]";
        if (!v[i].is_number_integer() || v[i].get<long>() < min || v[i].get<long>() > max)
            throw error(where, tr("expected a whole number from {} to {}", min, max));
        out.push_back(v[i].get<long>());
    }
    return out;
}

std::size_t DataFile::size(const std::string& key, std::size_t min, std::size_t max) const {
    return static_cast<std::size_t>(integer(key, static_cast<long>(min), static_cast<long>(max)));
}

std::vector<std::size_t> DataFile::sizes(const std::string& key, std::size_t min,
                                         std::size_t max) const {
    std::vector<std::size_t> out;
    for (long v : integers(key, static_cast<long>(min), static_cast<long>(max)))
        out.push_back(static_cast<std::size_t>(v));
    return out;
}

bool DataFile::flag(const std::string& key) const {
    const Json& v = at(key);
    if (!v.is_boolean()) throw error(key, tr("expected true or false"));
    return v.get<bool>();
}

std::vector<bool> DataFile::flags(const std::string& key) const {
    const Json& v = at(key);
    if (!v.is_array()) throw error(key, tr("expected an array of true/false"));
    std::vector<bool> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_boolean())
            throw error(key + "[" + std::to_string(i) + "]", tr("expected true or false"));
        out.push_back(v[i].get<bool>());
    }
    return out;
}

std::string DataFile::text(const std::string& key) const {
    const Json& v = at(key);
    if (!v.is_string()) throw error(key, tr("expected a string"));
    return v.get<std::string>();
}

std::vector<std::string> DataFile::texts(const std::string& key) const {
    const Json& v = at(key);
    if (!v.is_array()) throw error(key, tr("expected an array of strings"));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string())
            throw error(key + "[" + std::to_string(i) + "]", tr("expected a string"));
        out.push_back(v[i].get<std::string>());
    }
    return out;
}
