// transformer_init.cpp — making a Transformer of a given shape, checking one that was loaded,
// and counting its parameters.
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/translate.h"

#include "core/random.h"
#include "model/transformer.h"

namespace {

// Xavier/Glorot uniform: U(−a, a) with a = √(6 / (fan_in + fan_out)), so that a layer keeps
// the variance of what flows through it.
Matrix xavier(Random& rng, std::size_t rows, std::size_t cols) {
    Matrix m(rows, cols);
    const double a = std::sqrt(6.0 / static_cast<double>(rows + cols));
    for (double& x : m.data) x = a * (2.0 * rng.uniform() - 1.0);
    return m;
}

LayerNorm unit_norm(std::size_t d, double eps) { return {Matrix(1, d, 1.0), Matrix(1, d), eps}; }

MultiHeadWeights random_attention(Random& rng, const TransformerConfig& c) {
    MultiHeadWeights w;
    w.n_heads = c.n_heads;
    w.W_Q = xavier(rng, c.d_model, c.d_model);
    w.W_K = xavier(rng, c.d_model, c.d_model);
    w.W_V = xavier(rng, c.d_model, c.d_model);
    w.W_O = xavier(rng, c.d_model, c.d_model);
    w.b_Q = w.b_K = w.b_V = w.b_O = Matrix(1, c.d_model);
    return w;
}

FeedForward random_ffn(Random& rng, const TransformerConfig& c) {
    return {xavier(rng, c.d_model, c.d_ff), Matrix(1, c.d_ff), xavier(rng, c.d_ff, c.d_model),
            Matrix(1, c.d_model)};
}

void require(const std::string& what, const Matrix& got, std::size_t rows, std::size_t cols) {
    if (got.rows != rows || got.cols != cols)
        throw std::invalid_argument(
            tr("{}: expected {}, got {}", what, shape_of(Matrix(rows, cols)), shape_of(got)));
}

void require_norm(const LayerNorm& n, const std::string& name, std::size_t d) {
    require(name + ".weight", n.gain, 1, d);
    require(name + ".bias", n.bias, 1, d);
}

void require_attention(const MultiHeadWeights& w, const std::string& name, std::size_t d) {
    require(name + ".W_Q", w.W_Q, d, d);
    require(name + ".W_K", w.W_K, d, d);
    require(name + ".W_V", w.W_V, d, d);
    require(name + ".W_O", w.W_O, d, d);
    check_multi_head(w);  // the biases
}

void require_ffn(const FeedForward& f, const std::string& name, std::size_t d, std::size_t d_ff) {
    require(name + ".linear1.weight", f.W1, d, d_ff);
    require(name + ".linear1.bias", f.b1, 1, d_ff);
    require(name + ".linear2.weight", f.W2, d_ff, d);
    require(name + ".linear2.bias", f.b2, 1, d);
}

std::size_t count(const LayerNorm& n) { return n.gain.data.size() + n.bias.data.size(); }
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
        m.encoder.push_back({random_attention(rng, c), random_ffn(rng, c),
                             unit_norm(c.d_model, c.layer_norm_eps),
                             unit_norm(c.d_model, c.layer_norm_eps)});
    for (std::size_t i = 0; i < c.n_decoder_layers; ++i)
        m.decoder.push_back({random_attention(rng, c), random_attention(rng, c), random_ffn(rng, c),
                             unit_norm(c.d_model, c.layer_norm_eps),
                             unit_norm(c.d_model, c.layer_norm_eps),
                             unit_norm(c.d_model, c.layer_norm_eps)});
    m.encoder_norm = unit_norm(c.d_model, c.layer_norm_eps);
    m.decoder_norm = unit_norm(c.d_model, c.layer_norm_eps);
    m.output_b = Matrix(1, c.tgt_vocab);
    return m;
}

void check_transformer(const Transformer& m) {
    const TransformerConfig& c = m.config;
    if (c.n_heads == 0 || c.d_model % c.n_heads != 0)
        throw std::invalid_argument(
            tr("n_heads: {} does not divide d_model = {}", c.n_heads, c.d_model));
    if (c.share_embeddings && c.src_vocab != c.tgt_vocab)
        throw std::invalid_argument(tr("share_embeddings: needs src_vocab == tgt_vocab"));
    require("src_embedding.weight", m.src_embedding, c.src_vocab, c.d_model);
    if (!c.share_embeddings) {
        require("tgt_embedding.weight", m.tgt_embedding, c.tgt_vocab, c.d_model);
        require("output.weight", m.output_W, c.d_model, c.tgt_vocab);
    }
    require("output.bias", m.output_b, 1, c.tgt_vocab);
    if (m.encoder.size() != c.n_encoder_layers || m.decoder.size() != c.n_decoder_layers)
        throw std::invalid_argument(tr("layers: expected {} encoder and {} decoder layers",
                                       c.n_encoder_layers, c.n_decoder_layers));
    for (std::size_t i = 0; i < m.encoder.size(); ++i) {
        const std::string p = "transformer.encoder.layers." + std::to_string(i);
        require_attention(m.encoder[i].self_attn, p + ".self_attn", c.d_model);
        require_ffn(m.encoder[i].ffn, p, c.d_model, c.d_ff);
        require_norm(m.encoder[i].norm1, p + ".norm1", c.d_model);
        require_norm(m.encoder[i].norm2, p + ".norm2", c.d_model);
    }
    for (std::size_t i = 0; i < m.decoder.size(); ++i) {
        const std::string p = "transformer.decoder.layers." + std::to_string(i);
        require_attention(m.decoder[i].self_attn, p + ".self_attn", c.d_model);
        require_attention(m.decoder[i].cross_attn, p + ".multihead_attn", c.d_model);
        require_ffn(m.decoder[i].ffn, p, c.d_model, c.d_ff);
        require_norm(m.decoder[i].norm1, p + ".norm1", c.d_model);
        require_norm(m.decoder[i].norm2, p + ".norm2", c.d_model);
        require_norm(m.decoder[i].norm3, p + ".norm3", c.d_model);
    }
    require_norm(m.encoder_norm, "transformer.encoder.norm", c.d_model);
    require_norm(m.decoder_norm, "transformer.decoder.norm", c.d_model);
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
           m.output_W.data.size() + m.output_b.data.size();
}
