// ch14_inside_the_poet/oracle_check.h — every measure of chapter 14 on the oracle's small poet.
#pragma once
#include "ch14_inside_the_poet/inputs.h"

class Chapter;

namespace ch14_inside_the_poet {

// The induction test draws its sequences from the characters that are neither special tokens
// nor punctuation: a vocabulary without one is refused, naming the list that took them all.
void check_drawable(const DataFile& d, const CharVocabulary& v, const std::vector<bool>& punctuation,
                    const std::string& model);
// The oracle's small poet measured as chapter 12's is, and every number recorded for --check.
void small_step(Chapter& ch, const Inputs& in);

}  // namespace ch14_inside_the_poet
