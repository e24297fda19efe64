// gpt_one_page.cpp — the GPT's forward pass as straight calls, one sequence, no caches, no
// batching, no threads. Each call goes to the file that teaches its step:
//
//   x = embed(tokens)                                   embedding.h (chapter 5's positions)
//   for each block:
//       x = x + MultiHead(Norm(x))                      norms.h, multi_head.h (chapter 4)
//       x = x + FFN(Norm(x))                            feed_forward.h
//   logits = Norm(x) · Wᵀ                               W: the embedding table again (tied),
//                                                       or the model's own output table
//
// A block is chapter 6's encoder layer in the pre-norm placement, under the causal mask. Its
// attention is chapter 4's multi-head attention, whose heads are the head loop of
// model/multi_head/heads.h, with the positions acting inside it where the config says so
// (chapter 10's RoPE and ALiBi).
#include "model/gpt/gpt_one_page.h"

#include <stdexcept>
#include <string>

#include "core/matmul.h"
#include "model/gpt/gpt.h"
#include "model/multi_head/attending.h"
#include "model/multi_head/multi_head.h"
#include "model/transformer/config.h"
#include "model/transformer/embedding.h"
#include "model/transformer/feed_forward.h"
#include "model/transformer/norms.h"
#include "model/transformer/tokens.h"
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
    const std::size_t n = tokens.size();
    const Attending causal =
        within_one(n, n, self_attention_mask(tokens, n, 0, true, c), self_attention_positions(c));

    // Each token's row of the table, times √d_model, plus its position's row where positions
    // are added (sinusoidal or learned; RoPE and ALiBi act inside attention instead).
    Matrix x = embed(model.embedding, tokens, {c.positions, &model.positions});

    for (const EncoderLayer& block : model.blocks) {
        const Matrix a = normalize(x, block.norm1);
        x = add(x, multi_head_attention(a, a, block.self_attn, causal));
        x = add(x, feed_forward(normalize(x, block.norm2), block.ffn));
    }

    // The final norm, then each row scored against every token's row of the output table (the
    // embedding table itself when tied).
    return matmul_bt(normalize(x, model.norm), output_table(model));  // (n x vocab)
}
