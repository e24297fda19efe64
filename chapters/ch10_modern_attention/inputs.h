// ch10_modern_attention/inputs.h — what chapter 10 reads: the oracle's inputs for each switch,
// the models compared against PyTorch, and the length experiment's plan.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "io/data_file.h"
#include "model/multi_head/multi_head.h"  // exports: the inputs hold weights
#include "model/transformer/transformer.h"  // exports: the inputs hold a model
#include "train/plan.h"

struct KvShape {  // a published model's shape, for its KV cache
    std::string name;
    TransformerConfig config;
};

struct Variant {
    std::string name;
    Transformer model;
};

struct Inputs {
    Matrix norm_x;
    std::size_t rope_d_k = 0;
    Matrix rope_q, rope_k;  // (1 x d_k)
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    std::vector<std::size_t> rope_positions;
    std::size_t freq_d_model = 0, freq_d_k = 0;
    std::vector<std::size_t> alibi_heads;
    std::size_t alibi_n = 0;
    MultiHeadWeights gqa;  // 8 key/value heads; fewer are made from it
    std::vector<std::size_t> gqa_kv;
    Matrix gqa_x;
    std::vector<KvShape> kv_shapes;
    std::vector<double> bytes_per_number;
    TransformerConfig timing;  // the model whose decoding is timed, for each of timing_kv
    std::vector<std::size_t> timing_kv;
    std::size_t timing_tokens = 0;
    std::size_t window_n = 0, window = 0;
    std::vector<std::size_t> window_layers;
    std::vector<Variant> variants;
    std::vector<Example> batch;
    double smoothing = 0.1;
    TrainingPlan plan;  // the reversal task of chapter 7
    std::vector<PositionScheme> schemes;
    std::vector<std::uint64_t> seeds;
    std::vector<std::size_t> test_lengths;
    std::uint64_t test_seed = 0;
    std::size_t per_length = 0, max_positions = 0;
};

// The data file, checked.
Inputs read_inputs(const DataFile& data);

// A list of sizes as the chapter writes it: "4, 8, 16".
inline std::string seq(const std::vector<std::size_t>& xs) {
    std::string s;
    for (const std::size_t x : xs) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return s;
}
