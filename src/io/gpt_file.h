// gpt_file.h — chapter 12's decoder-only model to and from JSON, as model_file.h does for the
// encoder-decoder: {"config": {...}, "vocabulary": [...], "weights": {state_dict name: tensor},
// "training": {...}}, so that load_state_dict takes the weights as they are.
#pragma once
#include <string>

#include "io/data_file.h"
#include "io/model_file.h"
#include "io/poem_corpus.h"
#include "model/gpt/gpt.h"  // exports: a poet file is its model

// The config object at key (with a trailing '.'): d_model, n_heads, n_kv_heads, d_ff, n_layers,
// norm, positions, norm_first, layer_norm_eps, and max_positions for learned positions; vocab
// when `with_vocab` (a model file's; the chapter's own model takes its corpus's).
TransformerConfig read_gpt_config(const DataFile& data, const std::string& key, bool with_vocab);

// A model whose config and weights are the objects key + "config" and key + "weights".
Gpt load_gpt(const DataFile& data, const std::string& key);

// Writes the model, its vocabulary and how it was trained — on which corpus, split how, so that
// chapter 13 can rebuild its held-out poems; whether it was the chapter's defined run; the
// corpus's fingerprint and the baselines measured on it, so that writing with the saved model
// need not count the n-grams again — whole or not at all.
struct GptRecord {
    std::size_t steps = 0;  // the step kept
    double heldout_loss = 0, seconds = 0;
    bool defined_run = false;
    std::string corpus_fingerprint;
    std::vector<double> baselines;  // held-out losses: unigram, add-one bigram, Kneser-Ney 2 … 5
    CorpusSettings corpus;
    // the temperature and top-p the chapter chose to write with (0: not recorded)
    double temperature = 0, top_p = 0;
};
// format: the weights as numbers, or rounded to bfloat16 in two bytes each (model_file.h)
void save_gpt(const Gpt& model, const std::vector<std::string>& vocabulary, const GptRecord& record,
              const std::string& path, SavedWeights format = SavedWeights::Float64);

// The record of a saved model (its file's "training"), as far as it holds one: false for a file
// without one.
bool read_gpt_record(const DataFile& file, GptRecord& record);

// The corpus a saved model was trained on (its file's "corpus"), where quantangshi_path says
// the prepared complete Tang poems are; false for a file without one.
bool read_corpus_record(const DataFile& file, const std::string& quantangshi_path,
                        CorpusSettings& corpus);

// A saved model file as it stands: the model, its vocabulary (one name per token of
// config.vocab) and its record where it holds one — no corpus read (chapter 12's --write, chapter
// 14's --poem). Throws as DataFile does when the file is bad.
struct SavedGpt {
    Gpt model;
    CharVocabulary vocabulary;
    GptRecord record;
    bool recorded = false;
};
SavedGpt read_saved_gpt(const std::string& path);
