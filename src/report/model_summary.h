// model_summary.h — what a reader is told about a model before it is used: its shape, its
// parameter count, and (for a saved model) how it was trained.
#pragma once
#include <string>
#include <vector>

#include "io/data_file.h"
#include "model/transformer/tokens.h"  // exports: token ids

struct TransformerConfig;  // model/transformer/config.h

struct Transformer;  // model/transformer/transformer.h

// "d_model 32, h 4 (d_k = 8), d_ff 64, 2 encoder and 2 decoder layers, vocabularies 13 / 17"
// and the parameter count: two lines; a third naming chapter 10's switches when any is not the
// paper's.
std::vector<std::string> description(const Transformer& model);

// Chapter 10's switches as a reader reads them: "pre-norm, RMSNorm, RoPE, 2 key/value heads
// (grouped-query), window 3"; the placement always, the others when they are not the paper's.
std::string variant_text(const TransformerConfig& config);

// A position scheme as a reader reads it: "sinusoidal", "learned positions", "RoPE", "ALiBi",
// "no positions" (the config's own names, "learned" or "none", are for files and flags).
std::string scheme_text(PositionScheme scheme);

// The training record of a model file (steps, task, final loss, held-out exact match), if it
// has one, and a warning for each source longer than any the model was trained on (or, for a
// numerals model, written with leading zeros it never saw).
std::vector<std::string> training_description(const DataFile& file, const TransformerConfig& config,
                                              const std::vector<Tokens>& sources);
