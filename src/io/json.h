// json.h — for src/io/ only: the JSON library, the parsed document behind a DataFile, and the
// JSON value at a key. Nothing outside io/ includes this header (tests/check_layers.sh).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "io/data_file.h"

using Json = nlohmann::ordered_json;  // keeps keys in the order they were written

struct DataFile::Document {
    Json root;
};

// The value at key ("inputs.X", "inputs.batch[2][0]"); a DataError naming the key when missing.
const Json& json_at(const DataFile& file, const std::string& key);

// DataFile::matrix() and vector() of a value in hand (a weight whose name has dots in it);
// `where` names it in errors.
Matrix matrix_of(const DataFile& file, const Json& value, const std::string& where);
Matrix vector_of(const DataFile& file, const Json& value, const std::string& where);
