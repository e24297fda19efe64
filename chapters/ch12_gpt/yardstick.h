// ch12_gpt/yardstick.h — the judge of regulated verse measured against the poets: the Three
// Hundred Tang Poems (唐诗三百首), whose book order puts every poem in the section of its form.
#pragma once
#include "ch12_gpt/sounds.h"

class Chapter;

namespace ch12_gpt {

// The judge (verse/regulated_verse.h) run on each section of the Three Hundred Tang Poems
// (Debian's fortunes-zh, /usr/share/games/fortunes/tang300): a table of the poems of regulated
// shape in each form and how many pass, the regulated forms against the old-style (古诗) ones,
// told. Said in one line, and skipped, where the collection or the Tang table is missing.
void yardstick_step(Chapter& ch, const Sounds& sounds);

}  // namespace ch12_gpt
