// poem_measures.h — what chapter 12 measures on poems, written or real, line by line: the shape
// of the regulated poems (five or seven characters, a comma, as many again, a full stop), lines
// copied word for word from the training poems, and lines where one character comes three or
// more times in a row (a model that stutters: 春春春).
#pragma once
#include <cstddef>
#include <set>
#include <string>
#include <vector>

struct PoemLines {
    std::size_t poems = 0, lines = 0;
    std::size_t in_form = 0, copied = 0, repeats = 0;  // lines of each kind
    std::size_t first_lines_repeated = 0;  // poems whose first line an earlier poem opened with
    double form_fraction() const { return share(in_form); }
    double copied_fraction() const { return share(copied); }
    double repeat_fraction() const { return share(repeats); }
    double share(std::size_t n) const { return lines ? double(n) / double(lines) : 0.0; }
};

// A written poem's lines after its title line (《…》), empty lines dropped.
std::vector<std::string> body_lines(const std::string& text);

// Whether a poem (its text, the title line first) shares a verse with the training poems' lines,
// word for word or but one character apart. A famous poem is often in the collection in another
// version (全唐诗 has 《静夜思》 as 床前看月光，…，举头望山月，…): compared whole, as the split
// compares couplets, it would pass for unseen.
bool shares_a_verse(const std::string& text, const std::set<std::string>& training_lines);

// Every line of the texts measured; training_lines: every line of every training poem.
PoemLines measure_lines(const std::vector<std::string>& texts,
                        const std::set<std::string>& training_lines);
