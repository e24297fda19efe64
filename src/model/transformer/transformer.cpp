// transformer.cpp — the two stacks, the output projection, and their backward passes. Each
// function is a few lines composing the level below.
#include "model/transformer/transformer.h"

#include "core/matmul.h"
#include "model/multi_head/attending.h"
#include "model/multi_head/linear.h"
#include "model/transformer/caches.h"
#include "model/transformer/embedding.h"
#include "model/transformer/norms.h"
#include "model/transformer/who_attends.h"

namespace {

const Matrix& target_table(const Transformer& m) {
    return m.config.share_embeddings ? m.src_embedding : m.tgt_embedding;
}
Matrix& target_table(Transformer& m) {
    return m.config.share_embeddings ? m.src_embedding : m.tgt_embedding;
}

}  // namespace

Matrix encode(const Transformer& m, const std::vector<Tokens>& sources, EncodeCache* cache) {
    EncodeCache local;
    EncodeCache& c = cache ? *cache : local;
    const Attending self = self_attending(sources, false, m.config);
    Matrix x = embed(m.src_embedding, sources, source_positions(m));  // (n_src x d_model)
    c.layers.resize(m.encoder.size());
    for (std::size_t i = 0; i < m.encoder.size(); ++i)
        x = encoder_layer(x, m.encoder[i], self, m.config, cache ? &c.layers[i] : nullptr);
    return normalize(x, m.encoder_norm, &c.norm);
}

void encode_backward(const Transformer& m, const Matrix& d_memory,
                     const std::vector<Tokens>& sources, const EncodeCache& c, Transformer& g) {
    Matrix dx =
        normalize_backward(d_memory, m.encoder_norm, c.norm, g.encoder_norm);  // the final norm
    for (std::size_t i = m.encoder.size(); i-- > 0;)  // the layers, last first
        dx = encoder_layer_backward(dx, m.encoder[i], c.layers[i], m.config, g.encoder[i]);
    embed_backward(dx, sources, g.src_embedding,  // x = embed(sources) + positions
                   g.src_positions.empty() ? nullptr : &g.src_positions);
}

Matrix decode(const Transformer& m, const std::vector<Tokens>& targets, const Matrix& memory,
              const std::vector<Tokens>& sources, DecodeCache* cache) {
    const Attending self = self_attending(targets, true, m.config);
    const Attending cross = cross_attending(targets, sources, m.config);
    return run_decoder(m, embed(target_table(m), targets, target_positions(m)), memory, self, cross,
                       cache);
}

Matrix run_decoder(const Transformer& m, Matrix y, const Matrix& memory, const Attending& self,
                   const Attending& cross, DecodeCache* cache, std::vector<LayerKV>* kv) {
    DecodeCache local;
    DecodeCache& c = cache ? *cache : local;
    c.n_src = memory.rows;
    c.layers.resize(m.decoder.size());
    for (std::size_t i = 0; i < m.decoder.size(); ++i)
        y = decoder_layer(y, memory, m.decoder[i], self, cross, m.config,
                          cache ? &c.layers[i] : nullptr, kv ? &(*kv)[i] : nullptr);
    c.output = normalize(y, m.decoder_norm, &c.norm);
    return output_projection(m, c.output);  // (n_tgt x tgt_vocab)
}

Matrix decode_backward(const Transformer& m, const Matrix& d_logits,
                       const std::vector<Tokens>& targets, const DecodeCache& c, Transformer& g) {
    Matrix dy =
        output_projection_backward(m, d_logits, c.output, g);  // logits = projection(output)
    dy = normalize_backward(dy, m.decoder_norm, c.norm, g.decoder_norm);  // output = norm(y)
    Matrix d_memory(c.n_src, m.config.d_model);
    for (std::size_t i = m.decoder.size(); i-- > 0;)  // the layers, last first
        dy =
            decoder_layer_backward(dy, m.decoder[i], c.layers[i], m.config, g.decoder[i], d_memory);
    embed_backward(dy, targets, target_table(g),  // y = embed(targets) + positions
                   g.tgt_positions.empty() ? nullptr : &g.tgt_positions);
    return d_memory;
}

const Matrix& target_embedding(const Transformer& m) { return target_table(m); }

AddedPositions source_positions(const Transformer& m) {
    return {m.config.positions, &m.src_positions};
}

AddedPositions target_positions(const Transformer& m) {
    return {m.config.positions, &m.tgt_positions};
}

Matrix output_projection(const Transformer& m, const Matrix& y) {
    if (!m.config.share_embeddings) return linear(y, m.output_W, m.output_b);  // y·W + b
    // shared: the embedding table itself, y·Eᵀ + b, without a transposed copy of the table
    Matrix logits = matmul_bt(y, m.src_embedding);
    add_to_each_row(logits, m.output_b);
    return logits;
}

Matrix output_projection_backward(const Transformer& m, const Matrix& d_logits, const Matrix& y,
                                  Transformer& g) {
    if (!m.config.share_embeddings)
        return linear_backward(d_logits, y, m.output_W, g.output_W, g.output_b);
    add_column_sums(g.output_b, d_logits);            // logits = … + b  -> db = Σ_rows dlogits
    add_to(g.src_embedding, matmul_at(d_logits, y));  // logits = y·Eᵀ   -> dE = dlogitsᵀ·y
    return matmul(d_logits, m.src_embedding);         //                 -> dy = dlogits·E
}

Matrix logits_teacher_forced(const Transformer& m, const Tokens& source,
                             const Tokens& decoder_input) {
    return decode(m, {decoder_input}, encode(m, {source}), {source});
}
