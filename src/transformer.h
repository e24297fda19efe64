// transformer.h — the encoder-decoder of "Attention Is All You Need", composed from the
// earlier chapters' pieces: multi-head attention (ch04), masks (ch03), positional encoding
// (ch05), and the layers of layers.h.
//
//   source ids -> embed ×√d_model + PE -> N encoder layers -> final norm = memory
//   target ids -> embed ×√d_model + PE -> N decoder layers (each also reads memory)
//              -> final norm -> Linear -> logits over the target vocabulary
//
// Norm placement (both as nn.Transformer):
//   post-norm (the paper, norm_first = false):  x = LayerNorm(x + Sublayer(x))
//   pre-norm  (norm_first = true):              x = x + Sublayer(LayerNorm(x))
// Like nn.Transformer, each stack ends with its own LayerNorm in both placements.
// No dropout: this is inference (and deterministic training in chapter 7).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "layers.h"
#include "matrix.h"
#include "multi_head.h"

struct TransformerConfig {
    std::size_t d_model = 512, n_heads = 8, d_ff = 2048;
    std::size_t n_encoder_layers = 6, n_decoder_layers = 6;
    std::size_t src_vocab = 0, tgt_vocab = 0;
    bool norm_first = false;
    bool share_embeddings = false;  // one table for source, target and the output projection
    double layer_norm_eps = 1e-5;
    int pad_id = 0, bos_id = 1, eos_id = 2;
    std::vector<std::string> vocabulary = {};  // optional: the target tokens' names, by id
};

struct EncoderLayer {
    MultiHeadWeights self_attn;
    FeedForward ffn;
    LayerNorm norm1, norm2;
};

struct DecoderLayer {
    MultiHeadWeights self_attn, cross_attn;
    FeedForward ffn;
    LayerNorm norm1, norm2, norm3;
};

struct Transformer {
    TransformerConfig config;
    Matrix src_embedding;  // (src_vocab x d_model)
    Matrix tgt_embedding;  // (tgt_vocab x d_model); empty when shared
    std::vector<EncoderLayer> encoder;
    LayerNorm encoder_norm;
    std::vector<DecoderLayer> decoder;
    LayerNorm decoder_norm;
    Matrix output_W, output_b;  // (d_model x tgt_vocab), (1 x tgt_vocab); W empty when shared
};

using Tokens = std::vector<int>;

// What the forward pass keeps for the backward pass (transformer_grad.h).
struct EncoderLayerCache {
    MultiHeadCache self_attn;
    FeedForwardCache ffn;
    LayerNormCache norm1, norm2;
};
struct DecoderLayerCache {
    MultiHeadCache self_attn, cross_attn;
    FeedForwardCache ffn;
    LayerNormCache norm1, norm2, norm3;
};
struct EncodeCache {
    std::vector<EncoderLayerCache> layers;
    LayerNormCache norm;
};
struct DecodeCache {
    std::vector<DecoderLayerCache> layers;
    LayerNormCache norm;
    Matrix output;  // (m x d_model) after the final norm: the input of the output projection
};

// A model of the given shape with seeded random weights (Xavier-uniform matrices, zero biases,
// unit gains), as nn.Transformer initialises itself.
Transformer random_transformer(const TransformerConfig& config, std::uint64_t seed);

// Throws std::invalid_argument naming the first weight whose shape does not fit the config.
void check_transformer(const Transformer& model);

// ids -> (n x d_model): embedding rows × √d_model + the sinusoidal positional encoding
Matrix embed(const Matrix& table, const Tokens& ids);

Matrix encoder_layer(const Matrix& x, const EncoderLayer& layer, const Matrix& mask, bool norm_first);
Matrix decoder_layer(const Matrix& y, const Matrix& memory, const DecoderLayer& layer, const Matrix& self_mask,
                     const Matrix& memory_mask, bool norm_first);
Matrix encoder_layer_forward(const Matrix& x, const EncoderLayer& layer, const Matrix& mask, bool norm_first,
                             EncoderLayerCache& cache);
Matrix decoder_layer_forward(const Matrix& y, const Matrix& memory, const DecoderLayer& layer, const Matrix& self_mask,
                             const Matrix& memory_mask, bool norm_first, DecoderLayerCache& cache);

// The encoder: source ids -> memory (n x d_model). Keys equal to pad_id are masked.
Matrix encode(const Transformer& model, const Tokens& source);
// The decoder on a whole target prefix at once (causal mask + target padding), then the
// output projection: -> logits (m x tgt_vocab), row t predicts the token after target[t].
Matrix decode(const Transformer& model, const Tokens& target, const Matrix& memory, const Tokens& source);
Matrix encode_forward(const Transformer& model, const Tokens& source, EncodeCache& cache);
Matrix decode_forward(const Transformer& model, const Tokens& target, const Matrix& memory, const Tokens& source,
                      DecodeCache& cache);

Matrix logits_teacher_forced(const Transformer& model, const Tokens& source, const Tokens& decoder_input);

struct GreedySteps {
    Tokens output;                  // starts with BOS; ends with EOS unless max_length stopped it
    std::vector<Matrix> step_logits;  // (1 x tgt_vocab) per step: the logits of the last position
};

// Inference: encode once, start from BOS, append the argmax, repeat until EOS or max_length
// tokens have been generated.
GreedySteps greedy_decode(const Transformer& model, const Tokens& source, std::size_t max_length);

std::size_t parameter_count(const Transformer& model);       // everything
std::size_t core_parameter_count(const Transformer& model);  // the two stacks with their final norms
