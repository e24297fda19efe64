// data_file.cpp — JSON loading and checked conversion to Matrix, numbers, strings and tokens.
#include "io/data_file.h"

#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "io/bounded_read.h"
#include "io/json.h"
#include "io/platform.h"
#include "model/transformer/tokens.h"
#include "text/numbers.h"
#include "text/translate.h"

namespace {

// Line and column of byte offset `at` in text, for an error a reader can find in an editor.
std::string line_column(const std::string& text, std::size_t at) {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < at && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return tr("line {} column {}", line, col);
}

// Where the text first goes past what a data file of this project holds: arrays and objects
// nested deeper than max_json_depth, or an array of more than max_json_array values. Scanned
// before parsing, outside strings, so that no parser recurses that deep or builds that much.
struct TooLarge {
    enum class What { Nothing, Deep, Long } what = What::Nothing;
    std::size_t at = 0;  // the byte where it happened
};
TooLarge too_large(const std::string& text) {
    std::vector<std::size_t> commas;  // of each open array: its values so far, less one
    std::vector<bool> is_array;       // of each open array or object, innermost last
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (is_array.size() == max_json_depth) return {TooLarge::What::Deep, i};
            is_array.push_back(c == '[');
            if (c == '[') commas.push_back(0);
        } else if ((c == ']' || c == '}') && !is_array.empty()) {
            if (is_array.back()) commas.pop_back();
            is_array.pop_back();
        } else if (c == ',' && !is_array.empty() && is_array.back()) {
            if (++commas.back() >= max_json_array) return {TooLarge::What::Long, i};
        }
    }
    return {};
}

// One step of a key: a name, or an [index] into an array.
const Json* step_into(const Json* node, const std::string& name, std::size_t index, bool is_index) {
    if (is_index) return node->is_array() && index < node->size() ? &(*node)[index] : nullptr;
    if (!node->is_object()) return nullptr;
    const auto it = node->find(name);
    return it == node->end() ? nullptr : &*it;
}

// "a.b[2][0].c": names separated by dots, indices in brackets.
const Json* find(const Json& root, const std::string& key) {
    const Json* node = &root;
    std::size_t i = 0;
    while (node && i < key.size()) {
        if (key[i] == '.') ++i;
        if (key[i] == '[') {
            const std::size_t close = key.find(']', i);
            if (close == std::string::npos) return nullptr;
            const std::string digits = key.substr(i + 1, close - i - 1);
            if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
                return nullptr;
            node = step_into(node, "", std::stoul(digits), true);
            i = close + 1;
            continue;
        }
        const std::size_t end = key.find_first_of(".[", i);
        const std::size_t stop = end == std::string::npos ? key.size() : end;
        node = step_into(node, key.substr(i, stop - i), 0, false);
        i = stop;
    }
    return node;
}

namespace {

// Full-width digits, signs, point and e (what a Chinese input method types: ２, －, ．) as ASCII.
std::string half_width(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char a = s[i], b = i + 1 < s.size() ? s[i + 1] : 0,
                            c = i + 2 < s.size() ? s[i + 2] : 0;
        if (a == 0xEF && b == 0xBC && c >= 0x90 && c <= 0x99) {  // U+FF10 … U+FF19
            out += static_cast<char>('0' + (c - 0x90)), i += 2;
        } else if (a == 0xEF && b == 0xBC && (c == 0x8B || c == 0x8D || c == 0x8E || c == 0xA5)) {
            out += c == 0x8B ? '+' : c == 0x8D ? '-' : c == 0x8E ? '.' : 'E', i += 2;
        } else if (a == 0xEF && b == 0xBD && c == 0x85) {  // ｅ
            out += 'e', i += 2;
        } else {
            out += static_cast<char>(a);
        }
    }
    return out;
}

// Whether the whole text reads as a number (strtod takes all of it, and a digit is in it).
bool reads_as_number(const std::string& s, double& x) {
    if (s.empty() || s.find_first_of("0123456789") == std::string::npos ||
        std::isspace(static_cast<unsigned char>(s.front())))
        return false;
    char* end = nullptr;
    x = std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size();
}

