// parameters.h — every parameter of a Transformer by its PyTorch name, and PyTorch's layout of
// it: one list that the optimiser, the gradient checks, the model files and the comparison
// with PyTorch's gradients all read, so they can never disagree.
//
// The names are the state_dict names of a module holding
//   src_embedding = nn.Embedding, tgt_embedding = nn.Embedding,
//   transformer = nn.Transformer(batch_first=True), output = nn.Linear.
// PyTorch's layouts differ from ours in two ways: nn.Linear's weight is (out x in), the
// transpose of our W (in x out); and nn.MultiheadAttention stacks W_Qᵀ, W_Kᵀ, W_Vᵀ into one
// in_proj_weight (3·d_model x d_model) and b_Q, b_K, b_V into one in_proj_bias.
// Chapter 10's variants keep these names: with grouped-query attention the K and V parts of
// in_proj_weight have n_kv·d_k rows each; RMSNorm has a weight and no bias; learned positions
// are src_positions.weight and tgt_positions.weight (nn.Embedding, max_positions x d_model).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "core/matrix.h"

struct MultiHeadWeights;  // model/transformer/transformer_layers.h
struct FeedForward;  // model/transformer/transformer_layers.h
struct Norm;  // model/transformer/transformer_layers.h

struct Transformer;  // model/transformer/transformer.h

enum class TorchLayout {
    Same,        // stored as we hold it (nn.Embedding's weight)
    Transposed,  // nn.Linear's weight (out x in) is our W (in x out) transposed
    Vector,      // a 1-D tensor: biases, norm gains
    StackedT,    // a part of in_proj_weight: its rows offset … offset + cols − 1, transposed
    StackedVec,  // a part of in_proj_bias: its entries offset … offset + cols − 1
};

struct Parameter {
    std::string name;  // the PyTorch tensor it is (part of)
    Matrix* value;
    TorchLayout layout;
    std::size_t part = 0;                 // which part of a stacked tensor: 0 = Q, 1 = K, 2 = V
    std::size_t offset = 0, stacked = 0;  // the part's first row (entry), and the stacked
                                          // tensor's rows (entries): Q, K and V together
    bool is_vector() const {
        return layout == TorchLayout::Vector || layout == TorchLayout::StackedVec;
    }
    std::string label() const;  // the name, with [q], [k] or [v] for a third of a stacked tensor
};

// The entries of one attention, feed-forward net or norm under the prefix p ("….self_attn"):
// the pieces every model's list is made of (chapter 12's decoder-only model too).
void add_attention(std::vector<Parameter>& ps, const std::string& p, MultiHeadWeights& w);
void add_ffn(std::vector<Parameter>& ps, const std::string& p, FeedForward& f);
void add_norm(std::vector<Parameter>& ps, const std::string& p, Norm& n);

// What every model does with its list (this one's and chapter 12's): the matrices alone, each
// set to 0, their numbers counted.
std::vector<Matrix*> matrices_of(const std::vector<Parameter>& params);
void set_to_zero(const std::vector<Parameter>& params);
std::size_t numbers_in(const std::vector<Parameter>& params);

// Every parameter matrix, in the order of PyTorch's state_dict (chapter 12's model: gpt.h).
std::vector<Parameter> parameters(Transformer& model);

// For any model with a parameters() list (this one, chapter 12's Gpt): its matrices alone, and
// a model of the same shape with every parameter 0 (where gradients accumulate).
template <class Model>
std::vector<Matrix*> parameter_matrices(Model& model) {
    return matrices_of(parameters(model));
}
template <class Model>
Model zeros_like(const Model& model) {
    Model z = model;
    set_to_zero(parameters(z));
    return z;
}

// A tensor as PyTorch holds it: a matrix, or a 1-D tensor as a (1 x n) row.
struct TorchTensor {
    std::string name;
    Matrix value;
    bool is_vector;
};

// The model's state_dict in PyTorch's layouts (thirds stacked, Linear weights transposed).
std::vector<TorchTensor> torch_state_dict(const Transformer& model);
std::vector<TorchTensor> torch_state_dict(const std::vector<Parameter>& parameters);

// The shape PyTorch stores for the tensor p is (part of): "(24x8)", or "[24]" for a vector.
std::string torch_shape(const Parameter& p);

// Our matrix for p, taken from the PyTorch tensor it is (part of), whose shape is torch_shape(p).
Matrix from_torch(const Parameter& p, const Matrix& tensor);
