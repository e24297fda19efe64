// gpt_one_page.cpp — the GPT's forward pass as straight calls, one sequence, no caches, no
// batching, no threads. Each call goes to the file that teaches its step:
//
//   x = embed(tokens)                                   embedding.h (chapter 5's positions)
//   for each block:
//       x = x + W_O·[head_1 … head_h](Norm(x))          norms.h, linear.h, attention.h
//       x = x + FFN(Norm(x))                            feed_forward.h
//   logits = Norm(x) · Eᵀ                               the embedding table again (tied)
//
// The two sublayers are chapter 6's, on its page (model/transformer/transformer_one_page.cpp):
// a block is an encoder layer in the pre-norm placement, under the causal mask.
#include "model/gpt/gpt_one_page.h"

#include <stdexcept>
#include <string>

#include "core/matmul.h"
#include "model/transformer/embedding.h"
#include "model/transformer/norms.h"
#include "model/transformer/transformer_one_page.h"
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
        const Matrix a = normalize(x, block.norm1);
        x = add(x, attention_on_one_page(a, a, block.self_attn, mask, c, true));
        x = add(x, feed_forward_on_one_page(normalize(x, block.norm2), block.ffn));
    }

    // The final norm, then each row scored against every token's row of the same table.
    return matmul_bt(normalize(x, model.norm), output_table(model));  // (n x vocab)
}