// A string as an error line shows it: quoted (control characters as '?', at most 40 bytes), and
// why it is not a number where it was meant as one.
std::string string_shown(const std::string& s) {
    if (s.empty()) return tr("an empty string");
    std::string shown;
    for (std::size_t i = 0; i < s.size() && shown.size() < 40; ++i)
        shown += static_cast<unsigned char>(s[i]) < 0x20 ? '?' : s[i];
    if (shown.size() < s.size()) {  // cut at a character's first byte, then say so
        while (!shown.empty() && (static_cast<unsigned char>(shown.back()) & 0xC0) == 0x80)
            shown.pop_back();
        if (!shown.empty() && static_cast<unsigned char>(shown.back()) >= 0xC0) shown.pop_back();
        shown += "…";
    }
    double x = 0;
    const std::string half = half_width(s);
    if (half != s && reads_as_number(half, x))
        return tr("the string \"{}\" (full-width characters: a number is typed half-width, as {})",
                  shown, half);
    if (reads_as_number(s, x))
        return std::isfinite(x) ? tr("the string \"{}\" (a number in quotes: write it without them)", shown)
                                : tr("the string \"{}\" (beyond the range of float64)", shown);
    return tr("the string \"{}\"", shown);
}

}  // namespace

std::string type_name(const Json& v) {
    if (v.is_number()) return tr("a number");
    if (v.is_string()) return string_shown(v.get<std::string>());
    if (v.is_boolean()) return tr("true or false");
    if (v.is_array()) return tr("an array");
    if (v.is_object()) return tr("an object");
    return tr("null");
}

// One entry of a vector or matrix: a JSON number that is finite.
double finite_number(const DataFile& f, const std::string& where, const Json& v) {
    if (!v.is_number()) throw f.error(where, tr("expected a number, found {}", type_name(v)));
    const double x = v.get<double>();
    if (!std::isfinite(x)) throw f.error(where, tr("expected a finite number"));
    return x;
}

// A whole number of the JSON value in [min, max] (never truncated: 4294967299 is not 3).
std::int64_t whole_number(const DataFile& f, const std::string& where, const Json& v,
                          std::int64_t min, std::int64_t max) {
    const std::string expected = tr("expected a whole number from {} to {}", min, max);
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(INT64_MAX) || static_cast<std::int64_t>(u) > max ||
            static_cast<std::int64_t>(u) < min)
            throw f.error(where, expected);
        return static_cast<std::int64_t>(u);
    }
    if (!v.is_number_integer()) throw f.error(where, expected);
    const std::int64_t x = v.get<std::int64_t>();
    if (x < min || x > max) throw f.error(where, expected);
    return x;
}

// 64-bit FNV-1a over the encoding data/oracle/common.py's digest() uses, value by value.
struct Fnv {
    std::uint64_t h = 0xCBF29CE484222325ULL;
    void feed(const std::string& bytes) {
        for (const unsigned char b : bytes) h = (h ^ b) * 0x100000001B3ULL;
    }
    void walk(const Json& v) {
        if (v.is_boolean()) return feed(v.get<bool>() ? "b1" : "b0");
        if (v.is_null()) return feed("n");
        if (v.is_number_unsigned()) return feed("i" + std::to_string(v.get<std::uint64_t>()) + ";");
        if (v.is_number_integer()) return feed("i" + std::to_string(v.get<std::int64_t>()) + ";");
        if (v.is_number_float()) {
            const double x = v.get<double>();
            unsigned char bytes[8];
            std::memcpy(bytes, &x, 8);  // little-endian, as struct.pack("<d") on this machine
            return feed("f" + std::string(reinterpret_cast<const char*>(bytes), 8));
        }
        if (v.is_string()) {
            const std::string& s = v.get_ref<const std::string&>();
            return feed("s" + std::to_string(s.size()) + ":" + s);
        }
        if (v.is_array()) {
            feed("[" + std::to_string(v.size()) + ":");
            for (const Json& x : v) walk(x);
            return;
        }
        feed("{" + std::to_string(v.size()) + ":");
        for (const auto& item : v.items()) {
            walk(Json(item.key()));
            walk(item.value());
        }
    }
};

std::string at_index(const std::string& key, std::size_t i) {
    return key + "[" + std::to_string(i) + "]";
}

}  // namespace

const Json& json_at(const DataFile& f, const std::string& key) {
    const Json* node = find(f.document().root, key);
    if (!node) throw f.error(key, tr("missing (this key is required)"));
    return *node;
}

