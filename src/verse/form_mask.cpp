// form_mask.cpp — the masks that keep the form (form_mask.h): where the next token goes, read
// from the tokens so far; the form alone; then each rule narrowing what the form allows.
#include "verse/form_mask.h"
#include "model/transformer/tokens.h"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

namespace {

// Where the next token goes, from the tokens so far.
struct Place {
    bool started = false;               // a token besides <bos> read
    bool in_body = false;               // past the title's line, or no title (below)
    bool line_done = false;             // the current couplet has its final mark
    std::size_t couplets = 0;           // couplets finished
    int half = 0;                       // 0: the first verse, 1: the second
    std::size_t column = 0;             // characters of the current verse so far
    std::size_t length = 0;             // the verses' length, once the first verse has set it
    bool rhyme_set = false;             // the poem's rhyme groups are set (reference)
    std::vector<int> reference;         // the rhyme groups every rhyme so far shares
    std::vector<int> rhymes;            // the characters that rhymed so far (no 重韵)
    Tone first_second = Tone::Unknown;  // the tone of the poem's 2nd character
    std::vector<int> verse;             // the current verse's characters so far
    int previous = -1;                  // the last token
};

// Each token's part: a character (the tones its readings have, its rhyme groups), or a mark.
struct Part {
    bool han = false, level = false, oblique = false;
    std::vector<int> groups;
    bool can_be(Tone t) const { return t == Tone::Level ? level : t == Tone::Oblique && oblique; }
    bool one_tone() const { return level != oblique; }
};

// A word that reads a character otherwise (verse.h): its second character's token, and both
// characters' parts in the word.
struct WordParts {
    int second = -1;
    Part first, then;
};

// What every step of one mask reads: each token's part, the words by their first character's
// token, the two marks, the rules.
struct Parts {
    std::vector<Part> part;
    std::map<int, std::vector<WordParts>> words;
    std::vector<std::string> names;
    int comma = -1, stop = -1;
    bool tang = false;  // the Tang table's readings (Mandarin's have toneless groups)
    FormRules rules;
};

std::vector<int> shared(const std::vector<int>& a, const std::vector<int>& b) {
    std::vector<int> both;
    for (const int g : a)
        if (std::find(b.begin(), b.end(), g) != b.end()) both.push_back(g);
    return both;
}

// Whether a verse ending level can keep clear of the two faults of a level ending, given each
// character's possible tones (the last one's taken as level): three level tones at the end
// (三平尾), and a lone level tone (孤平) — of the last five characters, one level besides the
// last, and not the one next to it (仄平仄仄平; 平平仄仄平 and its accepted 拗救 仄平平仄平 are
// fine).
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

// Each token's part and the two marks. With the Tang table a poem rhymes only in a group the
// vocabulary has at least five characters of: four couplets rhyme up to five times, never on
// one character twice (重韵), so a smaller group could leave the last rhyme nothing to choose.
Parts parts_of(const CharVocabulary& v, const Pronunciations& p, FormRules rules) {
    Parts w;
    w.part.resize(v.size());
    w.names = v.names;
    w.rules = rules;
    w.tang = p.table == SoundTable::Tang;
    for (std::size_t id = 0; id < v.size(); ++id) {
        const std::string& name = v.names[id];
        w.part[id] = {is_han(name), p.can_be(name, Tone::Level), p.can_be(name, Tone::Oblique),
                      p.rhyme_groups(name)};
        if (name == "，") w.comma = static_cast<int>(id);
        if (name == "。") w.stop = static_cast<int>(id);
    }
    std::map<int, std::size_t> in_group;
    for (const Part& x : w.part)
        for (const int g : x.groups) ++in_group[g];
    const auto big_groups = [&](Part& x) {
        std::vector<int> big;
        for (const int g : x.groups)
            if (in_group[g] >= 5) big.push_back(g);
        x.groups = big;
    };
    if (w.tang)
        for (Part& x : w.part) big_groups(x);
    const auto part_of = [&](const std::vector<Sound>& s) {
        Part x{true, p.can_be(s, Tone::Level), p.can_be(s, Tone::Oblique), p.rhyme_groups(s)};
        if (w.tang) big_groups(x);
        return x;
    };
    for (const auto& [word, sounds] : p.words) {
        const std::vector<std::string> c = characters(word);
        const auto id_of = [&](const std::string& name) {
            const auto i = v.ids.find(name);
            return i == v.ids.end() ? -1 : i->second;
        };
        const int a = c.size() == 2 ? id_of(c[0]) : -1, b = c.size() == 2 ? id_of(c[1]) : -1;
        if (a >= 0 && b >= 0) w.words[a].push_back({b, part_of(sounds[0]), part_of(sounds[1])});
    }
    return w;
}

// The parts of a verse's characters where each stands: words read from the verse's start, each
// taking two characters (Pronunciations::at); paired: whether the last one is a word's second.
std::vector<Part> parts_in(const Parts& w, const std::vector<int>& verse, bool* paired = nullptr) {
    std::vector<Part> out;
    bool last_paired = false;
    for (std::size_t i = 0; i < verse.size();) {
        const auto list = w.words.find(verse[i]);
        const WordParts* word = nullptr;
        if (list != w.words.end() && i + 1 < verse.size())
            for (const WordParts& x : list->second)
                if (x.second == verse[i + 1]) word = &x;
        if (word) {
            out.push_back(word->first), out.push_back(word->then);
            last_paired = i + 2 == verse.size();
            i += 2;
        } else {
            out.push_back(w.part[std::size_t(verse[i])]);
            last_paired = false;
            ++i;
        }
    }
    if (paired) *paired = last_paired;
    return out;
}

// A character that rhymes (its part where it stands): the poem's groups narrow to those it shares.
void rhymed(const Part& x, Place& at, int id) {
    const std::vector<int>& groups = x.groups;
    at.reference = at.rhyme_set ? shared(at.reference, groups) : groups;
    at.rhyme_set = true;
    at.rhymes.push_back(id);
}

// One character or mark of the poem's body read: the verse, the couplet and the rhyme move on.
void read_one(const Parts& w, Place& at, int id) {
    const std::string& name = w.names[static_cast<std::size_t>(id)];
    if (id == w.comma) {
        if (at.couplets == 0 && at.half == 0 && at.length == 0) at.length = at.column;
        // with the Tang table a first verse that can only end level rhymes: it sets the groups
        // (with Mandarin's toneless groups the second verse does)
        if (w.tang && at.couplets == 0 && at.half == 0 && !at.verse.empty()) {
            const Part x = parts_in(w, at.verse).back();
            if (x.level && !x.oblique && !x.groups.empty()) rhymed(x, at, at.verse.back());
        }
        at.half = 1, at.column = 0, at.verse.clear();
    } else if (name == "。" || name == "？" || name == "！") {
        at.line_done = true;
    } else if (w.part[static_cast<std::size_t>(id)].han) {
        at.verse.push_back(id);
        const Part x = parts_in(w, at.verse).back();  // where it stands
        if (at.couplets == 0 && at.column == 1 && at.half == 0)
            at.first_second =
                x.one_tone() ? (x.level ? Tone::Level : Tone::Oblique) : Tone::Unknown;
        ++at.column;
        if (at.half == 1 && at.length && at.column == at.length) rhymed(x, at, id);
    }
}

// Where the next token goes: the tokens so far read in order, the title's line skipped. A text
// that does not open with 《 has no title: it is the poem's body from its first character (a
// prompt that is a first verse, "国破山河在，"), as body_lines reads it.
Place where_we_are(const Parts& w, const Tokens& so_far) {
    Place at;
    for (const int id : so_far) {
        at.previous = id;
        if (!at.started && id != CharVocabulary::bos && id != CharVocabulary::pad) {
            at.started = true;
            at.in_body = !(id >= 0 && std::size_t(id) < w.names.size() && w.names[std::size_t(id)] == "《");
        }
        if (id == CharVocabulary::newline) {
            if (at.in_body && at.line_done) ++at.couplets, at.line_done = false;
            at.in_body = true, at.half = 0, at.column = 0, at.verse.clear();
            continue;
        }
        if (!at.in_body || id < 0 || static_cast<std::size_t>(id) >= w.part.size()) continue;
        read_one(w, at, id);
    }
    return at;
}

// The form alone: a verse of the length set, its mark, a couplet a line, 2 or 4 couplets (the
// shape asked, where the rules ask one).
std::vector<bool> form_allows(const Parts& w, const Place& at, std::size_t n) {
    std::vector<bool> form(n, false);
    const auto only = [&](int id) {
        if (id >= 0 && std::size_t(id) < n) form[std::size_t(id)] = true;
    };
    const auto characters = [&] {
        for (std::size_t id = 0; id < n; ++id) form[id] = form[id] || w.part[id].han;
    };
    const std::size_t couplets = w.rules.couplets, length = w.rules.length;
    if (at.line_done) {  // after a couplet: a line break, or the end after 2 or 4
        const std::size_t done = at.couplets + 1;
        if (done < (couplets ? couplets : 4)) only(CharVocabulary::newline);
        if (couplets ? done >= couplets : done == 2 || done == 4) only(CharVocabulary::eos);
    } else if (at.length == 0) {  // the first verse: 5 or 7 characters, then the comma
        if (at.column < (length ? length : 7)) characters();
        if (length ? at.column >= length : at.column == 5 || at.column == 7) only(w.comma);
    } else if (at.column < at.length) {
        characters();
    } else {
        only(at.half == 0 ? w.comma : w.stop);
    }
    return form;
}

// The rules' view of the verse being written: which verse of the poem, how long, whether its
// last character comes next, and the tone its 2nd character takes.
struct VerseNow {
    std::size_t verse = 0, length = 7;
    bool last = false;
    Tone second = Tone::Unknown;
    // the tone each decisive place of this verse takes (Unknown: free)
    Tone wanted(std::size_t column, bool tones) const {
        if (!tones || second == Tone::Unknown || column % 2 == 0 || column + 1 >= length)
            return Tone::Unknown;
        return column % 4 == 1 ? second : opposite(second);
    }
};

VerseNow verse_now(const Place& at) {
    VerseNow v;
    v.verse = 2 * at.couplets + static_cast<std::size_t>(at.half);
    v.length = at.length ? at.length : 7;
    // the verse's last character comes next (a first verse of 7 at its 7th; one of 5 is
    // settled when the comma may come: keep_first_comma)
    v.last = at.length ? at.column + 1 == at.length : at.column == 6;
    // this verse's 2nd character: the poem's first sets it; after that 对 within a couplet
    // (opposite) and 粘 across couplets (alike): verses 0 and 3 alike, 1 and 2 opposite, and so
    // on every four
    const Tone first = at.first_second;
    v.second = v.verse == 0 || first == Tone::Unknown ? first
               : v.verse % 4 == 0 || v.verse % 4 == 3 ? first
                                                      : opposite(first);
    return v;
}

// The tone the rule of tones asks of the character at `column` of the verse being written
// (Unknown: either): a decisive place's (VerseNow::wanted), and in a verse ending level, the
// places that keep clear of 三平尾 and 孤平 — before a level last-but-one an oblique one, and
// before a level 4th-from-last and an oblique last-but-one a level one.
Tone required(const Place& at, const VerseNow& now, std::size_t column, bool tones) {
    if (!tones) return Tone::Unknown;
    const auto wanted = [&](std::size_t c) { return now.wanted(c, true); };
    if (column > 0 && column + 1 < now.length && wanted(column) != Tone::Unknown)
        return wanted(column);
    const bool ends_level = at.half == 1 && at.length;  // where the rhyme falls
    if (ends_level && at.length >= 5) {
        if (column + 3 == at.length && wanted(column + 1) == Tone::Level) return Tone::Oblique;
        if (column + 5 == at.length && wanted(column + 1) == Tone::Level &&
            wanted(column + 3) == Tone::Oblique)
            return Tone::Level;
    }
    return Tone::Unknown;
}

// What is still allowed, and narrowing it to the characters that fit — each as it would stand:
// a character that makes a word with the one before has the word's part (as_word).
struct Kept {
    const Parts& w;
    std::vector<bool> allowed;
    std::map<int, Part> as_word;     // the candidate's part in the word …
    std::map<int, Part> word_first;  // … and the one before's
    const Part& part(std::size_t id) const {
        const auto x = as_word.find(int(id));
        return x == as_word.end() ? w.part[id] : x->second;
    }
    void keep_only(const std::function<bool(const Part&)>& fits) {
        for (std::size_t id = 0; id < allowed.size(); ++id)
            if (allowed[id] && w.part[id].han && !fits(part(id))) allowed[id] = false;
    }
};

// The characters that would make a word with the one before (not itself a word's second): each
// takes the word's part, and is left out where the word would give the one before a tone its
// place does not take (required), or a second tone where the poem's first verse takes its 2nd
// character's one.
void words_after(const Place& at, const VerseNow& now, Kept& kept) {
    const Parts& w = kept.w;
    if (at.verse.empty() || at.line_done) return;
    bool paired = false;
    parts_in(w, at.verse, &paired);
    const auto list = w.words.find(at.verse.back());
    if (paired || list == w.words.end()) return;
    const Tone before = required(at, now, at.column - 1, w.rules.tones);
    const bool sets_the_poem = w.rules.tones && now.verse == 0 && at.column == 2;
    for (const WordParts& x : list->second) {
        if (std::size_t(x.second) >= kept.allowed.size()) continue;
        if ((before != Tone::Unknown && !x.first.can_be(before)) ||
            (sets_the_poem && !x.first.one_tone()))
            kept.allowed[std::size_t(x.second)] = false;
        else
            kept.as_word[x.second] = x.then, kept.word_first[x.second] = x.first;
    }
}

// The rhyme: every second verse's last character in the groups the rhymes so far share (the
// first couplet's sets them), and no rhyme character twice (重韵); a first verse that can only
// end level rhymes, so it needs a rhyme group.
void keep_rhyme(const Place& at, const VerseNow& now, Kept& kept) {
    const Parts& w = kept.w;
    if (!w.rules.rhyme || !now.last || at.line_done) return;
    if (at.half == 1) {
        if (at.rhyme_set)
            kept.keep_only([&](const Part& x) { return !shared(x.groups, at.reference).empty(); });
        else if (w.tang)
            kept.keep_only([](const Part& x) { return !x.groups.empty(); });
        if (w.tang)  // no 重韵
            for (const int r : at.rhymes)
                if (std::size_t(r) < kept.allowed.size()) kept.allowed[std::size_t(r)] = false;
    }
    if (w.tang && now.verse == 0)
        kept.keep_only([](const Part& x) { return x.oblique || !x.groups.empty(); });
}

// Whether the verse so far (its first `before` characters), then a level character, keeps
// clear of 三平尾 and 孤平 — with `before_last` for the verse's last character so far where a
// word would read it otherwise.
bool level_end_fits(const Parts& w, const Place& at, const VerseNow& now, std::size_t before,
                    const Part* before_last = nullptr) {
    std::vector<std::pair<bool, bool>> tones;
    std::vector<Part> parts = parts_in(w, at.verse);
    if (before_last && !parts.empty()) parts.back() = *before_last;
    for (std::size_t i = 0; i < before; ++i) {
        const Part& x = parts[i];
        const Tone t = now.wanted(i, w.rules.tones);
        tones.push_back({x.level && t != Tone::Oblique, x.oblique && t != Tone::Level});
    }
    tones.push_back({true, false});
    return level_ending_fits(tones);
}

// A first verse of five: the comma only where its last character can end it.
void keep_first_comma(const Place& at, const VerseNow& now, Kept& kept) {
    const Parts& w = kept.w;
    if (!(now.verse == 0 && at.length == 0 && at.column == 5 && !at.line_done && w.tang &&
          (w.rules.rhyme || w.rules.tones)))
        return;
    const Part x = parts_in(w, at.verse).back();
    const bool level_ok = x.level && (!w.rules.tones || level_end_fits(w, at, now, 4)) &&
                          (!w.rules.rhyme || !x.groups.empty());
    if (!(x.oblique || level_ok)) kept.allowed[std::size_t(w.comma)] = false;
}

// The tones: the decisive places alternate, the verse ends as its place in the couplet says,
// and a level ending keeps clear of 三平尾 and 孤平.
void keep_tones(const Place& at, const VerseNow& now, Kept& kept) {
    const Parts& w = kept.w;
    if (!w.rules.tones || at.line_done) return;
    const auto wants = [&](Tone t) { kept.keep_only([t](const Part& x) { return x.can_be(t); }); };
    const std::size_t c = at.column;
    if (c == 1 && now.verse == 0) kept.keep_only([](const Part& x) { return x.one_tone(); });
    if (now.last && at.half == 1)
        wants(Tone::Level);
    else if (now.last && now.verse > 0)
        wants(Tone::Oblique);  // a first verse after the first
    // the decisive places, and where a verse ending level keeps clear of 三平尾 and 孤平
    if (required(at, now, c, true) != Tone::Unknown) wants(required(at, now, c, true));
    // the last character: a level one only where the verse so far can end level without
    // either fault (the first verse may end either way; a second verse must end level, so
    // nothing fits it there)
    if (now.last && !level_end_fits(w, at, now, at.verse.size()))
        kept.keep_only([&](const Part& x) { return at.half == 0 && x.oblique; });
    // a last character that makes a word with the one before gives that one the word's reading:
    // the level ending is judged again with it
    if (now.last)
        for (const auto& [id, first] : kept.word_first) {
            const std::size_t i = std::size_t(id);
            if (!kept.allowed[i] || !kept.part(i).level ||
                level_end_fits(w, at, now, at.verse.size(), &first))
                continue;
            if (kept.part(i).oblique)
                kept.as_word[id].level = false;
            else
                kept.allowed[i] = false;
        }
}

// No character right after itself.
void keep_no_runs(const Place& at, Kept& kept) {
    const std::size_t n = kept.allowed.size();
    if (kept.w.rules.no_runs && at.previous >= 0 && std::size_t(at.previous) < n &&
        kept.w.part[std::size_t(at.previous)].han)
        kept.allowed[std::size_t(at.previous)] = false;
}

}  // namespace

TokenMask form_mask(const CharVocabulary& v, const Pronunciations& p, FormRules rules) {
    const Parts w = parts_of(v, p, rules);
    return [w](const Tokens& so_far, std::vector<bool>& allowed) {
        if (!w.rules.any() || w.comma < 0 || w.stop < 0) return;
        const Place at = where_we_are(w, so_far);
        if (!at.in_body) return;  // the title: nothing kept yet
        const std::size_t n = allowed.size();
        const std::vector<bool> form = form_allows(w, at, n);
        const VerseNow now = verse_now(at);
        Kept kept{w, form, {}, {}};
        words_after(at, now, kept);
        keep_rhyme(at, now, kept);
        keep_first_comma(at, now, kept);
        keep_tones(at, now, kept);
        keep_no_runs(at, kept);
        // a rule that leaves nothing gives way to the form alone
        const bool any =
            std::find(kept.allowed.begin(), kept.allowed.end(), true) != kept.allowed.end();
        const std::vector<bool>& use = any ? kept.allowed : form;
        if (std::find(use.begin(), use.end(), true) == use.end()) return;
        for (std::size_t id = 0; id < n; ++id) allowed[id] = allowed[id] && use[id];
    };
}
