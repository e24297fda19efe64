// kv_cache.h — decoding one token at a time without recomputing the past: the KV cache.
//
// At step t the decoder's masked self-attention needs the keys and values of target positions
// 0 … t, and its cross-attention those of the memory. Recomputation (greedy_decode) runs the
// whole prefix through every layer again at each step: t rows of projections, t² attention
// scores, of which only the last row is new. The cache keeps, per decoder layer, the keys and
// values of the positions seen so far (they never change: position s sees only positions ≤ s)
// and the memory's keys and values (computed once); a step then embeds one token, projects one
// row and attends with one query. Every row is computed by the same functions, in the same
// order, as in the full pass — so the logits are bit for bit the same (chapter 9 shows it).
//
// Memory: per decoder layer, (t + m) · (n_kv·d_k + n_kv·d_v) doubles for t target and m source
// tokens (n_kv = h but for grouped-query attention); for the paper's base model (6 layers,
// 512 + 512 columns) 48 KiB per token in float64.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "model/transformer/caches.h"  // exports: a KVCache holds each layer's keys and values
#include "model/transformer/tokens.h"  // exports: token ids

struct Transformer;  // model/transformer/transformer.h

// Per decoder layer a LayerKV (transformer_layers.h): self (t x h·d_k and t x h·d_v, the target
// positions so far) and cross (m x h·d_k and m x h·d_v, the memory's, computed once).
struct KVCache {
    Matrix cross_mask;  // (1 x m): 0, or −inf for a padded source key
    std::vector<LayerKV> layers;
    Tokens fed;  // the target tokens fed so far: who the next one attends to (who_attends.h)
};

// Encodes the source and computes every layer's cross-attention keys and values.
KVCache start_decoding(const Transformer& model, const Tokens& source);

// Feeds the next target token (the first is <bos>) at position cache.fed.size(); returns the
// logits for the token after it (1 x tgt_vocab): the last row of
// decode(model, {all tokens fed so far}, …), without recomputing the others.
Matrix decode_step(const Transformer& model, KVCache& cache, int token);

// Several sequences decoded at once, as an inference server batches its requests: row b of the
// result is decode_step(model, *caches[b], tokens[b]) — bit for bit, for each row of a product
// is the same sums whatever rows stand beside it — but each projection and feed-forward weight
// is read once for every sequence (a product of B rows, not B products of one row), and each
// sequence attends over its own kept keys alone. decode_step is this with one sequence.
Matrix decode_steps(const Transformer& model, const std::vector<KVCache*>& caches,
                    const Tokens& tokens);

// Greedy decoding of each source, all of them at once through decode_steps: a sequence leaves
// the batch when it ends (<eos>, or max_length tokens after <bos>). Each output is the tokens
// greedy_decode gives that source alone (chapter 9 shows it; tests/test_kv_cache.cpp holds it).
std::vector<Tokens> greedy_decode_batch(const Transformer& model,
                                        const std::vector<Tokens>& sources,
                                        std::size_t max_length);

// The KV cache against recomputation, step by step: `fed` given to a cache one token at a time
// and, at each step, the whole prefix run through decode(). gaps[t]: the largest |difference|
// of step t's logits; cached: the cache's logits, one row per step. The same bits on both paths
// is what every test and chapter of the cache checks (chapters 9 and 10).
struct CacheAgainstRecomputation {
    std::vector<double> gaps;
    Matrix cached;
    double worst() const;
};
CacheAgainstRecomputation cache_against_recomputation(const Transformer& model,
                                                      const Tokens& source, const Tokens& fed);

// The doubles the cache holds now (keys and values, self and cross, every layer).
std::size_t cache_doubles(const KVCache& cache);

// What a cache holds after t target tokens of a source of m, in bytes of float64, for any model
// shape (no model needed): n_decoder_layers · (t + m) · (n_kv·d_k + n_kv·d_v) · 8.
double kv_cache_bytes(const TransformerConfig& config, std::size_t t, std::size_t m);
