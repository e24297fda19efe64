// gpt.h — a decoder-only Transformer (GPT; chapter 12): what every model a student uses today is.
//
// Take the encoder-decoder apart and keep one stack: each block is causal self-attention and a
// feed-forward net with their residuals (the encoder layer of transformer_layers.h, given a
// causal mask), then a final norm, then the output projection, which is the embedding table
// itself (tied: logits = y·Eᵀ) unless the config unties them (share_embeddings false: a table
// of its own, logits = y·Wᵀ; chapter 12's table of training runs tries it). No encoder, no cross-attention: the text so far is all the
// model reads, and each position predicts the next token.
//
//   x = embed(tokens) (+ positions);  x = block_l(x) for each layer;  logits = norm(x) · Eᵀ
//
// Chapter 10's switches apply as in the encoder-decoder (the config's norm, placement,
// positions, key/value heads, window, tiled attention). State_dict names, as a PyTorch module of
// that shape would hold them: embedding.weight, positions.weight (learned positions only),
// layers.N.self_attn.in_proj_weight …, layers.N.linear1.weight …, layers.N.norm1.weight …,
// norm.weight (and .bias for LayerNorm), output.weight (untied only).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/matmul.h"                           // exports: PreparedTable, a GptKV member
#include "core/matrix.h"
#include "model/multi_head/attending.h"            // exports: KeptKV, a GptKV member
#include "model/transformer/tokens.h"              // exports: the calls take token ids
#include "model/transformer/transformer_layers.h"  // exports: what a Gpt is made of

struct LossSum;    // model/transformer/loss.h
struct Parameter;  // model/transformer/parameters.h

struct Gpt {
    TransformerConfig config;  // n_decoder_layers: its blocks; tgt_vocab: its vocabulary
    Matrix embedding;          // (vocab x d_model): the input table, and the output projection
                               // when tied (config.share_embeddings)
    Matrix output;             // (vocab x d_model): the output projection when untied; else empty
    Matrix positions;          // learned positions (max_positions x d_model), or empty
    std::vector<EncoderLayer> blocks;
    Norm norm;  // the final norm
};

// The table the output projection reads, logits = y·Wᵀ: the embedding table when tied, else
// the model's own output table.
inline const Matrix& output_table(const Gpt& m) {
    return m.config.share_embeddings ? m.embedding : m.output;
}

// A model of the config's shape with seeded random weights (as random_transformer).
Gpt random_gpt(const TransformerConfig& config, std::uint64_t seed);

std::vector<Parameter> parameters(Gpt& model);  // in state_dict order (parameter_matrices,
                                                // zeros_like: parameters.h)
std::size_t parameter_count(const Gpt& model);

// What a pass keeps for its backward pass and for a reader (model/gpt/gpt_cache.h).
struct GptCache;

// Stacked sequences (stacking.h) -> logits (rows of every sequence x vocab): row t of a
// sequence scores the token after its t-th.
Matrix gpt_logits(const Gpt& model, const std::vector<Tokens>& sequences,
                  GptCache* cache = nullptr);

// gpt_logits in its three parts, for a reader who looks inside (chapter 14): the residual stream
// after the embedding (and learned positions); after blocks first … end − 1 (from the stream as
// it stood before block `first`); and read out — the final norm and the output projection — at
// any point of it (the logit lens). gpt_logits = readout(blocks(embed, 0, all)), the same bits.
Matrix gpt_embed(const Gpt& model, const std::vector<Tokens>& sequences);
Matrix gpt_blocks(const Gpt& model, const std::vector<Tokens>& sequences, Matrix x,
                  std::size_t first, std::size_t end, GptCache* cache = nullptr);
Matrix gpt_readout(const Gpt& model, const Matrix& x, GptCache* cache = nullptr);

// Adds every parameter's gradient into grad from dL/d(logits).
void gpt_backward(const Gpt& model, const std::vector<Tokens>& sequences, const Matrix& d_logits,
                  const GptCache& cache, Gpt& grad);

// The mean cross-entropy of predicting targets[s][t] from inputs[s][0 … t] (targets that are
// <pad> are not counted), label-smoothed by `smoothing` (loss.h), plus `unlikelihood` times the
// penalty on repeating the token just read (unlikelihood.h; 0: none), and, when grad is given,
// its gradients (grad is reset first).
double gpt_loss(const Gpt& model, const std::vector<Tokens>& inputs,
                const std::vector<Tokens>& targets, Gpt* grad = nullptr, double smoothing = 0.0,
                double unlikelihood = 0.0);

// The same as a sum, its gradient scaled by gradient_scale (1/N of the whole batch when the batch
// is computed in parts: train/parts.h); grad is reset first.
LossSum gpt_loss_sum(const Gpt& model, const std::vector<Tokens>& inputs,
                     const std::vector<Tokens>& targets, Gpt* grad, double smoothing,
                     double gradient_scale, double unlikelihood = 0.0);

// Decoding one token at a time: each block keeps its keys and values (the KV cache of chapter
// 9). gpt_step feeds one token at position `length` and returns the next token's logits
// (1 x vocab), the same as the last row of gpt_logits on the whole sequence.
struct GptKV {
    std::vector<KeptKV> blocks;
    Tokens fed;  // the tokens fed so far: who the next one attends to (who_attends.h)
    // the output table prepared when decoding starts (core/matmul.h): every step reads the whole
    // table for its logits, which the fast loops keep packed (the same bits as y·Wᵀ); one for
    // all the sequences of a batch
    std::shared_ptr<const PreparedTable> output;
};
GptKV start_gpt(const Gpt& model);
GptKV start_another(const GptKV& kv);  // a fresh cache sharing kv's prepared table
Matrix gpt_step(const Gpt& model, GptKV& kv, int token);

// Decoding several sequences at once (chapter 9), as an inference server batches its requests:
// one new token for each, tokens[b] into kvs[b]; every product runs on all the new rows at once,
// each row's attention over its own kept keys and values (multi_head_attention_steps). Row b of
// the logits (batch x vocab) is, bit for bit, what gpt_step(model, *kvs[b], tokens[b]) returns.
Matrix gpt_steps(const Gpt& model, const std::vector<GptKV*>& kvs, const Tokens& tokens);

// The cache against the whole pass: each sequence fed one token at a time, each step's logits
// against its row of gpt_logits on the whole sequence; the largest |difference| (0: the same
// bits, which the chapter and the tests check).
double gpt_cache_against_full_pass(const Gpt& model, const std::vector<Tokens>& sequences);
