// kv_cache.cpp — incremental decoding with cached keys and values: the decoder of transformer.h,
// run on one new row at a time.
#include "model/decoding/kv_cache.h"

#include "model/attention/masks.h"
#include "model/transformer/embedding.h"
#include "model/decoding/decoding.h"

KVCache start_decoding(const Transformer& m, const Tokens& source) {
    const Matrix memory = encode(m, {source});
    KVCache cache;
    cache.cross_mask = padding_mask(1, is_padding(source, m.config.pad_id));
    for (const DecoderLayer& L : m.decoder) {
        LayerKV kv;
        kv.cross = keys_values(memory, L.cross_attn);
        kv.cross.fixed = true;  // the memory does not change while decoding
        cache.layers.push_back(kv);
    }
    return cache;
}

Attending next_position(const TransformerConfig& c, std::size_t length) {
    const std::size_t keys = length + 1;  // this position and every one before it
    Attending self =
        within_one(1, keys, c.window ? window_mask(1, keys, c.window, length) : Matrix());
    self.positions = self_attention_positions(c);
    self.q_first = length;
    self.tile = c.attention_tile;
    return self;
}

Matrix decode_step(const Transformer& m, KVCache& cache, int token) {
    const Matrix y =  // (1 x d_model)
        embed_at(target_embedding(m), token, cache.length, target_positions(m));
    const Attending self = next_position(m.config, cache.length);
    Attending cross = within_one(1, cache.cross_mask.cols, cache.cross_mask);
    cross.tile = m.config.attention_tile;
    cache.length += 1;
    return finite_logits(run_decoder(m, y, Matrix(), self, cross, nullptr, &cache.layers),
                         cache.length);
}

double kv_cache_bytes(const TransformerConfig& c, std::size_t t, std::size_t m) {
    // n_kv·d_k + n_kv·d_v, with d_k = d_v = d_model / h: 2·d_model for multi-head attention,
    // h / n_kv times less with grouped-query attention
    const double row = 2.0 * static_cast<double>(c.kv_heads() * (c.d_model / c.n_heads));
    return static_cast<double>(c.n_decoder_layers) * static_cast<double>(t + m) * row * 8.0;
}

std::size_t cache_doubles(const KVCache& cache) {
    std::size_t n = 0;
    for (const LayerKV& kv : cache.layers)
        for (const Matrix* part : {&kv.self.K, &kv.self.V, &kv.cross.K, &kv.cross.V})
            n += part->data.size();
    return n;
}
