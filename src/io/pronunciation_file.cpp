// pronunciation_file.cpp — reading the pronunciation table.
#include "io/pronunciation_file.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "io/platform.h"
#include "text/translate.h"

Pronunciations read_pronunciations(const std::string& path) {
    std::ifstream in = open_for_reading(path);
    if (!in) throw std::runtime_error(tr("{}: cannot read the pronunciation table", path));
    Pronunciations p;
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();  // a CRLF file (Windows)
        if (line.empty()) continue;
        const std::size_t tab = line.find('\t');
        std::istringstream readings(tab == std::string::npos ? "" : line.substr(tab + 1));
        std::string first;
        readings >> first;
        if (tab == std::string::npos || tab == 0 || first.empty())
            throw std::runtime_error(tr("{}, line {}: expected a character, a tab and its "
                                        "readings (\"行\\txing2 hang2\")",
                                        path, number));
        p.reading.emplace(line.substr(0, tab), first);
    }
    // a directory, an empty file or /dev/null reads as no line at all: refused, as an empty
    // corpus is, rather than measuring no rhyme and no tone in silence
    if (p.reading.empty())
        throw std::runtime_error(tr("{}: no readings found (expected lines of a character, a tab "
                                    "and its readings, \"行\\txing2 hang2\")",
                                    path));
    return p;
}
