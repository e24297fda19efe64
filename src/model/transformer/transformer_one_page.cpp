// transformer_one_page.cpp — the encoder-decoder's forward pass as straight calls, one source
// and one decoder input, no caches, no batching, no threads. Each call goes to the file that
// teaches its step:
//
//   x = embed(source)                                   embedding.h (chapter 5's positions)
//   for each encoder layer:
//       x = Add&Norm(x, self-attention(x))              norms.h, multi_head.h (chapter 4)
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
// (pre-norm, norm_first): chapter 6 compares the two. Attention is chapter 4's multi-head
// attention, whose heads are the head loop of model/multi_head/heads.h; in self-attention the
// positions act inside it where the config says so (chapter 10's RoPE, ALiBi), in
// cross-attention never.
#include "model/transformer/transformer_one_page.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "core/matmul.h"
#include "model/attention/masks.h"
#include "model/multi_head/attending.h"
#include "model/multi_head/linear.h"
#include "model/multi_head/multi_head.h"
#include "model/transformer/config.h"
#include "model/transformer/embedding.h"
#include "model/transformer/feed_forward.h"
#include "model/transformer/norms.h"
#include "model/transformer/tokens.h"
#include "model/transformer/transformer.h"
#include "model/transformer/who_attends.h"

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
    const std::size_t n_source = source.size();
    const Attending source_self =
        within_one(n_source, n_source, self_attention_mask(source, n_source, 0, false, c),
                   self_attention_positions(c));
    Matrix x = embed(model.src_embedding, source, source_positions(model));
    for (const EncoderLayer& layer : model.encoder) {
        x = add_and_norm(x, layer.norm1, pre, [&](const Matrix& in) {
            return multi_head_attention(in, in, layer.self_attn, source_self);
        });
        x = add_and_norm(x, layer.norm2, pre,
                         [&](const Matrix& in) { return feed_forward(in, layer.ffn); });
    }
    const Matrix memory = normalize(x, model.encoder_norm);  // nn.Transformer's final norm

    // The decoder: position t sees positions 0 … t of its input (and none that is <pad>), and
    // every source position that is not <pad>.
    const std::size_t n = decoder_input.size();
    const Attending causal = within_one(n, n, self_attention_mask(decoder_input, n, 0, true, c),
                                        self_attention_positions(c));
    const Attending cross = within_one(n, n_source, padding_mask(n, is_padding(source, c.pad_id)));
    Matrix y = embed(target_embedding(model), decoder_input, target_positions(model));
    for (const DecoderLayer& layer : model.decoder) {
        y = add_and_norm(y, layer.norm1, pre, [&](const Matrix& in) {
            return multi_head_attention(in, in, layer.self_attn, causal);
        });
        y = add_and_norm(y, layer.norm2, pre, [&](const Matrix& in) {
            return multi_head_attention(in, memory, layer.cross_attn, cross);
        });
        y = add_and_norm(y, layer.norm3, pre,
                         [&](const Matrix& in) { return feed_forward(in, layer.ffn); });
    }
    y = normalize(y, model.decoder_norm);

    // The output projection: its own W and b, or the embedding table again (y·Eᵀ + b).
    if (!c.share_embeddings) return linear(y, model.output_W, model.output_b);
    Matrix logits = matmul_bt(y, model.src_embedding);
    add_to_each_row(logits, model.output_b);
    return logits;  // (n x tgt_vocab)
}
