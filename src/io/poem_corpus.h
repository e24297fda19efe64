// poem_corpus.h — the Three Hundred Tang Poems as Debian's fortunes-zh ships them
// (/usr/share/games/fortunes/tang300), read into titles, authors and lines (chapter 12).
//
// The file is a fortune(6) database: entries separated by lines holding only "%", each entry a
// title line 《…》, an author line 作者：…, then the poem, one couplet per line. The title and
// author carry terminal colour codes (ESC [ 32 m … ESC [ m), which are stripped.
#pragma once
#include <string>
#include <vector>

struct Poem {
    std::string title;               // without its 《》
    std::string author;              // without 作者：
    std::vector<std::string> lines;  // the poem's lines, as printed
};

// Every entry of the file that has a title and at least one line. Throws std::runtime_error
// with one line naming the file when it cannot be read or holds no poem.
std::vector<Poem> read_poems(const std::string& path);

// "\x1b[32m《静夜思》\x1b[m" -> "《静夜思》": the colour codes removed.
std::string without_colour(const std::string& line);
