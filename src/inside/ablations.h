// ablations.h — each head of a trained poet taken out in turn (chapter 14), and the loss on a
// sample of poems measured without it: which heads the model cannot do without.
//
// Two ways to take a head out (inside/head_ablation.h): zeroed (its output replaced by
// zeros) and mean-replaced (by its mean output over the sample's every input position: the head
// stops reading the text but still adds what it adds on average — a zeroed head also removes
// that constant, which the rest of the model may rely on for reasons unrelated to what the head
// reads). Whole layers likewise, all their heads at once.
//
// A change of the loss is the sample's mean over tokens; its standard error is taken over
// poems, the unit the sample is drawn in: with d_p the summed change on poem p and n_p its
// tokens, Δ = Σ d_p / Σ n_p and SE = √(Σ (d_p − Δ·n_p)²) / Σ n_p.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "inside/poem_sample.h"

struct Gpt;  // model/gpt/gpt.h

struct Ablated {
    double loss = 0, error = 0;  // the loss without the head; the SE of its change
    double repeat = 0;           // the mean chance of the same character next, without it
};

struct Ablations {
    double loss = 0, repeat = 0;                  // the model as it is
    double repeat_rate = 0;                       // how often the sample's poems double a character
    std::vector<Ablated> zero, mean;              // per head, layer-major (l·h + i)
    std::vector<Ablated> layer_zero, layer_mean;  // per layer: all its heads
};

// done(k, n) is told after each of the n models without a head or a layer (a long sample takes
// minutes: chapter 14 draws its progress line from it).
Ablations ablate_heads(const Gpt& model, const PoemSample& sample,
                       const std::function<void(std::size_t, std::size_t)>& done = {});

// The standard error of the change from `base` to `changed` (above).
double change_error(const SampleLosses& changed, const SampleLosses& base);
