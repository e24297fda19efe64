// optimise.cpp — the training loop: its steps, Adam, and the steps that fit in --seconds.
#include "train/optimise.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace {

// Whether every value is a number, neither infinite nor NaN: those are exactly the doubles whose
// exponent field is all ones. The largest exponent field of each matrix is found with integer
// operations and no early exit, a loop that runs in vector registers (twice as fast as
// std::isfinite value by value: tests/bench/README.md).
bool finite(const std::vector<Matrix*>& matrices) {
    constexpr std::uint64_t exponent = 0x7ff0000000000000;
    for (const Matrix* m : matrices) {
        const double* x = m->data.data();
        std::uint64_t largest = 0;
        for (std::size_t i = 0; i < m->data.size(); ++i) {
            std::uint64_t bits;
            std::memcpy(&bits, x + i, sizeof bits);
            largest = std::max(largest, bits & exponent);
        }
        if (largest == exponent) return false;
    }
    return true;
}

}  // namespace

std::size_t steps_that_fit(double seconds, const GradientStep& step, std::uint64_t seed,
                           std::size_t probe) {
    using Clock = std::chrono::steady_clock;
    Random rng(seed ^ 0x5eC0d5);  // not the run's stream: the run draws the same batches
    step(rng);                    // a first pass allocates what later ones reuse
    const auto start = Clock::now();
    for (std::size_t i = 0; i < probe; ++i) step(rng);
    const double per_step =
        std::chrono::duration<double>(Clock::now() - start).count() / static_cast<double>(probe);
    return std::max<std::size_t>(1, static_cast<std::size_t>(seconds / per_step));
}

LoopResult optimise(const std::vector<Matrix*>& params, const TrainingSettings& s,
                    const GradientStep& step_of, const StepReport& report,
                    const std::vector<bool>* decayed, const StopRule& stop) {
    using Clock = std::chrono::steady_clock;
    LoopResult run;
    run.steps_from_seconds = s.seconds > 0;
    run.steps_planned = run.steps_from_seconds ? steps_that_fit(s.seconds, step_of, s.seed)
                                               : s.max_steps;
    Random rng(s.seed);
    AdamSettings adam_settings = s.adam;
    if (adam_settings.steps == 0) adam_settings.steps = run.steps_planned;  // the cosine's end
    Adam adam(adam_settings);
    std::size_t tokens = 0;
    const auto start = Clock::now();
    for (std::size_t step = 1; step <= run.steps_planned; ++step) {
        const StepResult r = step_of(rng);
        if (!std::isfinite(r.loss) || !finite(r.grads)) {  // a step on NaN makes every weight NaN
            run.diverged_at = step;
            break;
        }
        const double lr = adam.step(params, r.grads, decayed);
        if (!finite(params)) {  // a learning rate so large that a weight overflowed
            run.diverged_at = step;
            break;
        }
        run.losses.push_back(r.loss);
        tokens += r.tokens;
        run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        if (report)
            report({step, run.steps_planned, r.loss, lr,
                    static_cast<double>(tokens) / run.seconds, run.seconds});
        if (stop && stop()) break;
    }
    return run;
}
