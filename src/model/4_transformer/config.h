// config.h — the shape of a Transformer and the ids of its special tokens: what a model file's
// "config" holds, and all that code needs which only names tokens or sizes a model.
#pragma once
#include <cstddef>

#include "model/4_transformer/tokens.h"

struct TransformerConfig {
    std::size_t d_model = 512, n_heads = 8, d_ff = 2048;
    std::size_t n_encoder_layers = 6, n_decoder_layers = 6;
    std::size_t src_vocab = 0, tgt_vocab = 0;
    bool norm_first = false;
    bool share_embeddings = false;  // one table for source, target and the output projection
    double layer_norm_eps = 1e-5;
    int pad_id = 0, bos_id = 1, eos_id = 2;
    Vocabulary vocabulary = {};         // optional: the target tokens' names, by id
    Vocabulary source_vocabulary = {};  // optional: the source tokens'; none: the target's
};
