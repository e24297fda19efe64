// saved_poet.h — chapter 12's poet as the chapters after it read it (13: in fewer bits; 14: its
// heads): the model build/ch12_gpt saved, with the corpus it was trained on rebuilt from the
// file's record (so its held-out poems are the ones it never saw); where none is saved, the same
// kind of model trained here for the data file's few steps.
#pragma once
#include <string>

#include "io/data_file.h"
#include "io/poem_corpus.h"
#include "model/gpt/gpt.h"  // exports: a saved poet is its model
#include "train/gpt_training.h"

// What a data file says about the poet (its "poems" or "poet" object): the corpus, the model's
// shape, and the few steps to train where no model is saved.
struct PoetSettings {
    CorpusSettings corpus;
    TransformerConfig shape;
    TrainingSettings training;
    WindowBatches windows;
};
// key: the object, with a trailing '.'.
PoetSettings read_poet_settings(const DataFile& data, const std::string& key);

// Where the poet comes from: a saved model's file (named by the reader, or the default path,
// read when it is there), or a corpus to train on here (instead of reading a saved model).
struct PoetSource {
    std::string weights;         // the model file
    bool weights_named = false;  // named by the reader: it must be there
    std::string corpus;          // non-empty: train here on this corpus (as ch12's --corpus)
    std::string prepared;        // where the Makefile prepares the complete Tang poems
};

struct Poet {
    Gpt model;
    Corpus corpus;
    std::string origin;  // where it came from, one sentence for the narration
};

// Throws as DataFile does (one line naming the file) when a model file is bad.
Poet read_poet(const PoetSettings& settings, const PoetSource& source);
