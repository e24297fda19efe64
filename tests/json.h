// json.h — for the tests that read JSON themselves (a program's --json output, a data file they
// change before running a program on it): the library, as src/io/json.h uses it. Other tests
// reach data files through DataFile and never pay for this header's compile time.
#pragma once
#include <nlohmann/json.hpp>

using Json = nlohmann::ordered_json;  // keeps keys in the order they were written
