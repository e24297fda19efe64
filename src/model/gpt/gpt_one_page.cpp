// gpt_one_page.cpp — the GPT's forward pass as straight calls, one sequence, no caches, no
// batching, no threads. Each call goes to the file that teaches its step:
//
//   x = embed(tokens)                                   embedding.h (chapter 5's positions)
//   for each block:
//       x = x + W_O·[head_1 … head_h](Norm(x))          norms.h, linear.h, attention.h
//       x = x + FFN(Norm(x))                            feed_forward.h
//   logits = Norm(x) · Eᵀ                               the embedding table again (tied)
#include "model/gpt/gpt_one_page.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "core/matmul.h"
#include "model/attention/attention.h"
#include "model/multi_head/linear.h"
#include "model/positions/alibi.h"
#include "model/positions/rotary.h"
#include "model/transformer/embedding.h"
#include "model/transformer/feed_forward.h"
#include "model/transformer/norms.h"
#include "model/transformer/who_attends.h"

namespace {

// What this page leaves out: gpt_logits has it.
void refuse_what_this_page_leaves_out(const TransformerConfig& c) {
    if (!c.norm_first)
        throw std::invalid_argument(
            "gpt_logits_one_page: post-norm blocks are left to gpt_logits (norm_first: false)");
    if (c.attention_tile)
        throw std::invalid_argument(
            "gpt_logits_one_page: tiled attention is left to gpt_logits (attention_tile: " +
            std::to_string(c.attention_tile) + ")");
}

// Self-attention with h heads over one sequence of n rows. Head i reads its own d_k columns of
// Q; the key and value heads may be fewer (chapter 10's grouped-query attention): head i reads
// key/value head i / (h / kv_heads).
Matrix self_attention(const Matrix& a, const MultiHeadWeights& w, const Matrix& mask,
                      const TransformerConfig& c) {
    const std::size_t n = a.rows, h = w.n_heads, d_k = w.d_k(), d_v = w.d_v();
    const std::size_t group = h / w.kv_heads();

    Matrix Q = linear(a, w.W_Q, w.b_Q);        // (n x h·d_k)
    Matrix K = linear(a, w.W_K, w.b_K);        // (n x kv·d_k)
    const Matrix V = linear(a, w.W_V, w.b_V);  // (n x kv·d_v)
    if (c.positions == PositionScheme::Rope) {  // chapter 10: rotate queries and keys
        std::vector<std::size_t> positions(n);
        for (std::size_t t = 0; t < n; ++t) positions[t] = t;
        Q = rope_rotate(Q, d_k, positions);
        K = rope_rotate(K, d_k, positions);
    }
    const std::vector<double> slopes =
        c.positions == PositionScheme::Alibi ? alibi_slopes(h) : std::vector<double>();

    Matrix heads(n, h * d_v);  // the heads' outputs side by side: [head_1 … head_h]
    for (std::size_t i = 0; i < h; ++i) {
        const std::size_t j = i / group;  // head i's key/value head
        const Matrix head_mask = slopes.empty() ? mask : add(mask, alibi_bias(n, n, slopes[i]));
        const AttentionResult head =  // softmax(Q_i·K_jᵀ/√d_k + mask)·V_j
            attention(submatrix(Q, 0, n, i * d_k, d_k), submatrix(K, 0, n, j * d_k, d_k),
                      submatrix(V, 0, n, j * d_v, d_v), head_mask);
        set_submatrix(heads, 0, i * d_v, head.output);
    }
    return linear(heads, w.W_O, w.b_O);  // (n x d_model)
}

// The position-wise feed-forward net: ReLU between two projections.
Matrix feed_forward_net(const Matrix& a, const FeedForward& f) {
    return linear(relu(linear(a, f.W1, f.b1)), f.W2, f.b2);
}

}  // namespace

Matrix gpt_logits_one_page(const Gpt& model, const Tokens& tokens) {
    const TransformerConfig& c = model.config;
    refuse_what_this_page_leaves_out(c);

    // Who sees whom: position t attends to positions 0 … t — never to a later one (the causal
    // mask), never to a <pad>, and within the window where the model has one.
    const Matrix mask = self_attention_mask(tokens, tokens.size(), 0, true, c);

    // Each token's row of the table, times √d_model, plus its position's row where positions
    // are added (sinusoidal or learned; RoPE and ALiBi act inside attention instead).
    Matrix x = embed(model.embedding, tokens, {c.positions, &model.positions});

    for (const EncoderLayer& block : model.blocks) {
        x = add(x, self_attention(normalize(x, block.norm1), block.self_attn, mask, c));
        x = add(x, feed_forward_net(normalize(x, block.norm2), block.ffn));
    }

    // The final norm, then each row scored against every token's row of the same table.
    return matmul_bt(normalize(x, model.norm), model.embedding);  // (n x vocab)
}
