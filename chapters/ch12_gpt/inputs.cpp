// ch12_gpt/inputs.cpp — chapter 12's data file and switches, read and checked.
#include "ch12_gpt/inputs.h"

#include <sstream>
#include <string>

#include "io/gpt_file.h"
#include "text/translate.h"
#include "verse/pingshui.h"
#include "verse/poems.h"

namespace ch12_gpt {

namespace {

// The repeat correction's check: two β, and a kind (0 or 1) for each token after a sequence's
// first.
void read_repeat(const DataFile& data, Inputs& in) {
    const Matrix beta = data.vector("inputs.tiny.sliding.repeat.beta");
    if (beta.cols != 2)
        throw data.error("inputs.tiny.sliding.repeat.beta", tr("expected two numbers"));
    in.repeat_beta = {beta(0, 0), beta(0, 1)};
    in.repeat_kinds = data.token_lists("inputs.tiny.sliding.repeat.kinds", 2);
    if (in.repeat_kinds.size() != in.sliding.size())
        throw data.error("inputs.tiny.sliding.repeat.kinds", tr("expected one list per sequence"));
    for (std::size_t i = 0; i < in.sliding.size(); ++i)
        if (in.repeat_kinds[i].size() + 1 != in.sliding[i].size())
            throw data.error("inputs.tiny.sliding.repeat.kinds",
                             tr("expected one kind for each token after a sequence's first"));
}

// A batch at k: k + "inputs" and k + "targets", one target per input token.
void read_batch(const DataFile& data, const std::string& k, std::size_t vocab,
                std::vector<Tokens>& inputs, std::vector<Tokens>& targets) {
    inputs = data.token_lists(k + "inputs", vocab);
    targets = data.token_lists(k + "targets", vocab);
    if (inputs.size() != targets.size())
        throw data.error(k + "targets", tr("expected one target list per input list"));
    for (std::size_t s = 0; s < inputs.size(); ++s)
        if (inputs[s].empty() || targets[s].size() != inputs[s].size())
            throw data.error(k + "targets", tr("expected one target per input token, at least one"));
}

// The words that read a character otherwise (verse/verse.h), each a word of two characters and
// a reading each, for the Tang table and Mandarin (optional: a data file of an earlier version
// has none).
template <typename TangSounds>
void read_verse_words(const DataFile& data, Inputs& in, const TangSounds& tang_sounds) {
    const auto word_readings = [&](const std::string& key, const std::string& word) {
        const std::vector<std::string> r = data.texts(key);
        if (characters(word).size() != 2 || r.size() != 2)
            throw data.error(key, tr("expected a word of two characters and a reading of each"));
        return r;
    };
    const auto words_at = [&](const std::string& key) {
        return data.has(key) ? data.keys(key) : std::vector<std::string>{};
    };
    for (const std::string& word : words_at("inputs.verse.tang_words")) {
        const std::string key = "inputs.verse.tang_words." + word;
        const std::vector<std::string> r = word_readings(key, word);
        in.verse_tang.words[word] = {tang_sounds(key, r[0]), tang_sounds(key, r[1])};
    }
    for (const std::string& word : words_at("inputs.verse.pronunciation_words")) {
        const std::string key = "inputs.verse.pronunciation_words." + word;
        const std::vector<std::string> r = word_readings(key, word);
        in.verse_table.words[word] = {{mandarin_sound(r[0])}, {mandarin_sound(r[1])}};
    }
}

void read_tiny(const DataFile& data, Inputs& in) {
    for (std::size_t i = 0; i < data.length("inputs.tiny.variants"); ++i) {
        const std::string k = "inputs.tiny.variants[" + std::to_string(i) + "]";
        in.tiny.push_back({data.text(k + ".name"), load_gpt(data, k)});
    }
    if (in.tiny.empty())
        throw data.error("inputs.tiny.variants", tr("expected at least one model"));
    const std::size_t vocab = in.tiny[0].model.config.tgt_vocab;
    for (const Tiny& t : in.tiny)
        if (t.model.config.tgt_vocab != vocab)
            throw data.error("inputs.tiny.variants", tr("expected one vocabulary size for all"));
    read_batch(data, "inputs.tiny.", vocab, in.tiny_inputs, in.tiny_targets);
    const std::string u = "inputs.tiny.unlikelihood.";
    in.unlikelihood_weight = data.number(u + "weight", 0.0, 100.0);
    read_batch(data, u, vocab, in.unlikelihood_inputs, in.unlikelihood_targets);
    in.sliding = data.token_lists("inputs.tiny.sliding.sequences", vocab);
    in.sliding_context = data.size("inputs.tiny.sliding.context", 1, 4096);
    for (const Tokens& s : in.sliding)
        if (s.size() < 2)
            throw data.error("inputs.tiny.sliding.sequences", tr("expected at least two tokens each"));
    read_repeat(data, in);
    in.baseline_vocab = data.size("inputs.baselines.vocab", 5, 1 << 20);
    in.baseline_training = data.token_lists("inputs.baselines.training", in.baseline_vocab);
    in.baseline_heldout = data.token_lists("inputs.baselines.heldout", in.baseline_vocab);
    in.verse_poems = data.texts("inputs.verse.poems");
    in.verse_readings = data.texts("inputs.verse.readings");
    for (const std::string& character : data.keys("inputs.verse.pronunciations"))
        in.verse_table.sounds[character] = {
            mandarin_sound(data.text("inputs.verse.pronunciations." + character))};
    // the Tang table: each character's readings, 平水韵 headings or a tone alone
    in.verse_tang.table = SoundTable::Tang;
    const auto tang_sounds = [&](const std::string& key, const std::string& readings) {
        std::vector<Sound> sounds;
        std::istringstream words(readings);
        for (std::string r; words >> r;) {
            TangReading t;
            if (!tang_reading(r, t))
                throw data.error(key, tr("expected headings of 平水韵 (东, 董, 送, 屋 …) or a tone "
                                         "alone (平, 上, 去, 入); got \"{}\"",
                                         r));
            sounds.push_back(tang_sound(r));
        }
        if (sounds.empty()) throw data.error(key, tr("expected at least one reading"));
        return sounds;
    };
    for (const std::string& character : data.keys("inputs.verse.tang")) {
        const std::string key = "inputs.verse.tang." + character;
        in.verse_tang.sounds[character] = tang_sounds(key, data.text(key));
    }
    read_verse_words(data, in, tang_sounds);
    in.verse_tang_readings = data.texts("inputs.verse.tang_readings");
    in.verse_training_poems = data.size("inputs.verse.training_poems", 0, in.verse_poems.size());
    for (std::size_t i = 0; i < in.verse_tang_readings.size(); ++i)
        tang_sounds("inputs.verse.tang_readings", in.verse_tang_readings[i]);
}

// The training settings: inputs.training's, except where inputs.training.for_corpus.<corpus>
// names another value for the corpus this run reads (a corpus 80 times smaller needs more
// holding back than the default's).
void read_training(const DataFile& data, const Options& o, Inputs& in) {
    const std::string own = "inputs.training.for_corpus." + in.corpus.choice.name + ".";
    const auto t = [&](const std::string& name) {
        if (data.has("inputs.training.for_corpus") && data.has(own + name)) {
            in.corpus_overrides.push_back(name);
            return own + name;
        }
        return "inputs.training." + name;
    };
    TrainingSettings& s = in.settings;
    s.max_steps = data.size(t("steps"), 1, 10000000);
    s.seed = data.seed(t("seed"));
    s.smoothing = data.number(t("smoothing"), 0.0, 0.99);
    if (data.has(t("unlikelihood"))) s.unlikelihood = data.number(t("unlikelihood"), 0.0, 100.0);
    s.adam.schedule = AdamSettings::Schedule::Cosine;
    s.adam.peak = data.number(t("peak_lr"), 1e-6, 1.0);
    s.adam.final_fraction = data.number(t("final_fraction"), 0.0, 1.0);
    s.adam.weight_decay = data.number(t("weight_decay"), 0.0, 100.0);
    s.adam.warmup = data.size(t("warmup"), 1, 10000000);
    s.adam.d_model = in.model.d_model;
    in.windows = {data.size(t("batch"), 1, 4096), data.size(t("context"), 1, 4096)};
    in.validate_every = data.size(t("validate_every"), 1, 10000000);
    in.patience = data.size(t("patience"), 0, 10000000);
    if (o.has("--steps"))
        s.max_steps = static_cast<std::size_t>(o.integer("--steps", 1, 10000000));
    if (o.has("--seconds")) s.seconds = o.number("--seconds", 0.001, 1e7);
}

void read_sampling(const DataFile& data, const Options& o, Inputs& in) {
    const std::string s = "inputs.sampling.";
    SamplingPlan& p = in.sampling;
    for (const double t : data.vector(s + "temperatures").data) {
        if (!(t >= 1e-3 && t <= 100))
            throw data.error(s + "temperatures", tr("expected numbers from 0.001 to 100"));
        p.temperatures.push_back(t);
    }
    for (const double x : data.vector(s + "top_ps").data) {
        if (!(x > 0 && x <= 1)) throw data.error(s + "top_ps", tr("expected numbers in (0, 1]"));
        p.top_ps.push_back(x);
    }
    p.choice_poems = data.size(s + "choice_poems", 1, 100000);
    p.poems = data.size(s + "poems", 1, 100000);
    p.shown = data.size(s + "shown", 0, 1000);
    p.max_new = data.size(s + "max_new", 1, 1 << 16);
    p.seed = data.seed(s + "seed");
    p.prompts = data.texts(s + "prompts");
    if (o.has("--prompt")) p.prompts = {o.text("--prompt")};
    for (std::string& prompt : p.prompts) prompt = poem_start(prompt);  // "山" → "《山"
    if (o.has("--poems")) p.poems = static_cast<std::size_t>(o.integer("--poems", 1, 100000));
}
}  // namespace

Inputs read_inputs(const DataFile& data, const Options& o) {
    Inputs in;
    read_tiny(data, in);
    const std::string c = "inputs.corpus.";
    CorpusSettings& k = in.corpus;
    k.source = o.has("--corpus") ? o.value("--corpus") : data.text(c + "source");
    k.heldout_every = data.size(c + "heldout_every", 2, 1000);
    k.validation_every = data.size(c + "validation_every", 2, 1000);
    k.validation_max = data.size(c + "validation_max", 0, 1000000);
    k.min_count = data.size(c + "min_count", 1, 1000);
    k.vocabulary = data.size(c + "vocabulary", 1, 1 << 20);
    const std::string prepared =
        data_folder_path("build/corpus/quantangshi.txt", (o.program_dir + "/ch12").c_str());
    in.corpus.choice = choose_corpus(in.corpus.source, prepared);
    in.model = read_gpt_config(data, "inputs.model.", false);
    read_training(data, o, in);
    read_sampling(data, o, in);
    return in;
}

}  // namespace ch12_gpt
