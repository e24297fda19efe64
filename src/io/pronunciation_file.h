// pronunciation_file.h — the pronunciation tables chapter 12 measures and keeps verse with
// (verse/verse.h), one character a line, a tab, its readings, then the words that read a
// character otherwise, a word of two characters a line and a field for each character's:
// - build/corpus/tang.txt, the Tang table, which make writes from the npm packages tshet-uinh
//   and opencc-js and Debian's Unihan (data/corpus/tang_rhymes.js): readings as 平水韵 headings
//   or a tone alone ("行\t庚", "看\t寒 翰", "魂\t平", "三更\t覃\t庚");
// - build/corpus/pinyin.txt, modern Mandarin, which make writes from the npm package pinyin-pro
//   (data/corpus/pronunciation.js): pinyin, the most common first ("行\txing2 hang2 hang4
//   heng2"), the first kept; a word's reading of each character ("三更\tsan1\tgeng1").
#pragma once
#include <string>

#include "verse/verse.h"

// The Mandarin table's first reading of each character, and its words. Throws
// std::runtime_error with one line naming the file and the line when a line is not a character,
// a tab and readings, or a word of two characters and a reading for each.
Pronunciations read_pronunciations(const std::string& path);
// The Tang table, every reading of a line. The same errors, and one for a reading that is
// neither a heading of 平水韵 nor 平, 上, 去 or 入.
Pronunciations read_tang_table(const std::string& path);
