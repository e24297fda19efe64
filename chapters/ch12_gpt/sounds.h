// ch12_gpt/sounds.h — the two pronunciation tables chapter 12 judges verse by.
#pragma once
#include "verse/verse.h"

namespace ch12_gpt {

// The two pronunciation tables: the Tang one (平水韵, build/corpus/tang.txt) judges and keeps the
// verse; modern Mandarin (build/corpus/pinyin.txt) is measured beside it. Either may be missing.
struct Sounds {
    Pronunciations tang, mandarin;
    bool empty() const { return tang.empty() && mandarin.empty(); }
    const Pronunciations& judge() const { return tang.empty() ? mandarin : tang; }
};

}  // namespace ch12_gpt
