// pronunciation_file.cpp — reading the pronunciation table.
#include "io/pronunciation_file.h"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "io/bounded_read.h"
#include "io/platform.h"
#include "text/translate.h"
#include "verse/pingshui.h"

namespace {

// Each line's character and readings, to add(character, readings, line number).
template <typename Add>
Pronunciations read_table(const std::string& path, SoundTable table, const char* example, Add add) {
    std::ifstream in = open_for_reading(path);
    if (!in) throw std::runtime_error(tr("{}: cannot read the pronunciation table", path));
    Pronunciations p;
    p.table = table;
    std::string line;
    LineReader lines(in, path);
    for (std::size_t number = 1; lines.next(line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();  // a CRLF file (Windows)
        if (line.empty()) continue;
        const std::size_t tab = line.find('\t');
        std::istringstream words(tab == std::string::npos ? "" : line.substr(tab + 1));
        std::vector<std::string> readings;
        for (std::string r; words >> r;) readings.push_back(r);
        if (tab == std::string::npos || tab == 0 || readings.empty())
            throw std::runtime_error(tr("{}, line {}: expected a character, a tab and its "
                                        "readings (\"{}\")",
                                        path, number, example));
        add(p, line.substr(0, tab), readings, number);
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
    return read_table(path, SoundTable::Mandarin, "行\\txing2 hang2",
                      [](Pronunciations& p, const std::string& character,
                         const std::vector<std::string>& readings, std::size_t) {
                          p.sounds.emplace(character, std::vector<Sound>{mandarin_sound(readings[0])});
                      });
}

Pronunciations read_tang_table(const std::string& path) {
    return read_table(
        path, SoundTable::Tang, "行\\t阳 庚 漾 敬",
        [&path](Pronunciations& p, const std::string& character,
                const std::vector<std::string>& readings, std::size_t number) {
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
            p.sounds.emplace(character, sounds);
        });
}
