// kv_cache.cpp — incremental decoding with cached keys and values.
#include "model/kv_cache.h"

#include "model/embedding.h"
#include "model/layers.h"
#include "model/masks.h"

KVCache start_decoding(const Transformer& m, const Tokens& source) {
    const Matrix memory = encode(m, {source});
    KVCache cache;
    cache.cross_mask = padding_mask(1, is_padding(source, m.config.pad_id));
    for (const DecoderLayer& L : m.decoder)
        cache.layers.push_back({Matrix(), Matrix(),
                                linear(memory, L.cross_attn.W_K, L.cross_attn.b_K),
                                linear(memory, L.cross_attn.W_V, L.cross_attn.b_V)});
    return cache;
}

// One decoder layer on one new row y (1 x d_model): decoder_layer's three sublayers, with the
// self-attention's keys and values grown by this row and the cross-attention's read from the cache.
static Matrix decoder_layer_step(const Matrix& y, LayerKV& kv, const DecoderLayer& L,
                                 const Matrix& cross_mask, bool norm_first) {
    LayerNormCache unused;
    Matrix h = residual(y, L.norm1, norm_first, unused, [&](const Matrix& in) {
        append_rows(kv.self_K, linear(in, L.self_attn.W_K, L.self_attn.b_K));
        append_rows(kv.self_V, linear(in, L.self_attn.W_V, L.self_attn.b_V));
        return multi_head_attention_over(in, kv.self_K, kv.self_V, L.self_attn);  // sees 0 … t
    });
    h = residual(h, L.norm2, norm_first, unused, [&](const Matrix& in) {
        return multi_head_attention_over(in, kv.cross_K, kv.cross_V, L.cross_attn, cross_mask);
    });
    return residual(h, L.norm3, norm_first, unused,
                    [&](const Matrix& in) { return feed_forward(in, L.ffn); });
}

Matrix decode_step(const Transformer& m, KVCache& cache, int token) {
    Matrix y = embed_at(target_embedding(m), token, cache.length);
    for (std::size_t i = 0; i < m.decoder.size(); ++i)
        y = decoder_layer_step(y, cache.layers[i], m.decoder[i], cache.cross_mask,
                               m.config.norm_first);
    cache.length += 1;
    return output_projection(m, layer_norm(y, m.decoder_norm));
}

double kv_cache_bytes(const TransformerConfig& c, std::size_t t, std::size_t m) {
    const double row = 2.0 * static_cast<double>(c.d_model);  // h·d_k + h·d_v = 2·d_model here
    return static_cast<double>(c.n_decoder_layers) * static_cast<double>(t + m) * row * 8.0;
}

std::size_t cache_doubles(const KVCache& cache) {
    std::size_t n = 0;
    for (const LayerKV& kv : cache.layers)
        for (const Matrix* part : {&kv.self_K, &kv.self_V, &kv.cross_K, &kv.cross_V})
            n += part->data.size();
    return n;
}
