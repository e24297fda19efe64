// verse.cpp — tones and rhymes from pinyin, measured on poems and kept while writing (verse.h).
#include "train/verse.h"

#include <algorithm>

#include "train/pingshui.h"
#include "train/poem_measures.h"

const char* const rhyme_group_names[14] = {"麻", "波", "皆", "开", "微", "豪", "尤",
                                           "寒", "文", "唐", "庚", "齐", "支", "姑"};

namespace {

bool starts(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The final (韵母) of a reading, its tone digit and initial removed, spelled in full: y and w
// stand for finals without an initial (yan is ian, wei is uei), u after j, q, x is ü, and the i
// after zh, ch, sh, r, z, c, s is the apical vowel, written -i.
std::string final_of(std::string r) {
    while (!r.empty() && r.back() >= '0' && r.back() <= '9') r.pop_back();
    for (std::size_t at; (at = r.find('v')) != std::string::npos;) r.replace(at, 1, "ü");
    if (starts(r, "yu")) return "ü" + r.substr(2);
    if (starts(r, "yi")) return "i" + r.substr(2);
    if (starts(r, "y")) return "i" + r.substr(1);
    if (starts(r, "wu")) return "u" + r.substr(2);
    if (starts(r, "w")) return "u" + r.substr(1);
    for (const char* two : {"zh", "ch", "sh"})
        if (starts(r, two)) return r.substr(2) == "i" ? "-i" : r.substr(2);
    if (r.empty()) return r;
    const char initial = r[0];
    if (std::string("bpmfdtnlgkhjqxrzcs").find(initial) == std::string::npos) return r;
    std::string f = r.substr(1);
    if ((initial == 'j' || initial == 'q' || initial == 'x') && starts(f, "u")) f = "ü" + f.substr(1);
    if ((initial == 'r' || initial == 'z' || initial == 'c' || initial == 's') && f == "i") f = "-i";
    return f;
}

}  // namespace

Tone tone_of(const std::string& reading) {
    const char t = reading.empty() ? '0' : reading.back();
    return t == '1' || t == '2' ? Tone::Level : t == '3' || t == '4' ? Tone::Oblique : Tone::Unknown;
}

int rhyme_group_of(const std::string& reading) {
    static const std::map<std::string, int> groups = {
        {"a", 0},     {"ia", 0},   {"ua", 0},   {"o", 1},    {"uo", 1},   {"e", 1},
        {"ie", 2},    {"üe", 2},   {"ai", 3},   {"uai", 3},  {"ei", 4},   {"ui", 4},
        {"uei", 4},   {"ao", 5},   {"iao", 5},  {"ou", 6},   {"iu", 6},   {"iou", 6},
        {"an", 7},    {"ian", 7},  {"uan", 7},  {"üan", 7},  {"en", 8},   {"in", 8},
        {"un", 8},    {"uen", 8},  {"ün", 8},   {"ang", 9},  {"iang", 9}, {"uang", 9},
        {"eng", 10},  {"ing", 10}, {"ong", 10}, {"iong", 10}, {"ueng", 10}, {"i", 11},
        {"ü", 11},    {"er", 11},  {"-i", 12},  {"u", 13}};
    const auto g = groups.find(final_of(reading));
    return g == groups.end() ? -1 : g->second;
}

Sound mandarin_sound(const std::string& reading) { return {tone_of(reading), rhyme_group_of(reading)}; }

Sound tang_sound(const std::string& reading) {
    TangReading r;
    if (!tang_reading(reading, r)) return {};
    return {r.tone == TangTone::Level ? Tone::Level : Tone::Oblique, r.group};
}

const std::vector<Sound>& Pronunciations::of(const std::string& character) const {
    static const std::vector<Sound> none;
    const auto r = sounds.find(character);
    return r == sounds.end() ? none : r->second;
}

bool Pronunciations::can_be(const std::string& character, Tone t) const {
    for (const Sound& s : of(character))
        if (s.tone == t) return true;
    return false;
}

Tone Pronunciations::tone(const std::string& character) const {
    const bool level = can_be(character, Tone::Level), oblique = can_be(character, Tone::Oblique);
    return level == oblique ? Tone::Unknown : level ? Tone::Level : Tone::Oblique;
}

std::vector<int> Pronunciations::rhyme_groups(const std::string& character) const {
    std::vector<int> g;
    for (const Sound& s : of(character))
        if (s.group >= 0 && (table == SoundTable::Mandarin || s.tone == Tone::Level) &&
            std::find(g.begin(), g.end(), s.group) == g.end())
            g.push_back(s.group);
    return g;
}

std::vector<int> Pronunciations::all_groups(const std::string& character) const {
    std::vector<int> g;
    for (const Sound& s : of(character))
        if (s.group >= 0 && std::find(g.begin(), g.end(), s.group) == g.end()) g.push_back(s.group);
    return g;
}

Tone opposite(Tone t) {
    return t == Tone::Level ? Tone::Oblique : t == Tone::Oblique ? Tone::Level : Tone::Unknown;
}

bool is_han(const std::string& ch) {  // a CJK ideograph: U+3400 … U+9FFF
    if (ch.size() != 3) return false;
    const auto b = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(ch[i])); };
    const unsigned code = ((b(0) & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
    return code >= 0x3400 && code <= 0x9FFF;
}

static bool ends_verse(const std::string& ch) { return ch == "。" || ch == "？" || ch == "！"; }

std::vector<std::vector<std::string>> verses_of(const std::string& line) {
    const std::vector<std::string> c = characters(line);
    const auto comma = std::find(c.begin(), c.end(), std::string("，"));
    if (comma == c.end() || c.empty() || !ends_verse(c.back())) return {};
    std::vector<std::string> first(c.begin(), comma), second(comma + 1, c.end() - 1);
    for (const auto& v : {first, second})
        if (v.empty() || !std::all_of(v.begin(), v.end(), is_han)) return {};
    return {first, second};
}

namespace {

// Whether a verse of 5 or 7 characters alternates at its 2nd, 4th (and 6th) with some reading of
// each: -1 when a decisive character has no known tone (or the verse has another length).
int tones_alternate(const std::vector<std::string>& verse, const Pronunciations& p) {
    if (verse.size() != 5 && verse.size() != 7) return -1;
    std::vector<std::string> decisive;
    for (std::size_t i = 1; i < verse.size() - 1; i += 2) decisive.push_back(verse[i]);
    for (const std::string& c : decisive)
        if (!p.can_be(c, Tone::Level) && !p.can_be(c, Tone::Oblique)) return -1;
    for (const Tone first : {Tone::Level, Tone::Oblique}) {  // the 2nd's tone; the rest follow
        bool fits = true;
        for (std::size_t i = 0; i < decisive.size() && fits; ++i)
            fits = p.can_be(decisive[i], i % 2 == 0 ? first : opposite(first));
        if (fits) return 1;
    }
    return 0;
}

bool share_a_group(const std::vector<int>& a, const std::vector<int>& b) {
    for (const int g : a)
        if (std::find(b.begin(), b.end(), g) != b.end()) return true;
    return false;
}

}  // namespace

VerseMeasures measure_verse(const std::vector<std::string>& texts, const Pronunciations& p) {
    VerseMeasures m;
    for (const std::string& text : texts) {
        ++m.poems;
        std::vector<int> reference;  // the first couplet's rhyme groups
        const std::vector<std::string> lines = body_lines(text);
        for (std::size_t k = 0; k < lines.size(); ++k) {
            ++m.lines;
            m.doubled += repeats_a_character(lines[k], 2);
            m.tripled += repeats_a_character(lines[k], 3);
            const auto verses = verses_of(lines[k]);
            if (verses.empty()) continue;
            for (const auto& v : verses) {
                const int kept = tones_alternate(v, p);
                if (kept >= 0) ++m.tone_verses, m.tones_kept += static_cast<std::size_t>(kept);
            }
            const std::vector<int> groups = p.all_groups(verses[1].back());
            if (k == 0) {
                reference = groups;
            } else if (!reference.empty()) {
                ++m.rhyme_places;
                m.rhyming += share_a_group(groups, reference);
            }
        }
    }
    return m;
}

namespace {

// Where the next token goes, from the tokens so far.
struct Place {
    bool in_body = false;         // past the title's line
    bool line_done = false;       // the current couplet has its final mark
    std::size_t couplets = 0;     // couplets finished
    int half = 0;                 // 0: the first verse, 1: the second
    std::size_t column = 0;       // characters of the current verse so far
    std::size_t length = 0;       // the verses' length, once the first verse has set it
    bool rhyme_set = false;       // the poem's rhyme groups are set (reference)
    std::vector<int> reference;   // the rhyme groups every rhyme so far shares
    std::vector<int> rhymes;      // the characters that rhymed so far (no 重韵)
    Tone first_second = Tone::Unknown;  // the tone of the poem's 2nd character
    std::vector<int> verse;       // the current verse's characters so far
    int previous = -1;            // the last token
};

// Each token's part: a character (the tones its readings have, its rhyme groups), or a mark.
struct Part {
    bool han = false, level = false, oblique = false;
    std::vector<int> groups;
    bool can_be(Tone t) const { return t == Tone::Level ? level : t == Tone::Oblique && oblique; }
    bool one_tone() const { return level != oblique; }
};

// Whether a verse ending level can keep clear of the two faults of a level ending, given each
// character's possible tones (the last one's taken as level): three level tones at the end
// (三平尾), and a lone level tone (孤平) — of the last five characters, one level besides the
// last, and not the one next to it (仄平仄仄平; 平平仄仄平 and its accepted 拗救 仄平平仄平 are fine).
bool level_ending_fits(const std::vector<std::pair<bool, bool>>& tones) {  // (level, oblique)
    const std::size_t n = tones.size();
    if (n < 3) return true;
    // the tail's choices: every combination of the possible tones, the last level
    const std::size_t from = n >= 5 ? n - 5 : 0;
    const std::size_t k = n - 1 - from;  // characters before the last, in the tail
    for (unsigned choice = 0; choice < (1u << k); ++choice) {
        std::vector<bool> level(k);
        bool possible = true;
        for (std::size_t i = 0; i < k && possible; ++i) {
            level[i] = (choice >> i) & 1u;
            possible = level[i] ? tones[from + i].first : tones[from + i].second;
        }
        if (!possible) continue;
        if (level[k - 1] && level[k - 2]) continue;  // 三平尾
        std::size_t count = 0;
        for (const bool l : level) count += l;
        if (n >= 5 && count == 1 && !level[k - 1]) continue;  // 孤平
        return true;
    }
    return false;
}

}  // namespace

TokenMask form_mask(const CharVocabulary& v, const Pronunciations& p, FormRules rules) {
    std::vector<Part> part(v.size());
    int comma = -1, stop = -1;
    for (std::size_t id = 0; id < v.size(); ++id) {
        const std::string& name = v.names[id];
        part[id] = {is_han(name), p.can_be(name, Tone::Level), p.can_be(name, Tone::Oblique),
                    p.rhyme_groups(name)};
        if (name == "，") comma = static_cast<int>(id);
        if (name == "。") stop = static_cast<int>(id);
    }
    const bool tang = p.table == SoundTable::Tang;
    // with the Tang table a poem rhymes only in a group the vocabulary has at least five
    // characters of: four couplets rhyme up to five times, never on one character twice (重韵),
    // so a smaller group could leave the last rhyme nothing to choose
    std::map<int, std::size_t> in_group;
    for (const Part& x : part)
        for (const int g : x.groups) ++in_group[g];
    if (tang)
        for (Part& x : part) {
            std::vector<int> big;
            for (const int g : x.groups)
                if (in_group[g] >= 5) big.push_back(g);
            x.groups = big;
        }
    const auto shared = [](const std::vector<int>& a, const std::vector<int>& b) {
        std::vector<int> both;
        for (const int g : a)
            if (std::find(b.begin(), b.end(), g) != b.end()) both.push_back(g);
        return both;
    };
    return [=](const Tokens& so_far, std::vector<bool>& allowed) {
        if (!rules.any() || comma < 0 || stop < 0) return;
        // where we are
        Place at;
        const auto rhymed = [&](int id) {  // a character that rhymes: the groups narrow
            at.reference = at.rhyme_set ? shared(at.reference, part[std::size_t(id)].groups)
                                        : part[std::size_t(id)].groups;
            at.rhyme_set = true;
            at.rhymes.push_back(id);
        };
        for (const int id : so_far) {
            at.previous = id;
            if (id == CharVocabulary::newline) {
                if (at.in_body && at.line_done) ++at.couplets, at.line_done = false;
                at.in_body = true, at.half = 0, at.column = 0, at.verse.clear();
                continue;
            }
            if (!at.in_body || id < 0 || static_cast<std::size_t>(id) >= part.size()) continue;
            const std::string& name = v.names[static_cast<std::size_t>(id)];
            if (id == comma) {
                if (at.couplets == 0 && at.half == 0 && at.length == 0) at.length = at.column;
                // with the Tang table a first verse that can only end level rhymes: it sets the
                // groups (with Mandarin's toneless groups the second verse does)
                if (tang && at.couplets == 0 && at.half == 0 && !at.verse.empty()) {
                    const Part& x = part[std::size_t(at.verse.back())];
                    if (x.level && !x.oblique && !x.groups.empty()) rhymed(at.verse.back());
                }
                at.half = 1, at.column = 0, at.verse.clear();
            } else if (name == "。" || name == "？" || name == "！") {
                at.line_done = true;
            } else if (part[static_cast<std::size_t>(id)].han) {
                const Part& x = part[static_cast<std::size_t>(id)];
                if (at.couplets == 0 && at.column == 1 && at.half == 0)
                    at.first_second = x.one_tone() ? (x.level ? Tone::Level : Tone::Oblique)
                                                   : Tone::Unknown;
                ++at.column;
                at.verse.push_back(id);
                if (at.half == 1 && at.length && at.column == at.length) rhymed(id);
            }
        }
        if (!at.in_body) return;  // the title: nothing kept yet
        const std::size_t n = allowed.size();
        // the form: a verse of the length set, its mark, a couplet a line, 2 or 4 couplets
        std::vector<bool> form(n, false);
        const auto only = [&](int id) { if (id >= 0 && std::size_t(id) < n) form[std::size_t(id)] = true; };
        const auto characters = [&] {
            for (std::size_t id = 0; id < n; ++id) form[id] = form[id] || part[id].han;
        };
        if (at.line_done) {  // after a couplet: a line break, or the end after 2 or 4
            if (at.couplets + 1 < 4) only(CharVocabulary::newline);
            if (at.couplets + 1 == 2 || at.couplets + 1 == 4) only(CharVocabulary::eos);
        } else if (at.length == 0) {  // the first verse: 5 or 7 characters, then the comma
            if (at.column < 7) characters();
            if (at.column == 5 || at.column == 7) only(comma);
        } else if (at.column < at.length) {
            characters();
        } else {
            only(at.half == 0 ? comma : stop);
        }
        std::vector<bool> kept = form;
        const std::size_t verse = 2 * at.couplets + static_cast<std::size_t>(at.half);
        const std::size_t length = at.length ? at.length : 7;
        // the verse's last character comes next (a first verse of 7 at its 7th; one of 5 is
        // settled when the comma may come, below)
        const bool last = at.length ? at.column + 1 == at.length : at.column == 6;
        const auto keep_only = [&](const std::function<bool(const Part&)>& fits) {
            for (std::size_t id = 0; id < n; ++id)
                if (kept[id] && part[id].han && !fits(part[id])) kept[id] = false;
        };
        // the rhyme: every second verse's last character in the groups the rhymes so far share
        // (the first couplet's sets them), and no rhyme character twice (重韵)
        if (rules.rhyme && at.half == 1 && last && !at.line_done) {
            if (at.rhyme_set)
                keep_only([&](const Part& x) { return !shared(x.groups, at.reference).empty(); });
            else if (tang)
                keep_only([](const Part& x) { return !x.groups.empty(); });
            if (tang)  // no 重韵
                for (const int r : at.rhymes)
                    if (std::size_t(r) < n) kept[std::size_t(r)] = false;
        }
        // a first verse that can only end level rhymes, so it needs a rhyme group
        if (rules.rhyme && tang && verse == 0 && last && !at.line_done)
            keep_only([](const Part& x) { return x.oblique || !x.groups.empty(); });
        const Tone first = at.first_second;
        // this verse's 2nd character: the poem's first sets it; after that 对 within a couplet
        // (opposite) and 粘 across couplets (alike): verses 0 and 3 alike, 1 and 2 opposite, and
        // so on every four
        const Tone second = verse == 0 || first == Tone::Unknown ? first
                            : verse % 4 == 0 || verse % 4 == 3 ? first
                                                               : opposite(first);
        // the tone each decisive place of this verse takes (Unknown: free)
        const auto wanted = [&](std::size_t column) {
            if (!rules.tones || second == Tone::Unknown || column % 2 == 0 || column + 1 >= length)
                return Tone::Unknown;
            return column % 4 == 1 ? second : opposite(second);
        };
        // whether the verse so far, then a level character, keeps clear of 三平尾 and 孤平
        const auto level_end_fits = [&](std::size_t before) {
            std::vector<std::pair<bool, bool>> tones;
            for (std::size_t i = 0; i < before; ++i) {
                const Part& x = part[std::size_t(at.verse[i])];
                const Tone w = wanted(i);
                tones.push_back({x.level && w != Tone::Oblique, x.oblique && w != Tone::Level});
            }
            tones.push_back({true, false});
            return level_ending_fits(tones);
        };
        // a first verse of five: the comma only where its last character can end it
        if (verse == 0 && at.length == 0 && at.column == 5 && !at.line_done && tang &&
            (rules.rhyme || rules.tones)) {
            const Part& x = part[std::size_t(at.verse.back())];
            const bool level_ok = x.level && (!rules.tones || level_end_fits(4)) &&
                                  (!rules.rhyme || !x.groups.empty());
            if (!(x.oblique || level_ok)) kept[std::size_t(comma)] = false;
        }
        if (rules.tones && !at.line_done) {
            const auto wants = [&](Tone t) {
                keep_only([t](const Part& x) { return x.can_be(t); });
            };
            const std::size_t c = at.column;
            if (c == 1 && verse == 0) keep_only([](const Part& x) { return x.one_tone(); });
            if (c > 0 && c + 1 < length && wanted(c) != Tone::Unknown) wants(wanted(c));
            const bool ends_level = at.half == 1 && at.length;  // where the rhyme falls
            if (last && at.half == 1) wants(Tone::Level);
            else if (last && verse > 0) wants(Tone::Oblique);  // a first verse after the first
            // a verse ending level: no 三平尾 — before a level last-but-one, an oblique-capable
            // character; no 孤平 — before a level 4th-from-last and an oblique last-but-one, a
            // level-capable one
            if (ends_level && at.length >= 5) {
                if (c + 3 == at.length && wanted(c + 1) == Tone::Level) wants(Tone::Oblique);
                if (c + 5 == at.length && wanted(c + 1) == Tone::Level &&
                    wanted(c + 3) == Tone::Oblique)
                    wants(Tone::Level);
            }
            // the last character: a level one only where the verse so far can end level
            // without either fault (the first verse may end either way)
            if (last && !level_end_fits(at.verse.size()))
                keep_only([](const Part& x) { return x.oblique; });
        }
        if (rules.no_runs && at.previous >= 0 && std::size_t(at.previous) < n &&
            part[std::size_t(at.previous)].han)
            kept[std::size_t(at.previous)] = false;
        // a rule that leaves nothing gives way to the form alone
        const bool any = std::find(kept.begin(), kept.end(), true) != kept.end();
        const std::vector<bool>& use = any ? kept : form;
        if (std::find(use.begin(), use.end(), true) == use.end()) return;
        for (std::size_t id = 0; id < n; ++id) allowed[id] = allowed[id] && use[id];
    };
}
