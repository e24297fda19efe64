// caches.h — what the layers of transformer_layers.h and the stacks of transformer.h keep: for
// their backward passes (what each forward pass computed on the way), and, while a decoder
// decodes one token at a time, the keys and values each layer keeps (chapter 9's KV cache).
// A file that keeps or reads them includes this; one that only runs a model does not.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "model/multi_head/multi_head.h"  // exports: what they keep
#include "model/transformer/feed_forward.h"  // exports: what they keep
#include "model/transformer/norms.h"  // exports: what they keep

// What a layer's forward pass keeps for its backward pass.
struct EncoderLayerCache {
    MultiHeadCache self_attn;
    FeedForwardCache ffn;
    NormCache norm1, norm2;
};
struct DecoderLayerCache {
    MultiHeadCache self_attn, cross_attn;
    FeedForwardCache ffn;
    NormCache norm1, norm2, norm3;
};

// The keys and values one decoder layer keeps while it decodes one token at a time (the KV
// cache, model/decoding/kv_cache.h): its self-attention's, grown by each new row, and its
// cross-attention's over the memory, computed once.
struct LayerKV {
    KeptKV self, cross;
};

// What each stack keeps for its backward pass.
struct EncodeCache {
    std::vector<EncoderLayerCache> layers;
    NormCache norm;
};
struct DecodeCache {
    std::vector<DecoderLayerCache> layers;
    NormCache norm;
    Matrix output;          // (n_tgt x d_model) after the final norm: the output projection's input
    std::size_t n_src = 0;  // rows of the memory the decoder read
};
