// transformer.cpp — the two stacks, the output projection, and their backward passes. Each
// function is a few lines composing the level below.
#include "model/transformer.h"

#include <algorithm>

#include "core/matmul.h"
#include "model/embedding.h"
#include "model/layers.h"
#include "model/masks.h"

Matrix encode(const Transformer& m, const Tokens& source, EncodeCache* cache) {
    EncodeCache local;
    EncodeCache& c = cache ? *cache : local;
    const Matrix mask = padding_mask(source.size(), is_padding(source, m.config.pad_id));
    Matrix x = embed(m.src_embedding, source);  // (n_src x d_model)
    c.layers.resize(m.encoder.size());
    for (std::size_t i = 0; i < m.encoder.size(); ++i)
        x = encoder_layer(x, m.encoder[i], mask, m.config.norm_first, &c.layers[i]);
    return layer_norm(x, m.encoder_norm, &c.norm);
}

void encode_backward(const Transformer& m, const Matrix& d_memory, const Tokens& source,
                     const EncodeCache& c, Transformer& g) {
    Matrix dx =
        layer_norm_backward(d_memory, m.encoder_norm, c.norm, g.encoder_norm);  // the final norm
    for (std::size_t i = m.encoder.size(); i-- > 0;)  // the layers, last first
        dx = encoder_layer_backward(dx, m.encoder[i], c.layers[i], m.config.norm_first,
                                    g.encoder[i]);
    embed_backward(dx, source, g.src_embedding);  // x = embed(source)
}

static const Matrix& target_table(const Transformer& m) {
    return m.config.share_embeddings ? m.src_embedding : m.tgt_embedding;
}

static Matrix& target_table(Transformer& m) {
    return m.config.share_embeddings ? m.src_embedding : m.tgt_embedding;
}

Matrix decode(const Transformer& m, const Tokens& target, const Matrix& memory,
              const Tokens& source, DecodeCache* cache) {
    DecodeCache local;
    DecodeCache& c = cache ? *cache : local;
    const std::size_t n_tgt = target.size();
    const Matrix self_mask =
        add(causal_mask(n_tgt), padding_mask(n_tgt, is_padding(target, m.config.pad_id)));
    const Matrix memory_mask = padding_mask(n_tgt, is_padding(source, m.config.pad_id));
    Matrix y = embed(target_table(m), target);  // (n_tgt x d_model)
    c.n_src = memory.rows;
    c.layers.resize(m.decoder.size());
    for (std::size_t i = 0; i < m.decoder.size(); ++i)
        y = decoder_layer(y, memory, m.decoder[i], self_mask, memory_mask, m.config.norm_first,
                          &c.layers[i]);
    c.output = layer_norm(y, m.decoder_norm, &c.norm);
    return output_projection(m, c.output);  // (n_tgt x tgt_vocab)
}

Matrix decode_backward(const Transformer& m, const Matrix& d_logits, const Tokens& target,
                       const DecodeCache& c, Transformer& g) {
    Matrix dy =
        output_projection_backward(m, d_logits, c.output, g);  // logits = projection(output)
    dy = layer_norm_backward(dy, m.decoder_norm, c.norm, g.decoder_norm);  // output = norm(y)
    Matrix d_memory(c.n_src, m.config.d_model);
    for (std::size_t i = m.decoder.size(); i-- > 0;)  // the layers, last first
        dy = decoder_layer_backward(dy, m.decoder[i], c.layers[i], m.config.norm_first,
                                    g.decoder[i], d_memory);
    embed_backward(dy, target, target_table(g));  // y = embed(target)
    return d_memory;
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
    return decode(m, decoder_input, encode(m, source), source);
}

std::string text_of(const TransformerConfig& c, const Tokens& ids) {
    if (!c.vocabulary.empty()) return text_of(c.vocabulary, ids);
    Vocabulary names;  // no vocabulary: the special tokens by name, every other id as a number
    for (int id = 0; id < static_cast<int>(std::max(c.src_vocab, c.tgt_vocab)); ++id)
        names.push_back(id == c.pad_id   ? "<pad>"
                        : id == c.bos_id ? "<bos>"
                        : id == c.eos_id ? "<eos>"
                                         : std::to_string(id));
    return text_of(names, ids);
}
