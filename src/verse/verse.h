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
// Tones and rhymes come from a pronunciation table, one of two:
// - the Tang table (build/corpus/tang.txt, verse/pingshui.h): each character's readings as the
//   rhyme groups of 平水韵, the table regulated verse was judged by, each with its Middle Chinese
//   tone — level (平) against oblique (rising 上, departing 去 and entering 入). One reading per
//   character where it stands (Pronunciations below): 行 is 庚, 看 either tone;
// - modern Mandarin (build/corpus/pinyin.txt, the npm package pinyin-pro's readings), a
//   character's first reading, a word's where it reads one otherwise: tones 1 and 2 are level,
//   3 and 4 oblique; the rhyme group is the reading's final
//   (韵母), grouped as the 14 groups of 中华新韵 (2005):
//     麻 a ia ua · 波 o uo e · 皆 ie üe · 开 ai uai · 微 ei ui · 豪 ao iao · 尤 ou iu ·
//     寒 an ian uan üan · 文 en in un ün · 唐 ang iang uang · 庚 eng ing ong iong ·
//     齐 i ü er · 支 the -i of zhi chi shi ri zi ci si · 姑 u
//   Modern Mandarin is not Tang pronunciation: the entering tone is gone, many of its characters
//   read level today (国, 白, 石), and rhymes have merged (东 with 冬, 寒 with 删 and 先). Chapter
//   12 prints each Tang measure beside its Mandarin twin, to show how far the modern one misleads.
#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "model/transformer/tokens.h"  // exports: token ids
#include "verse/poems.h"

enum class Tone { Level, Oblique, Unknown };

// A reading as pinyin with its tone as a digit ("xing2", "lü4"): its tone, and its rhyme group
// (0 … 13 in the order above; −1 where the reading cannot be parsed).
Tone tone_of(const std::string& reading);
int rhyme_group_of(const std::string& reading);
extern const char* const rhyme_group_names[14];  // 麻, 波, …, 姑

// One reading of a character: its tone and its rhyme group (−1: not known).
struct Sound {
    Tone tone = Tone::Unknown;
    int group = -1;
};
Sound mandarin_sound(const std::string& reading);  // "xing2": level, 庚
Sound tang_sound(const std::string& reading);      // "庚": level, 庚; "入": oblique, no group

enum class SoundTable { Mandarin, Tang };

// Each character's reading as one table has it, and the words that read a character otherwise.
// One reading per character where it stands (data/corpus/tang_rhymes.js, pronunciation.js): the
// table gives a character the reading it has by itself; a word of two characters side by side
// in a verse ("三更", "重阳") may give either of them another, and the word read first wins
// (in "三更读", 更 is 三更's). A character keeps more than one reading only where Tang verse
// reads it either way (看 望 听 …), where it has two senses no word tells apart (重: again or
// heavy), or where the table cannot choose among its entries (a level one beside an entering
// one); 行 is not such a character: it reads 庚, and 阳 only in a word that says so (两行). A
// rule is kept when some reading of each character keeps it.
struct Pronunciations {
    SoundTable table = SoundTable::Mandarin;
    std::map<std::string, std::vector<Sound>> sounds;
    std::map<std::string, std::vector<std::vector<Sound>>> words;  // "三更": 三's, 更's readings
    bool empty() const { return sounds.empty(); }
    const std::vector<Sound>& of(const std::string& character) const;  // none when not there
    // the readings of a verse's i-th character where it stands: a word's, else its own
    const std::vector<Sound>& at(const std::vector<std::string>& verse, std::size_t i) const;
    // Of a character (its own readings) or of readings where they stand (at):
    bool can_be(const std::string& character, Tone t) const { return can_be(of(character), t); }
    static bool can_be(const std::vector<Sound>& readings, Tone t);  // some reading has that tone
    // the tone when the readings agree; Unknown when they differ or none is known
    Tone tone(const std::string& character) const { return tone(of(character)); }
    static Tone tone(const std::vector<Sound>& readings);
    // the rhyme groups a verse can end in: with the Tang table its level readings' (regulated
    // verse rhymes on level tones), with Mandarin its reading's
    std::vector<int> rhyme_groups(const std::string& c) const { return rhyme_groups(of(c)); }
    std::vector<int> rhyme_groups(const std::vector<Sound>& readings) const;
    // every rhyme group of the readings, whatever their tone
    static std::vector<int> all_groups(const std::vector<Sound>& readings);
    std::vector<int> all_groups(const std::string& c) const { return all_groups(of(c)); }
};

Tone opposite(Tone t);  // level for oblique and oblique for level
bool is_han(const std::string& character);  // a CJK ideograph, U+3400 … U+9FFF
// A couplet's two verses, each its characters, when it reads "verse，verse。" (else none).
std::vector<std::vector<std::string>> verses_of(const std::string& line);

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

