// verse_rates.h — the verse measures of a set of poems as rates with standard errors (chapter
// 12): each rate is a count over a count (rhyming verses over rhyme places, poems passing over
// poems judged), and its standard error is taken over poems — a poem's verses share its rhyme and
// its author's habits, so they are not independent draws: the ratio's standard error from each
// poem's two counts, sqrt(n/(n−1) · Σ (yᵢ − r·xᵢ)²) / Σ xᵢ, with r = Σ yᵢ / Σ xᵢ over the n poems
// (for a rate of poems, xᵢ = 1: about sqrt(r(1−r)/n)).
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "verse/verse.h"

struct Rate {
    std::size_t count = 0, of = 0;  // Σ yᵢ over Σ xᵢ
    double share = 0, se = 0;       // their ratio and its standard error (0 when of is 0)
};
// From each poem's (yᵢ, xᵢ).
Rate rate_over_poems(const std::vector<std::pair<std::size_t, std::size_t>>& per_poem);

// A table's verse measures of a set of poems (verse/verse.h, verse/regulated_verse.h).
struct VerseRates {
    Rate rhyme, tones;  // second verses rhyming with the first couplet; verses alternating
    Rate passed;        // poems keeping the whole check of regulated verse, of those judged
    Rate repeated_rhyme, three_level, lone_level;  // poems with 重韵, 三平尾, 孤平, of those judged
    Rate first_rhyme;   // first verses rhyming, of those that can only end level
    Rate parallel;        // 对仗: aligned pairs of the middle couplets in one word class or place …
    Rate parallel_tones;  // … and of those, the pairs of opposite tones (verse/parallelism.h)
};
VerseRates verse_rates(const std::vector<std::string>& texts, const Pronunciations& p);
