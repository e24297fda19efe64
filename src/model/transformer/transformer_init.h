// transformer_init.h — a Transformer of a given shape, with seeded random weights, and how many
// parameters it has.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/random.h"
#include "model/transformer/config.h"  // exports: a config
#include "model/transformer/transformer_layers.h"  // exports: the layers it makes

struct Transformer;  // model/transformer/transformer.h

// The pieces, each drawn from rng in turn (chapter 12's decoder-only model is made of them too):
Matrix xavier(Random& rng, std::size_t rows, std::size_t cols);  // U(−a, a), a = √(6/(r + c))
Norm unit_norm(const TransformerConfig& c);  // gain 1, bias 0 (LayerNorm) or none (RMSNorm)
MultiHeadWeights random_attention(Random& rng, const TransformerConfig& c);  // zero biases
FeedForward random_ffn(Random& rng, const TransformerConfig& c);
Matrix random_positions(Random& rng, const TransformerConfig& c);  // a learned position table

// A model of the given shape with seeded random weights (Xavier-uniform matrices, zero biases,
// unit gains), as nn.Transformer initialises itself.
Transformer random_transformer(const TransformerConfig& config, std::uint64_t seed);

std::size_t parameter_count(const Transformer& model);  // everything
// the two stacks with their final norms: what nn.Transformer itself holds
std::size_t core_parameter_count(const Transformer& model);
