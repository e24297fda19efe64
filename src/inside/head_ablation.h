// head_ablation.h — taking a head out of a trained model (chapter 14), by editing two weights.
//
// A block's attention outputs concat·W_O + b_O, where head i's output fills the columns
// i·d_v … (i+1)·d_v − 1 of concat and so meets only the rows i·d_v … (i+1)·d_v − 1 of W_O
// (W_O^i). Whatever the head computed, replacing its output by a fixed row v (1 x d_v) gives
//   concat·W_O + b_O  with head i's part  v·W_O^i  instead,
// which is the model with W_O^i set to zero and v·W_O^i added to b_O:
//   zero ablation  v = 0: the head's rows of W_O zeroed;
//   mean ablation  v = the head's mean output over some texts: the rows zeroed, b_O += v·W_O^i
//                  (the head still adds what it adds on average, but no longer reads the text).
// The forward pass is unchanged: the model with a head taken out is just another model.
// (The oracle replaces the head's output inside PyTorch's attention instead; the two agree.)
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
struct GptCache;  // model/gpt/gpt_cache.h

struct Gpt;  // model/gpt/gpt.h

struct HeadOut {
    std::size_t layer = 0, head = 0;
    Matrix value;  // (1 x d_v): what the head outputs instead; empty: zeros
};

// The model with each listed head's output replaced.
Gpt without_heads(const Gpt& model, const std::vector<HeadOut>& heads);

// Each head's mean output (the columns of its block's concat), summed over as many forward
// passes as are added: per block (1 x h·d_v) sums, and the rows they are over.
struct HeadOutputSums {
    std::vector<Matrix> sums;
    std::size_t rows = 0, d_v = 0;
    Matrix mean(std::size_t layer, std::size_t head) const;  // (1 x d_v)
};
// Adds the rows of a forward pass's concat, kept in its cache (gpt_logits or gpt_blocks with a
// cache, over every block).
void add_head_outputs(const Gpt& model, const GptCache& cache, HeadOutputSums& sums);
