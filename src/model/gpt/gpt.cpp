// gpt.cpp — the decoder-only model: one stack of causal blocks, a tied output projection.
#include "model/gpt/gpt.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/matmul.h"
#include "core/random.h"
#include "model/gpt/gpt_cache.h"
#include "model/gpt/unlikelihood.h"
#include "model/multi_head/attending.h"
#include "model/multi_head/multi_head.h"
#include "model/transformer/caches.h"
#include "model/transformer/embedding.h"
#include "model/transformer/feed_forward.h"
#include "model/transformer/loss.h"
#include "model/transformer/norms.h"
#include "model/transformer/parameters.h"
#include "model/transformer/transformer_init.h"
#include "model/transformer/who_attends.h"

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
    if (!c.share_embeddings) {  // untied: an output table of its own, drawn as the embedding's
        m.output = Matrix(c.tgt_vocab, c.d_model);
        for (double& x : m.output.data)
            x = rng.normal() / std::sqrt(static_cast<double>(c.d_model));
    }
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
    if (!m.config.share_embeddings) ps.push_back({"output.weight", &m.output, TorchLayout::Same});
    return ps;
}

std::size_t parameter_count(const Gpt& model) {
    return numbers_in(parameters(const_cast<Gpt&>(model)));  // parameters() only hands out
}

namespace {

AddedPositions added(const Gpt& m) { return {m.config.positions, &m.positions}; }

// One block of the GPT: chapter 6's encoder layer — self-attention and the feed-forward net,
// each with its residual and norm — its self-attention made causal by `self`.
Matrix block(const Matrix& x, const EncoderLayer& b, const Attending& self,
             const TransformerConfig& c, EncoderLayerCache* cache = nullptr) {
    return encoder_layer(x, b, self, c, cache);
}

}  // namespace

Matrix gpt_embed(const Gpt& m, const std::vector<Tokens>& sequences) {
    return embed(m.embedding, sequences, added(m));
}

Matrix gpt_blocks(const Gpt& m, const std::vector<Tokens>& sequences, Matrix x, std::size_t first,
                  std::size_t end, GptCache* cache) {
    const Attending self = self_attending(sequences, true, m.config);  // who_attends.h
    if (cache) cache->blocks.resize(m.blocks.size());
    for (std::size_t i = first; i < end; ++i)
        x = block(x, m.blocks[i], self, m.config, cache ? &cache->blocks[i] : nullptr);
    return x;
}

Matrix gpt_readout(const Gpt& m, const Matrix& x, GptCache* cache) {
    Matrix y = normalize(x, m.norm, cache ? &cache->norm : nullptr);
    Matrix logits = matmul_bt(y, output_table(m));  // (rows x d_model)·(vocab x d_model)ᵀ
    if (cache) cache->y = std::move(y);
    return logits;
}

Matrix gpt_logits(const Gpt& m, const std::vector<Tokens>& sequences, GptCache* cache) {
    Matrix x = gpt_blocks(m, sequences, gpt_embed(m, sequences), 0, m.blocks.size(), cache);
    return gpt_readout(m, x, cache);
}

void gpt_backward(const Gpt& m, const std::vector<Tokens>& sequences, const Matrix& d_logits,
                  const GptCache& c, Gpt& g) {
    // logits = y·Wᵀ: dy = dlogits·W, dW += dlogitsᵀ·y (W: the output side of the tied table,
    // or the output table of its own)
    const Matrix dy = matmul(d_logits, output_table(m));
    add_to(m.config.share_embeddings ? g.embedding : g.output, matmul_at(d_logits, c.y));
    Matrix dx = normalize_backward(dy, m.norm, c.norm, g.norm);
    for (std::size_t i = m.blocks.size(); i-- > 0;)  // back through each block (see block above)
        dx = encoder_layer_backward(dx, m.blocks[i], c.blocks[i], m.config, g.blocks[i]);
    embed_backward(dx, sequences, g.embedding,  // the input side of the table
                   m.config.positions == PositionScheme::Learned ? &g.positions : nullptr);
}

double gpt_loss(const Gpt& m, const std::vector<Tokens>& inputs, const std::vector<Tokens>& targets,
                Gpt* grad, double smoothing, double unlikelihood) {
    const double counted =
        static_cast<double>(counted_targets(concatenated(targets), m.config.pad_id));
    return gpt_loss_sum(m, inputs, targets, grad, smoothing, 1.0 / counted, unlikelihood).mean();
}

