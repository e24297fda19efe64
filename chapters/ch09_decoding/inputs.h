// ch09_decoding/inputs.h — what chapter 9 reads: the half-trained numerals model, the sources to
// decode, beam search's and sampling's settings, the lengths measured and timed.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "io/data_file.h"
#include "model/decoding/beam_search.h"  // exports: BeamSettings
#include "model/transformer/transformer.h"  // exports: the inputs hold a model
#include "train/plan.h"

namespace ch09_decoding {

struct SamplingSetting {
    double temperature;
    std::size_t top_k;  // 0: every token
};

struct Inputs {
    Transformer model;
    std::vector<Tokens> sources;
    Tokens padded;  // a decoder input with a <pad> inside, for the KV cache against recomputing
    std::size_t max_length;  // tokens after <bos>
    BeamSettings beam;
    std::vector<Tokens> cutoff_sources;         // searches cut off by a short max_length …
    std::vector<std::size_t> cutoff_lengths;    // … these
    std::vector<SamplingSetting> shown, sampled;  // distributions shown; settings drawn from
    std::uint64_t seed;
    std::size_t samples;  // drawn per setting
    std::vector<std::size_t> memory_lengths, timing_lengths;
    std::vector<std::size_t> batch_sizes;  // sequences decoded one at a time and in one batch
    std::string trained_for;  // the data file's record of how its model was trained: a task …
    std::size_t trained_steps = 0;                // … and its steps
    std::vector<std::uint64_t> stopping_numbers;  // beam search's stopping rules compared on these
    TrainingPlan stopping_plan;  // how chapter 7 trains the numerals model those numbers test
};

// The data file, checked.
Inputs read_inputs(const DataFile& data);

// Token rows padded with <pad> to `width` columns, as the oracle writes them.
Matrix padded(const std::vector<Tokens>& rows, std::size_t width, int pad);

}  // namespace ch09_decoding
