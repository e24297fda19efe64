// doubling.h — a character written twice in a row, told apart: the poets' 叠字 (萋萋, 悠悠,
// 处处) against a model's stutter. A doubling is 叠字 when the training poems hold the same pair
// (attested) and it does not straddle a verse's caesura — the pause after the 2nd character of
// five (2|3) and after the 4th of seven (4|3; its 2|2 too), where the poets' doublings almost
// never fall; every other doubling is a stutter.
#pragma once
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "verse/poems.h"

struct DoublingCounts {
    std::size_t places = 0;     // characters of 5- and 7-character verses after their first
    std::size_t doublings = 0;  // … that repeat the one before
    std::size_t attested = 0;   // … as 叠字
    std::size_t stutters = 0;   // … otherwise
};

// Every pair of one character twice ("悠悠") within a verse of the texts (poems as the model
// writes them: "《title》\nline\nline…").
std::set<std::string> doubled_pairs(const std::vector<std::string>& texts);
// One poem's doublings, 叠字 by the attested pairs.
DoublingCounts count_doublings(const std::string& text, const std::set<std::string>& attested);
// Whether a doubling at characters i − 1, i (from 0) of a verse of n straddles a caesura.
bool across_caesura(std::size_t i, std::size_t n);

// While writing, token by token: whether writing the last token again next would be 叠字 (kind
// 0) or a stutter (kind 1) — the kinds of verse/repeat_correction.h. Inside a poem's body the
// place is the next character's in its verse, whose length is the poem's first verse's once that
// has ended (five until then); the title, and a mark before, count as a stutter.
class DoublingPlaces {
public:
    DoublingPlaces(const CharVocabulary& v, std::set<std::string> attested);
    int kind(const Tokens& so_far) const;

private:
    const CharVocabulary* vocabulary_;
    std::set<std::string> attested_;
    bool ends_verse(int id) const;
};
