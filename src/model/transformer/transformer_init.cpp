// transformer_init.cpp — making a Transformer of a given shape, and counting its parameters.
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"

#include <cmath>

#include "core/random.h"

// Xavier/Glorot uniform: U(−a, a) with a = √(6 / (fan_in + fan_out)), so that a layer keeps
// the variance of what flows through it.
Matrix xavier(Random& rng, std::size_t rows, std::size_t cols) {
    Matrix m(rows, cols);
    const double a = std::sqrt(6.0 / static_cast<double>(rows + cols));
    for (double& x : m.data) x = a * (2.0 * rng.uniform() - 1.0);
    return m;
}

// A norm of the config's kind that changes nothing yet: gain 1 (and bias 0 for LayerNorm).
Norm unit_norm(const TransformerConfig& c) {
    if (c.norm == NormKind::RMS)
        return {Matrix(1, c.d_model, 1.0), Matrix(), c.layer_norm_eps, NormKind::RMS};
    return {Matrix(1, c.d_model, 1.0), Matrix(1, c.d_model), c.layer_norm_eps, NormKind::Layer};
}

MultiHeadWeights random_attention(Random& rng, const TransformerConfig& c) {
    MultiHeadWeights w;
    w.n_heads = c.n_heads;
    w.n_kv_heads = c.kv_heads();
    const std::size_t kv_width = c.kv_heads() * (c.d_model / c.n_heads);  // n_kv·d_k
    w.W_Q = xavier(rng, c.d_model, c.d_model);
    w.W_K = xavier(rng, c.d_model, kv_width);
    w.W_V = xavier(rng, c.d_model, kv_width);
    w.W_O = xavier(rng, c.d_model, c.d_model);
    w.b_Q = w.b_O = Matrix(1, c.d_model);
    w.b_K = w.b_V = Matrix(1, kv_width);
    return w;
}

// A learned position table: entries of the size of the sinusoidal table's (root mean square
// 1/√2), so that it starts out as loud as the encoding it replaces.
Matrix random_positions(Random& rng, const TransformerConfig& c) {
    Matrix p(c.max_positions, c.d_model);
    for (double& x : p.data) x = rng.normal() * std::sqrt(0.5);
    return p;
}

FeedForward random_ffn(Random& rng, const TransformerConfig& c) {
    return {xavier(rng, c.d_model, c.d_ff), Matrix(1, c.d_ff), xavier(rng, c.d_ff, c.d_model),
            Matrix(1, c.d_model)};
}

namespace {

std::size_t count(const Norm& n) { return n.gain.data.size() + n.bias.data.size(); }
std::size_t count(const FeedForward& f) {
    return f.W1.data.size() + f.b1.data.size() + f.W2.data.size() + f.b2.data.size();
}

}  // namespace

Transformer random_transformer(const TransformerConfig& c, std::uint64_t seed) {
    Random rng(seed);
    Transformer m;
    m.config = c;
    // embeddings with standard deviation 1/√d_model: × √d_model gives entries of size 1
    m.src_embedding = Matrix(c.src_vocab, c.d_model);
    for (double& x : m.src_embedding.data)
        x = rng.normal() / std::sqrt(static_cast<double>(c.d_model));
    if (!c.share_embeddings) {
        m.tgt_embedding = Matrix(c.tgt_vocab, c.d_model);
        for (double& x : m.tgt_embedding.data)
            x = rng.normal() / std::sqrt(static_cast<double>(c.d_model));
        m.output_W = xavier(rng, c.d_model, c.tgt_vocab);
    }
    for (std::size_t i = 0; i < c.n_encoder_layers; ++i)
        m.encoder.push_back(
            {random_attention(rng, c), random_ffn(rng, c), unit_norm(c), unit_norm(c)});
    for (std::size_t i = 0; i < c.n_decoder_layers; ++i)
        m.decoder.push_back({random_attention(rng, c), random_attention(rng, c), random_ffn(rng, c),
                             unit_norm(c), unit_norm(c), unit_norm(c)});
    m.encoder_norm = unit_norm(c);
    m.decoder_norm = unit_norm(c);
    m.output_b = Matrix(1, c.tgt_vocab);
    if (c.positions ==
        PositionScheme::Learned) {  // drawn last: the other weights stay as they were
        m.src_positions = random_positions(rng, c);
        m.tgt_positions = random_positions(rng, c);
    }
    return m;
}

std::size_t core_parameter_count(const Transformer& m) {
    std::size_t n = count(m.encoder_norm) + count(m.decoder_norm);
    for (const EncoderLayer& L : m.encoder)
        n += parameter_count(L.self_attn) + count(L.ffn) + count(L.norm1) + count(L.norm2);
    for (const DecoderLayer& L : m.decoder)
        n += parameter_count(L.self_attn) + parameter_count(L.cross_attn) + count(L.ffn) +
             count(L.norm1) + count(L.norm2) + count(L.norm3);
    return n;
}

std::size_t parameter_count(const Transformer& m) {
    return core_parameter_count(m) + m.src_embedding.data.size() + m.tgt_embedding.data.size() +
           m.src_positions.data.size() + m.tgt_positions.data.size() + m.output_W.data.size() +
           m.output_b.data.size();
}