DataError DataFile::error(const std::string& key, const std::string& what) const {
    return DataError(tr("{}, {}: {}", path_, key, what));
}

DataFile DataFile::parse(const std::string& name, const std::string& text) {
    // nlohmann/json stops at a NUL byte as at the text's end: what follows one would go unread
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
        throw DataError(tr("{}, {}: a NUL byte (0x00); expected JSON text", name, line_column(text, nul)));
    const TooLarge large = too_large(text);
    if (large.what == TooLarge::What::Deep)
        throw DataError(
            tr("{}, {}: nested deeper than {} levels (arrays and objects inside each "
               "other); expected a data file of this project",
               name, line_column(text, large.at), max_json_depth));
    if (large.what == TooLarge::What::Long)
        throw DataError(tr("{}, {}: an array of more than {} values; expected a data file of "
                           "this project",
                           name, line_column(text, large.at), grouped(max_json_array)));
    auto document = std::make_shared<Document>();
    try {
        document->root = Json::parse(text);
    } catch (const Json::parse_error& e) {  // e.byte is the offset just past the problem
        throw DataError(
            tr("{}, {}: not valid JSON", name, line_column(text, e.byte > 0 ? e.byte - 1 : 0)));
    } catch (const Json::exception&) {  // e.g. a number too large for a double
        throw DataError(tr("{}: not valid JSON (a value out of range)", name));
    }
    DataFile f;
    f.path_ = name;
    f.document_ = std::move(document);
    if (!f.document_->root.is_object())
        throw f.error(tr("(top level)"), tr("expected a JSON object"));
    return f;
}

DataFile DataFile::load(const std::string& path) {
    std::ifstream in = open_for_reading(path);
    if (!in) throw DataError(tr("{}: cannot open the file (does it exist?)", path));
    std::string text = read_all(in, path);
    if (in.bad()) throw DataError(tr("{}: cannot read the file", path));
    return parse(path, text);
}

bool DataFile::has(const std::string& key) const { return find(document_->root, key) != nullptr; }

std::size_t DataFile::length(const std::string& key) const {
    const Json& v = json_at(*this, key);
    if (!v.is_array()) throw error(key, tr("expected an array, found {}", type_name(v)));
    return v.size();
}

std::vector<std::string> DataFile::keys(const std::string& key) const {
    const Json& v = json_at(*this, key);
    if (!v.is_object()) throw error(key, tr("expected an object, found {}", type_name(v)));
    std::vector<std::string> out;
    for (const auto& item : v.items()) out.push_back(item.key());
    return out;
}

std::string DataFile::digest(const std::string& key) const {
    Fnv f;
    f.walk(json_at(*this, key));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(f.h));
    return hex;
}

bool DataFile::is_text(const std::string& key) const { return json_at(*this, key).is_string(); }
bool DataFile::is_array(const std::string& key) const { return json_at(*this, key).is_array(); }
bool DataFile::is_matrix(const std::string& key) const {
    const Json& v = json_at(*this, key);
    return v.is_array() && !v.empty() && v[0].is_array();
}

bool DataFile::same(const std::string& key_a, const std::string& key_b) const {
    const Json* a = find(document_->root, key_a);
    const Json* b = find(document_->root, key_b);
    return a && b && *a == *b;
}

Matrix vector_of(const DataFile& f, const Json& v, const std::string& key) {
    if (!v.is_array())
        throw f.error(key, tr("expected an array of numbers, found {}", type_name(v)));
    Matrix m(1, v.size());
    for (std::size_t i = 0; i < v.size(); ++i) m(0, i) = finite_number(f, at_index(key, i), v[i]);
    return m;
}

Matrix matrix_of(const DataFile& f, const Json& v, const std::string& key) {
    const std::string expected =
        tr("expected a matrix (an array of equal-length arrays of numbers)");
    if (!v.is_array() || v.empty() || !v[0].is_array() || v[0].empty())
        throw f.error(key, expected);
    Matrix m(v.size(), v[0].size());
    for (std::size_t r = 0; r < m.rows; ++r) {
        const std::string row_key = at_index(key, r);
        if (!v[r].is_array()) throw f.error(row_key, expected);
        if (v[r].size() != m.cols)
            throw f.error(
                key, tr("row {} has {} values, expected {} like row 0", r, v[r].size(), m.cols));
        for (std::size_t c = 0; c < m.cols; ++c)
            m(r, c) = finite_number(f, at_index(row_key, c), v[r][c]);
    }
    return m;
}

