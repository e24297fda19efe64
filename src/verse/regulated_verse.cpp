// regulated_verse.cpp — the whole check of regulated verse (regulated_verse.h).
#include "verse/regulated_verse.h"

#include <algorithm>

#include "verse/poem_measures.h"

namespace {

using Verse = std::vector<std::string>;

// A verse's tones as one choice of readings: level true, oblique false.
using Choice = std::vector<bool>;

// Every choice of readings' tones for a verse (at most 2^7).
std::vector<Choice> choices(const Verse& v, const Pronunciations& p) {
    std::vector<Choice> all = {{}};
    for (const std::string& c : v) {
        std::vector<Choice> next;
        for (const Choice& so_far : all)
            for (const bool level : {true, false})
                if (p.can_be(c, level ? Tone::Level : Tone::Oblique)) {
                    next.push_back(so_far);
                    next.back().push_back(level);
                }
        all = next;
    }
    return all;
}

bool three_level_tail(const Choice& t) {
    const std::size_t n = t.size();
    return n >= 3 && t[n - 1] && t[n - 2] && t[n - 3];
}

// 孤平: ending level, and of the last five one level besides the last, not the one beside it.
bool lone_level(const Choice& t) {
    const std::size_t n = t.size();
    if (n < 5 || !t[n - 1]) return false;
    std::size_t count = 0;
    for (std::size_t i = n - 5; i + 1 < n; ++i) count += t[i];
    return count == 1 && !t[n - 2];
}

bool alternates(const Choice& t) {
    for (std::size_t i = 3; i + 1 < t.size(); i += 2)
        if (t[i] == t[i - 2]) return false;
    return true;
}

// Whether some choice keeps the verse's own rules with its 2nd character and its last as asked.
bool verse_fits(const std::vector<Choice>& all, bool second_level, bool end_level) {
    for (const Choice& t : all)
        if (t[1] == second_level && t.back() == end_level && alternates(t) &&
            !(end_level && (three_level_tail(t) || lone_level(t))))
            return true;
    return false;
}

bool has(const std::vector<int>& groups, int g) {
    return std::find(groups.begin(), groups.end(), g) != groups.end();
}

// The poem's verses, in order, when it is regulated in shape (else none).
std::vector<Verse> regulated_verses(const std::string& text) {
    const std::vector<std::string> lines = body_lines(text);
    if (lines.size() != 2 && lines.size() != 4) return {};
    std::vector<Verse> verses;
    for (const std::string& line : lines)
        for (const Verse& v : verses_of(line)) verses.push_back(v);
    if (verses.size() != 2 * lines.size()) return {};
    const std::size_t n = verses[0].size();
    if (n != 5 && n != 7) return {};
    for (const Verse& v : verses)
        if (v.size() != n) return {};
    return verses;
}

// The whole check: some choice of the poem's 2nd tone and of its rhyme group (one of the
// first rhyme's, `groups`) for which every verse keeps its rule.
bool keeps_every_rule(const std::vector<Verse>& verses, const std::vector<std::vector<Choice>>& all,
                      const std::vector<int>& groups, const Pronunciations& p) {
    for (const bool second_level : {true, false})
        for (const int g : groups) {
            bool fits = true;
            for (std::size_t v = 0; v < verses.size() && fits; ++v) {
                // 粘对: verses 0 and 3 like the first, 1 and 2 opposite, every four
                const bool level = (v % 4 == 0 || v % 4 == 3) ? second_level : !second_level;
                const bool rhyme_here = has(p.rhyme_groups(verses[v].back()), g);
                if (v % 2 == 1)
                    fits = rhyme_here && verse_fits(all[v], level, true);
                else if (v == 0)
                    fits = verse_fits(all[v], level, false) ||
                           (rhyme_here && verse_fits(all[v], level, true));
                else
                    fits = verse_fits(all[v], level, false);
            }
            if (fits) return true;
        }
    return false;
}

}  // namespace

RegulatedMeasures measure_regulated(const std::vector<std::string>& texts, const Pronunciations& p) {
    RegulatedMeasures m;
    for (const std::string& text : texts) {
        const std::vector<Verse> verses = regulated_verses(text);
        m.shaped += !verses.empty();
        bool known = !verses.empty();
        for (const Verse& v : verses)
            for (const std::string& c : v)
                known = known && (p.can_be(c, Tone::Level) || p.can_be(c, Tone::Oblique));
        if (!known) continue;
        ++m.poems;
        std::vector<std::vector<Choice>> all;
        bool three = false, lone = false;
        for (const Verse& v : verses) {
            all.push_back(choices(v, p));
            const std::vector<Choice>& c = all.back();
            three = three || std::all_of(c.begin(), c.end(), three_level_tail);
            lone = lone || std::all_of(c.begin(), c.end(), lone_level);
        }
        m.three_level += three;
        m.lone_level += lone;
        // the rhyme characters: every second verse's last, and the first verse's when it can
        // only end level
        const std::string& first_end = verses[0].back();
        const bool first_level = !p.can_be(first_end, Tone::Oblique);
        std::vector<std::string> rhymes;
        for (std::size_t v = 1; v < verses.size(); v += 2) rhymes.push_back(verses[v].back());
        if (first_level) rhymes.push_back(first_end);
        std::vector<std::string> sorted = rhymes;
        std::sort(sorted.begin(), sorted.end());
        const bool repeated = std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
        m.repeated_rhyme += repeated;
        const std::vector<int> groups = p.rhyme_groups(verses[1].back());
        if (first_level) {
            ++m.first_level;
            const std::vector<int> first = p.rhyme_groups(first_end);
            m.first_rhyming += std::any_of(first.begin(), first.end(),
                                           [&](int g) { return has(groups, g); });
        }
        const bool passed = !repeated && keeps_every_rule(verses, all, groups, p);
        m.passed += passed;
    }
    return m;
}
