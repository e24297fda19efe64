// kv_cache.cpp — incremental decoding with cached keys and values: the decoder of transformer.h,
// run on one new row at a time.
#include "model/decoding/kv_cache.h"

#include <algorithm>

#include "model/attention/masks.h"
#include "model/multi_head/attending.h"
#include "model/multi_head/multi_head.h"
#include "model/transformer/caches.h"
#include "model/transformer/embedding.h"
#include "model/decoding/decoding.h"
#include "model/transformer/transformer.h"
#include "model/transformer/who_attends.h"

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

Matrix decode_step(const Transformer& m, KVCache& cache, int token) {
    const Matrix y =  // (1 x d_model)
        embed_at(target_embedding(m), token, cache.fed.size(), target_positions(m));
    cache.fed.push_back(token);
    const Attending self = next_position(m.config, cache.fed);
    Attending cross = within_one(1, cache.cross_mask.cols, cache.cross_mask);
    cross.tile = m.config.attention_tile;
    return finite_logits(run_decoder(m, y, Matrix(), self, cross, nullptr, &cache.layers),
                         cache.fed.size());
}

double CacheAgainstRecomputation::worst() const {
    double w = 0;
    for (double g : gaps) w = std::max(w, g);
    return w;
}

CacheAgainstRecomputation cache_against_recomputation(const Transformer& m, const Tokens& source,
                                                      const Tokens& fed) {
    CacheAgainstRecomputation out;
    KVCache cache = start_decoding(m, source);
    const Matrix memory = encode(m, {source});
    for (std::size_t t = 0; t < fed.size(); ++t) {
        const Matrix cached = decode_step(m, cache, fed[t]);
        const Tokens prefix(fed.begin(), fed.begin() + static_cast<std::ptrdiff_t>(t) + 1);
        const Matrix full = decode(m, {prefix}, memory, {source});
        out.gaps.push_back(max_abs_diff(cached, row_of(full, full.rows - 1)));
        append_rows(out.cached, cached);
    }
    return out;
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
