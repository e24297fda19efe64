// logit_lens.h — the model read layer by layer (the "logit lens", nostalgebraist 2020): the
// residual stream after the embedding and after each block put through the final norm and the
// output projection, as if the model ended there. Each block adds its part to the stream (the
// residual connections), so every point of it is a vector of the same kind the output
// projection reads; what it predicts at each point shows where the prediction forms.
#pragma once
#include <cstddef>
#include <vector>

#include "inside/poem_sample.h"

struct Gpt;  // model/gpt/gpt.h

// The sample's loss read out at each point: 0 after the embedding, l after block l (L: the
// model's own loss).
std::vector<double> lens_losses(const Gpt& model, const PoemSample& sample);

struct TopTokens {
    std::vector<int> ids;  // likeliest first (ties: the lower id)
    std::vector<double> probabilities;
};
// [point][position]: the k likeliest next tokens at each position of inputs, read out at each
// point of the stream.
std::vector<std::vector<TopTokens>> lens_top(const Gpt& model, const Tokens& inputs, std::size_t k);
