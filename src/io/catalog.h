// catalog.h — a translation catalog: a JSON object whose "messages" map each English text, as
// the programs print it, to its translation (gettext's convention of the English string as the
// key). JSON, not gettext's .po/.mo files: gettext's runtime picks a catalog through the C
// library's locale, and a fresh machine has no zh_CN locale installed (only C and POSIX), so
// setlocale() would fail and every message stay English; nlohmann/json is already a dependency
// and reads UTF-8 the same everywhere. The file: data/translations/zh.json.
#pragma once
#include <string>
#include <unordered_map>

// Throws DataError (naming the file and the key) when the file is not such a catalog.
std::unordered_map<std::string, std::string> load_catalog(const std::string& path);
