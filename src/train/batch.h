// batch.h — the loss of a batch of examples and its gradients: one forward pass with caches,
// the loss, and the backward passes in reverse order (chapter 7).
#pragma once
#include <vector>

#include "train/example.h"

struct Transformer;  // model/transformer/transformer.h

// The mean label-smoothed loss over the batch's target positions, and its gradients in grad
// (which is reset to zeros first; it has the model's shape).
double batch_gradients(const Transformer& model, const std::vector<Example>& batch,
                       double smoothing, Transformer& grad);

// The same loss without gradients.
double batch_loss(const Transformer& model, const std::vector<Example>& batch, double smoothing);
