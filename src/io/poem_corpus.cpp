// poem_corpus.cpp — a fortune file of poems, parsed.
#include "io/poem_corpus.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "io/bounded_read.h"
#include "io/platform.h"
#include "text/translate.h"

std::string without_colour(const std::string& line) {
    std::string out;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            std::size_t j = i + 2;  // ESC [ digits and ';' … a final letter
            while (j < line.size() &&
                   (std::isdigit(static_cast<unsigned char>(line[j])) || line[j] == ';'))
                ++j;
            i = j;  // the final letter is skipped too
            continue;
        }
        if (line[i] != '\r') out += line[i];
    }
    return out;
}

namespace {

// s without a leading `prefix` and a trailing `suffix`, when it has them.
std::string strip(std::string s, const std::string& prefix, const std::string& suffix) {
    if (s.compare(0, prefix.size(), prefix) == 0) s.erase(0, prefix.size());
    if (s.size() >= suffix.size() &&
        s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
        s.erase(s.size() - suffix.size());
    return s;
}

Poem poem_of(const std::vector<std::string>& entry) {
    Poem p;
    std::size_t i = 0;
    while (i < entry.size() && entry[i].empty()) ++i;
    if (i == entry.size() || entry[i].compare(0, 3, "《") != 0) return p;
    p.title = strip(entry[i++], "《", "》");
    if (i < entry.size() && entry[i].compare(0, 6, "作者") == 0)
        p.author = strip(strip(entry[i++], "作者：", ""), "作者:", "");
    for (; i < entry.size(); ++i)
        if (!entry[i].empty()) p.lines.push_back(entry[i]);
    return p;
}

}  // namespace

CorpusChoice choose_corpus(const std::string& asked, const std::string& quantangshi_path) {
    if (asked == "tang300") return {asked, tang300_path(), false, ""};
    if (asked != "quantangshi" && asked != "quantangshi-all") return {asked, asked, false, ""};
    if (open_for_reading(quantangshi_path)) return {asked, quantangshi_path, asked == "quantangshi", ""};
    return {"tang300", tang300_path(), false,
            tr("{} is not there (make fetches it once, with npm): the Three Hundred Tang Poems "
               "instead.",
               quantangshi_path)};
}

std::vector<Poem> read_poems(const std::string& path) {
    std::ifstream in = open_for_reading(path);
    if (!in)
        throw std::runtime_error(tr(
            "{}: cannot read the poems; make corpus fetches the complete Tang poems (it needs "
            "node and npm: on macOS, brew install node), apt-get install fortunes-zh gives the "
            "Three Hundred (Debian, Ubuntu), or name another file with --corpus",
            path));
    std::vector<Poem> poems;
    std::vector<std::string> entry;
    std::string line;
    const auto flush = [&] {
        Poem p = poem_of(entry);
        if (!p.title.empty() && !p.lines.empty()) poems.push_back(p);
        entry.clear();
    };
    for (LineReader lines(in, path); lines.next(line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();  // a CRLF file (Windows)
        line = without_colour(line);
        if (line == "%")
            flush();
        else
            entry.push_back(line);
    }
    flush();
    if (poems.empty())
        throw std::runtime_error(
            tr("{}: no poems found (expected entries of a title line 《…》, an author line and "
               "the poem's lines, separated by lines of %)",
               path));
    return poems;
}

std::string standard_forms_path(const std::string& corpus_path) {
    const std::size_t slash = corpus_path.find_last_of("/\\");
    return (slash == std::string::npos ? std::string() : corpus_path.substr(0, slash + 1)) +
           "standard_forms.txt";
}

std::vector<StandardForm> read_standard_forms(const std::string& path) {
    std::ifstream in = open_for_reading(path);
    std::vector<StandardForm> forms;
    if (!in) return forms;
    std::string line;
    LineReader lines(in, path);
    for (std::size_t number = 1; lines.next(line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream fields(line);
        StandardForm f;
        std::string count, rest;
        std::getline(fields, f.from, '\t');
        std::getline(fields, f.to, '\t');
        std::getline(fields, count, '\t');
        const bool number_ok = !count.empty() && count.size() < 10 &&
                               std::all_of(count.begin(), count.end(), [](char ch) {
                                   return ch >= '0' && ch <= '9';
                               });
        if (characters(f.from).size() != 1 || characters(f.to).size() != 1 || !number_ok ||
            std::getline(fields, rest))
            throw std::runtime_error(tr("{}, line {}: expected an old form, its standard form "
                                        "and a count, separated by tabs",
                                        path, number));
        f.count = static_cast<std::size_t>(std::stoul(count));
        forms.push_back(f);
    }
    return forms;
}

namespace {

std::vector<Tokens> encoded(const CharVocabulary& v, const std::vector<Poem>& poems,
                            std::size_t* unknown) {
    std::vector<Tokens> out;
    for (const Poem& p : poems) {
        out.push_back(encode(v, poem_text(p.title, p.lines)));
        for (int id : out.back()) *unknown += id == CharVocabulary::unknown;
    }
    return out;
}

}  // namespace

std::string Corpus::fingerprint() const {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a, 64 bits
    const auto add = [&](std::uint64_t x) {
        for (int i = 0; i < 8; ++i, x >>= 8) h = (h ^ (x & 0xff)) * 1099511628211ULL;
    };
    for (const auto* side : {&training, &validation, &heldout}) {
        add(side->size());
        for (const Tokens& t : *side) {
            add(t.size());
            for (int id : t) add(static_cast<std::uint64_t>(id));
        }
    }
    for (const std::string& name : vocabulary.names)
        for (const char ch : name) add(static_cast<unsigned char>(ch));
    static const char* hex = "0123456789abcdef";
    std::string s;
    for (int i = 15; i >= 0; --i) s += hex[(h >> (4 * i)) & 15];
    return s;
}

Corpus prepare_corpus(const CorpusSettings& k, const CharVocabulary* given) {
    Corpus c;
    c.choice = k.choice;
    std::vector<Poem> poems = read_poems(c.choice.path);
    c.read = poems.size();
    if (c.choice.name == "quantangshi" || c.choice.name == "quantangshi-all")
        c.standard_forms = read_standard_forms(standard_forms_path(c.choice.path));
    if (c.choice.regulated_only)
        poems.erase(std::remove_if(poems.begin(), poems.end(),
                                   [](const Poem& p) { return !regulated_poem(p); }),
                    poems.end());
    c.regulated = poems.size();
    poems = distinct_poems(poems);
    c.distinct = poems.size();
    c.split = split_poems(poems, k.heldout_every, k.validation_every,
                          k.validation_max);
    if (c.split.training.empty() || c.split.heldout.empty())
        throw std::runtime_error(tr("{}: {} poems are too few to hold one in {} out",
                                    c.choice.path, poems.size(), k.heldout_every));
    std::vector<std::string> texts;
    for (const Poem& p : c.split.training) texts.push_back(poem_text(p.title, p.lines));
    c.vocabulary =
        given ? *given : vocabulary_of(texts, k.min_count, k.vocabulary);
    std::size_t validation_unknown = 0;
    c.training = encoded(c.vocabulary, c.split.training, &c.training_unknown);
    c.validation = encoded(c.vocabulary, c.split.validation, &validation_unknown);
    c.heldout = encoded(c.vocabulary, c.split.heldout, &c.heldout_unknown);
    for (const Poem& p : c.split.training) c.training_lines.insert(p.lines.begin(), p.lines.end());
    return c;
}
