// ch14_inside_the_poet/heads.h — chapter 14's poet head by head: the kinds of key a head may give
// its weight to, where each head looks, and what the loss is without it.
#pragma once
#include <vector>

#include "ch14_inside_the_poet/measures.h"
#include "text/translate.h"

class Chapter;

namespace ch14_inside_the_poet {

// The measures and their names, in the table's order.
struct Kind {
    const char* key;   // --json's: poet_head_<key>
    const char* name;  // the table's
    std::vector<double> HeadPatterns::*values;
    std::size_t HeadPatterns::*queries;  // how many queries the share is over
};
inline const Kind kinds[] = {
    {"previous", N_("token before"), &HeadPatterns::previous, &HeadPatterns::queries},
    {"bos", N_("<bos>"), &HeadPatterns::bos, &HeadPatterns::queries},
    {"punctuation", N_("punctuation"), &HeadPatterns::punctuation, &HeadPatterns::queries},
    {"clause_start", N_("clause start"), &HeadPatterns::clause_start, &HeadPatterns::start_queries},
    {"previous_line", N_("first verse"), &HeadPatterns::previous_line, &HeadPatterns::line_queries},
    {"rhyme", N_("rhyme"), &HeadPatterns::rhyme, &HeadPatterns::rhyme_queries}};

// A head stands out on a kind when it gives it at least twice what an even spread would.
inline constexpr double stands_out = 2.0;

// The head with the largest share of one kind, and that share against an even spread's.
struct Leader {
    std::size_t head = 0;
    double share = 0, times_even = 0;
};
Leader leader(const Measured& m, const Kind& k);

// The kinds of key a head gives twice an even spread or more, in the kinds' order.
std::vector<const Kind*> kinds_standing_out(const Measured& m, std::size_t head);

// The table of where each head looks (over the poems m.patterns was measured on) and the leader
// of each kind of key.
void patterns_table(Chapter& ch, const Gpt& g, const Measured& m);
// The table of where each head looks, its leaders, and their weights on the famous poem.
void patterns_step(Chapter& ch, const Inputs& in, const Poet& p, const Measured& m);
// Each head, and each block's heads, zeroed and mean-replaced: the loss's change and what it says.
void ablation_step(Chapter& ch, const Poet& p, const Measured& m);
// A number with its sign, "+0.123" or "−0.123"; one that rounds to zero has none.
std::string signed3(double x);
// A change is told from chance when it is at least three standard errors — which takes a sample
// of two poems or more to estimate.
bool real_change(double base, const Ablated& a, bool judged);

}  // namespace ch14_inside_the_poet
