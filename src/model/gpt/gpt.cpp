// gpt.cpp — the decoder-only model: one stack of causal blocks, a tied output projection.
#include "model/gpt/gpt.h"

#include <algorithm>
#include <cmath>

#include "core/matmul.h"
#include "core/random.h"
#include "model/attention/masks.h"
#include "model/transformer/embedding.h"
#include "model/transformer/loss.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"
#include "model/decoding/kv_cache.h"

Gpt random_gpt(const TransformerConfig& c, std::uint64_t seed) {
    Random rng(seed);
    Gpt m;
    m.config = c;
    m.embedding = Matrix(c.tgt_vocab, c.d_model);  // standard deviation 1/√d_model
    for (double& x : m.embedding.data) x = rng.normal() / std::sqrt(static_cast<double>(c.d_model));
    for (std::size_t i = 0; i < c.n_decoder_layers; ++i)
        m.blocks.push_back(
            {random_attention(rng, c), random_ffn(rng, c), unit_norm(c), unit_norm(c)});
    m.norm = unit_norm(c);
    if (c.positions == PositionScheme::Learned) m.positions = random_positions(rng, c);
    return m;
}

std::vector<Parameter> parameters(Gpt& m) {
    std::vector<Parameter> ps;
    ps.push_back({"embedding.weight", &m.embedding, TorchLayout::Same});
    if (m.config.positions == PositionScheme::Learned)
        ps.push_back({"positions.weight", &m.positions, TorchLayout::Same});
    for (std::size_t i = 0; i < m.blocks.size(); ++i) {
        const std::string p = "layers." + std::to_string(i);
        add_attention(ps, p + ".self_attn", m.blocks[i].self_attn);
        add_ffn(ps, p, m.blocks[i].ffn);
        add_norm(ps, p + ".norm1", m.blocks[i].norm1);
        add_norm(ps, p + ".norm2", m.blocks[i].norm2);
    }
    add_norm(ps, "norm", m.norm);
    return ps;
}

std::vector<Matrix*> parameter_matrices(Gpt& m) {
    std::vector<Matrix*> out;
    for (const Parameter& p : parameters(m)) out.push_back(p.value);
    return out;
}

Gpt zeros_like(const Gpt& model) {
    Gpt z = model;
    for (Matrix* p : parameter_matrices(z)) std::fill(p->data.begin(), p->data.end(), 0.0);
    return z;
}

std::size_t parameter_count(const Gpt& model) {
    std::size_t n = 0;
    for (const Matrix* p : parameter_matrices(const_cast<Gpt&>(model))) n += p->data.size();
    return n;
}

namespace {

// Each sequence's positions see themselves and the positions before them (and, with a window,
// only the nearest of those); RoPE or ALiBi as the config says.
Attending causal_self(const std::vector<Tokens>& sequences, const TransformerConfig& c) {
    Attending who{stacking_of(sequences), stacking_of(sequences), {}};
    for (const Tokens& s : sequences) {
        Matrix mask = causal_mask(s.size());
        if (c.window) add_to(mask, window_mask(s.size(), s.size(), c.window));
        who.masks.push_back(mask);
    }
    who.positions = self_attention_positions(c);
    who.tile = c.attention_tile;
    return who;
}

AddedPositions added(const Gpt& m) { return {m.config.positions, &m.positions}; }

}  // namespace

Matrix gpt_logits(const Gpt& m, const std::vector<Tokens>& sequences, GptCache* cache) {
    const Attending self = causal_self(sequences, m.config);
    Matrix x = embed(m.embedding, sequences, added(m));
    if (cache) cache->blocks.resize(m.blocks.size());
    for (std::size_t i = 0; i < m.blocks.size(); ++i)
        x = encoder_layer(x, m.blocks[i], self, m.config, cache ? &cache->blocks[i] : nullptr);
    Matrix y = normalize(x, m.norm, cache ? &cache->norm : nullptr);
    Matrix logits = matmul_bt(y, m.embedding);  // (rows x d_model)·(vocab x d_model)ᵀ
    if (cache) cache->y = std::move(y);
    return logits;
}

void gpt_backward(const Gpt& m, const std::vector<Tokens>& sequences, const Matrix& d_logits,
                  const GptCache& c, Gpt& g) {
    // logits = y·Eᵀ: dy = dlogits·E, dE += dlogitsᵀ·y (the output side of the tied table)
    const Matrix dy = matmul(d_logits, m.embedding);
    add_to(g.embedding, matmul_at(d_logits, c.y));
    Matrix dx = normalize_backward(dy, m.norm, c.norm, g.norm);
    for (std::size_t i = m.blocks.size(); i-- > 0;)
        dx = encoder_layer_backward(dx, m.blocks[i], c.blocks[i], m.config, g.blocks[i]);
    embed_backward(dx, sequences, g.embedding,  // the input side of the same table
                   m.config.positions == PositionScheme::Learned ? &g.positions : nullptr);
}

double gpt_loss(const Gpt& m, const std::vector<Tokens>& inputs, const std::vector<Tokens>& targets,
                Gpt* grad, double smoothing) {
    GptCache cache;
    const Matrix logits = gpt_logits(m, inputs, grad ? &cache : nullptr);
    LossSum total;
    std::size_t first = 0;
    for (std::size_t s = 0; s < inputs.size(); ++s) {
        cross_entropy(row_block(logits, first, inputs[s].size()), targets[s], m.config.pad_id,
                      smoothing, total);
        first += inputs[s].size();
    }
    if (!grad) return total.mean();
    *grad = zeros_like(m);
    Matrix d_logits(logits.rows, logits.cols);
    first = 0;
    for (std::size_t s = 0; s < inputs.size(); ++s) {
        const std::size_t n = inputs[s].size();
        set_submatrix(
            d_logits, first, 0,
            cross_entropy_backward(row_block(logits, first, n), targets[s], m.config.pad_id,
                                   smoothing, 1.0 / static_cast<double>(total.count)));
        first += n;
    }
    gpt_backward(m, inputs, d_logits, cache, *grad);
    return total.mean();
}

GptKV start_gpt(const Gpt& m) {
    GptKV kv;
    kv.blocks.resize(m.blocks.size());
    kv.output = pack_transposed(m.embedding);
    return kv;
}

Matrix gpt_step(const Gpt& m, GptKV& kv, int token) {
    Matrix x = embed_at(m.embedding, token, kv.length, added(m));  // (1 x d_model)
    const Attending self = next_position(m.config, kv.length);
    for (std::size_t i = 0; i < m.blocks.size(); ++i)
        x = encoder_layer(x, m.blocks[i], self, m.config, nullptr, &kv.blocks[i]);
    kv.length += 1;
    return matmul_packed(normalize(x, m.norm), kv.output);  // = normalize(x)·Eᵀ
}
