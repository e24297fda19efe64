// config.h — the shape of a Transformer and the ids of its special tokens: what a model file's
// "config" holds, and all that code needs which only names tokens or sizes a model.
//
// The switches of chapter 10 live here too, each read by the layers that need it and by no
// signature in between: the norm (LayerNorm or RMSNorm) and its placement, how positions enter
// (added to the embeddings, rotating queries and keys, or biasing scores), how many heads the
// keys and values have, and how far self-attention may look. The defaults are the paper's model.
#pragma once
#include <cstddef>
#include <string>

#include "model/transformer/tokens.h"  // exports: Vocabulary, a config's member

// The norm of every layer (model/transformer/norms.h): LayerNorm, or RMSNorm (chapter 10).
enum class NormKind { Layer, RMS };

// How a model learns where a token stands (chapter 5 for the first, chapter 10 for the rest).
enum class PositionScheme {
    Sinusoidal,  // the paper's table added to the embeddings (model/positions/positional.h)
    Learned,     // a learned table added to the embeddings, one row per position (BERT, GPT-2)
    Rope,        // queries and keys rotated by their position (model/positions/rotary.h)
    Alibi,       // scores biased by the distance between query and key (positions/alibi.h)
    None,        // no position at all: the decoder's causal mask is all it has
};

struct TransformerConfig {
    std::size_t d_model = 512, n_heads = 8, d_ff = 2048;
    std::size_t n_encoder_layers = 6, n_decoder_layers = 6;
    std::size_t src_vocab = 0, tgt_vocab = 0;
    bool norm_first = false;          // the placement: pre-norm (true) or the paper's post-norm
    NormKind norm = NormKind::Layer;  // LayerNorm, or RMSNorm
    PositionScheme positions = PositionScheme::Sinusoidal;
    std::size_t n_kv_heads = 0;      // heads of keys and values: 0 = n_heads (multi-head
                                     // attention), 1 = multi-query, between = grouped-query
    std::size_t window = 0;          // self-attention sees keys less than `window` positions
                                     // away (0: every key): a sliding window
    std::size_t max_positions = 0;   // rows of the learned position tables (Learned only)
    std::size_t attention_tile = 0;  // 0: the standard attention; > 0: tiled attention in blocks
                                     // of this many queries and keys (chapter 11) — a way of
                                     // computing, not part of the model: never saved
    bool share_embeddings = false;   // one table for source, target and the output projection
    double layer_norm_eps = 1e-5;    // the eps of every norm, LayerNorm or RMSNorm
    int pad_id = 0, bos_id = 1, eos_id = 2;
    Vocabulary vocabulary = {};         // optional: the target tokens' names, by id
    Vocabulary source_vocabulary = {};  // optional: the source tokens'; none: the target's

    std::size_t kv_heads() const { return n_kv_heads ? n_kv_heads : n_heads; }
};

// The rules a config must keep before a model is built from it, checked by every reader of one
// (a data file's or a model file's config, chapter 7's flags) through config_problem: the first
// rule broken, the field it concerns and the number its message names, or Rule::None. The words
// are the reader's layer's (io/config_words.h), this layer's are numbers.
struct ConfigProblem {
    enum class Rule {
        None,
        HeadsDivideWidth,    // d_model a multiple of n_heads
        KvHeadsDivideHeads,  // n_kv_heads a divisor of n_heads (model/multi_head.h)
        RopeNeedsEvenDk,     // RoPE rotates pairs of columns (model/positions/rotary.h)
        LearnedNeedsRows,    // learned positions: a table of at least one row
    } rule = Rule::None;
    const char* field = "";  // "n_kv_heads"
    std::size_t value = 0;   // the number the rule's message names
    explicit operator bool() const { return rule != Rule::None; }
};
ConfigProblem config_problem(const TransformerConfig& config);

// The switches' names, as a model file's config and chapter 7's flags write them: "layer",
// "rms"; "sinusoidal", "learned", "rope", "alibi", "none". The readers return false for a name
// that is none of them.
std::string norm_name(NormKind kind);
bool norm_from_name(const std::string& name, NormKind& kind);
std::string positions_name(PositionScheme scheme);
bool positions_from_name(const std::string& name, PositionScheme& scheme);
