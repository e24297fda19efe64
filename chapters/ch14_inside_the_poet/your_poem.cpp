// ch14_inside_the_poet/your_poem.cpp — the heads on one poem the reader types.
#include "ch14_inside_the_poet/your_poem.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "ch14_inside_the_poet/heads.h"
#include "ch14_inside_the_poet/measures.h"
#include "ch14_inside_the_poet/naming.h"
#include "ch14_inside_the_poet/oracle_check.h"
#include "io/gpt_file.h"
#include "report/chapter.h"
#include "report/heatmap.h"
#include "inside/head_patterns.h"
#include "inside/poem_sample.h"
#include "text/translate.h"
#include "verse/poems.h"

namespace ch14_inside_the_poet {

namespace {

// The characters of the text the model does not know (read as <unk>), each once.
std::string unknown_characters(const CharVocabulary& v, const std::string& text) {
    std::string list;
    std::vector<std::string> seen;
    for (const std::string& c : characters(text))
        if (c != "\n" && v.id(c) == CharVocabulary::unknown &&
            std::find(seen.begin(), seen.end(), c) == seen.end()) {
            seen.push_back(c);
            list += (list.empty() ? "" : " ") + c;
        }
    return list;
}

// A model whose weights overflow (one of 1e300) gives attention weights of NaN: refused with one
// line rather than narrated as "nan%" or written as null in --json.
void check_finite_weights(const std::vector<Matrix>& weights, const std::string& model_path) {
    for (const Matrix& w : weights)
        for (const double x : w.data)
            if (!std::isfinite(x))
                throw std::runtime_error(
                    tr("{}: its attention weights on your poem are not finite (weights so large "
                       "that they overflow, or not numbers); expected a model whose outputs are "
                       "finite",
                       model_path));
}

}  // namespace

void your_poem_step(Chapter& ch, const Inputs& in, const std::string& model_path,
                    const std::string& text) {
    if (characters(text).empty())
        throw UsageError(tr("--poem: expected a poem of one character or more"));
    const SavedGpt saved = read_saved_gpt(model_path);
    const Gpt& g = saved.model;
    const CharVocabulary& v = saved.vocabulary;
    const std::vector<bool> punctuation = punctuation_of(v, in.punctuation);
    check_drawable(ch.data, v, punctuation, model_path);
    const Tokens tokens = encode(v, text);  // <bos> … <eos>
    const PoemReading poem = read_poem(tokens, in.poet_reading.context, punctuation);

    Measured m;  // the head patterns of this one poem: chapter 14's first table, on it alone
    m.patterns = head_patterns(g, {poem}, punctuation);
    m.even = even_spread({poem}, punctuation);
    const std::vector<Matrix> weights = attention_weights(g, poem.inputs);
    check_finite_weights(weights, model_path);

    ch.step(tr("The heads on your poem"));
    ch.say(tr("The model of {}: {} of {}, {} parameters. It reads <bos> and your poem's {}{}; "
              "nothing else is measured here (build/ch14_inside_the_poet, run natively, measures "
              "the heads on the held-out poems and takes each out).",
              model_path, count_of(g.blocks.size(), N_("{} block"), N_("{} blocks")),
              count_of(g.config.n_heads, N_("{} head"), N_("{} heads")),
              grouped(parameter_count(g)),
              count_of(tokens.size() - 2, N_("{} token"), N_("{} tokens")),
              poem.inputs.size() < tokens.size() - 1
                  ? tr(" — the first {} of them: its window is {} tokens", poem.inputs.size() - 1,
                       in.poet_reading.context)
                  : ""));
    if (const std::string unknown = unknown_characters(v, text); !unknown.empty())
        ch.say(tr("not in the model's vocabulary: {} — it reads <unk> for each, and knows only "
                  "that some rare character stands there",
                  unknown));
    ch.say(tr("For the poem's {} (every position but <bos>), the share of each head's weight on "
              "the token just before, <bos>, punctuation, the clause's start, the same place of "
              "the couplet's first verse and the rhyme before (the chapter's first table, on this "
              "poem alone); the last row spreads its weight evenly:",
              count_of(m.patterns.queries, N_("{} query"), N_("{} queries"))));
    patterns_table(ch, g, m);

    Labels labels;
    for (const int id : poem.inputs) labels.push_back(token_label(v, id));
    const std::size_t h = g.config.n_heads;
    for (std::size_t b = 0; b < g.blocks.size(); ++b) {
        std::vector<Heatmap> panels;
        for (std::size_t i = 0; i < h; ++i)
            panels.push_back({tr("head {}", head_name(b, i)), weights[b * h + i], labels,
                              labels, Scale::Weights});
        ch.picture("ch14_your_poem_block" + std::to_string(b + 1) + ".svg",
                   heatmaps_svg(tr("block {}: where each head looks on your poem", b + 1), panels));
    }
    ch.say(tr("A picture for each block (--svg DIR writes them, the book's page shows them): a "
              "row per query, a column per key it may look at (those before it), darker where "
              "the head gives more weight."));
}

}  // namespace ch14_inside_the_poet
