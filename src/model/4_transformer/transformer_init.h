// transformer_init.h — a Transformer of a given shape, with seeded random weights, and how many
// parameters it has.
#pragma once
#include <cstddef>
#include <cstdint>

#include "model/4_transformer/transformer.h"

// A model of the given shape with seeded random weights (Xavier-uniform matrices, zero biases,
// unit gains), as nn.Transformer initialises itself.
Transformer random_transformer(const TransformerConfig& config, std::uint64_t seed);

std::size_t parameter_count(const Transformer& model);  // everything
// the two stacks with their final norms: what nn.Transformer itself holds
std::size_t core_parameter_count(const Transformer& model);
