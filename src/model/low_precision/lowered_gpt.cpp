// lowered_gpt.cpp — the decoder-only model's step in float32 (and float16), its weights in
// fewer bits.
#include "model/low_precision/lowered_gpt.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/elementary.h"
#include "core/number_formats.h"
#include "fast/threads.h"
#include "model/attention/attention_float32.h"
#include "model/gpt/gpt.h"
#include "model/multi_head/attending.h"
#include "model/multi_head/linear.h"
#include "model/positions/alibi.h"
#include "model/positions/positional.h"
#include "model/positions/rotary.h"
#include "model/transformer/config.h"
#include "model/transformer/tokens.h"
#include "model/transformer/who_attends.h"

namespace {

using Vec = std::vector<float>;

FloatFormat float_format(WeightFormat f) {
    return f == WeightFormat::BFloat16  ? FloatFormat::BFloat16
           : f == WeightFormat::Float16 ? FloatFormat::Float16
                                        : FloatFormat::Float32;
}

// A bias or a gain (1 x n) in the weights' float format (float32 for int8 weights, whose groups
// are for the matrices: llama.cpp keeps its norms in float32 too).
Vec lowered_vector(const Matrix& m, WeightFormat f) {
    Vec v(m.data.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<float>(to_format(m.data[i], float_format(f)));
    return v;
}

// "Everything in float16": each tensor rounded as it is made; otherwise as it is.
void settle(const LoweredGpt& m, Vec& v) {
    if (m.half_activations)
        for (float& x : v) x = round_float(x, FloatFormat::Float16);
}

// y + b, settled
void biased(const LoweredGpt& m, Vec& y, const Vec& b) {
    for (std::size_t j = 0; j < y.size(); ++j) y[j] += b.empty() ? 0.0f : b[j];
    settle(m, y);
}

// y = x·W + b, settled
Vec linear(const LoweredGpt& m, const Vec& x, const StoredWeights& W, const Vec& b) {
    Vec y(W.cols);
    times_stored(x.data(), W, y.data(), m.quantized_activations);
    biased(m, y, b);
    return y;
}

// The queries, keys and values of x: its three products computed together (one meeting of the
// threads, stored_weights.h), each then as linear() finishes it.
void queries_keys_values(const LoweredGpt& m, const LoweredBlock& b, const Vec& x, Vec& q, Vec& k,
                         Vec& v) {
    q.assign(b.W_Q.cols, 0.0f), k.assign(b.W_K.cols, 0.0f), v.assign(b.W_V.cols, 0.0f);
    times_stored_together(x.data(), {{&b.W_Q, q.data()}, {&b.W_K, k.data()}, {&b.W_V, v.data()}},
                          m.quantized_activations);
    biased(m, q, b.b_Q), biased(m, k, b.b_K), biased(m, v, b.b_V);
}

// LayerNorm or RMSNorm of one row, in the float64 model's order of operations.
Vec normalized(const LoweredGpt& m, const Vec& x, const Vec& gain, const Vec& bias) {
    const float d = static_cast<float>(x.size()), eps = static_cast<float>(m.config.layer_norm_eps);
    Vec y(x.size());
    if (bias.empty()) {  // RMSNorm: x / √(mean(x²) + eps) · gain
        float squares = 0;
        for (float v : x) squares += v * v;
        const float inv = 1.0f / std::sqrt(squares / d + eps);
        for (std::size_t c = 0; c < x.size(); ++c) y[c] = x[c] * inv * gain[c];
    } else {  // LayerNorm: (x − mean) / √(variance + eps) · gain + bias
        float mean = 0, var = 0;
        for (float v : x) mean += v;
        mean /= d;
        for (float v : x) var += (v - mean) * (v - mean);
        const float inv = 1.0f / std::sqrt(var / d + eps);
        for (std::size_t c = 0; c < x.size(); ++c) y[c] = (x[c] - mean) * inv * gain[c] + bias[c];
    }
    settle(m, y);
    return y;
}

// RoPE on every head of one row at `position`: pairs (2i, 2i + 1) rotated by position·θ_i, the
// angles' cos and sin computed in float64 and rounded to float32.
void rotate(const LoweredGpt& m, Vec& x, std::size_t d_k, std::size_t position) {
    for (std::size_t i = 0; i < d_k / 2; ++i) {
        const double angle = static_cast<double>(position) * rope_frequency(i, d_k);
        double sine, cosine;
        elementary::sin_cos(angle, sine, cosine);
        const float c = static_cast<float>(cosine), s = static_cast<float>(sine);
        for (std::size_t a = 2 * i; a < x.size(); a += d_k) {
            const float x0 = x[a], x1 = x[a + 1];
            x[a] = x0 * c - x1 * s;
            x[a + 1] = x0 * s + x1 * c;
        }
    }
    settle(m, x);
}

// The new position's self-attention over every key and value kept: the head loop of
// model/multi_head/heads.h over the float32 cache (model/attention/attention_float32.h), each
// head's arithmetic in float32, the heads shared out among the threads as heads.cpp shares them.
Vec attend(const LoweredGpt& m, const LoweredBlock& b, LoweredKV& kv, std::size_t layer,
           const Vec& x) {
    const TransformerConfig& c = m.config;
    const std::size_t h = c.n_heads, d_k = c.d_model / h, t = kv.fed.size() - 1;  // t: its position
    Vec q, k, v;
    queries_keys_values(m, b, x, q, k, v);
    if (c.positions == PositionScheme::Rope) rotate(m, q, d_k, t), rotate(m, k, d_k, t);
    KeptFloat32& kept = kv.kept[layer];
    keep(kept, k, v);
    const Matrix mask = self_attention_mask(kv.fed, 1, t, true, c);  // <pad>, window: who_attends.h
    // ALiBi's bias −m_i·|distance| added to head i's mask, as heads.cpp adds it
    const std::vector<double> slopes = self_attention_positions(c) == InAttention::Alibi
                                           ? alibi_slopes(h)
                                           : std::vector<double>();
    const std::size_t per_kv_head = h / kept.heads;
    Vec concat(h * kept.d_v);
    // counted as heads.cpp counts a step's heads: as 16 queries, bound by reading the cache
    parallel_for(h, 16 * kept.length * (d_k + kept.d_v) * h, [&](std::size_t i) {
        Matrix head_mask = mask;
        if (!slopes.empty()) {
            const Matrix bias = alibi_bias(1, kept.length, slopes[i], t);
            head_mask = mask.empty() ? bias : add(mask, bias);
        }
        attend_kept_float32(q.data() + i * d_k, kept, i / per_kv_head, head_mask,
                            m.half_activations, concat.data() + i * kept.d_v);
    });
    return linear(m, concat, b.W_O, b.b_O);
}

Vec feed_forward(const LoweredGpt& m, const LoweredBlock& b, const Vec& x) {
    Vec hidden = linear(m, x, b.W1, b.b1);
    for (float& v : hidden) v = std::max(v, 0.0f);  // ReLU
    return linear(m, hidden, b.W2, b.b2);
}

Vec added(const LoweredGpt& m, const Vec& x, const Vec& y) {
    Vec z(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) z[i] = x[i] + y[i];
    settle(m, z);
    return z;
}

// The embedding row of token `id` at `position`: E[id]·√d_model (+ an added position row).
Vec embedded(const LoweredGpt& m, int id, std::size_t position) {
    const std::size_t d = m.config.d_model;
    const float root = static_cast<float>(std::sqrt(static_cast<double>(d)));
    Matrix pe;
    if (m.config.positions == PositionScheme::Sinusoidal) pe = sinusoidal_encoding(1, d, position);
    Vec x(d);
    for (std::size_t c = 0; c < d; ++c) {
        const StoredWeights& table = m.embedding.rows ? m.embedding : m.output;
        float e = static_cast<float>(stored_value(table, c, static_cast<std::size_t>(id))) * root;
        if (!pe.empty()) e += static_cast<float>(pe(0, c));
        if (!m.positions.empty()) e += m.positions[position * d + c];
        x[c] = e;
    }
    settle(m, x);
    return x;
}

}  // namespace

std::size_t LoweredGpt::bytes() const {
    const std::size_t per_float = format == WeightFormat::Float32 || format == WeightFormat::Int8 ? 4 : 2;
    std::size_t n = output.bytes() + embedding.bytes() + positions.size() * per_float +
                    (final_gain.size() + final_bias.size()) * per_float;
    for (const LoweredBlock& b : blocks) {
        for (const StoredWeights* w : {&b.W_Q, &b.W_K, &b.W_V, &b.W_O, &b.W1, &b.W2}) n += w->bytes();
        for (const Vec* v : {&b.b_Q, &b.b_K, &b.b_V, &b.b_O, &b.b1, &b.b2, &b.gain1, &b.bias1,
                             &b.gain2, &b.bias2})
            n += v->size() * per_float;
    }
    return n;
}

LoweredGpt lower(const Gpt& g, WeightFormat f, bool half_activations, bool quantized_activations) {
    LoweredGpt m;
    m.config = g.config, m.format = f;
    m.half_activations = half_activations, m.quantized_activations = quantized_activations;
    m.output = store_weights(transpose(output_table(g)), f);
    if (!g.config.share_embeddings) m.embedding = store_weights(transpose(g.embedding), f);
    if (!g.positions.empty()) m.positions = lowered_vector(g.positions, f);
    for (const EncoderLayer& L : g.blocks) {
        const MultiHeadWeights& a = L.self_attn;
        LoweredBlock b{store_weights(a.W_Q, f),       store_weights(a.W_K, f),
                       store_weights(a.W_V, f),       store_weights(a.W_O, f),
                       store_weights(L.ffn.W1, f),    store_weights(L.ffn.W2, f),
                       lowered_vector(a.b_Q, f),      lowered_vector(a.b_K, f),
                       lowered_vector(a.b_V, f),      lowered_vector(a.b_O, f),
                       lowered_vector(L.ffn.b1, f),   lowered_vector(L.ffn.b2, f),
                       lowered_vector(L.norm1.gain, f), lowered_vector(L.norm1.bias, f),
                       lowered_vector(L.norm2.gain, f), lowered_vector(L.norm2.bias, f)};
        m.blocks.push_back(std::move(b));
    }
    m.final_gain = lowered_vector(g.norm.gain, f), m.final_bias = lowered_vector(g.norm.bias, f);
    return m;
}

namespace {

Matrix kept_matrix(const StoredWeights& s) {
    Matrix m(s.rows, s.cols);
    for (std::size_t r = 0; r < s.rows; ++r)
        for (std::size_t c = 0; c < s.cols; ++c) m(r, c) = stored_value(s, r, c);
    return m;
}

Matrix kept_vector(const Vec& v) {
    Matrix m(v.empty() ? 0 : 1, v.size());
    for (std::size_t i = 0; i < v.size(); ++i) m(0, i) = v[i];
    return m;
}

}  // namespace

Gpt kept_weights(const Gpt& model, const LoweredGpt& low) {
    Gpt g = model;
    if (low.embedding.rows) {
        g.embedding = transpose(kept_matrix(low.embedding));
        g.output = transpose(kept_matrix(low.output));
    } else {
        g.embedding = transpose(kept_matrix(low.output));
    }
    if (!low.positions.empty()) {
        for (std::size_t i = 0; i < g.positions.data.size(); ++i) g.positions.data[i] = low.positions[i];
    }
    for (std::size_t l = 0; l < g.blocks.size(); ++l) {
        EncoderLayer& L = g.blocks[l];
        const LoweredBlock& b = low.blocks[l];
        L.self_attn.W_Q = kept_matrix(b.W_Q), L.self_attn.W_K = kept_matrix(b.W_K);
        L.self_attn.W_V = kept_matrix(b.W_V), L.self_attn.W_O = kept_matrix(b.W_O);
        L.ffn.W1 = kept_matrix(b.W1), L.ffn.W2 = kept_matrix(b.W2);
        L.self_attn.b_Q = kept_vector(b.b_Q), L.self_attn.b_K = kept_vector(b.b_K);
        L.self_attn.b_V = kept_vector(b.b_V), L.self_attn.b_O = kept_vector(b.b_O);
        L.ffn.b1 = kept_vector(b.b1), L.ffn.b2 = kept_vector(b.b2);
        L.norm1.gain = kept_vector(b.gain1), L.norm1.bias = kept_vector(b.bias1);
        L.norm2.gain = kept_vector(b.gain2), L.norm2.bias = kept_vector(b.bias2);
    }
    g.norm.gain = kept_vector(low.final_gain), g.norm.bias = kept_vector(low.final_bias);
    return g;
}

LoweredKV start_lowered(const LoweredGpt& m) {
    LoweredKV kv;
    KeptFloat32 empty;
    empty.heads = m.config.kv_heads();
    empty.d_k = empty.d_v = m.config.d_model / m.config.n_heads;
    kv.kept.assign(m.blocks.size(), empty);
    return kv;
}

std::vector<float> lowered_step(const LoweredGpt& m, LoweredKV& kv, int token) {
    Vec x = embedded(m, token, kv.fed.size());
    kv.fed.push_back(token);
    for (std::size_t l = 0; l < m.blocks.size(); ++l) {
        const LoweredBlock& b = m.blocks[l];
        if (m.config.norm_first) {  // x + Sublayer(Norm(x))
            x = added(m, x, attend(m, b, kv, l, normalized(m, x, b.gain1, b.bias1)));
            x = added(m, x, feed_forward(m, b, normalized(m, x, b.gain2, b.bias2)));
        } else {  // Norm(x + Sublayer(x))
            x = normalized(m, added(m, x, attend(m, b, kv, l, x)), b.gain1, b.bias1);
            x = normalized(m, added(m, x, feed_forward(m, b, x)), b.gain2, b.bias2);
        }
    }
    const Vec y = normalized(m, x, m.final_gain, m.final_bias);
    Vec logits(m.output.cols);
    times_stored(y.data(), m.output, logits.data(), m.quantized_activations);
    settle(m, logits);
    return logits;
}

namespace {

// −log softmax(logits)[target], in float64 from the float32 logits.
double surprise(const std::vector<float>& logits, int target) {
    double largest = -std::numeric_limits<double>::infinity(), sum = 0;
    for (float v : logits) largest = std::max(largest, static_cast<double>(v));
    for (float v : logits) sum += elementary::exp(static_cast<double>(v) - largest);
    return -(static_cast<double>(logits[static_cast<std::size_t>(target)]) - largest - elementary::log(sum));
}

template <class Logits>
int most_probable(const Logits& logits, const TransformerConfig& c, const std::vector<int>& never) {
    int best = -1;
    for (std::size_t i = 0; i < logits.size(); ++i) {
        const int id = static_cast<int>(i);
        if (id == c.pad_id || id == c.bos_id ||
            std::find(never.begin(), never.end(), id) != never.end())
            continue;
        if (best < 0 || logits[i] > logits[static_cast<std::size_t>(best)]) best = id;
    }
    return best;
}

}  // namespace

double lowered_loss(const LoweredGpt& m, const std::vector<Tokens>& sequences) {
    double sum = 0;
    std::size_t n = 0;
    for (const Tokens& s : sequences) {
        LoweredKV kv = start_lowered(m);
        for (std::size_t t = 0; t + 1 < s.size(); ++t, ++n)
            sum += surprise(lowered_step(m, kv, s[t]), s[t + 1]);
    }
    return sum / static_cast<double>(n);
}

Tokens lowered_greedy(const LoweredGpt& m, const Tokens& prompt, std::size_t count,
                      const std::vector<int>& never) {
    LoweredKV kv = start_lowered(m);
    std::vector<float> logits;
    for (int id : prompt) logits = lowered_step(m, kv, id);
    Tokens out;
    for (std::size_t i = 0; i < count; ++i) {
        out.push_back(most_probable(logits, m.config, never));
        if (out.back() == m.config.eos_id) break;
        logits = lowered_step(m, kv, out.back());
    }
    return out;
}

double gpt_loss_stepwise(const Gpt& model, const std::vector<Tokens>& sequences) {
    double sum = 0;
    std::size_t n = 0;
    for (const Tokens& s : sequences) {
        GptKV kv = start_gpt(model);
        for (std::size_t t = 0; t + 1 < s.size(); ++t, ++n) {
            const Matrix logits = gpt_step(model, kv, s[t]);
            double largest = -std::numeric_limits<double>::infinity(), total = 0;
            for (double v : logits.data) largest = std::max(largest, v);
            for (double v : logits.data) total += elementary::exp(v - largest);
            sum -= logits.data[static_cast<std::size_t>(s[t + 1])] - largest - elementary::log(total);
        }
    }
    return sum / static_cast<double>(n);
}

Tokens gpt_greedy(const Gpt& model, const Tokens& prompt, std::size_t count,
                  const std::vector<int>& never) {
    GptKV kv = start_gpt(model);
    Matrix logits;
    for (int id : prompt) logits = gpt_step(model, kv, id);
    Tokens out;
    for (std::size_t i = 0; i < count; ++i) {
        out.push_back(most_probable(logits.data, model.config, never));
        if (out.back() == model.config.eos_id) break;
        logits = gpt_step(model, kv, out.back());
    }
    return out;
}
