// sampling.h — decoding by drawing each next token at random from the model's distribution,
// reshaped by a temperature and a top-k filter; seeded, so every run draws the same tokens.
//
//   p(v) ∝ exp(logit_v / T)   over the tokens a model may generate (never <pad>, <bos>), and
//                             with top_k > 0 only over the k largest logits (ties: lower id)
// T < 1 sharpens the distribution towards greedy decoding (T → 0 is the argmax), T > 1
// flattens it towards uniform; top-k cuts off the long tail of unlikely tokens.
#pragma once
#include <cstddef>

#include "core/matrix.h"
#include "core/random.h"
#include "model/transformer/tokens.h"  // exports: token ids

struct TransformerConfig;  // model/transformer/config.h

struct Transformer;  // model/transformer/transformer.h

// The distribution of the next token (1 x tgt_vocab) for one step's logits; temperature > 0.
Matrix sampling_distribution(const Matrix& logits, const TransformerConfig& config,
                             double temperature, std::size_t top_k);

// Top-p (nucleus) sampling (Holtzman et al. 2019): the smallest set of the most probable tokens
// whose probabilities add up to at least p keeps its share, renormalised; the rest get 0.
// p = 1 changes nothing.
Matrix nucleus(const Matrix& probs, double top_p);

// One token drawn from probs by inverse transform: the first id whose running sum of
// probabilities exceeds u = rng.uniform() (data/oracle/ch09_decoding.py draws the same way).
int draw_token(const Matrix& probs, Random& rng);

// From <bos>, each token drawn from sampling_distribution() (with a KV cache) until <eos> or
// max_length tokens after <bos>.
Tokens sample_decode(const Transformer& model, const Tokens& source, double temperature,
                     std::size_t top_k, std::size_t max_length, Random& rng);
