// poems.h — poems as token sequences for chapter 12's character-level model: one token per
// character, a vocabulary built from the training poems, an unknown token for the rest; how a
// corpus is split (held-out and validation poems, whole) and what is measured on written lines.
//
// A poem reads   <bos> 《 title 》 \n line \n line … <eos>
// so the model learns the title's brackets, the line breaks and where a poem ends, and a title
// alone is a prompt.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "model/transformer/tokens.h"  // exports: token ids

struct Poem {
    std::string title;               // without its 《》
    std::string author;              // without 作者：
    std::vector<std::string> lines;  // the poem's lines, one couplet each, as printed
};

// The characters of a UTF-8 string, one string each ("春晓" -> "春", "晓").
std::vector<std::string> characters(const std::string& utf8);

struct CharVocabulary {
    static constexpr int pad = 0, bos = 1, eos = 2, unknown = 3, newline = 4;
    std::vector<std::string> names;  // by id: <pad>, <bos>, <eos>, <unk>, \n, then characters
    std::map<std::string, int> ids;
    std::size_t size() const { return names.size(); }
    int id(const std::string& character) const;  // unknown for a character not in it
};

// The vocabulary of the characters these texts hold at least min_count times — with
// max_characters > 0, only that many of the most frequent (ties to the lower code point) — in
// Unicode order after the specials. With min_count 2, a character seen once is <unk> in
// training too: the model learns how often a character it does not know comes along, which
// held-out text has.
CharVocabulary vocabulary_of(const std::vector<std::string>& texts, std::size_t min_count = 1,
                             std::size_t max_characters = 0);

// A poem's text as the model reads it: "《title》\nline\nline".
std::string poem_text(const std::string& title, const std::vector<std::string>& lines);

// A prompt as the start of a poem's text. A title is written 《…》; a prompt with neither 《, nor a
// verse mark (， 。 ？ ！), nor a line break is the start of a title ("山" → "《山": the model
// finishes the title, then writes the poem); any other is as it is — "国破山河在，" is the first
// verse of a poem without a title.
std::string poem_start(const std::string& prompt);
// <bos>, the text's characters, and <eos> when `whole` (a prompt stays open).
Tokens encode(const CharVocabulary& v, const std::string& text, bool whole = true);
std::string decode(const CharVocabulary& v, const Tokens& ids);  // specials dropped

// A line in the regulated forms of the Tang poems: five or seven characters, a comma, as many
// again, and a full stop, question or exclamation mark ("床前明月光，疑是地上霜。").
bool regulated_form(const std::string& line);

// A regulated poem (近体诗 in shape): two or four couplets (a quatrain or an eight-line poem),
// every one in the same regulated form, all five or all seven characters.
bool regulated_poem(const Poem& p);

// The poems without repeats: a poem whose lines are those of an earlier one (a poem the
// collection holds twice, under another title or author) is dropped, so that no poem can be on
// both sides of a split.
std::vector<Poem> distinct_poems(const std::vector<Poem>& poems);

// Poems that share a couplet, word for word or but for one character, are kin: the same poem
// under another title (a 乐府 entry kept twice, 王之涣's 凉州词 filed again as 出塞 with 春风 for
// 春光), with a variant character in one couplet, or quoting another's couplet. Kin are joined
// through any couplet they share, into groups; the split keeps each group whole,
// so that no held-out or validation poem shares a couplet with a training poem. Returns each
// poem's group, the groups numbered in the order of their first poem.
std::vector<std::size_t> kin_groups(const std::vector<Poem>& poems);

// Every `every`-th one (the 10th, 20th, …) held out.
bool held_out(std::size_t index, std::size_t every);

// Poems for training, for choosing while training (validation), and for the final measurement
// (held out), whole groups of kin at a time (kin_groups): every heldout_every-th group held
// out; then, of the rest, every validation_every-th group for validation — every k-th instead,
// spread over the whole corpus, where that would give more than validation_max poems — and the
// others train. Held-out poems are never used to choose anything.
struct PoemSplit {
    std::vector<Poem> training, validation, heldout;
    std::size_t groups = 0;            // groups of kin, single poems included
    std::size_t kin = 0, in_kin = 0;  // the groups of more than one poem, and their poems
};
PoemSplit split_poems(const std::vector<Poem>& poems, std::size_t heldout_every,
                      std::size_t validation_every, std::size_t validation_max);

// What a written line is measured by: its shape, and whether one character comes `run` or more
// times in a row (春春春: a model that stutters).
bool repeats_a_character(const std::string& line, std::size_t run = 3);
