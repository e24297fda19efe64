// transformer_grad.h — the backward pass of the whole encoder-decoder (chapter 7).
//
// Gradients live in a Transformer of the same shape as the model (zeros_like), one matrix per
// parameter; backward passes add into it, so a batch accumulates.
#pragma once
#include <vector>

#include "loss.h"
#include "transformer.h"

Transformer zeros_like(const Transformer& model);

struct Example {
    Tokens source;  // e.g. digits then <eos>
    Tokens target;  // what the decoder should produce, ending with <eos>
};

// One sequence: forward with caches, loss, backward. gradient_scale is 1/N for a batch of N
// counted target positions, so that the gradients add up to those of the batch mean.
void example_gradients(const Transformer& model, const Example& example, double smoothing, double gradient_scale,
                       LossSum& loss, Transformer& grad);

// The mean label-smoothed loss over the batch's target positions, and its gradients in grad
// (which is reset first).
double batch_gradients(const Transformer& model, const std::vector<Example>& batch, double smoothing, Transformer& grad);

// The same loss without gradients.
double batch_loss(const Transformer& model, const std::vector<Example>& batch, double smoothing);

Tokens decoder_input_of(const Transformer& model, const Tokens& target);  // <bos> + target[:-1]
