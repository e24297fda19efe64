// who_attends.cpp — the masks of the three attentions, for whole sequences and for one step.
#include "model/transformer/who_attends.h"

#include "model/attention/masks.h"
#include "model/multi_head/attending.h"
#include "model/multi_head/stacking.h"
#include "model/transformer/config.h"
#include "model/transformer/tokens.h"

Matrix self_attention_mask(const Tokens& keys, std::size_t queries, std::size_t first, bool causal,
                           const TransformerConfig& c) {
    const std::size_t m = keys.size();
    Matrix mask = padding_mask(queries, is_padding(keys, c.pad_id));
    if (causal) add_to(mask, causal_mask(queries, m, first));
    if (c.window) add_to(mask, window_mask(queries, m, c.window, first));
    return mask;
}

InAttention self_attention_positions(const TransformerConfig& c) {
    return c.positions == PositionScheme::Rope    ? InAttention::Rope
           : c.positions == PositionScheme::Alibi ? InAttention::Alibi
                                                  : InAttention::None;
}

Attending self_attending(const std::vector<Tokens>& sequences, bool causal,
                         const TransformerConfig& c) {
    Attending who{stacking_of(sequences), stacking_of(sequences), {}};
    for (const Tokens& s : sequences)
        who.masks.push_back(self_attention_mask(s, s.size(), 0, causal, c));
    who.positions = self_attention_positions(c);
    who.tile = c.attention_tile;
    return who;
}

Attending cross_attending(const std::vector<Tokens>& targets, const std::vector<Tokens>& sources,
                          const TransformerConfig& c) {
    Attending who{stacking_of(targets), stacking_of(sources), {}};
    for (std::size_t s = 0; s < targets.size(); ++s)
        who.masks.push_back(padding_mask(targets[s].size(), is_padding(sources[s], c.pad_id)));
    who.tile = c.attention_tile;
    return who;
}

Attending next_position(const TransformerConfig& c, const Tokens& fed) {
    const std::size_t first = fed.size() - 1;  // the new token's position
    Attending who = within_one(1, fed.size(), self_attention_mask(fed, 1, first, true, c));
    who.positions = self_attention_positions(c);
    who.q_first = first;
    who.tile = c.attention_tile;
    return who;
}
