// transformer.cpp — encoder and decoder layers, the two stacks, teacher forcing and greedy
// decoding. Each function is a few lines composing the level below.
#include "transformer.h"

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

#include "masks.h"
#include "positional.h"
#include "random.h"

Matrix embed(const Matrix& table, const Tokens& ids) {
    Matrix x(ids.size(), table.cols);
    const double scale_by = std::sqrt(static_cast<double>(table.cols));
    for (std::size_t t = 0; t < ids.size(); ++t) {
        if (ids[t] < 0 || static_cast<std::size_t>(ids[t]) >= table.rows)
            throw std::out_of_range("token id " + std::to_string(ids[t]) + " outside the vocabulary of " +
                                    std::to_string(table.rows));
        for (std::size_t c = 0; c < table.cols; ++c) x(t, c) = table(static_cast<std::size_t>(ids[t]), c) * scale_by;
    }
    return add(x, sinusoidal_encoding(ids.size(), table.cols));
}

// One sublayer with its residual connection, in either placement; nc keeps the norm's cache.
static Matrix residual(const Matrix& x, const LayerNorm& norm, bool norm_first, LayerNormCache& nc,
                       const std::function<Matrix(const Matrix&)>& sublayer) {
    if (norm_first) return add(x, sublayer(layer_norm_forward(x, norm, nc)));  // x + Sublayer(LayerNorm(x))
    return layer_norm_forward(add(x, sublayer(x)), norm, nc);                   // LayerNorm(x + Sublayer(x))
}

Matrix encoder_layer_forward(const Matrix& x, const EncoderLayer& L, const Matrix& mask, bool norm_first,
                             EncoderLayerCache& c) {
    Matrix h = residual(x, L.norm1, norm_first, c.norm1, [&](const Matrix& in) {
        return multi_head_forward(in, in, L.self_attn, mask, c.self_attn);
    });
    return residual(h, L.norm2, norm_first, c.norm2, [&](const Matrix& in) { return feed_forward_forward(in, L.ffn, c.ffn); });
}

Matrix decoder_layer_forward(const Matrix& y, const Matrix& memory, const DecoderLayer& L, const Matrix& self_mask,
                             const Matrix& memory_mask, bool norm_first, DecoderLayerCache& c) {
    // masked self-attention: each target position sees itself and the positions before it
    Matrix h = residual(y, L.norm1, norm_first, c.norm1, [&](const Matrix& in) {
        return multi_head_forward(in, in, L.self_attn, self_mask, c.self_attn);
    });
    // cross-attention: queries from the decoder, keys and values from the encoder's memory
    h = residual(h, L.norm2, norm_first, c.norm2, [&](const Matrix& in) {
        return multi_head_forward(in, memory, L.cross_attn, memory_mask, c.cross_attn);
    });
    return residual(h, L.norm3, norm_first, c.norm3, [&](const Matrix& in) { return feed_forward_forward(in, L.ffn, c.ffn); });
}

Matrix encoder_layer(const Matrix& x, const EncoderLayer& L, const Matrix& mask, bool norm_first) {
    EncoderLayerCache unused;
    return encoder_layer_forward(x, L, mask, norm_first, unused);
}

Matrix decoder_layer(const Matrix& y, const Matrix& memory, const DecoderLayer& L, const Matrix& self_mask,
                     const Matrix& memory_mask, bool norm_first) {
    DecoderLayerCache unused;
    return decoder_layer_forward(y, memory, L, self_mask, memory_mask, norm_first, unused);
}

static std::vector<bool> is_padding(const Tokens& ids, int pad_id) {
    std::vector<bool> pad(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) pad[i] = ids[i] == pad_id;
    return pad;
}

Matrix encode_forward(const Transformer& m, const Tokens& source, EncodeCache& c) {
    const Matrix mask = padding_mask(source.size(), is_padding(source, m.config.pad_id));
    Matrix x = embed(m.src_embedding, source);
    c.layers.resize(m.encoder.size());
    for (std::size_t i = 0; i < m.encoder.size(); ++i)
        x = encoder_layer_forward(x, m.encoder[i], mask, m.config.norm_first, c.layers[i]);
    return layer_norm_forward(x, m.encoder_norm, c.norm);
}

Matrix decode_forward(const Transformer& m, const Tokens& target, const Matrix& memory, const Tokens& source,
                      DecodeCache& c) {
    const std::size_t n = target.size();
    const Matrix self_mask = add(causal_mask(n), padding_mask(n, is_padding(target, m.config.pad_id)));
    const Matrix memory_mask = padding_mask(n, is_padding(source, m.config.pad_id));
    Matrix y = embed(m.config.share_embeddings ? m.src_embedding : m.tgt_embedding, target);
    c.layers.resize(m.decoder.size());
    for (std::size_t i = 0; i < m.decoder.size(); ++i)
        y = decoder_layer_forward(y, memory, m.decoder[i], self_mask, memory_mask, m.config.norm_first, c.layers[i]);
    c.output = layer_norm_forward(y, m.decoder_norm, c.norm);
    // the output projection; shared: the embedding table itself, y·Eᵀ
    if (!m.config.share_embeddings) return linear(c.output, m.output_W, m.output_b);
    Matrix logits = matmul_bt(c.output, m.src_embedding);  // no full transposed copy of the table
    for (std::size_t r = 0; r < logits.rows; ++r)
        for (std::size_t v = 0; v < logits.cols; ++v) logits(r, v) += m.output_b(0, v);
    return logits;
}

Matrix encode(const Transformer& m, const Tokens& source) {
    EncodeCache unused;
    return encode_forward(m, source, unused);
}

Matrix decode(const Transformer& m, const Tokens& target, const Matrix& memory, const Tokens& source) {
    DecodeCache unused;
    return decode_forward(m, target, memory, source, unused);
}

Matrix logits_teacher_forced(const Transformer& m, const Tokens& source, const Tokens& decoder_input) {
    return decode(m, decoder_input, encode(m, source), source);
}

static int argmax(const Matrix& row) {
    std::size_t best = 0;
    for (std::size_t c = 1; c < row.cols; ++c)
        if (row(0, c) > row(0, best)) best = c;
    return static_cast<int>(best);
}

GreedySteps greedy_decode(const Transformer& m, const Tokens& source, std::size_t max_length) {
    GreedySteps g;
    const Matrix memory = encode(m, source);  // encoded once, read by every step
    g.output = {m.config.bos_id};
    while (g.output.size() <= max_length) {
        const Matrix logits = decode(m, g.output, memory, source);
        g.step_logits.push_back(row_of(logits, logits.rows - 1));
        const int next = argmax(g.step_logits.back());
        g.output.push_back(next);
        if (next == m.config.eos_id) break;
    }
    return g;
}
