// loss.h — cross-entropy with label smoothing, as nn.CrossEntropyLoss(ignore_index=pad,
// label_smoothing=ε) (chapter 7).
//
// For a position with target y over C classes, the smoothed target distribution is
//   q = (1 − ε)·onehot(y) + ε/C,   loss = −Σ_c q_c · log softmax(logits)_c
// Positions whose target is the padding id are ignored. The batch loss is the mean over all
// positions that are not ignored, in every sequence of the batch.
#pragma once
#include <cstddef>
#include <vector>

#include "matrix.h"

struct LossSum {
    double sum = 0.0;         // Σ of the per-position losses
    std::size_t count = 0;    // positions counted (targets that are not padding)
};

// Adds this sequence's losses to `total`. If d_logits is given, writes (p − q) · gradient_scale
// into it (zero rows for ignored positions): with gradient_scale = 1/N for a batch of N counted
// positions, that is dL/dlogits of the batch mean.
void cross_entropy(const Matrix& logits, const std::vector<int>& targets, int pad_id, double smoothing,
                   LossSum& total, Matrix* d_logits = nullptr, double gradient_scale = 1.0);
