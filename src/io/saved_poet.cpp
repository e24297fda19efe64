// saved_poet.cpp — chapter 12's poet read back with its corpus, or trained here (see the header).
#include "io/saved_poet.h"

#include <fstream>

#include "io/gpt_file.h"
#include "io/platform.h"
#include "text/translate.h"

PoetSettings read_poet_settings(const DataFile& d, const std::string& k) {
    PoetSettings p;
    CorpusSettings& c = p.corpus;
    c.source = d.text(k + "corpus.source");
    c.heldout_every = d.size(k + "corpus.heldout_every", 2, 1000);
    c.validation_every = d.size(k + "corpus.validation_every", 2, 1000);
    c.validation_max = d.size(k + "corpus.validation_max", 0, 1000000);
    c.min_count = d.size(k + "corpus.min_count", 1, 1000);
    c.vocabulary = d.size(k + "corpus.vocabulary", 1, 1 << 20);
    p.shape = read_gpt_config(d, k + "model.", false);
    TrainingSettings& s = p.training;
    s.max_steps = d.size(k + "training.steps", 1, 1000000);
    s.seed = d.seed(k + "training.seed");
    s.adam.schedule = AdamSettings::Schedule::Cosine;
    s.adam.peak = d.number(k + "training.peak_lr", 1e-6, 1.0);
    s.adam.warmup = d.size(k + "training.warmup", 1, 1000000);
    s.adam.final_fraction = d.number(k + "training.final_fraction", 0.0, 1.0);
    s.adam.weight_decay = d.number(k + "training.weight_decay", 0.0, 100.0);
    s.smoothing = 0;
    p.windows = {d.size(k + "training.batch", 1, 4096), d.size(k + "training.context", 1, 4096)};
    return p;
}

Poet read_poet(const PoetSettings& settings, const PoetSource& source) {
    Poet p;
    const bool saved = source.corpus.empty() && open_for_reading(source.weights).good();
    if (source.weights_named || saved) {
        const DataFile file = DataFile::load(source.weights);
        p.model = load_gpt(file, "");
        CharVocabulary v;
        v.names = file.texts("vocabulary");
        if (v.names.size() != p.model.config.tgt_vocab)
            throw file.error("vocabulary", tr("expected {} names, one per token of config.vocab",
                                              p.model.config.tgt_vocab));
        for (std::size_t i = 0; i < v.names.size(); ++i) v.ids[v.names[i]] = static_cast<int>(i);
        CorpusSettings k = settings.corpus;
        if (!read_corpus_record(file, source.prepared, k))
            k.choice = choose_corpus(k.source, source.prepared);
        p.corpus = prepare_corpus(k, &v);
        p.origin = tr("chapter 12's model, {}", source.weights);
        return p;
    }
    CorpusSettings k = settings.corpus;
    if (!source.corpus.empty()) k.source = source.corpus;
    k.choice = choose_corpus(k.source, source.prepared);
    p.corpus = prepare_corpus(k);
    TransformerConfig c = settings.shape;
    c.tgt_vocab = c.src_vocab = p.corpus.vocabulary.size();
    const std::size_t steps = settings.training.max_steps;
    p.model = train_gpt(random_gpt(c, settings.training.seed), p.corpus.training, settings.windows,
                        settings.training)
                  .model;
    p.origin = !source.corpus.empty()
                   ? tr("chapter 12's kind of model, trained here for {} steps on {}", steps,
                        k.choice.path)
                   : tr("no model saved at {}: chapter 12's kind of model, trained here for {} "
                        "steps (build/ch12_gpt trains and saves the chapter's own)",
                        source.weights, steps);
    if (!k.choice.fallback.empty()) p.origin += " " + k.choice.fallback;
    return p;
}