Matrix DataFile::vector(const std::string& key) const {
    return vector_of(*this, json_at(*this, key), key);
}

Matrix DataFile::matrix(const std::string& key) const {
    return matrix_of(*this, json_at(*this, key), key);
}

double DataFile::number(const std::string& key) const {
    return finite_number(*this, key, json_at(*this, key));
}

double DataFile::number(const std::string& key, double min, double max) const {
    const double x = number(key);
    if (!(x >= min && x <= max))
        throw error(key, tr("expected a number from {} to {}", general(min, 6), general(max, 6)));
    return x;
}

std::int64_t DataFile::integer(const std::string& key, std::int64_t min, std::int64_t max) const {
    return whole_number(*this, key, json_at(*this, key), min, max);
}

std::vector<std::int64_t> DataFile::integers(const std::string& key, std::int64_t min,
                                             std::int64_t max, bool allow_empty) const {
    const Json& v = json_at(*this, key);
    if (!v.is_array() || (v.empty() && !allow_empty))
        throw error(key, allow_empty ? tr("expected an array of whole numbers")
                                     : tr("expected a non-empty array of whole numbers"));
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < v.size(); ++i)
        out.push_back(whole_number(*this, at_index(key, i), v[i], min, max));
    return out;
}

std::size_t DataFile::size(const std::string& key, std::size_t min, std::size_t max) const {
    return static_cast<std::size_t>(
        integer(key, static_cast<std::int64_t>(min), static_cast<std::int64_t>(max)));
}

std::uint64_t DataFile::seed(const std::string& key) const {
    return static_cast<std::uint64_t>(integer(key, 0, std::int64_t(1) << 62));
}

std::vector<std::size_t> DataFile::sizes(const std::string& key, std::size_t min,
                                         std::size_t max) const {
    std::vector<std::size_t> out;
    for (const std::int64_t v :
         integers(key, static_cast<std::int64_t>(min), static_cast<std::int64_t>(max)))
        out.push_back(static_cast<std::size_t>(v));
    return out;
}

bool DataFile::flag(const std::string& key) const {
    const Json& v = json_at(*this, key);
    if (!v.is_boolean()) throw error(key, tr("expected true or false"));
    return v.get<bool>();
}

std::vector<bool> DataFile::flags(const std::string& key) const {
    const Json& v = json_at(*this, key);
    if (!v.is_array()) throw error(key, tr("expected an array of true/false"));
    std::vector<bool> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_boolean()) throw error(at_index(key, i), tr("expected true or false"));
        out.push_back(v[i].get<bool>());
    }
    return out;
}

std::string DataFile::text(const std::string& key) const {
    const Json& v = json_at(*this, key);
    if (!v.is_string()) throw error(key, tr("expected a string"));
    return v.get<std::string>();
}

std::vector<std::string> DataFile::texts(const std::string& key) const {
    const Json& v = json_at(*this, key);
    if (!v.is_array()) throw error(key, tr("expected an array of strings"));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string()) throw error(at_index(key, i), tr("expected a string"));
        out.push_back(v[i].get<std::string>());
    }
    return out;
}

Tokens DataFile::tokens(const std::string& key, std::size_t vocab) const {
    const Json& v = json_at(*this, key);
    const std::string expected =
        tr("expected a non-empty array of token ids from 0 to {}", vocab == 0 ? 0 : vocab - 1);
    if (!v.is_array() || v.empty() || vocab == 0) throw error(key, expected);
    Tokens ids;
    for (std::size_t i = 0; i < v.size(); ++i)
        ids.push_back(static_cast<int>(
            whole_number(*this, at_index(key, i), v[i], 0, static_cast<std::int64_t>(vocab) - 1)));
    return ids;
}

std::vector<Tokens> DataFile::token_lists(const std::string& key, std::size_t vocab) const {
    std::vector<Tokens> out;
    const std::size_t n = length(key);
    if (n == 0) throw error(key, tr("expected at least one sequence of token ids"));
    for (std::size_t i = 0; i < n; ++i) out.push_back(tokens(at_index(key, i), vocab));
    return out;
}
