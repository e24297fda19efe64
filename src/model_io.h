// model_io.h — a Transformer to and from JSON, weights named and laid out as in PyTorch.
//
// A weights file is {"config": {...}, "weights": {name: array, ...}} where each name is the
// PyTorch state_dict name of a module holding
//   src_embedding = nn.Embedding, tgt_embedding = nn.Embedding,
//   transformer = nn.Transformer(batch_first=True), output = nn.Linear
// and each array has PyTorch's layout (nn.Linear's weight is (out x in): we store its
// transpose; in_proj_weight is W_Q, W_K, W_V transposed and stacked). So
//   model.load_state_dict({k: torch.tensor(v) for k, v in file["weights"].items()})
// loads our file into PyTorch, and the oracle's exports load here.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "data_file.h"
#include "transformer.h"

// Reads config and weights from the object at `key` of the data file ("" for the top level).
// Errors name the file and the weight: "FILE, weights.transformer.encoder.layers.0.norm1.weight: ...".
Transformer load_transformer(const DataFile& data, const std::string& key);

Json transformer_to_json(const Transformer& model);

// Every parameter matrix of the model with its PyTorch name (the thirds of in_proj_weight are
// named "…in_proj_weight[q]", "[k]", "[v]"): for optimisers, gradient checks and reports.
std::vector<std::pair<std::string, Matrix*>> named_parameters(Transformer& model);

// Writes the model to path atomically (a temporary file, then rename).
void save_transformer(const Transformer& model, const std::string& path);
