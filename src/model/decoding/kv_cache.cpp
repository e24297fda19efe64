// kv_cache.cpp — incremental decoding with cached keys and values: the decoder of transformer.h,
// run on one new row at a time.
#include "model/decoding/kv_cache.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "model/attention/masks.h"
#include "model/multi_head/attending.h"
#include "model/multi_head/multi_head.h"
#include "model/transformer/caches.h"
#include "model/transformer/embedding.h"
#include "model/decoding/decoding.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_layers.h"
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
    return decode_steps(m, {&cache}, {token});
}

Matrix decode_steps(const Transformer& m, const std::vector<KVCache*>& caches,
                    const Tokens& tokens) {
    if (caches.empty() || caches.size() != tokens.size())
        throw std::invalid_argument("decode_steps: " + std::to_string(caches.size()) +
                                    " caches for " + std::to_string(tokens.size()) + " tokens");
    // each new token embedded at its own position, fed; who it attends to in its own target
    // tokens and in its own memory
    Matrix y(tokens.size(), m.config.d_model);  // (batch x d_model)
    std::vector<Attending> self, cross;
    for (std::size_t b = 0; b < caches.size(); ++b) {
        KVCache& c = *caches[b];
        set_submatrix(y, b, 0,
                      embed_at(target_embedding(m), tokens[b], c.fed.size(), target_positions(m)));
        c.fed.push_back(tokens[b]);
        self.push_back(next_position(m.config, c.fed));
        cross.push_back(within_one(1, c.cross_mask.cols, c.cross_mask));
        cross.back().tile = m.config.attention_tile;
    }
    // each decoder layer as decoder_layer() runs it, its two attentions one step over each
    // sequence's kept keys and values
    for (std::size_t l = 0; l < m.decoder.size(); ++l) {
        const DecoderLayer& L = m.decoder[l];
        std::vector<KeptKV*> own, memory;
        for (KVCache* c : caches) {
            own.push_back(&c->layers[l].self);
            memory.push_back(&c->layers[l].cross);
        }
        NormCache n1, n2, n3;
        const bool first = m.config.norm_first;
        y = residual(y, L.norm1, first, n1, [&](const Matrix& in) {
            return multi_head_attention_steps(in, L.self_attn, own, self);
        });
        y = residual(y, L.norm2, first, n2, [&](const Matrix& in) {
            return multi_head_attention_steps(in, L.cross_attn, memory, cross);
        });
        y = residual(y, L.norm3, first, n3,
                     [&](const Matrix& in) { return feed_forward(in, L.ffn); });
    }
    Matrix logits = output_projection(m, normalize(y, m.decoder_norm));  // (batch x tgt_vocab)
    for (std::size_t b = 0; b < caches.size(); ++b)
        finite_logits(row_of(logits, b), caches[b]->fed.size());
    return logits;
}

std::vector<Tokens> greedy_decode_batch(const Transformer& m, const std::vector<Tokens>& sources,
                                        std::size_t max_length) {
    std::vector<KVCache> caches;
    std::vector<Tokens> out(sources.size(), Tokens{m.config.bos_id});
    for (const Tokens& source : sources) caches.push_back(start_decoding(m, source));
    std::vector<std::size_t> running;  // the sequences not ended yet, in order
    for (std::size_t s = 0; s < sources.size(); ++s)
        if (max_length > 0) running.push_back(s);
    while (!running.empty()) {
        std::vector<KVCache*> batch;
        Tokens last;
        for (std::size_t s : running) batch.push_back(&caches[s]), last.push_back(out[s].back());
        const Matrix logits = decode_steps(m, batch, last);
        std::vector<std::size_t> still;
        for (std::size_t b = 0; b < running.size(); ++b) {
            Tokens& o = out[running[b]];
            o.push_back(next_token(row_of(logits, b), m.config));
            if (o.back() != m.config.eos_id && o.size() <= max_length) still.push_back(running[b]);
        }
        running = std::move(still);
    }
    return out;
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
