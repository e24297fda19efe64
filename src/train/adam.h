// adam.h — the paper's optimiser (§5.3): Adam with β1 = 0.9, β2 = 0.98, ε = 1e-9, and a
// learning rate that warms up linearly, then decays with the inverse square root of the step:
//
//   lr(step) = factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5)
//
// Chapter 12 trains with the schedule of today's language models instead: the same linear
// warm-up to a peak, then a cosine decay to a fraction of it at the run's last step,
//
//   lr(step) = peak · step / warmup                                      (step ≤ warmup)
//   lr(step) = peak · (f + (1 − f) · (1 + cos(π · progress)) / 2)         (after)
//
// progress = (step − warmup) / (steps − warmup) from 0 to 1, f = final_fraction. A run whose
// length is known ends with small steps: it settles instead of stopping mid-stride.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"

struct AdamSettings {
    double beta1 = 0.9, beta2 = 0.98, eps = 1e-9;
    double factor = 1.0;
    std::size_t warmup = 4000;
    std::size_t d_model = 512;
    enum class Schedule { Paper, Cosine } schedule = Schedule::Paper;
    double peak = 1e-3, final_fraction = 0.1;  // the cosine schedule's
    std::size_t steps = 0;                     // the cosine schedule's last step
    // AdamW's decoupled weight decay (Loshchilov & Hutter 2019; chapter 12): before each step
    // every decayed parameter shrinks, p ← p·(1 − lr·weight_decay), as torch.optim.AdamW does.
    // 0: the paper's Adam.
    double weight_decay = 0.0;
};

double learning_rate(const AdamSettings& s, std::size_t step);  // step counts from 1

// Step t (from 1) of Adam on count numbers p, with their gradients g and moments m and v, as
// torch.optim.Adam writes it:
//   m ← β1·m + (1 − β1)·g,  v ← β2·v + (1 − β2)·g²
//   p ← p − lr/(1 − β1^t) · m / (√v / √(1 − β2^t) + ε)
// (the bias corrections 1 − β^t undo the moments' start at 0: without them the first steps
// are about 1 − β1 = a tenth of their size).
void adam_update(double* p, const double* g, double* m, double* v, std::size_t count, double lr,
                 std::size_t t, double beta1, double beta2, double eps);

class Adam {
public:
    explicit Adam(AdamSettings settings) : s_(settings) {}
    // One step: every parameter moves against its gradient. As torch.optim.Adam:
    //   m ← β1·m + (1 − β1)·g,  v ← β2·v + (1 − β2)·g²
    //   p ← p − lr/(1 − β1^t) · m / (√v / √(1 − β2^t) + ε)
    // Returns the learning rate it used.
    // decayed (when given): which parameters the weight decay shrinks (matrices, as a rule; not
    // biases and gains); none when not given.
    double step(const std::vector<Matrix*>& params, const std::vector<Matrix*>& grads,
                const std::vector<bool>* decayed = nullptr);
    std::size_t steps_taken() const { return t_; }

private:
    AdamSettings s_;
    std::size_t t_ = 0;
    std::vector<Matrix> m_, v_;  // first and second moments, one per parameter
};
