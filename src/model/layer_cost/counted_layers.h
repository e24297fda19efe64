// counted_layers.h — the three layer types of the paper's Table 1, written as plain loops that
// count every multiply-add where it happens, so chapter 8 can compare the counts with the
// table. Each takes a sequence x (n x d_model) and returns (n x d_model); the table writes d
// for d_model and k for the kernel width.
//
//   layer           multiply-adds   sequential steps   longest path between two positions
//   self-attention  2·n²·d          1                  1 layer
//   recurrent       2·n·d²          n                  n cells
//   convolution     k·n·d²          1                  ⌈(n − 1)/⌊k/2⌋⌉ stacked layers (a centred
//   kernel)
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"

struct LayerRun {
    Matrix output;
    std::size_t multiply_adds = 0;     // counted inside the loops, one per a·b added
    std::size_t sequential_steps = 0;  // steps that must wait for the one before
};

// softmax(x·xᵀ/√d)·x: the attention part of a self-attention layer (projections aside, as in
// the table)
LayerRun self_attention_layer(const Matrix& x);

// h_t = tanh(h_{t−1}·W_h + x_t·W_x), h_{−1} = 0: a plain tanh RNN cell, unrolled over t
LayerRun recurrent_layer(const Matrix& x, const Matrix& W_h, const Matrix& W_x);

// y_t = Σ_j x_{t+j−⌊k/2⌋}·W_j over the k taps, reading zeros outside the sequence (zero
// padding, as nn.Conv1d(padding=k//2) computes it): one 1-D convolution
LayerRun convolution_layer(const Matrix& x, const std::vector<Matrix>& W);

// Where tap j of a kernel of width k reads for position t: t + j − ⌊k/2⌋ (outside 0 … n − 1:
// the zero padding).
long tap_position(std::size_t t, std::size_t j, std::size_t k);

enum class LayerType { SelfAttention, Recurrent, Convolution };

// The path from the first position to the last, counted by following the layer's connections:
// position 0 starts marked, and each step marks every position that reads a marked one, until
// the last position is marked — one step is one attention layer, one recurrent cell, or one
// convolution layer (kernel width k) stacked on the ones before.
std::size_t maximum_path_length(LayerType layer, std::size_t n, std::size_t k);
