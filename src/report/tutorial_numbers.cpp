// tutorial_numbers.cpp — parsing printed numbers and judging them against exact values.
#include "report/tutorial_numbers.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <utility>

#include "text/translate.h"

Printed parse_printed(const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value))
        throw std::invalid_argument(tr("\"{}\" is not a number", text));
    // digits after the decimal point of the mantissa, and the exponent if there is one
    const std::size_t e = text.find_first_of("eE");
    const std::string mantissa = text.substr(0, e);
    const std::size_t dot = mantissa.find('.');
    const int decimals = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
    const int exponent = e == std::string::npos ? 0 : std::atoi(text.c_str() + e + 1);
    const char notation = e == std::string::npos ? 'f' : text[e];
    return {text, value, 0.5 * std::pow(10.0, exponent - decimals), decimals, notation};
}

std::string round_like(double exact, const Printed& p) {
    const char* format = p.notation == 'E' ? "%.*E" : p.notation == 'e' ? "%.*e" : "%.*f";
    char buf[64];
    std::snprintf(buf, sizeof buf, format, p.decimals, exact);
    return buf;
}

// The printed strings of one result as a grid: a string, an array, or an array of arrays.
static std::vector<std::vector<std::string>> printed_grid(const DataFile& data,
                                                          const std::string& key) {
    if (data.is_text(key)) return {{data.text(key)}};
    if (!data.is_array(key)) throw data.error(key, tr("expected a string or an array of strings"));
    if (!data.is_matrix(key)) return {data.texts(key)};
    std::vector<std::vector<std::string>> grid;
    for (std::size_t r = 0; r < data.length(key); ++r)
        grid.push_back(data.texts(key + "[" + std::to_string(r) + "]"));
    return grid;
}

std::string own_inputs_changed(const DataFile& data) {
    if (!data.has("tutorial.inputs")) return "";
    for (const std::string& name : data.keys("tutorial.inputs"))
        if (!data.same("inputs." + name, "tutorial.inputs." + name)) return "inputs." + name;
    return "";
}

bool tutorial_inputs(const DataFile& data) {
    return data.has("tutorial.inputs") && own_inputs_changed(data).empty();
}

std::vector<PrintedCheck> compare_printed(const Results& results, const DataFile& data) {
    std::vector<PrintedCheck> checks;
    if (!data.has("tutorial.printed") || !own_inputs_changed(data).empty()) return checks;
    for (const std::string& name : data.keys("tutorial.printed")) {
        const std::string key = "tutorial.printed." + name;
        const Result* r = results.find(name);
        if (!r) throw data.error(key, tr("names no result of this chapter"));
        const auto grid = printed_grid(data, key);
        if (grid.size() != r->value.rows)
            throw data.error(
                key, tr("expected {} rows like the result {}", r->value.rows, shape_of(r->value)));
        for (std::size_t row = 0; row < grid.size(); ++row) {
            if (grid[row].size() != r->value.cols)
                throw data.error(key,
                                 tr("row {}: expected {} printed numbers", row, r->value.cols));
            for (std::size_t col = 0; col < grid[row].size(); ++col) {
                Printed p;
                try {
                    p = parse_printed(grid[row][col]);
                } catch (const std::invalid_argument& e) {
                    throw data.error(key, e.what());
                }
                const double exact = r->value(row, col);
                // the 1e-12 slack keeps an exact tie (…5 rounded either way) from being blamed
                const bool erratum = std::fabs(exact - p.value) > p.half_unit * (1 + 1e-12);
                checks.push_back({name, row, col, p, exact, erratum});
            }
        }
    }
    return checks;
}

std::size_t printed_count(const DataFile& data) {
    std::size_t n = 0;
    if (!data.has("tutorial.printed")) return n;
    for (const std::string& name : data.keys("tutorial.printed"))
        for (const auto& row : printed_grid(data, "tutorial.printed." + name)) n += row.size();
    return n;
}

CheckReport check_errata(const std::vector<PrintedCheck>& checks, const DataFile& data) {
    std::set<std::pair<std::string, std::pair<std::int64_t, std::int64_t>>> listed;
    if (data.has("tutorial.errata")) {
        const std::string key = "tutorial.errata";
        if (!data.is_array(key)) throw data.error(key, tr("expected an array of {name, row, col}"));
        for (std::size_t i = 0; i < data.length(key); ++i) {
            const std::string e = key + "[" + std::to_string(i) + "]";
            listed.insert(
                {data.text(e + ".name"),
                 {data.integer(e + ".row", 0, 1 << 20), data.integer(e + ".col", 0, 1 << 20)}});
        }
    }
    CheckReport report;
    for (const PrintedCheck& c : checks) {
        const bool oracle_says =
            listed.count({c.name, {static_cast<std::int64_t>(c.row), static_cast<std::int64_t>(c.col)}}) > 0;
        if (oracle_says == c.erratum) {
            report.passed += 1;
            continue;
        }
        report.failed += 1;
        report.mismatches.push_back(
            {"tutorial:" + c.name, "[" + std::to_string(c.row) + "," + std::to_string(c.col) + "]",
             c.erratum ? "erratum" : "correct", oracle_says ? "erratum" : "correct",
             std::fabs(c.exact - c.printed.value), c.printed.half_unit});
    }
    return report;
}
