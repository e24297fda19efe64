// ch14_inside_the_poet/inputs.cpp — chapter 14's data file and switches, read and checked.
#include "ch14_inside_the_poet/inputs.h"

#include <algorithm>
#include <string>
#include <vector>

#include "io/gpt_file.h"
#include "text/translate.h"

namespace ch14_inside_the_poet {

namespace {

Reading read_reading(const DataFile& d, const std::string& k, std::size_t longest) {
    Reading r;
    r.context = d.size(k + "context", 1, longest);
    r.famous = d.text(k + "famous");
    if (r.famous.empty()) throw d.error(k + "famous", tr("expected a poem's text"));
    r.lens_clause = d.size(k + "lens_clause", 0, 1000);
    r.induction_count = d.size(k + "induction.sequences", 1, 100000);
    r.induction_length = d.size(k + "induction.length", 2, 4096);
    r.induction_seed = d.seed(k + "induction.seed");
    return r;
}

CharVocabulary vocabulary_named(const DataFile& d, const std::string& key, std::size_t size) {
    CharVocabulary v;
    v.names = d.texts(key);
    const std::vector<std::string> specials = {"<pad>", "<bos>", "<eos>", "<unk>", "\n"};
    if (v.names.size() != size || !std::equal(specials.begin(), specials.end(), v.names.begin()))
        throw d.error(key, tr("expected {} names, one per token of config.vocab, the first five "
                              "<pad>, <bos>, <eos>, <unk> and a line break",
                              size));
    for (std::size_t i = 0; i < v.names.size(); ++i) v.ids[v.names[i]] = static_cast<int>(i);
    return v;
}

}  // namespace

Inputs read_inputs(const DataFile& d, const Options& o) {
    Inputs in;
    in.punctuation = d.texts("inputs.punctuation");
    in.small = load_gpt(d, "inputs.small");
    in.small_vocabulary = vocabulary_named(d, "inputs.small.vocabulary", in.small.config.tgt_vocab);
    in.small_poems = d.texts("inputs.small.poems");
    if (in.small_poems.empty())
        throw d.error("inputs.small.poems", tr("expected at least one poem"));
    in.small_reading = read_reading(d, "inputs.small.", 4096);
    in.poet = read_poet_settings(d, "inputs.poet.");
    in.sample_poems = d.size("inputs.poet.sample_poems", 1, 1000000);
    in.sample_seed = d.seed("inputs.poet.sample_seed");
    in.poet_reading = read_reading(d, "inputs.poet.", in.poet.windows.context);
    if (o.has("--steps"))
        in.poet.training.max_steps = static_cast<std::size_t>(o.integer("--steps", 1, 10000000));
    if (o.has("--sample"))
        in.sample_poems = static_cast<std::size_t>(o.integer("--sample", 1, 1000000));
    return in;
}

}  // namespace ch14_inside_the_poet
