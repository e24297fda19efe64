// ch14_inside_the_poet/inputs.h — what chapter 14 reads: the oracle's small poet with its poems,
// chapter 12's poet, and how each is read (data/ch14_inside_the_poet.json and the switches).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "io/data_file.h"
#include "io/saved_poet.h"
#include "model/gpt/gpt.h"  // exports: the inputs hold a model
#include "report/options.h"
#include "verse/poems.h"

namespace ch14_inside_the_poet {

// How a model is read: its poems' window, the famous poem, the induction test's sequences.
struct Reading {
    std::size_t context = 64;
    std::string famous;
    std::size_t lens_clause = 1;
    std::size_t induction_count = 0, induction_length = 0;
    std::uint64_t induction_seed = 0;
};

struct Inputs {
    std::vector<std::string> punctuation;
    Gpt small;  // the oracle's small poet, its vocabulary and poems
    CharVocabulary small_vocabulary;
    std::vector<std::string> small_poems;
    Reading small_reading;
    PoetSettings poet;  // chapter 12's poet
    std::size_t sample_poems = 0;
    std::uint64_t sample_seed = 0;  // the sample is drawn at random with it
    Reading poet_reading;
};

// The data file and the switches (--steps, --sample), checked.
Inputs read_inputs(const DataFile& d, const Options& o);

}  // namespace ch14_inside_the_poet
