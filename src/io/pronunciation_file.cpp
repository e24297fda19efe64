// pronunciation_file.cpp — reading the pronunciation table.
#include "io/pronunciation_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "io/bounded_read.h"
#include "io/platform.h"
#include "text/translate.h"
#include "verse/pingshui.h"
#include "verse/poems.h"

namespace {

std::vector<std::string> split(const std::string& text, char mark) {
    std::vector<std::string> parts;
    std::size_t from = 0;
    for (std::size_t at; (at = text.find(mark, from)) != std::string::npos; from = at + 1)
        parts.push_back(text.substr(from, at - from));
    parts.push_back(text.substr(from));
    return parts;
}

std::vector<std::string> words_of(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// Each line: a character and its readings, or a word of two characters and each one's readings
// (a field each), given to sounds_of(readings, line number) to turn into sounds.
template <typename SoundsOf>
Pronunciations read_table(const std::string& path, SoundTable table, const char* example,
                          const char* word_example, SoundsOf sounds_of) {
    std::ifstream in = open_for_reading(path);
    if (!in) throw std::runtime_error(tr("{}: cannot read the pronunciation table", path));
    Pronunciations p;
    p.table = table;
    std::string line;
    LineReader lines(in, path);
    for (std::size_t number = 1; lines.next(line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();  // a CRLF file (Windows)
        if (line.empty()) continue;
        const std::vector<std::string> fields = split(line, '\t');
        const std::vector<std::string> key = characters(fields[0]);
        std::vector<std::vector<std::string>> readings;
        for (std::size_t f = 1; f < fields.size(); ++f) readings.push_back(words_of(fields[f]));
        const bool all_there = std::all_of(readings.begin(), readings.end(),
                                           [](const std::vector<std::string>& r) { return !r.empty(); });
        if (key.size() == 2 && readings.size() == 2 && all_there) {
            p.words[fields[0]] = {sounds_of(readings[0], number), sounds_of(readings[1], number)};
            continue;
        }
        if (key.size() != 1 || readings.size() != 1 || !all_there)
            throw std::runtime_error(tr("{}, line {}: expected a character, a tab and its "
                                        "readings (\"{}\"), or a word of two characters and a "
                                        "reading of each, tab-separated (\"{}\")",
                                        path, number, example, word_example));
        p.sounds.emplace(fields[0], sounds_of(readings[0], number));
    }
    // a directory, an empty file or /dev/null reads as no line at all: refused, as an empty
    // corpus is, rather than measuring no rhyme and no tone in silence
    if (p.empty())
        throw std::runtime_error(tr("{}: no readings found (expected lines of a character, a tab "
                                    "and its readings, \"{}\")",
                                    path, example));
    return p;
}

}  // namespace

Pronunciations read_pronunciations(const std::string& path) {
    return read_table(path, SoundTable::Mandarin, "行\\txing2 hang2", "三更\\tsan1\\tgeng1",
                      [](const std::vector<std::string>& readings, std::size_t) {
                          return std::vector<Sound>{mandarin_sound(readings[0])};
                      });
}

Pronunciations read_tang_table(const std::string& path) {
    return read_table(
        path, SoundTable::Tang, "行\\t庚", "三更\\t覃\\t庚",
        [&path](const std::vector<std::string>& readings, std::size_t number) {
            std::vector<Sound> sounds;
            for (const std::string& r : readings) {
                TangReading t;
                if (!tang_reading(r, t))
                    throw std::runtime_error(tr("{}, line {}: \"{}\" is not a reading: expected a "
                                                "heading of 平水韵 (东, 董, 送, 屋 …) or a tone "
                                                "alone (平, 上, 去, 入)",
                                                path, number, r));
                sounds.push_back(tang_sound(r));
            }
            return sounds;
        });
}
