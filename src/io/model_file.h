// model_file.h — a Transformer to and from JSON, weights named and laid out as in PyTorch
// (model/parameters.h):
//
//   {"config": {...}, "weights": {name: array, ...}, "training": {...}}
//
// so that model.load_state_dict({k: torch.tensor(v) for k, v in file["weights"].items()})
// loads our file into PyTorch, and the oracle's exports load here. "training", written by
// chapter 7, says how the model came to be; a file without it (the oracle's) is a model too.
#pragma once
#include <string>
#include <vector>

#include "io/data_file.h"

struct Parameter;  // model/transformer/parameters.h
struct TorchTensor;

struct TransformerConfig;  // model/transformer/config.h

struct Transformer;  // model/transformer/transformer.h

// The shape of a model (d_model, n_heads, d_ff, n_encoder_layers, n_decoder_layers,
// norm_first, and chapter 10's optional switches: norm, positions, n_kv_heads, window,
// max_positions) from the object at key (with a trailing '.', or "" for the top level), into c.
void read_model_shape(const DataFile& data, const std::string& key, TransformerConfig& c);
// The same without the layer counts: the shape of one block (chapter 12's model counts its own).
void read_block_shape(const DataFile& data, const std::string& key, TransformerConfig& c);

// A whole config: the shape, vocabularies, norms and special token ids.
TransformerConfig read_model_config(const DataFile& data, const std::string& key);

// Reads config and weights from the object at `key` of the data file ("" for the top level).
// Errors name the file and the weight: "FILE, weights.transformer.encoder.layers.0.norm1.weight:
// ...".
Transformer load_transformer(const DataFile& data, const std::string& key);

// The sizes a config claims, checked against the file's largest tensors before a model of those
// sizes is allocated — their lengths only, nothing read into a matrix — so that a config claiming
// more than its weights hold is one error line, never a request for terabytes. A claim: a
// tensor's name and the (rows x cols) its config implies, in PyTorch's layout.
struct ShapeClaim {
    std::string name;
    std::size_t rows, cols;
};
void check_claims(const DataFile& data, const std::string& key,
                  const std::vector<ShapeClaim>& claims);

// Every parameter of params overwritten from the object of named tensors at `key` (PyTorch's
// layouts): a tensor the list does not have, or one missing or of another shape, is an error
// naming it. What load_transformer does with its model's list; chapter 12's model uses it too.
void load_weights(const DataFile& data, const std::string& key,
                  const std::vector<Parameter>& params);

// A model's weights as one JSON object text: {"name": tensor, ...} in PyTorch's layouts, after
// checking that every value is finite (the error names path and tensor). A tensor is an array
// (of arrays) of numbers, or — SavedWeights::BFloat16 — each value rounded to bfloat16 as
// PyTorch's x.to(torch.bfloat16) does and stored in two bytes: {"shape": [rows, cols] or
// [length], "bfloat16": base64 of the 16-bit patterns, row after row, every high byte first,
// then every low byte}. The loaders read both.
enum class SavedWeights { Float64, BFloat16 };
std::string weights_json(const std::vector<TorchTensor>& tensors, const std::string& path,
                         SavedWeights format = SavedWeights::Float64);

// How a saved model was trained: what chapter 6 tells the reader before decoding with it.
struct TrainingRecord {
    std::string task;  // "reverse"
    std::size_t steps = 0;
    double final_loss = 0.0;
    double heldout_exact_match = 0.0;   // a fraction, 1 = every held-out example right
    std::size_t max_source_length = 0;  // the longest source it saw, in tokens before <eos>
};

// The record of the file's "training" object; false when the file has none.
bool read_training_record(const DataFile& data, TrainingRecord& record);

// Writes the model and how it was trained to path atomically (a temporary file, then rename).
void save_transformer(const Transformer& model, const TrainingRecord& record,
                      const std::string& path);
