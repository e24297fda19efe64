// ch14_inside_the_poet/naming.cpp — heads, tokens, titles and shares as chapter 14 writes them.
#include "ch14_inside_the_poet/naming.h"

#include <algorithm>
#include <string>
#include <vector>

#include "report/heatmap.h"
#include "verse/poem_measures.h"

namespace ch14_inside_the_poet {

std::string head_name(std::size_t layer, std::size_t head) {
    return std::to_string(layer + 1) + "." + std::to_string(head + 1);
}
std::string head_name(const Gpt& m, std::size_t k) {
    const std::size_t h = m.config.n_heads;
    return head_name(k / h, k % h);
}
std::string percent(double x) { return fixed(100 * x, 1) + "%"; }
std::string percent2(double x) { return fixed(100 * x, 2) + "%"; }
std::string token_label(const CharVocabulary& v, int id) {
    return id == CharVocabulary::newline ? "↵" : v.names.at(static_cast<std::size_t>(id));
}

std::vector<bool> punctuation_of(const CharVocabulary& v, const std::vector<std::string>& marks) {
    std::vector<bool> out(v.size(), false);
    for (std::size_t i = 0; i < v.size(); ++i)
        out[i] = std::find(marks.begin(), marks.end(), v.names[i]) != marks.end();
    return out;
}

// The title line of a poem's text ("《静夜思》").
std::string encode_title(const std::string& text) { return text.substr(0, text.find('\n')); }

// Whether the poem shares a verse, or one a character away, with a training poem (the title
// line first in its text).
bool in_training(const Poet& p, const std::string& text) {
    return shares_a_verse(text, p.corpus.training_lines);
}

// The characters the induction test draws from: not specials, not punctuation.
std::vector<int> characters_of(const CharVocabulary& v, const std::vector<bool>& punctuation) {
    std::vector<int> out;
    for (std::size_t i = CharVocabulary::newline + 1; i < v.size(); ++i)
        if (!punctuation[i]) out.push_back(static_cast<int>(i));
    return out;
}

}  // namespace ch14_inside_the_poet
