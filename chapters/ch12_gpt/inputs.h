// ch12_gpt/inputs.h — what chapter 12 reads: the oracle's tiny models and inputs, the corpus,
// the model's shape, its training and how it writes (data/ch12_gpt.json and the switches).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "io/data_file.h"
#include "io/poem_corpus.h"
#include "model/gpt/gpt.h"  // exports: the inputs hold a model
#include "report/options.h"
#include "train/gpt_training.h"
#include "train/optimise.h"
#include "verse/verse.h"

namespace ch12_gpt {

struct Tiny {
    std::string name;
    Gpt model;
};

struct SamplingPlan {
    std::vector<double> temperatures, top_ps;  // the candidates, chosen among by measurement
    std::size_t choice_poems = 30, poems = 100, shown = 5, max_new = 100;
    std::uint64_t seed = 0;
    std::vector<std::string> prompts;
};

struct Inputs {
    std::vector<Tiny> tiny;
    std::vector<Tokens> tiny_inputs, tiny_targets;
    double unlikelihood_weight = 0;                        // the penalty on repeating, …
    std::vector<Tokens> unlikelihood_inputs, unlikelihood_targets;  // … on a batch of its own
    std::vector<Tokens> sliding;  // sequences scored with a sliding window …
    std::size_t sliding_context = 0;  // … this wide
    std::array<double, 2> repeat_beta = {0, 0};  // the repeat correction's β for 叠字, a stutter …
    std::vector<Tokens> repeat_kinds;            // … and each predicted token's kind (0 or 1)
    std::size_t baseline_vocab = 0;
    std::vector<Tokens> baseline_training, baseline_heldout;
    std::vector<std::string> verse_poems, verse_readings;  // the verse measures' check …
    Pronunciations verse_table;                            // … with its own small table,
    Pronunciations verse_tang;                             // … its Tang table
    std::vector<std::string> verse_tang_readings;          // … and readings of that table;
    std::size_t verse_training_poems = 0;  // the first poems, whose doublings are attested
    CorpusSettings corpus;
    TransformerConfig model;  // its vocabulary comes from the corpus
    TrainingSettings settings;
    WindowBatches windows;
    std::size_t validate_every = 0, patience = 0;
    std::vector<std::string> corpus_overrides;  // settings the corpus's own entry changed
    SamplingPlan sampling;
};

// The data file and the switches (--corpus, --steps, --seconds, --prompt, --poems, ...), checked.
Inputs read_inputs(const DataFile& data, const Options& o);

}  // namespace ch12_gpt
