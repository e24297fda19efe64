// transformer_layers.h — the encoder layer and the decoder layer of "Attention Is All You
// Need", each a few lines composing multi-head attention and the feed-forward net, each with
// its backward pass below it.
//
//   encoder layer:  self-attention, then FFN            (each sublayer with a residual + norm)
//   decoder layer:  masked self-attention, then cross-attention over the encoder's memory,
//                   then FFN
//
// Norm placement (both as nn.Transformer), read from the model's config:
//   post-norm (the paper, norm_first = false):  x = Norm(x + Sublayer(x))
//   pre-norm  (norm_first = true):              x = x + Sublayer(Norm(x))
// Norm is LayerNorm, or RMSNorm (chapter 10): each Norm knows its kind.
// No dropout: the chapters run deterministically (dropout is a training-time regulariser that
// zeroes random entries; with it, no two runs would agree with the oracle).
#pragma once
#include <functional>

#include "core/matrix.h"
#include "model/multi_head/multi_head_weights.h"  // exports: what a layer is made of
#include "model/transformer/config.h"             // exports: the calls take the config
#include "model/transformer/feed_forward.h"       // exports
#include "model/transformer/norms.h"              // exports

// What the layers keep (model/transformer/layer_caches.h) and who attends to whom
// (model/multi_head/attending.h): a caller that keeps or reads them includes those.
struct EncoderLayerCache;
struct DecoderLayerCache;
struct LayerKV;
struct Attending;
struct KeptKV;

struct EncoderLayer {
    MultiHeadWeights self_attn;
    FeedForward ffn;
    Norm norm1, norm2;
};

struct DecoderLayer {
    MultiHeadWeights self_attn, cross_attn;
    FeedForward ffn;
    Norm norm1, norm2, norm3;
};

// One sublayer with its residual connection ("Add & Norm"), in either placement: the building
// block of both layers.
using Sublayer = std::function<Matrix(const Matrix&)>;
Matrix residual(const Matrix& x, const Norm& norm, bool norm_first, NormCache& nc,
                const Sublayer& sublayer);

// x (n_src x d_model) -> (n_src x d_model): a stack of source sequences (stacking.h); self says
// which keys each sequence's queries see (its own, with padded keys masked). With a causal mask
// it is also the block of a decoder-only model (chapter 12), which decodes one token at a time
// with kept: x holds the new rows only, the self-attention reads and grows kept.
Matrix encoder_layer(const Matrix& x, const EncoderLayer& layer, const Attending& self,
                     const TransformerConfig& config, EncoderLayerCache* cache = nullptr,
                     KeptKV* kept = nullptr);

// Adds the layer's gradients into grad; returns dL/dx.
Matrix encoder_layer_backward(const Matrix& d_out, const EncoderLayer& layer,
                              const EncoderLayerCache& cache, const TransformerConfig& config,
                              EncoderLayer& grad);

// y (n_tgt x d_model), memory (n_src x d_model) -> (n_tgt x d_model), each a stack of sequences.
// self: each target sequence sees itself, causally, padding masked; cross: each sees its own
// source sequence's memory, padding masked.
// With kv (decoding): y holds the new rows only, the attentions read and grow kv (memory is not
// read: kv.cross holds its keys and values), and self/cross describe the keys kv holds.
Matrix decoder_layer(const Matrix& y, const Matrix& memory, const DecoderLayer& layer,
                     const Attending& self, const Attending& cross, const TransformerConfig& config,
                     DecoderLayerCache* cache = nullptr, LayerKV* kv = nullptr);

// Adds the layer's gradients into grad and dL/d(memory) into d_memory; returns dL/dy.
Matrix decoder_layer_backward(const Matrix& d_out, const DecoderLayer& layer,
                              const DecoderLayerCache& cache, const TransformerConfig& config,
                              DecoderLayer& grad, Matrix& d_memory);
