// catalog.cpp — reading a translation catalog.
#include "io/catalog.h"

#include <set>
#include <vector>

#include "io/json.h"
#include "text/translate.h"

namespace {

// The arguments a text uses, each once: a translation must use every argument its English key
// does, and no other.
std::set<std::size_t> argument_set(const std::string& text) {
    const std::vector<std::size_t> uses = placeholder_uses(text);
    return {uses.begin(), uses.end()};
}

}  // namespace

std::unordered_map<std::string, std::string> load_catalog(const std::string& path) {
    const DataFile file = DataFile::load(path);
    const Json& messages = json_at(file, "messages");
    if (!messages.is_object())
        throw file.error("messages", tr("expected an object of translations"));
    std::unordered_map<std::string, std::string> out;
    for (const auto& item : messages.items()) {
        if (!item.value().is_string())
            throw file.error("messages." + item.key(), tr("expected the translation as a string"));
        const std::string& english = item.key();
        const std::string chinese = item.value().get<std::string>();
        const std::string key = "messages[\"" + english + "\"]";
        if (chinese.empty()) throw file.error(key, tr("expected a translation, found \"\""));
        if (english.find('\n') == std::string::npos && chinese.find('\n') != std::string::npos)
            throw file.error(key, tr("expected one line, as the English is"));
        if (argument_set(chinese) != argument_set(english))
            throw file.error(key, tr("expected the same placeholders as the English, which "
                                     "takes {} arguments",
                                     argument_set(english).size()));
        out[english] = chinese;
    }
    return out;
}
