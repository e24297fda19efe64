// transformer.cpp — the two stacks, the output projection, and their backward passes. Each
// function is a few lines composing the level below.
#include "model/4_transformer/transformer.h"

#include "core/matmul.h"
#include "model/1_attention/masks.h"
#include "model/4_transformer/embedding.h"

namespace {

// Queries of stacked sequences q_seqs see the keys of k_seqs, sequence by sequence: padded keys
// hidden, and with causal, every later position too.
Attending attending(const std::vector<Tokens>& q_seqs, const std::vector<Tokens>& k_seqs,
                    int pad_id, bool causal) {
    Attending who{stacking_of(q_seqs), stacking_of(k_seqs), {}};
    for (std::size_t s = 0; s < q_seqs.size(); ++s) {
        Matrix mask = padding_mask(q_seqs[s].size(), is_padding(k_seqs[s], pad_id));
        if (causal) add_to(mask, causal_mask(q_seqs[s].size()));
        who.masks.push_back(mask);
    }
    return who;
}

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
    const Attending self = attending(sources, sources, m.config.pad_id, false);
    Matrix x = embed(m.src_embedding, sources);  // (n_src x d_model)
    c.layers.resize(m.encoder.size());
    for (std::size_t i = 0; i < m.encoder.size(); ++i)
        x = encoder_layer(x, m.encoder[i], self, m.config.norm_first, &c.layers[i]);
    return layer_norm(x, m.encoder_norm, &c.norm);
}

void encode_backward(const Transformer& m, const Matrix& d_memory,
                     const std::vector<Tokens>& sources, const EncodeCache& c, Transformer& g) {
    Matrix dx =
        layer_norm_backward(d_memory, m.encoder_norm, c.norm, g.encoder_norm);  // the final norm
    for (std::size_t i = m.encoder.size(); i-- > 0;)  // the layers, last first
        dx = encoder_layer_backward(dx, m.encoder[i], c.layers[i], m.config.norm_first,
                                    g.encoder[i]);
    embed_backward(dx, concatenated(sources), g.src_embedding);  // x = embed(sources)
}

Matrix decode(const Transformer& m, const std::vector<Tokens>& targets, const Matrix& memory,
              const std::vector<Tokens>& sources, DecodeCache* cache) {
    const Attending self = attending(targets, targets, m.config.pad_id, true);
    const Attending cross = attending(targets, sources, m.config.pad_id, false);
    return run_decoder(m, embed(target_table(m), targets), memory, self, cross, cache);
}

Matrix run_decoder(const Transformer& m, Matrix y, const Matrix& memory, const Attending& self,
                   const Attending& cross, DecodeCache* cache, std::vector<LayerKV>* kv) {
    DecodeCache local;
    DecodeCache& c = cache ? *cache : local;
    c.n_src = memory.rows;
    c.layers.resize(m.decoder.size());
    for (std::size_t i = 0; i < m.decoder.size(); ++i)
        y = decoder_layer(y, memory, m.decoder[i], self, cross, m.config.norm_first, &c.layers[i],
                          kv ? &(*kv)[i] : nullptr);
    c.output = layer_norm(y, m.decoder_norm, &c.norm);
    return output_projection(m, c.output);  // (n_tgt x tgt_vocab)
}

Matrix decode_backward(const Transformer& m, const Matrix& d_logits,
                       const std::vector<Tokens>& targets, const DecodeCache& c, Transformer& g) {
    Matrix dy =
        output_projection_backward(m, d_logits, c.output, g);  // logits = projection(output)
    dy = layer_norm_backward(dy, m.decoder_norm, c.norm, g.decoder_norm);  // output = norm(y)
    Matrix d_memory(c.n_src, m.config.d_model);
    for (std::size_t i = m.decoder.size(); i-- > 0;)  // the layers, last first
        dy = decoder_layer_backward(dy, m.decoder[i], c.layers[i], m.config.norm_first,
                                    g.decoder[i], d_memory);
    embed_backward(dy, concatenated(targets), target_table(g));  // y = embed(targets)
    return d_memory;
}

const Matrix& target_embedding(const Transformer& m) { return target_table(m); }

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
