// model_helpers.h — what the tests of whole models share.
#pragma once
#include <cstddef>

#include "model/transformer/config.h"

// A small model's shape: 2 encoder and 2 decoder layers of the given sizes.
inline TransformerConfig small_config(std::size_t d_model, std::size_t n_heads, std::size_t d_ff,
                                      std::size_t src_vocab, std::size_t tgt_vocab) {
    TransformerConfig c;
    c.d_model = d_model;
    c.n_heads = n_heads;
    c.d_ff = d_ff;
    c.n_encoder_layers = c.n_decoder_layers = 2;
    c.src_vocab = src_vocab;
    c.tgt_vocab = tgt_vocab;
    return c;
}
