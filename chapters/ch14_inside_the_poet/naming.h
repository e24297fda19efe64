// ch14_inside_the_poet/naming.h — heads, tokens, titles and shares as chapter 14 writes them.
#pragma once
#include <string>
#include <vector>

#include "core/matrix.h"
#include "io/saved_poet.h"
#include "verse/poems.h"

struct Gpt;  // model/gpt/gpt.h

namespace ch14_inside_the_poet {

std::string head_name(std::size_t layer, std::size_t head);  // "2.3": block 2's third head
std::string head_name(const Gpt& m, std::size_t k);          // the k-th head of the whole model
std::string percent(double x);                                // "12.3%"
std::string percent2(double x);                               // "12.34%"
std::string token_label(const CharVocabulary& v, int id);     // a line break as "↵"
// Which of the vocabulary's tokens are among the marks of punctuation.
std::vector<bool> punctuation_of(const CharVocabulary& v, const std::vector<std::string>& marks);
// The title line of a poem's text ("《静夜思》").
std::string encode_title(const std::string& text);
// Whether the poem shares a verse, or one a character away, with a training poem (the title
// line first in its text).
bool in_training(const Poet& p, const std::string& text);
// The characters the induction test draws from: not specials, not punctuation.
std::vector<int> characters_of(const CharVocabulary& v, const std::vector<bool>& punctuation);

}  // namespace ch14_inside_the_poet
