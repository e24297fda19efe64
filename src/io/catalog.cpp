// catalog.cpp — reading a translation catalog.
#include "io/catalog.h"

#include "io/json.h"
#include "text/translate.h"

std::unordered_map<std::string, std::string> load_catalog(const std::string& path) {
    const DataFile file = DataFile::load(path);
    const Json& messages = json_at(file, "messages");
    if (!messages.is_object())
        throw file.error("messages", tr("expected an object of translations"));
    std::unordered_map<std::string, std::string> out;
    for (const auto& item : messages.items()) {
        if (!item.value().is_string())
            throw file.error("messages." + item.key(), tr("expected the translation as a string"));
        out[item.key()] = item.value().get<std::string>();
    }
    return out;
}
