// who_attends.h — which keys each query may see, in the Transformer's attentions: one rule,
// written once, that the full pass over whole sequences and a decoding step over one new
// position (the KV cache, chapters 9 and 12) both follow.
//
//   self-attention   a key that is <pad> is hidden from every query: a padded position holds
//                    no token, in a source or in a decoder's input alike (PyTorch's
//                    key_padding_mask). In a decoder (causal), no query sees a later key. With
//                    a window (chapter 10), no key `window` or more positions back.
//   cross-attention  the source's <pad> keys are hidden.
//
// A query whose every key is hidden (a sequence that starts with <pad>) gets zero weights and a
// zero output (model/attention/masks.h) — on both paths.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "model/multi_head/attending.h"  // exports: it returns who attends to whom
#include "model/transformer/tokens.h"  // exports: token ids

struct TransformerConfig;  // model/transformer/config.h

// The self-attention mask of `queries` queries at positions first, first + 1, … over the keys
// `keys` (positions 0 … keys.size() − 1).
Matrix self_attention_mask(const Tokens& keys, std::size_t queries, std::size_t first, bool causal,
                           const TransformerConfig& config);

// How positions act inside self-attention: RoPE or ALiBi when the config says so, else none.
InAttention self_attention_positions(const TransformerConfig& config);

// Whole sequences, stacked: each attends within itself (causal in a decoder).
Attending self_attending(const std::vector<Tokens>& sequences, bool causal,
                         const TransformerConfig& config);
// Each target sequence's queries over its source's keys.
Attending cross_attending(const std::vector<Tokens>& targets, const std::vector<Tokens>& sources,
                          const TransformerConfig& config);
// A decoding step: the last of the tokens fed so far, the one new query, over all of them.
Attending next_position(const TransformerConfig& config, const Tokens& fed);
