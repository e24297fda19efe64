// json.h — for the tests that read JSON themselves (a program's --json output, a data file they
// change before running a program on it): the library, as src/io/json.h uses it. Other tests
// reach data files through DataFile and never pay for this header's compile time.
#pragma once
#include <cmath>
#include <nlohmann/json.hpp>

using Json = nlohmann::ordered_json;  // keeps keys in the order they were written

// No NaN or infinity anywhere in a JSON document's numbers (nlohmann writes a NaN as null, so a
// null counts as one).
inline bool all_numbers_finite(const Json& j) {
    if (j.is_null()) return false;
    if (j.is_number()) return std::isfinite(j.get<double>());
    if (j.is_array() || j.is_object())
        for (const auto& item : j.items())
            if (!all_numbers_finite(item.value())) return false;
    return true;
}
