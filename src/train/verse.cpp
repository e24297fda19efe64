// verse.cpp — tones and rhymes from pinyin, measured on poems and kept while writing (verse.h).
#include "train/verse.h"

#include <algorithm>

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

Tone Pronunciations::tone(const std::string& character) const {
    const auto r = reading.find(character);
    return r == reading.end() ? Tone::Unknown : tone_of(r->second);
}

int Pronunciations::rhyme_group(const std::string& character) const {
    const auto r = reading.find(character);
    return r == reading.end() ? -1 : rhyme_group_of(r->second);
}

namespace {

bool is_han(const std::string& ch) {  // a CJK ideograph: U+3400 … U+9FFF
    if (ch.size() != 3) return false;
    const auto b = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(ch[i])); };
    const unsigned code = ((b(0) & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
    return code >= 0x3400 && code <= 0x9FFF;
}

bool ends_verse(const std::string& ch) { return ch == "。" || ch == "？" || ch == "！"; }

// A couplet's two verses, each its characters, when it reads "verse，verse。" (else empty).
std::vector<std::vector<std::string>> verses_of(const std::string& line) {
    const std::vector<std::string> c = characters(line);
    const auto comma = std::find(c.begin(), c.end(), std::string("，"));
    if (comma == c.end() || c.empty() || !ends_verse(c.back())) return {};
    std::vector<std::string> first(c.begin(), comma), second(comma + 1, c.end() - 1);
    for (const auto& v : {first, second})
        if (v.empty() || !std::all_of(v.begin(), v.end(), is_han)) return {};
    return {first, second};
}

// Whether a verse of 5 or 7 characters alternates at its 2nd, 4th (and 6th): -1 when a decisive
// tone is unknown (or the verse has another length).
int tones_alternate(const std::vector<std::string>& verse, const Pronunciations& p) {
    if (verse.size() != 5 && verse.size() != 7) return -1;
    std::vector<Tone> t;
    for (std::size_t i = 1; i < verse.size() - 1; i += 2) t.push_back(p.tone(verse[i]));
    for (const Tone x : t)
        if (x == Tone::Unknown) return -1;
    for (std::size_t i = 1; i < t.size(); ++i)
        if (t[i] == t[i - 1]) return 0;
    return 1;
}

}  // namespace

VerseMeasures measure_verse(const std::vector<std::string>& texts, const Pronunciations& p) {
    VerseMeasures m;
    for (const std::string& text : texts) {
        ++m.poems;
        int reference = -1;  // the first couplet's rhyme group
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
            const int group = p.rhyme_group(verses[1].back());
            if (k == 0) {
                reference = group;
            } else if (reference >= 0) {
                ++m.rhyme_places;
                m.rhyming += group == reference;
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
    int reference = -1;           // the first couplet's rhyme group
    Tone first_second = Tone::Unknown;  // the tone of the poem's 2nd character
    int previous = -1;            // the last token
};

}  // namespace

TokenMask form_mask(const CharVocabulary& v, const Pronunciations& p, FormRules rules) {
    // each token's part: a character (with its tone and rhyme group), or a mark
    struct Part {
        bool han = false;
        Tone tone = Tone::Unknown;
        int group = -1;
    };
    std::vector<Part> part(v.size());
    int comma = -1, stop = -1;
    for (std::size_t id = 0; id < v.size(); ++id) {
        const std::string& name = v.names[id];
        part[id] = {is_han(name), p.tone(name), p.rhyme_group(name)};
        if (name == "，") comma = static_cast<int>(id);
        if (name == "。") stop = static_cast<int>(id);
    }
    return [=](const Tokens& so_far, std::vector<bool>& allowed) {
        if (!rules.any() || comma < 0 || stop < 0) return;
        // where we are
        Place at;
        for (const int id : so_far) {
            at.previous = id;
            if (id == CharVocabulary::newline) {
                if (at.in_body && at.line_done) ++at.couplets, at.line_done = false;
                at.in_body = true, at.half = 0, at.column = 0;
                continue;
            }
            if (!at.in_body || id < 0 || static_cast<std::size_t>(id) >= part.size()) continue;
            if (id == comma) {
                if (at.couplets == 0 && at.half == 0 && at.length == 0) at.length = at.column;
                at.half = 1, at.column = 0;
            } else if (v.names[static_cast<std::size_t>(id)] == "。" ||
                       v.names[static_cast<std::size_t>(id)] == "？" ||
                       v.names[static_cast<std::size_t>(id)] == "！") {
                at.line_done = true;
            } else if (part[static_cast<std::size_t>(id)].han) {
                if (at.couplets == 0 && at.column == 1 && at.half == 0)
                    at.first_second = part[static_cast<std::size_t>(id)].tone;
                ++at.column;
                if (at.couplets == 0 && at.half == 1 && at.length && at.column == at.length)
                    at.reference = part[static_cast<std::size_t>(id)].group;
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
        const bool last = at.length && at.column + 1 == at.length;
        const auto keep_only = [&](const std::function<bool(const Part&)>& fits) {
            for (std::size_t id = 0; id < n; ++id)
                if (kept[id] && part[id].han && !fits(part[id])) kept[id] = false;
        };
        if (rules.rhyme && at.half == 1 && at.couplets >= 1 && last && at.reference >= 0)
            keep_only([&](const Part& x) { return x.group == at.reference; });
        if (rules.tones && !at.line_done) {
            const auto opposite = [](Tone t) { return t == Tone::Level ? Tone::Oblique : Tone::Level; };
            // this verse's 2nd character: the poem's first sets it; after that 对 within a
            // couplet (opposite) and 粘 across couplets (alike): verses 0 and 3 alike, 1 and 2
            // opposite, and so on every four
            const Tone first = at.first_second;
            const Tone second = verse == 0 || first == Tone::Unknown ? first
                                : verse % 4 == 0 || verse % 4 == 3 ? first
                                                                   : opposite(first);
            const auto wants = [&](Tone t) {
                keep_only([t](const Part& x) { return x.tone == t; });
            };
            const std::size_t c = at.column;
            if (c == 1 && verse == 0) keep_only([](const Part& x) { return x.tone != Tone::Unknown; });
            if (second != Tone::Unknown) {
                if (c == 1 && verse > 0) wants(second);
                if (c == 3) wants(opposite(second));           // the 4th against the 2nd
                if (c == 5 && length == 7) wants(second);       // the 6th against the 4th
            }
            if (last && at.half == 1) wants(Tone::Level);      // where the rhyme falls
            else if (last && verse > 0) wants(Tone::Oblique);  // a first verse after the first
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
