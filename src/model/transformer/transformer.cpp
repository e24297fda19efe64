// transformer.cpp — the two stacks, the output projection, and their backward passes. Each
// function is a few lines composing the level below.
#include "model/transformer/transformer.h"

#include "core/matmul.h"
#include "model/attention/masks.h"
#include "model/transformer/embedding.h"

namespace {

enum class Attention { EncoderSelf, DecoderSelf, Cross };

// Queries of stacked sequences q_seqs see the keys of k_seqs, sequence by sequence: padded keys
// hidden; in the decoder's self-attention every later position too; in self-attentions, keys
// outside the window, and positions by RoPE or ALiBi when the config says so.
Attending attending(const std::vector<Tokens>& q_seqs, const std::vector<Tokens>& k_seqs,
                    const TransformerConfig& c, Attention kind) {
    Attending who{stacking_of(q_seqs), stacking_of(k_seqs), {}};
    const bool self = kind != Attention::Cross;
    for (std::size_t s = 0; s < q_seqs.size(); ++s) {
        const std::size_t n = q_seqs[s].size(), m = k_seqs[s].size();
        Matrix mask = padding_mask(n, is_padding(k_seqs[s], c.pad_id));
        if (kind == Attention::DecoderSelf) add_to(mask, causal_mask(n));
        if (self && c.window) add_to(mask, window_mask(n, m, c.window));
        who.masks.push_back(mask);
    }
    if (self) who.positions = self_attention_positions(c);
    who.tile = c.attention_tile;
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
    const Attending self = attending(sources, sources, m.config, Attention::EncoderSelf);
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
    const Attending self = attending(targets, targets, m.config, Attention::DecoderSelf);
    const Attending cross = attending(targets, sources, m.config, Attention::Cross);
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

InAttention self_attention_positions(const TransformerConfig& c) {
    return c.positions == PositionScheme::Rope    ? InAttention::Rope
           : c.positions == PositionScheme::Alibi ? InAttention::Alibi
                                                  : InAttention::None;
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
