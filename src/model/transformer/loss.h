// loss.h — cross-entropy with label smoothing, as nn.CrossEntropyLoss(ignore_index=pad,
// label_smoothing=ε), and its gradient.
//
// For a position with target y over C = vocab classes, the smoothed target distribution is
//   q = (1 − ε)·onehot(y) + ε/C,   loss = −Σ_c q_c · log softmax(logits)_c
// Positions whose target is the padding id are ignored. The batch loss is the mean over all
// positions that are not ignored, in every sequence of the batch.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "model/transformer/tokens.h"  // exports: token ids

struct LossSum {
    double sum = 0.0;       // Σ of the per-position losses
    std::size_t count = 0;  // positions counted (targets that are not padding)
    double mean() const { return sum / static_cast<double>(count); }
};

// logits (n_tgt x vocab), one target per row: adds this sequence's losses to total.
void cross_entropy(const Matrix& logits, const Tokens& targets, int pad_id, double smoothing,
                   LossSum& total);

// Each row's loss, 0 for a row whose target is padding: cross_entropy's terms, which it adds in
// row order (a batch computed in parts adds its parts' rows in the same order: the same sum).
std::vector<double> row_losses(const Matrix& logits, const Tokens& targets, int pad_id,
                               double smoothing);

// Each row's log Σ_c exp(logits_c): −log softmax(row)[y] = that − logits(row, y), for any y
// (chapter 14 reads the loss and the chance of the same token again from one pass).
std::vector<double> log_sum_exp_rows(const Matrix& logits);

// The least the smoothed loss can be, reached when softmax(logits) = q exactly: the entropy of
// q, −(1 − ε + ε/C)·log(1 − ε + ε/C) − (C − 1)·(ε/C)·log(ε/C). A trained model's loss levels
// off there, not at 0 (chapter 7 draws it under the loss curve).
double smoothed_loss_floor(double smoothing, std::size_t classes);

// dL/dlogits of gradient_scale · (this sequence's summed loss): (softmax(logits) − q) times
// gradient_scale, zero rows for ignored positions. With gradient_scale = 1/N for a batch of N
// counted positions, that is the gradient of the batch mean.
Matrix cross_entropy_backward(const Matrix& logits, const Tokens& targets, int pad_id,
                              double smoothing, double gradient_scale);

// Both at once, as training needs them: adds the rows' losses to total and returns their
// gradient — the same numbers, bit for bit, as cross_entropy then cross_entropy_backward, from
// one pass of exponentials instead of two (with a vocabulary of thousands they are most of the
// loss's time). The logits are taken by value and the gradient written over them: pass them
// with std::move when they are not needed after.
Matrix cross_entropy_with_gradient(Matrix logits, const Tokens& targets, int pad_id,
                                   double smoothing, double gradient_scale, LossSum& total);

// How many targets are counted (not padding): the N of a batch mean.
std::size_t counted_targets(const Tokens& targets, int pad_id);
