// regulated_verse.cpp — the whole check of regulated verse (regulated_verse.h).
#include "verse/regulated_verse.h"

#include <algorithm>

#include "verse/pingshui.h"
#include "verse/poem_measures.h"

namespace {

using Verse = std::vector<std::string>;

// A verse's tones as one choice of readings: level true, oblique false.
using Choice = std::vector<bool>;

// Every choice of readings' tones for a verse (at most 2^7).
std::vector<Choice> choices(const Verse& v, const Pronunciations& p) {
    std::vector<Choice> all = {{}};
    for (std::size_t i = 0; i < v.size(); ++i) {
        const std::vector<Sound>& c = p.at(v, i);  // its readings where it stands
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

// The licences (regulated_verse.h), on a verse's last five tones u and, in seven characters, its
// 2nd tone opposite its 4th as usual.
bool starts_as_usual(const Choice& t) { return t.size() == 5 || t[1] != t[3]; }

// 特拗: ○平仄平仄 at the end, where 平平平仄仄 belongs (○: either tone).
bool special_form(const Choice& t) {
    const std::size_t b = t.size() - 5;
    return t[b + 1] && !t[b + 2] && t[b + 3] && !t[b + 4] && starts_as_usual(t);
}
// 大拗: ○仄○仄仄 at the end, where 仄仄平平仄 belongs (its 4th oblique) …
bool big_twist(const Choice& t) {
    const std::size_t b = t.size() - 5;
    return !t[b + 1] && !t[b + 3] && !t[b + 4] && starts_as_usual(t);
}
// … and its 救 in the couplet's other verse: ○平平仄平, where 平平仄仄平 belongs (its 3rd level).
bool twist_made_up(const Choice& t) {
    const std::size_t b = t.size() - 5;
    return t[b + 1] && t[b + 2] && !t[b + 3] && t[b + 4] && starts_as_usual(t);
}

// Whether some choice has its 2nd character as asked and the form.
bool some_choice(const std::vector<Choice>& all, bool second_level, bool (*form)(const Choice&)) {
    for (const Choice& t : all)
        if (t[1] == second_level && form(t)) return true;
    return false;
}

// A verse's last character's readings, where it stands.
const std::vector<Sound>& last(const Verse& v, const Pronunciations& p) {
    return p.at(v, v.size() - 1);
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

// The licences a check allows.
struct Licences {
    bool special = true, big_twist = true, borrowed_rhyme = true;
};

// The whole check: some choice of the poem's 2nd tone and of its rhyme group (one of the
// first rhyme's, `groups`) for which every couplet keeps its rules, plainly or by a licence
// allowed.
bool keeps_every_rule(const std::vector<Verse>& verses, const std::vector<std::vector<Choice>>& all,
                      const std::vector<int>& groups, const Pronunciations& p, Licences allowed) {
    const bool tang = p.table == SoundTable::Tang;
    for (const bool second_level : {true, false})
        for (const int g : groups) {
            bool fits = true;
            for (std::size_t v = 0; v + 1 < verses.size() && fits; v += 2) {
                // 粘对: verses 0 and 3 like the first, 1 and 2 opposite, every four
                const bool first = v % 4 == 0 ? second_level : !second_level, second = !first;
                const std::vector<Choice>&a = all[v], &b = all[v + 1];
                if (!has(p.rhyme_groups(last(verses[v + 1], p)), g)) {
                    fits = false;
                    break;
                }
                const bool b_plain = verse_fits(b, second, true);
                if (b_plain && verse_fits(a, first, false)) continue;
                if (v == 0 && b_plain && verse_fits(a, first, true)) {  // 首句入韵
                    const std::vector<int> own = p.rhyme_groups(last(verses[0], p));
                    if (has(own, g)) continue;
                    if (allowed.borrowed_rhyme && tang &&
                        std::any_of(own.begin(), own.end(),
                                    [&](int h) { return neighbouring_groups(h, g); }))
                        continue;
                }
                if (allowed.special && b_plain && some_choice(a, first, special_form)) continue;
                if (allowed.big_twist && some_choice(a, first, big_twist) &&
                    some_choice(b, second, twist_made_up))
                    continue;
                fits = false;
            }
            if (fits) return true;
        }
    return false;
}

// A quatrain whose second verses end oblique in one rhyme group (仄韵绝句, 古绝).
bool rhymes_on_oblique(const std::vector<Verse>& verses, const Pronunciations& p) {
    if (verses.size() != 4) return false;
    const auto oblique_groups = [&](const Verse& v) {
        std::vector<int> g;
        for (const Sound& s : last(v, p))
            if (s.tone == Tone::Oblique && s.group >= 0) g.push_back(s.group);
        return g;
    };
    const std::vector<int> a = oblique_groups(verses[1]), b = oblique_groups(verses[3]);
    return verses[1].back() != verses[3].back() &&
           std::any_of(a.begin(), a.end(), [&](int g) { return has(b, g); });
}

}  // namespace

RegulatedMeasures measure_regulated(const std::vector<std::string>& texts, const Pronunciations& p) {
    RegulatedMeasures m;
    for (const std::string& text : texts) {
        const std::vector<Verse> verses = regulated_verses(text);
        m.shaped += !verses.empty();
        bool known = !verses.empty();
        for (const Verse& v : verses)
            for (std::size_t i = 0; i < v.size(); ++i)
                known = known && (p.can_be(p.at(v, i), Tone::Level) ||
                                  p.can_be(p.at(v, i), Tone::Oblique));
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
        const bool first_level = !p.can_be(last(verses[0], p), Tone::Oblique);
        std::vector<std::string> rhymes;
        for (std::size_t v = 1; v < verses.size(); v += 2) rhymes.push_back(verses[v].back());
        if (first_level) rhymes.push_back(first_end);
        std::vector<std::string> sorted = rhymes;
        std::sort(sorted.begin(), sorted.end());
        const bool repeated = std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
        m.repeated_rhyme += repeated;
        const std::vector<int> groups = p.rhyme_groups(last(verses[1], p));
        if (first_level) {
            ++m.first_level;
            const std::vector<int> first = p.rhyme_groups(last(verses[0], p));
            m.first_rhyming += std::any_of(first.begin(), first.end(),
                                           [&](int g) { return has(groups, g); });
        }
        const auto keeps = [&](Licences allowed) {
            return !repeated && keeps_every_rule(verses, all, groups, p, allowed);
        };
        const bool passed = keeps(Licences{});
        m.passed += passed;
        if (passed) {  // a licence is needed when the poem fails without it
            m.special += !keeps(Licences{false, true, true});
            m.big_twist += !keeps(Licences{true, false, true});
            m.borrowed_rhyme += !keeps(Licences{true, true, false});
            m.licensed += !keeps(Licences{false, false, false});
        } else {
            m.oblique_rhymed += rhymes_on_oblique(verses, p);
        }
    }
    return m;
}
