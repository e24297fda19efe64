// results.cpp — collecting, exporting and checking a chapter's results.
#include "report/results.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "report/terminal.h"

void Results::add(const std::string& name, const Matrix& m, Shape shape, double tol) {
    items_.push_back({name, m, shape, tol});
}

void Results::add_measurement(const std::string& name, double x) {
    items_.push_back({name, Matrix{{x}}, Shape::Number, 0.0, false});
}

const Result* Results::find(const std::string& name) const {
    for (const Result& r : items_)
        if (r.name == name) return &r;
    return nullptr;
}

static Json value_json(const Result& r) {
    const double x = r.value(0, 0);
    if (r.shape == Shape::Number && x == std::floor(x) && std::fabs(x) < 1e15)
        return static_cast<long long>(x);  // counts
    if (r.shape == Shape::Number) return x;
    if (r.shape == Shape::Vector) return r.value.data;
    Json rows = Json::array();
    for (std::size_t i = 0; i < r.value.rows; ++i)
        rows.push_back(std::vector<double>(r.value.row(i), r.value.row(i) + r.value.cols));
    return rows;
}

Json Results::to_json() const {
    Json out = Json::object();
    for (const Result& r : items_) out[r.name] = value_json(r);
    for (const auto& [name, value] : extra_) out[name] = value;
    return out;
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
        Matrix want;
        if (r.shape == Shape::Number) want = Matrix{{data.number(key)}};
        else if (r.shape == Shape::Vector) want = data.vector(key);
        else want = data.matrix(key);
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

void print_mismatches(std::ostream& out, const std::vector<Mismatch>& rows, std::size_t limit) {
    Table table({"name", "index", "got", "expected", "|diff|", "tolerance"});
    for (std::size_t i = 0; i < rows.size() && i < limit; ++i) {
        const Mismatch& m = rows[i];
        const bool shape = m.index == "shape";
        table.add({m.name, m.index, m.got, m.expected, shape ? "-" : sci(m.diff),
                   shape ? "-" : sci(m.tol)});
    }
    table.print(out);
    if (rows.size() > limit) out << "... and " << rows.size() - limit << " more mismatches\n";
}
