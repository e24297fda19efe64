// trainer.cpp — the training loop and the held-out score.
#include "train/trainer.h"

#include <chrono>
#include <cmath>

#include "model/transformer/parameters.h"

namespace {

bool finite(const std::vector<Matrix*>& matrices) {
    for (const Matrix* m : matrices)
        for (double x : m->data)
            if (!std::isfinite(x)) return false;
    return true;
}

}  // namespace

LoopResult optimise(const std::vector<Matrix*>& params, const TrainingSettings& s,
                    const GradientStep& step_of, const StepReport& report,
                    const std::vector<bool>* decayed) {
    using Clock = std::chrono::steady_clock;
    LoopResult run;
    Random rng(s.seed);
    Adam adam(s.adam);
    std::size_t tokens = 0;
    const auto start = Clock::now();
    for (std::size_t step = 1; step <= s.max_steps; ++step) {
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
            report({step, s.max_steps, r.loss, lr, static_cast<double>(tokens) / run.seconds,
                    run.seconds, s.max_seconds});
        if (run.seconds >= s.max_seconds) break;
    }
    return run;
}

TrainingRun train(Transformer model, const TrainingSettings& s, const BatchSource& draw_batch,
                  const StepReport& report) {
    TrainingRun run{std::move(model), {}, 0.0, 0};
    Transformer grad;
    const GradientStep step = [&](Random& rng) {
        const std::vector<Example> batch = draw_batch(rng);
        StepResult r;
        r.loss = batch_gradients(run.model, batch, s.smoothing, grad);
        r.grads = parameter_matrices(grad);
        for (const Example& e : batch) r.tokens += e.source.size() + e.target.size();
        return r;
    };
    LoopResult loop = optimise(parameter_matrices(run.model), s, step, report);
    run.losses = std::move(loop.losses);
    run.seconds = loop.seconds;
    run.diverged_at = loop.diverged_at;
    return run;
}
