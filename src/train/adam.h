// adam.h — the paper's optimiser (§5.3): Adam with β1 = 0.9, β2 = 0.98, ε = 1e-9, and a
// learning rate that warms up linearly, then decays with the inverse square root of the step:
//
//   lr(step) = factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5)
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"

struct AdamSettings {
    double beta1 = 0.9, beta2 = 0.98, eps = 1e-9;
    double factor = 1.0;
    std::size_t warmup = 4000;
    std::size_t d_model = 512;
    // AdamW's decoupled weight decay (Loshchilov & Hutter 2019; chapter 12): before each step
    // every decayed parameter shrinks, p ← p·(1 − lr·weight_decay), as torch.optim.AdamW does.
    // 0: the paper's Adam.
    double weight_decay = 0.0;
};

double learning_rate(const AdamSettings& s, std::size_t step);  // step counts from 1

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
