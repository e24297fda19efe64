// verse.h — what makes a Tang poem regulated verse (近体诗) besides its shape, measured on any
// poem, real or written, and kept while writing (chapter 12):
//
// - the tones (平仄): every character is level (平) or oblique (仄). In a regulated verse the
//   2nd, 4th and 6th characters alternate (二四六分明) — the four regulated patterns of a verse
//   of five characters (仄仄平平仄, 平平仄仄平, 平平平仄仄, 仄仄仄平平) and of seven (平平仄仄平平仄,
//   仄仄平平仄仄平, 仄仄平平平仄仄, 平平仄仄仄平平) all do, and only they: matching one of the
//   four at the decisive places means the 2nd differs from the 4th, and the 6th from the 4th;
// - the rhyme (韵): the second verse of every couplet ends in a character of one rhyme group,
//   set by the first couplet's.
//
// Tones and rhymes come from a pronunciation table (build/corpus/pinyin.txt, the npm package
// pinyin-pro's readings): tones 1 and 2 of Mandarin are level, 3 and 4 oblique; the rhyme group
// is the reading's final (韵母), grouped as the 14 groups of 中华新韵 (2005):
//   麻 a ia ua · 波 o uo e · 皆 ie üe · 开 ai uai · 微 ei ui · 豪 ao iao · 尤 ou iu ·
//   寒 an ian uan üan · 文 en in un ün · 唐 ang iang uang · 庚 eng ing ong iong ·
//   齐 i ü er · 支 the -i of zhi chi shi ri zi ci si · 姑 u
// Modern Mandarin is not Tang pronunciation: the old entering tone (入声) was oblique, and many
// of its characters read level today (国, 白, 石); rhymes have moved too. The real poems measured
// with the same table show how far the measure can be trusted.
#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "model/gpt/gpt_sampling.h"
#include "model/transformer/tokens.h"
#include "train/poems.h"

enum class Tone { Level, Oblique, Unknown };

// A reading as pinyin with its tone as a digit ("xing2", "lü4"): its tone, and its rhyme group
// (0 … 13 in the order above; −1 where the reading cannot be parsed).
Tone tone_of(const std::string& reading);
int rhyme_group_of(const std::string& reading);
extern const char* const rhyme_group_names[14];  // 麻, 波, …, 姑

// Each character's readings, the most common first (the table's first is the one measured).
struct Pronunciations {
    std::map<std::string, std::string> reading;  // character -> its first reading
    bool empty() const { return reading.empty(); }
    Tone tone(const std::string& character) const;
    int rhyme_group(const std::string& character) const;
};

// What a set of poems shows, line by line (a line: one couplet) and verse by verse.
struct VerseMeasures {
    std::size_t poems = 0, lines = 0;
    std::size_t doubled = 0, tripled = 0;  // lines holding a character twice, three times in a row
    std::size_t rhyming = 0, rhyme_places = 0;  // second verses after the first couplet, and those
                                                // in the first couplet's rhyme group
    std::size_t tones_kept = 0, tone_verses = 0;  // verses of 5 or 7 whose decisive tones are
                                                  // known, and those alternating
    double share(std::size_t n, std::size_t of) const { return of ? double(n) / double(of) : 0.0; }
    double doubled_share() const { return share(doubled, lines); }
    double tripled_share() const { return share(tripled, lines); }
    double rhyme_share() const { return share(rhyming, rhyme_places); }
    double tone_share() const { return share(tones_kept, tone_verses); }
};

// Poems as the model writes them ("《title》\nline\nline…"): every line after the title.
VerseMeasures measure_verse(const std::vector<std::string>& texts, const Pronunciations& p);

// The masks that keep the form while writing: which tokens may come next, given the tokens so
// far — the same idea as chapter 3's masks, applied to the logits before the softmax (a token
// masked gets −∞, so weight 0). With any rule on, a verse keeps the length the first one set
// (5 or 7), then its comma or full stop, a couplet per line, and the poem ends after 2 or 4.
//   rhyme:   the last character of every second verse after the first couplet in the rhyme
//            group of the first couplet's
//   tones:   the 2nd, 4th and 6th characters alternate, each verse's 2nd opposite its couplet
//            partner's (对) and like the next couplet's first verse's (粘), second verses ending
//            level and first verses (after the first) oblique
//   no_runs: no character right after itself
struct FormRules {
    bool rhyme = false, tones = false, no_runs = false;
    bool any() const { return rhyme || tones || no_runs; }
};
TokenMask form_mask(const CharVocabulary& v, const Pronunciations& p, FormRules rules);
