// trainer.cpp — the training loop and the held-out score.
#include "train/trainer.h"

#include <chrono>
#include <cmath>

#include "model/4_transformer/parameters.h"

namespace {

bool finite(const std::vector<Matrix*>& matrices) {
    for (const Matrix* m : matrices)
        for (double x : m->data)
            if (!std::isfinite(x)) return false;
    return true;
}

}  // namespace

TrainingRun train(Transformer model, const TrainingSettings& s, const BatchSource& draw_batch,
                  const StepReport& report) {
    using Clock = std::chrono::steady_clock;
    TrainingRun run{std::move(model), {}, 0.0, 0};
    Random rng(s.seed);
    Adam adam(s.adam);
    const std::vector<Matrix*> params = parameter_matrices(run.model);
    std::size_t tokens = 0;
    const auto start = Clock::now();
    for (std::size_t step = 1; step <= s.max_steps; ++step) {
        const std::vector<Example> batch = draw_batch(rng);
        Transformer grad;
        const double loss = batch_gradients(run.model, batch, s.smoothing, grad);
        const std::vector<Matrix*> grads = parameter_matrices(grad);
        if (!std::isfinite(loss) || !finite(grads)) {  // a step on NaN makes every weight NaN
            run.diverged_at = step;
            break;
        }
        const double lr = adam.step(params, grads);
        if (!finite(params)) {  // a learning rate so large that a weight overflowed
            run.diverged_at = step;
            break;
        }
        run.losses.push_back(loss);
        for (const Example& e : batch) tokens += e.source.size() + e.target.size();
        run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        if (report)
            report({step, s.max_steps, loss, lr, static_cast<double>(tokens) / run.seconds,
                    run.seconds, s.max_seconds});
        if (run.seconds >= s.max_seconds) break;
    }
    return run;
}
