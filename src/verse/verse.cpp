// verse.cpp — tones and rhymes from pinyin, measured on poems and kept while writing (verse.h).
#include "verse/verse.h"

#include <algorithm>

#include "verse/pingshui.h"
#include "verse/poem_measures.h"

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

const std::vector<Sound>& Pronunciations::at(const std::vector<std::string>& verse,
                                             std::size_t i) const {
    // the words read from the verse's start, each taking two characters: in 三更读 更 is
    // 三更's, and 更读 is not read
    for (std::size_t j = 0; j < verse.size() && j <= i;) {
        const auto w = j + 1 < verse.size() ? words.find(verse[j] + verse[j + 1]) : words.end();
        if (w == words.end()) {
            ++j;
            continue;
        }
        if (i <= j + 1) return w->second[i - j];
        j += 2;
    }
    return i < verse.size() ? of(verse[i]) : of("");
}

bool Pronunciations::can_be(const std::vector<Sound>& readings, Tone t) {
    for (const Sound& s : readings)
        if (s.tone == t) return true;
    return false;
}

Tone Pronunciations::tone(const std::vector<Sound>& readings) {
    const bool level = can_be(readings, Tone::Level), oblique = can_be(readings, Tone::Oblique);
    return level == oblique ? Tone::Unknown : level ? Tone::Level : Tone::Oblique;
}

std::vector<int> Pronunciations::rhyme_groups(const std::vector<Sound>& readings) const {
    std::vector<int> g;
    for (const Sound& s : readings)
        if (s.group >= 0 && (table == SoundTable::Mandarin || s.tone == Tone::Level) &&
            std::find(g.begin(), g.end(), s.group) == g.end())
            g.push_back(s.group);
    return g;
}

std::vector<int> Pronunciations::all_groups(const std::vector<Sound>& readings) {
    std::vector<int> g;
    for (const Sound& s : readings)
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
    std::vector<const std::vector<Sound>*> decisive;
    for (std::size_t i = 1; i < verse.size() - 1; i += 2) decisive.push_back(&p.at(verse, i));
    for (const std::vector<Sound>* c : decisive)
        if (!p.can_be(*c, Tone::Level) && !p.can_be(*c, Tone::Oblique)) return -1;
    for (const Tone first : {Tone::Level, Tone::Oblique}) {  // the 2nd's tone; the rest follow
        bool fits = true;
        for (std::size_t i = 0; i < decisive.size() && fits; ++i)
            fits = p.can_be(*decisive[i], i % 2 == 0 ? first : opposite(first));
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
            const std::vector<int> groups = p.all_groups(p.at(verses[1], verses[1].size() - 1));
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
