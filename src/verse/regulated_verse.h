// regulated_verse.h — the whole check of regulated verse (近体诗), as a Tang examiner read a poem
// of two or four couplets, every verse of five or of seven characters (chapter 12):
//
// - the tones: each verse's 2nd, 4th (and 6th) characters alternate (二四六分明); within a
//   couplet the second verse's 2nd character is opposite the first's (对), and a couplet's first
//   verse is like the verse before it (粘) — so the poem's 2nd character sets every verse's;
// - the rhyme: every second verse ends level in one rhyme group, and a first verse that ends
//   level rhymes too (首句入韵); the other first verses end oblique; no rhyme character twice
//   (重韵);
// - the endings: no verse ending in three level tones (三平尾), and no lone level tone (孤平): in
//   a verse ending level, of its last five characters one level besides the last and not beside
//   it (仄平仄仄平). The accepted remedy (拗救) 仄平平仄平 keeps two, so it passes.
//
// And the licences every handbook allows (王力《汉语诗律学》, 第一章 近体诗: 拗救, 特拗, 首句用邻韵),
// each counted where a poem needed it:
// - 特拗: a verse of the pattern 平平平仄仄 may read 平平仄平仄, its 3rd and 4th characters
//   exchanged (in seven characters 仄仄平平仄平仄);
// - 大拗 with its 救: in a verse of the pattern 仄仄平平仄, the 4th character may be oblique
//   (仄仄平仄仄, 仄仄仄仄仄) when the other verse of its couplet makes it up with a level 3rd
//   character (平平平仄平; in seven characters 平平仄仄平仄仄 and 仄仄平平平仄平);
// - 首句借韵: a first verse ending level may rhyme in a group next to the poem's (pingshui.h's
//   neighbouring_groups; with the Tang table only: Mandarin's groups are merged already).
// A quatrain that rhymes on oblique tones (仄韵绝句, as 《春晓》 and 《江雪》) is verse of the old
// style (古绝), a form of its own: not judged by these rules, and counted apart.
//
// Each character is read where it stands (Pronunciations::at: its own reading, or a word's); one
// that keeps two (看, 重 by itself) may take either: a poem passes when some choice of them keeps
// every rule at once, and a verse is counted with a fault only when every choice has it. Poems
// with a character of no known tone are not judged.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "verse/verse.h"

struct RegulatedMeasures {
    std::size_t shaped = 0;  // poems regulated in shape: 2 or 4 couplets, verses all 5 or all 7
    std::size_t poems = 0;   // poems judged: regulated in shape, every character's tone known
    std::size_t passed = 0;  // keeping every rule above
    std::size_t repeated_rhyme = 0;  // rhyming on one character twice (重韵)
    std::size_t first_level = 0;     // whose first verse can only end level …
    std::size_t first_rhyming = 0;   // … and of those, rhyming with the second verse
    std::size_t three_level = 0;  // with a verse ending in three level tones whatever the
                                  // readings (三平尾)
    std::size_t lone_level = 0;   // with a verse of a lone level tone whatever the readings (孤平)
    // of the poems passed, those that needed a licence: 特拗, 大拗 with its 救, 首句借韵
    std::size_t special = 0, big_twist = 0, borrowed_rhyme = 0;
    std::size_t licensed = 0;  // of the poems passed, those that fail with no licence at all
    std::size_t oblique_rhymed = 0;  // quatrains not passed that rhyme on oblique tones (古绝)
    double share(std::size_t n, std::size_t of) const { return of ? double(n) / double(of) : 0.0; }
    double pass_share() const { return share(passed, poems); }
    double repeated_share() const { return share(repeated_rhyme, poems); }
    double first_rhyme_share() const { return share(first_rhyming, first_level); }
    double three_level_share() const { return share(three_level, poems); }
    double lone_level_share() const { return share(lone_level, poems); }
};

// Poems as the model writes them ("《title》\nline\nline…").
RegulatedMeasures measure_regulated(const std::vector<std::string>& texts, const Pronunciations& p);
