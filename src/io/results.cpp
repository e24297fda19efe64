// results.cpp — recording results, writing them as JSON, comparing them with expected values.
#include "io/results.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "io/json.h"

void Results::add(const std::string& name, const Matrix& m, Shape shape, double tol) {
    items_.push_back({name, m, shape, tol});
}

void Results::add_measurement(const std::string& name, double x) {
    items_.push_back({name, Matrix{{x}}, Shape::Number, 0.0, false});
}

void Results::add_measurement(const std::string& name, const Matrix& m) {
    items_.push_back({name, m, Shape::Matrix, 0.0, false});
}

void Results::add_words(const std::string& name, const Words& words) {
    words_.push_back({name, {words}, true});
}

void Results::add_text(const std::string& name, const std::string& text) {
    words_.push_back({name, {{text}}, true, true});
}

void Results::add_word_lists(const std::string& name, const std::vector<Words>& lists) {
    words_.push_back({name, lists, false});
}

const Result* Results::find(const std::string& name) const {
    for (const Result& r : items_)
        if (r.name == name) return &r;
    return nullptr;
}

static Json value_json(const Result& r) {
    if (r.shape == Shape::Number) {
        const double x = r.value.empty() ? 0.0 : r.value(0, 0);
        if (x == std::floor(x) && std::fabs(x) < 1e15) return static_cast<long long>(x);  // counts
        return x;
    }
    if (r.shape == Shape::Vector) return r.value.data;
    Json rows = Json::array();
    for (std::size_t i = 0; i < r.value.rows; ++i)
        rows.push_back(std::vector<double>(r.value.row(i), r.value.row(i) + r.value.cols));
    return rows;
}

std::string results_json(const Results& results) {
    Json out = Json::object();
    for (const Result& r : results.items_) out[r.name] = value_json(r);
    for (const auto& w : results.words_)
        out[w.name] = w.text ? Json(w.lists[0][0]) : w.one_list ? Json(w.lists[0]) : Json(w.lists);
    return out.dump(2);
}

void CheckReport::add(const CheckReport& other) {
    passed += other.passed;
    failed += other.failed;
    mismatches.insert(mismatches.end(), other.mismatches.begin(), other.mismatches.end());
}

static std::string full_precision(double x) {
    std::ostringstream s;
    s << std::setprecision(17) << x;
    return s.str();
}

static std::string index_text(const Result& r, std::size_t i) {
    if (r.shape == Shape::Number) return "";
    if (r.shape == Shape::Vector) return "[" + std::to_string(i) + "]";
    return "[" + std::to_string(i / r.value.cols) + "," + std::to_string(i % r.value.cols) + "]";
}

CheckReport check_results(const Results& results, const DataFile& data) {
    CheckReport report;
    for (const Result& r : results.all()) {
        if (!r.checked) continue;
        const std::string key = "expected." + r.name;
        if (!data.has(key)) {  // edited inputs computed a result the file has no value for
            report.failed += 1;
            report.mismatches.push_back({r.name, "missing", shape_of(r.value), "none", 0, 0});
            continue;
        }
        Matrix want;
        if (r.shape == Shape::Number)
            want = Matrix{{data.number(key)}};
        else if (r.shape == Shape::Vector)
            want = data.vector(key);
        else
            want = data.matrix(key);
        if (want.rows != r.value.rows || want.cols != r.value.cols) {
            report.failed += 1;
            report.mismatches.push_back({r.name, "shape", shape_of(r.value), shape_of(want), 0, 0});
            continue;
        }
        for (std::size_t i = 0; i < want.data.size(); ++i) {
            const double got = r.value.data[i], expected = want.data[i];
            const double diff = std::fabs(got - expected);
            const double allowed = r.tol * std::max(1.0, std::fabs(expected));
            if (diff <= allowed) {  // written so that a NaN never passes
                report.passed += 1;
            } else {
                report.failed += 1;
                report.mismatches.push_back({r.name, index_text(r, i), full_precision(got),
                                             full_precision(expected), diff, allowed});
            }
        }
    }
    return report;
}

std::vector<std::string> inputs_changed_since_expected(const DataFile& data) {
    std::vector<std::string> changed;
    if (!data.has("expected_from") || !data.has("inputs")) return changed;
    for (const std::string& name : data.keys("inputs"))
        if (!data.has("expected_from." + name) ||
            data.digest("inputs." + name) != data.text("expected_from." + name))
            changed.push_back("inputs." + name);
    return changed;
}
