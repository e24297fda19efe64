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
#include "io/data_file.h"
#include "io/gpt_file.h"
#include "io/platform.h"
#include "io/poem_corpus.h"
#include "report/chapter.h"
#include "report/options.h"
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

// The poet's held-out poems, read as the chapter reads them, where the corpus its model file
// records is here (natively, once make has fetched it); none where it is not (the live book's
// page, or a corpus moved away) — never another corpus in its place.
std::vector<PoemReading> heldout_poems(const std::string& model_path, const std::string& prepared,
                                       const CharVocabulary& v, const Inputs& in,
                                       const std::vector<bool>& punctuation) {
    const DataFile file = DataFile::load(model_path);
    CorpusSettings k;
    if (!read_corpus_record(file, prepared, k) || !k.choice.fallback.empty() ||
        !open_for_reading(k.choice.path))
        return {};
    const Corpus c = prepare_corpus(k, &v);
    std::vector<PoemReading> poems;
    for (const Tokens& poem : c.heldout)
        if (poem.size() >= 2) poems.push_back(read_poem(poem, in.poet_reading.context, punctuation));
    return poems;
}

// Each kind's leader on the held-out poems beside what that head gives on this one poem: a
// share over a poem's few queries (one rhyme, in a quatrain) can be far from the head's habit.
void beside_heldout(Chapter& ch, const Gpt& g, const Measured& poem,
                    const std::vector<PoemReading>& heldout, const std::vector<bool>& punctuation) {
    if (heldout.empty()) {
        ch.say(tr("The held-out poems are not here (the corpus the model was trained on is read "
                  "natively, once make has fetched it): build/ch14_inside_the_poet measures the "
                  "same heads on them, where a head's shares can be far from one poem's."));
        return;
    }
    Measured all;
    all.patterns = head_patterns(g, heldout, punctuation);
    all.even = even_spread(heldout, punctuation);
    std::vector<std::string> lines;
    for (const Kind& k : kinds) {
        const Leader l = leader(all, k);
        if (poem.patterns.*k.queries == 0 || l.times_even < stands_out) continue;
        const double here = (poem.patterns.*k.values)[l.head];
        lines.push_back(tr("{}: head {} leads there with {} of its weight; on your poem it gives {} ({}).",
                           tr(k.name), head_name(g, l.head), percent(l.share), percent(here),
                           count_of(poem.patterns.*k.queries, N_("{} query"), N_("{} queries"))));
    }
    const std::string poems = count_of(heldout.size(), N_("{} held-out poem"), N_("{} held-out poems"));
    if (lines.empty())
        return ch.say(tr("On the {} the model never trained on (the chapter's first table), no head "
                         "gives a kind of key that your poem has twice an even spread.",
                         poems));
    ch.say(tr("On the {} the model never trained on (the chapter's first table), beside your poem:",
              poems));
    for (const std::string& line : lines) ch.say(line);
}

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
              "no head is taken out here (build/ch14_inside_the_poet, without --poem, takes each "
              "out on the held-out poems).",
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
    const std::string prepared = data_folder_path(
        "build/corpus/quantangshi.txt", (ch.options.program_dir + "/ch14_inside_the_poet").c_str());
    beside_heldout(ch, g, m, heldout_poems(model_path, prepared, v, in, punctuation), punctuation);

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
