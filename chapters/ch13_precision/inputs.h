// ch13_precision/inputs.h — what chapter 13 reads: numbers to round, the tutorial's X, the cases
// where attention breaks, the oracle's small model, chapter 12's poet; and the readings of a
// model, one per format.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "io/data_file.h"
#include "io/saved_poet.h"
#include "model/gpt/gpt.h"  // exports: the inputs hold a model
#include "model/low_precision/lowered_gpt.h"  // exports
#include "report/options.h"

// How a model is read in the table: weights in a format; "float16 throughout" rounds every
// result too; "int8 × int8" puts the activations in 8-bit groups as well.
struct Reading {
    const char* name;  // the format's (and --json's)
    bool float64;
    WeightFormat format;
    bool half_activations, quantized_activations;
};
inline const Reading readings[] = {{"float64", true, WeightFormat::Float32, false, false},
                            {"float32", false, WeightFormat::Float32, false, false},
                            {"bfloat16", false, WeightFormat::BFloat16, false, false},
                            {"float16", false, WeightFormat::Float16, false, false},
                            {"int8", false, WeightFormat::Int8, false, false},
                            {"float16 throughout", false, WeightFormat::Float16, true, false},
                            {"int8 × int8", false, WeightFormat::Int8, false, true}};

inline constexpr double float16_largest = 65504.0;  // the narrowest range of the four formats

struct Inputs {
    std::vector<std::string> values;  // to round, as written: hexadecimal, inf, nan
    Matrix X;
    std::vector<std::string> tokens;
    std::vector<float> scores;  // a row to softmax in float16
    double mask_value = 0;
    std::size_t masked_row = 0, d_k = 0, scale_rows = 0;
    std::vector<std::size_t> dot_lengths;
    std::uint64_t seed = 0;
    double norm_offset = 0;
    std::vector<double> norm_spread;
    Gpt small;  // the oracle's small trained model
    std::vector<Tokens> heldout, prompts;
    std::size_t new_tokens = 0;
    // chapter 12's poet: its corpus, and, when none is saved, what is trained here instead
    PoetSettings poet;
    std::size_t heldout_poems = 0, poem_new_tokens = 0;
    std::vector<std::string> poem_prompts;
};

// The largest weight of a model in size, and the tensor it is in (NaN counts as largest).
std::pair<std::string, double> largest_weight(Gpt& model);
// The data file and the switches (--steps), checked.
Inputs read_inputs(const DataFile& d, const Options& o);
