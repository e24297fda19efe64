// transformer_one_page.cpp — the encoder-decoder's forward pass as straight calls, one source
// and one decoder input, no caches, no batching, no threads. Each call goes to the file that
// teaches its step:
//
//   x = embed(source)                                   embedding.h (chapter 5's positions)
//   for each encoder layer:
//       x = Add&Norm(x, self-attention(x))              norms.h, linear.h, attention.h
//       x = Add&Norm(x, FFN(x))                         feed_forward.h
//   memory = Norm(x)
//   y = embed(decoder input)
//   for each decoder layer:
//       y = Add&Norm(y, masked self-attention(y))       chapter 3's causal mask
//       y = Add&Norm(y, cross-attention(y, memory))     queries from y, keys and values from memory
//       y = Add&Norm(y, FFN(y))
//   logits = Norm(y) · W + b                            or the embedding table again, when shared
//
// Add&Norm(x, S) is Norm(x + S(x)) after the paper (post-norm) or x + S(Norm(x)) before it
// (pre-norm, norm_first): chapter 6 compares the two.
#include "model/transformer/transformer_one_page.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "core/matmul.h"
#include "model/attention/attention.h"
#include "model/attention/masks.h"
#include "model/multi_head/linear.h"
#include "model/positions/alibi.h"
#include "model/positions/rotary.h"
#include "model/transformer/embedding.h"
#include "model/transformer/feed_forward.h"
#include "model/transformer/norms.h"
#include "model/transformer/who_attends.h"

Matrix attention_on_one_page(const Matrix& a, const Matrix& b, const MultiHeadWeights& w,
                             const Matrix& mask, const TransformerConfig& c, bool self) {
    const std::size_t n = a.rows, m = b.rows, h = w.n_heads, d_k = w.d_k(), d_v = w.d_v();
    const std::size_t group = h / w.kv_heads();  // query heads per key/value head (chapter 10)

    Matrix Q = linear(a, w.W_Q, w.b_Q);        // (n x h·d_k)
    Matrix K = linear(b, w.W_K, w.b_K);        // (m x kv·d_k)
    const Matrix V = linear(b, w.W_V, w.b_V);  // (m x kv·d_v)
    const PositionScheme positions = self ? c.positions : PositionScheme::Sinusoidal;
    if (positions == PositionScheme::Rope) {  // chapter 10: rotate queries and keys
        std::vector<std::size_t> at(n);
        for (std::size_t t = 0; t < n; ++t) at[t] = t;
        Q = rope_rotate(Q, d_k, at);
        K = rope_rotate(K, d_k, at);
    }
    const std::vector<double> slopes =
        positions == PositionScheme::Alibi ? alibi_slopes(h) : std::vector<double>();

    Matrix heads(n, h * d_v);  // the heads' outputs side by side: [head_1 … head_h]
    for (std::size_t i = 0; i < h; ++i) {
        const std::size_t j = i / group;  // head i's key/value head
        const Matrix head_mask = slopes.empty() ? mask : add(mask, alibi_bias(n, m, slopes[i]));
        const AttentionResult head =  // softmax(Q_i·K_jᵀ/√d_k + mask)·V_j
            attention(submatrix(Q, 0, n, i * d_k, d_k), submatrix(K, 0, m, j * d_k, d_k),
                      submatrix(V, 0, m, j * d_v, d_v), head_mask);
        set_submatrix(heads, 0, i * d_v, head.output);
    }
    return linear(heads, w.W_O, w.b_O);  // (n x d_model)
}

Matrix feed_forward_on_one_page(const Matrix& a, const FeedForward& f) {
    return linear(relu(linear(a, f.W1, f.b1)), f.W2, f.b2);
}

namespace {

// Add & Norm around one sublayer, in the config's placement.
template <typename Sublayer>
Matrix add_and_norm(const Matrix& x, const Norm& norm, bool norm_first, const Sublayer& sublayer) {
    if (norm_first) return add(x, sublayer(normalize(x, norm)));  // x + S(Norm(x))
    return normalize(add(x, sublayer(x)), norm);                  // Norm(x + S(x))
}

}  // namespace

Matrix transformer_logits_one_page(const Transformer& model, const Tokens& source,
                                   const Tokens& decoder_input) {
    const TransformerConfig& c = model.config;
    if (c.attention_tile)
        throw std::invalid_argument(
            "transformer_logits_one_page: tiled attention is left to logits_teacher_forced "
            "(attention_tile: " + std::to_string(c.attention_tile) + ")");
    const bool pre = c.norm_first;

    // The encoder: every source position sees every other one that is not <pad>.
    const Matrix source_mask = self_attention_mask(source, source.size(), 0, false, c);
    Matrix x = embed(model.src_embedding, source, source_positions(model));
    for (const EncoderLayer& layer : model.encoder) {
        x = add_and_norm(x, layer.norm1, pre, [&](const Matrix& in) {
            return attention_on_one_page(in, in, layer.self_attn, source_mask, c, true);
        });
        x = add_and_norm(x, layer.norm2, pre,
                         [&](const Matrix& in) { return feed_forward_on_one_page(in, layer.ffn); });
    }
    const Matrix memory = normalize(x, model.encoder_norm);  // nn.Transformer's final norm

    // The decoder: position t sees positions 0 … t of its input (and none that is <pad>), and
    // every source position that is not <pad>.
    const std::size_t n = decoder_input.size();
    const Matrix causal = self_attention_mask(decoder_input, n, 0, true, c);
    const Matrix cross = padding_mask(n, is_padding(source, c.pad_id));
    Matrix y = embed(target_embedding(model), decoder_input, target_positions(model));
    for (const DecoderLayer& layer : model.decoder) {
        y = add_and_norm(y, layer.norm1, pre, [&](const Matrix& in) {
            return attention_on_one_page(in, in, layer.self_attn, causal, c, true);
        });
        y = add_and_norm(y, layer.norm2, pre, [&](const Matrix& in) {
            return attention_on_one_page(in, memory, layer.cross_attn, cross, c, false);
        });
        y = add_and_norm(y, layer.norm3, pre,
                         [&](const Matrix& in) { return feed_forward_on_one_page(in, layer.ffn); });
    }
    y = normalize(y, model.decoder_norm);

    // The output projection: its own W and b, or the embedding table again (y·Eᵀ + b).
    if (!c.share_embeddings) return linear(y, model.output_W, model.output_b);
    Matrix logits = matmul_bt(y, model.src_embedding);
    add_to_each_row(logits, model.output_b);
    return logits;  // (n x tgt_vocab)
}
