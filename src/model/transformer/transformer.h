// transformer.h — the encoder-decoder of "Attention Is All You Need", composed from the
// earlier chapters' pieces: embeddings with positions (ch05), the encoder and decoder layers
// (multi-head attention of ch04 with the masks of ch03), and an output projection.
//
//   source ids -> embed ×√d_model + PE -> N encoder layers -> final norm = memory
//   target ids -> embed ×√d_model + PE -> N decoder layers (each also reads memory)
//              -> final norm -> output projection -> logits over the target vocabulary
//
// Like nn.Transformer, each stack ends with its own norm in both norm placements. Each forward
// function takes an optional cache; its backward pass sits below it. The config's switches
// (chapter 10) are read where they act: the norms' kind by each norm, the placement by each
// layer, the position scheme by the embedding (added tables) and by the self-attentions (RoPE,
// ALiBi), the key/value heads by every attention, the window by the self-attentions' masks.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "model/transformer/config.h"              // exports: a model's config
#include "model/transformer/tokens.h"              // exports: the calls take token ids
#include "model/transformer/transformer_layers.h"  // exports: what a model is made of

struct AddedPositions;  // model/transformer/embedding.h

struct Transformer {
    TransformerConfig config;
    Matrix src_embedding;                 // (src_vocab x d_model)
    Matrix tgt_embedding;                 // (tgt_vocab x d_model); empty when shared
    Matrix src_positions, tgt_positions;  // learned positions (max_positions x d_model), or empty
    std::vector<EncoderLayer> encoder;
    Norm encoder_norm;
    std::vector<DecoderLayer> decoder;
    Norm decoder_norm;
    Matrix output_W, output_b;  // (d_model x tgt_vocab), (1 x tgt_vocab); W empty when shared
};

// What the forward passes keep for the backward passes.
// What the stacks keep for their backward passes (model/transformer/caches.h).
struct EncodeCache;
struct DecodeCache;

// The encoder on a stack of source sequences (stacking.h; one sequence: encode(m, {source}))
// -> memory (n_src x d_model), the sequences' rows one below the other. Keys equal to pad_id
// are masked.
Matrix encode(const Transformer& model, const std::vector<Tokens>& sources,
              EncodeCache* cache = nullptr);

// Adds every encoder weight's gradient (and the source embedding's) into grad.
void encode_backward(const Transformer& model, const Matrix& d_memory,
                     const std::vector<Tokens>& sources, const EncodeCache& cache,
                     Transformer& grad);

// The decoder on whole target prefixes at once (causal mask + target padding), each reading its
// own source's memory, then the output projection: -> logits (n_tgt x tgt_vocab), stacked like
// the targets; row t of a sequence predicts the token after its target[t].
Matrix decode(const Transformer& model, const std::vector<Tokens>& targets, const Matrix& memory,
              const std::vector<Tokens>& sources, DecodeCache* cache = nullptr);

// The decoder on rows y already embedded: its N layers, its final norm and the output
// projection -> logits. decode() runs it on whole target prefixes; decode_step()
// (model/decoding/kv_cache.h) on one new row, each layer reading and growing its kept keys
// and values (kv, one per layer; then memory is not read).
Matrix run_decoder(const Transformer& model, Matrix y, const Matrix& memory, const Attending& self,
                   const Attending& cross, DecodeCache* cache = nullptr,
                   std::vector<LayerKV>* kv = nullptr);

// Adds every decoder weight's gradient into grad; returns dL/d(memory).
Matrix decode_backward(const Transformer& model, const Matrix& d_logits,
                       const std::vector<Tokens>& targets, const DecodeCache& cache,
                       Transformer& grad);

// The table the decoder's tokens are embedded with: tgt_embedding, or the shared one.
const Matrix& target_embedding(const Transformer& model);

// What the encoder and the decoder add to their tokens' embeddings for positions.
AddedPositions source_positions(const Transformer& model);
AddedPositions target_positions(const Transformer& model);



// The output projection: logits = y·W_out + b, or y·Eᵀ + b when it shares the embedding table
// E with the inputs (the paper's §3.4). y (n_tgt x d_model) -> (n_tgt x tgt_vocab).
Matrix output_projection(const Transformer& model, const Matrix& y);

// Adds the projection's gradients into grad (into the shared table, when shared); returns dL/dy.
Matrix output_projection_backward(const Transformer& model, const Matrix& d_logits, const Matrix& y,
                                  Transformer& grad);

// The training-time data flow in one call: encode, then decode the given decoder input.
Matrix logits_teacher_forced(const Transformer& model, const Tokens& source,
                             const Tokens& decoder_input);
