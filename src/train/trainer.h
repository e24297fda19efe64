// trainer.h — chapter 7's encoder-decoder trained by the loop of optimise.h, on batches of
// examples.
#pragma once
#include <functional>
#include <vector>

#include "core/random.h"
#include "model/transformer/transformer.h"  // exports: a run keeps its model
#include "train/example.h"
#include "train/optimise.h"

using BatchSource = std::function<std::vector<Example>(Random& rng)>;

struct TrainingRun {
    Transformer model;
    std::vector<double> losses;  // one per step taken
    double seconds = 0.0;
    std::size_t steps_planned = 0;    // as LoopResult (optimise.h)
    bool steps_from_seconds = false;
    // The step whose loss, gradient or updated weights were not finite (NaN or infinity): the
    // run stopped there and its model must not be used. 0 when every step was finite.
    std::size_t diverged_at = 0;
};

// Trains `model` (already initialised) on batches from draw_batch, reporting each step.
TrainingRun train(Transformer model, const TrainingSettings& settings,
                  const BatchSource& draw_batch, const StepReport& report = {});
