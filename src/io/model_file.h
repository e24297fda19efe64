// model_file.h — a Transformer to and from JSON, weights named and laid out as in PyTorch
// (model/parameters.h):
//
//   {"config": {...}, "weights": {name: array, ...}}
//
// so that model.load_state_dict({k: torch.tensor(v) for k, v in file["weights"].items()})
// loads our file into PyTorch, and the oracle's exports load here.
#pragma once
#include <string>

#include "io/data_file.h"
#include "model/transformer.h"

// The shape of a model (d_model, n_heads, d_ff, n_encoder_layers, n_decoder_layers,
// norm_first) from the object at key (with a trailing '.', or "" for the top level), into c.
void read_model_shape(const DataFile& data, const std::string& key, TransformerConfig& c);

// A whole config: the shape, vocabularies, norms and special token ids.
TransformerConfig read_model_config(const DataFile& data, const std::string& key);

// Reads config and weights from the object at `key` of the data file ("" for the top level).
// Errors name the file and the weight: "FILE, weights.transformer.encoder.layers.0.norm1.weight: ...".
Transformer load_transformer(const DataFile& data, const std::string& key);

Json transformer_to_json(const Transformer& model);

// Writes the model to path atomically (a temporary file, then rename).
void save_transformer(const Transformer& model, const std::string& path);
