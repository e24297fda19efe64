// optimise.h — the training loop of chapters 7 and 12, for any model: draw a batch, compute the
// loss and its gradients, take an Adam step with the schedule; repeat. A run is defined by its
// steps and seeds, never by the clock: every machine, busy or idle, gets the same model. A
// reader who would rather give seconds (--seconds) gets the steps that fit in them here, counted
// before the run starts and reported, so the run can be repeated anywhere with --steps.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/matrix.h"
#include "core/random.h"
#include "train/adam.h"
#include "train/step_stats.h"

struct TrainingSettings {
    double smoothing = 0.1;  // label smoothing of the loss
    // chapter 12's decoder-only model: the weight of the penalty on repeating the token just
    // read (model/gpt/unlikelihood.h); 0, none
    double unlikelihood = 0.0;
    AdamSettings adam;
    std::size_t max_steps = 1000;
    // > 0: the reader's --seconds. max_steps is then replaced, before the first step, by the
    // steps that fit in this many seconds on this machine (timed on a few steps' passes).
    double seconds = 0;
    std::uint64_t seed = 0;  // the batches are drawn from Random(seed)
};

using StepReport = std::function<void(const StepStats&)>;

// The loop itself, for any model: each step calls `step`, which draws a batch from rng and
// returns its loss, the gradients (pointers into a model of the parameters' shape, in the same
// order) and how many tokens it read; then Adam moves params. Stops after max_steps (or the
// steps that fit in settings.seconds), or at the first step that is not finite (diverged_at).
struct StepResult {
    double loss = 0.0;
    std::vector<Matrix*> grads;
    std::size_t tokens = 0;
};
using GradientStep = std::function<StepResult(Random& rng)>;
struct LoopResult {
    std::vector<double> losses;
    double seconds = 0.0;
    std::size_t diverged_at = 0;
    std::size_t steps_planned = 0;    // max_steps, or the steps that fit in settings.seconds
    bool steps_from_seconds = false;  // true: steps_planned came from the clock (--seconds)
};

// The steps that fit in `seconds` here: `probe` of the step's passes (its batch, loss and
// gradients, drawn from another stream so the run itself is untouched) are timed.
std::size_t steps_that_fit(double seconds, const GradientStep& step, std::uint64_t seed,
                           std::size_t probe = 3);
// decayed: which parameters AdamW's weight decay shrinks (settings.adam.weight_decay).
// stop, when given, is asked after each step (after report) whether to end the run there.
using StopRule = std::function<bool()>;
LoopResult optimise(const std::vector<Matrix*>& params, const TrainingSettings& settings,
                    const GradientStep& step, const StepReport& report = {},
                    const std::vector<bool>* decayed = nullptr, const StopRule& stop = {});
