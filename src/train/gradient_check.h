// gradient_check.h — checking a backward pass against its forward pass by central finite
// differences: nudge one entry of a parameter by ±h, recompute the loss, and compare the slope
//   (L(θ + h) − L(θ − h)) / 2h
// with the gradient the backward pass gave for that entry (chapter 7; tests/test_gradients.cpp
// does it for every operation on its own).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "core/random.h"
#include "train/batch.h"

struct Transformer;  // model/transformer/transformer.h

// |analytic − numeric| / max(|analytic|, |numeric|, 1e-3). The floor: a central difference is
// only as good as its rounding noise, about ε·|L|/h ≈ 1e-16·2/1e-5 = 2e-11, so an error of
// 1e-9 (1e-6 · 1e-3, 50× that noise) is still a real disagreement, while a gradient that is
// truly 0 (the key bias b_K, chapter 7) is not failed for the finite difference's noise.
double gradient_error(double analytic, double numeric);

// One sampled entry: what the backward pass said, what the finite difference measured.
struct GradientCheck {
    std::string where;  // "name[index]"
    double analytic = 0.0, numeric = 0.0;
    double error() const { return gradient_error(analytic, numeric); }
};

// Samples `samples` entries of value (chosen with pick), each compared with analytic's entry.
// loss() must recompute the loss from value's current contents; value is restored afterwards.
std::vector<GradientCheck> check_gradient(const std::string& name, Matrix& value,
                                          const Matrix& analytic,
                                          const std::function<double()>& loss, std::size_t samples,
                                          Random& pick);

// Every parameter tensor of the model on one batch, `samples` entries each, in the order of
// parameters().
std::vector<GradientCheck> check_model_gradients(Transformer& model,
                                                 const std::vector<Example>& batch,
                                                 double smoothing, std::size_t samples,
                                                 Random& pick);

double worst_error(const std::vector<GradientCheck>& checks);  // the largest error() of them

// Σ G ⊙ y: a loss whose gradient with respect to y is G. Checking an operation y = f(x) with a
// random G exercises every entry of its backward pass at once.
double weighted_sum(const Matrix& y, const Matrix& G);
