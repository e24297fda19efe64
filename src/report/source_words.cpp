// source_words.cpp — --source words into token ids.
#include "report/source_words.h"

#include <algorithm>
#include <sstream>

#include "report/options.h"
#include "report/token_text.h"
#include "text/translate.h"

namespace {

// "<pad> <bos> <eos> 0 1 … 9", or its first words and how many more
std::string vocabulary_text(const Vocabulary& names, std::size_t count) {
    std::string s;
    for (std::size_t i = 0; i < count && i < 24 && i < names.size(); ++i)
        s += (i ? " " : "") + names[i];
    return count > 24 ? tr("{} … and {} more", s, count - 24) : s;
}

// One sequence of --source, word by word: each must be a name in the model's vocabulary ("11"
// is not a digit, and not a raw token id either).
Tokens parse_source(const std::string& text, const TransformerConfig& c) {
    const Vocabulary names = source_names_of(c);
    Tokens source;
    std::stringstream words(text);
    for (std::string w; words >> w;) {
        const auto it = std::find(names.begin(), names.end(), w);
        if (it == names.end() || static_cast<std::size_t>(it - names.begin()) >= c.src_vocab)
            throw UsageError(tr("--source: \"{}\" is no word of the model's source vocabulary ({})",
                                w, vocabulary_text(names, c.src_vocab)));
        source.push_back(static_cast<int>(it - names.begin()));
    }
    if (source.empty())
        throw UsageError(
            tr("--source: an empty sequence; give words, sequences separated by commas"));
    if (source.back() != c.eos_id) source.push_back(c.eos_id);  // as in training (chapter 7)
    return source;
}

}  // namespace

std::vector<Tokens> parse_sources(const std::string& text, const TransformerConfig& c) {
    std::vector<Tokens> sources;
    std::stringstream all(text);
    for (std::string one; std::getline(all, one, ',');) sources.push_back(parse_source(one, c));
    if (sources.empty() || text.back() == ',')
        sources.push_back(parse_source("", c));  // "" and "3 1," alike
    return sources;
}