LossSum gpt_loss_sum(const Gpt& m, const std::vector<Tokens>& inputs,
                     const std::vector<Tokens>& targets, Gpt* grad, double smoothing,
                     double gradient_scale, double unlikelihood) {
    GptCache cache;
    Matrix logits = gpt_logits(m, inputs, grad ? &cache : nullptr);
    const Tokens all_targets = concatenated(targets);  // row by row, as the logits are stacked
    LossSum total;
    // the penalty on repeating the token just read, and its gradient, while the logits are
    // still the logits (the cross-entropy's gradient is then written over them)
    Matrix d_unlikely;
    if (unlikelihood > 0) {
        const Tokens read = concatenated(inputs);
        if (grad) d_unlikely = Matrix(logits.rows, logits.cols);
        total.sum += unlikelihood * unlikelihood_sum(logits, read, all_targets, m.config.pad_id,
                                                     unlikelihood, gradient_scale,
                                                     grad ? &d_unlikely : nullptr);
    }
    if (!grad) {
        cross_entropy(logits, all_targets, m.config.pad_id, smoothing, total);
        return total;
    }
    *grad = zeros_like(m);
    Matrix d_logits = cross_entropy_with_gradient(std::move(logits), all_targets, m.config.pad_id,
                                                  smoothing, gradient_scale, total);
    if (unlikelihood > 0) add_to(d_logits, d_unlikely);
    gpt_backward(m, inputs, d_logits, cache, *grad);
    return total;
}

double gpt_cache_against_full_pass(const Gpt& m, const std::vector<Tokens>& sequences) {
    double worst = 0;
    for (const Tokens& s : sequences) {
        const Matrix full = gpt_logits(m, {s});
        GptKV kv = start_gpt(m);
        for (std::size_t t = 0; t < s.size(); ++t)
            worst = std::max(worst, max_abs_diff(gpt_step(m, kv, s[t]), row_block(full, t, 1)));
    }
    return worst;
}

GptKV start_gpt(const Gpt& m) {
    GptKV kv;
    kv.blocks.resize(m.blocks.size());
    kv.output = std::make_shared<const PreparedTable>(prepare_bt(output_table(m)));
    return kv;
}

GptKV start_another(const GptKV& kv) {
    GptKV fresh;
    fresh.blocks.resize(kv.blocks.size());
    fresh.output = kv.output;
    return fresh;
}

Matrix gpt_step(const Gpt& m, GptKV& kv, int token) { return gpt_steps(m, {&kv}, {token}); }

Matrix gpt_steps(const Gpt& m, const std::vector<GptKV*>& kvs, const Tokens& tokens) {
    if (kvs.empty() || kvs.size() != tokens.size())
        throw std::invalid_argument("gpt_steps: " + std::to_string(kvs.size()) + " caches for " +
                                    std::to_string(tokens.size()) + " tokens");
    // each new token embedded at its own position, fed, and who it attends to: every token so far
    Matrix x(tokens.size(), m.config.d_model);  // (batch x d_model)
    std::vector<Attending> who;
    for (std::size_t b = 0; b < kvs.size(); ++b) {
        set_submatrix(x, b, 0, embed_at(m.embedding, tokens[b], kvs[b]->fed.size(), added(m)));
        kvs[b]->fed.push_back(tokens[b]);
        who.push_back(next_position(m.config, kvs[b]->fed));
    }
    // each block as block() runs it, its self-attention one step over each sequence's kept keys
    for (std::size_t l = 0; l < m.blocks.size(); ++l) {
        const EncoderLayer& block = m.blocks[l];
        std::vector<KeptKV*> kept;
        for (GptKV* kv : kvs) kept.push_back(&kv->blocks[l]);
        NormCache n1, n2;
        x = residual(x, block.norm1, m.config.norm_first, n1, [&](const Matrix& in) {
            return multi_head_attention_steps(in, block.self_attn, kept, who);
        });
        x = residual(x, block.norm2, m.config.norm_first, n2,
                     [&](const Matrix& in) { return feed_forward(in, block.ffn); });
    }
    return matmul_bt_prepared(normalize(x, m.norm), *kvs[0]->output);  // = normalize(x)·Wᵀ
}
