// source_words.cpp — --source words into token ids.
#include "report/source_words.h"

#include <algorithm>
#include <sstream>

#include "model/transformer/config.h"
#include "model/transformer/tokens.h"
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

// The id of a name in the source vocabulary, or −1.
int source_id(const Vocabulary& names, const std::string& word, const TransformerConfig& c) {
    for (std::size_t id = 0; id < names.size() && id < c.src_vocab; ++id)
        if (names[id] == word) return static_cast<int>(id);
    return -1;
}

// "2 0 2 6" when every character of word is a word of the vocabulary, else "".
std::string spelled_out(const std::string& word, const Vocabulary& names,
                        const TransformerConfig& c) {
    std::string out;
    for (std::size_t i = 0; i < word.size();) {
        const unsigned char b = static_cast<unsigned char>(word[i]);
        const std::size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : 4;
        const std::string ch = word.substr(i, len);
        if (source_id(names, ch, c) < 0) return "";
        out += (out.empty() ? "" : " ") + ch;
        i += len;
    }
    return out;
}

// One sequence of --source, word by word: each must be a name in the model's vocabulary ("11"
// is not a digit, and not a raw token id either); <pad> and <bos> are never written in a
// source, <eos> only at its end (it is appended when missing, as in training).
Tokens parse_source(const std::string& text, const TransformerConfig& c) {
    const Vocabulary names = source_names_of(c);
    Tokens source;
    std::stringstream words(text);
    for (std::string w; words >> w;) {
        const int id = source_id(names, w, c);
        if (id < 0) {
            const std::string spaced = spelled_out(w, names, c);
            if (!spaced.empty() && w.size() > 1)
                throw UsageError(tr("--source: \"{}\" is no word of the model's source "
                                    "vocabulary; its words are single characters: did you mean "
                                    "\"{}\"?",
                                    w, spaced));
            throw UsageError(tr("--source: \"{}\" is no word of the model's source vocabulary "
                                "({})",
                                w, vocabulary_text(names, c.src_vocab)));
        }
        if (id == c.pad_id || id == c.bos_id)
            throw UsageError(tr("--source: \"{}\" only pads or starts a sequence inside the "
                                "model; expected the source's own words",
                                w));
        if (!source.empty() && source.back() == c.eos_id)
            throw UsageError(tr("--source: \"{}\" after {}: <eos> ends a source; separate "
                                "sequences with commas",
                                w, name_of(names, c.eos_id)));
        source.push_back(id);
    }
    if (source.empty())
        throw UsageError(
            tr("--source: an empty sequence; give words, sequences separated by commas"));
    if (source.back() != c.eos_id) source.push_back(c.eos_id);  // as in training (chapter 7)
    if (source.size() > max_source_tokens)
        throw UsageError(tr("--source: {} tokens; expected at most {} (the decoder writes up to "
                            "2·n + 2 tokens and recomputes its prefix at every step: a longer "
                            "source takes minutes and gigabytes)",
                            source.size(), max_source_tokens));
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
