// pronunciation_file.h — the pronunciation table chapter 12 measures and keeps verse with
// (train/verse.h): build/corpus/pinyin.txt, which make writes from the npm package pinyin-pro
// (data/corpus/pronunciation.js) — one character a line, a tab, its readings, the most common
// first ("行\txing2 hang2 hang4 heng2").
#pragma once
#include <string>

#include "train/verse.h"

// The table's first reading of each character. Throws std::runtime_error with one line naming
// the file and the line when a line is not a character, a tab and readings.
Pronunciations read_pronunciations(const std::string& path);
