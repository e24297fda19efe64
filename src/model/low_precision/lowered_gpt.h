// lowered_gpt.h — chapter 12's decoder-only model in fewer bits (chapter 13): its weights stored
// in float32, bfloat16, float16 or 8-bit groups (stored_weights.h), its arithmetic in float32,
// decoding one token at a time through a float32 KV cache — what a model a student meets does.
//
// One setting goes further, "everything in float16": the weights in float16, and every tensor a
// step produces rounded to float16 as it is made — the embedding, each norm's output, queries,
// keys and values, each score and weight, each head's output, each product and each sum. Each
// operation still adds its terms in float32 (as CPUs and most GPU kernels accumulate) before its
// result is rounded.
//
// The step is the float64 model's (model/gpt/gpt.h) operation for operation: embedding · √d_model
// (+ an added position table), then per block the norm, attention with RoPE or ALiBi and
// grouped-query heads, the residual, the feed-forward net, the residual (pre- or post-norm);
// then the final norm and the output y·Eᵀ (tied) or y·Wᵀ (a table of its own).
#pragma once
#include <cstddef>
#include <vector>

#include "model/attention/attention_float32.h"   // exports: KeptFloat32, a LoweredKV member
#include "model/low_precision/stored_weights.h"  // exports: a LoweredGpt is made of them
#include "model/transformer/config.h"            // exports: its config
#include "model/transformer/tokens.h"            // exports: the calls take token ids

struct Gpt;  // model/gpt/gpt.h

struct LoweredBlock {
    StoredWeights W_Q, W_K, W_V, W_O, W1, W2;
    std::vector<float> b_Q, b_K, b_V, b_O, b1, b2;  // biases and gains: float32 (or float16)
    std::vector<float> gain1, bias1, gain2, bias2;  // norms; bias empty for RMSNorm
};

struct LoweredGpt {
    TransformerConfig config;
    WeightFormat format = WeightFormat::Float32;
    bool half_activations = false;  // "everything in float16"
    bool quantized_activations = false;  // int8 weights read against int8 activations
    StoredWeights output;           // Wᵀ (d_model x vocab): the output projection, and (its
                                    // columns) the embedding rows when tied (W = E)
    StoredWeights embedding;        // Eᵀ, when the model has an output table of its own; else
                                    // empty (the embedding rows are output's columns)
    std::vector<float> positions;   // a learned table (max_positions x d_model), or empty
    std::vector<LoweredBlock> blocks;
    std::vector<float> final_gain, final_bias;
    std::size_t bytes() const;  // the weights in their format
};

// The model's weights in the format (through float32, as every narrower format is reached).
LoweredGpt lower(const Gpt& model, WeightFormat format, bool half_activations = false,
                 bool quantized_activations = false);

// The model's weights as the lowered one keeps them, back in float64: what each format kept of
// each weight (the errors chapter 13 measures).
Gpt kept_weights(const Gpt& model, const LoweredGpt& lowered);

// The cache of one sequence: per block, every key and value so far, in float32 (each key/value
// head's keys feature by feature: model/attention/attention_float32.h).
struct LoweredKV {
    std::vector<KeptFloat32> kept;  // each block's keys and values, in float32
    Tokens fed;  // the tokens so far: who the next one attends to (who_attends.h)
};
LoweredKV start_lowered(const LoweredGpt& model);

// Feeds one token at position kv.fed.size(); the next token's logits (vocab).
std::vector<float> lowered_step(const LoweredGpt& model, LoweredKV& kv, int token);

// The mean cross-entropy (nats, computed in float64 from the float32 logits) of every token after
// each sequence's first, each predicted from the tokens before it through the cache.
double lowered_loss(const LoweredGpt& model, const std::vector<Tokens>& sequences);

// Greedy decoding: up to count tokens after the prompt, each the most probable — never <pad> or
// <bos>, nor an id of `never` (chapter 12's <unk>) — ending at <eos>.
Tokens lowered_greedy(const LoweredGpt& model, const Tokens& prompt, std::size_t count,
                      const std::vector<int>& never = {});

// The same three for the float64 model, through its own cache (the reference of the table).
double gpt_loss_stepwise(const Gpt& model, const std::vector<Tokens>& sequences);
Tokens gpt_greedy(const Gpt& model, const Tokens& prompt, std::size_t count,
                  const std::vector<int>& never = {});
