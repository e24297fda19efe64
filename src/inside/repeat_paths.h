// repeat_paths.h — where a poet's preference to write again the character it has just written
// comes from, path by path (chapter 14). In a model whose norms come first in each block (pre-
// norm), the stream the final norm reads is a sum: the embedding, then for each block each
// attention head's output through its rows of W_O, W_O's bias, and the feed-forward net's output.
// The final norm divides the whole sum by one number per row (its root mean square; LayerNorm
// first subtracts the mean, which is a sum too) and multiplies by its gain, and the tied table
// reads the result out — every step linear once that number is fixed, so each path's part of a
// logit is exact and the parts add up to it.
//
// The preference measured at a position whose token is a character c of a poem's body: the
// logit of c minus the mean logit of the row — how much more the model expects c again than an
// average token. The direct path (the embedding read straight back out through the tied table)
// is the part a model with an untied output table would not have.
#pragma once
#include <cstddef>
#include <vector>

#include "inside/poem_sample.h"

struct Gpt;  // model/gpt/gpt.h

struct RepeatPaths {
    bool additive = false;   // pre-norm: the parts below add up (else none is computed)
    std::size_t positions = 0;
    double total = 0;        // the mean preference over the positions, from the logits
    double direct = 0;       // the embedding (and learned positions), read straight back out
    std::vector<std::vector<double>> heads;  // [block][head]
    std::vector<double> attention_bias, feed_forward;  // [block]
    double norm_bias = 0;    // LayerNorm's shift (none with RMSNorm)
    double parts() const;    // every part added: total, to rounding
};

RepeatPaths repeat_paths(const Gpt& model, const PoemSample& sample);
