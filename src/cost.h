// cost.h — the three layer types of the paper's Table 1, written plainly so that their cost
// can be counted and timed (chapter 8). Each takes a sequence x (n x d) and returns (n x d).
//
//   layer           multiply-adds   sequential steps   longest path between two positions
//   self-attention  2·n²·d          1                  1
//   recurrent       2·n·d²          n                  n
//   convolution     k·n·d²          1                  ⌈(n − 1)/(k − 1)⌉ stacked layers
// (The paper's O(log_k n) path is for dilated convolutions; contiguous kernels need n/k.)
#pragma once
#include <cstddef>
#include <vector>

#include "matrix.h"

struct LayerRun {
    Matrix output;
    std::size_t multiply_adds = 0;     // counted as the loops run
    std::size_t sequential_steps = 0;  // how many steps must wait for the one before
};

// softmax(x·xᵀ/√d)·x: the attention part of a self-attention layer (projections aside)
LayerRun self_attention_layer(const Matrix& x);

// h_t = tanh(h_{t−1}·W_h + x_t·W_x), h_{−1} = 0: a plain tanh RNN cell, unrolled
LayerRun recurrent_layer(const Matrix& x, const Matrix& W_h, const Matrix& W_x);

// y_t = Σ_j x_{t+j−⌊k/2⌋}·W_j over the k taps (zero outside the sequence): one 1-D convolution
LayerRun convolution_layer(const Matrix& x, const std::vector<Matrix>& W);

// The longest chain of layers a signal needs from the first position to the last.
std::size_t maximum_path_length(const char* layer, std::size_t n, std::size_t k);

// The least-squares slope of log(y) against log(x): the exponent of a power law y ∝ x^p.
double fitted_exponent(const std::vector<double>& xs, const std::vector<double>& ys);
