// trainer.cpp — chapter 7's model trained by optimise().
#include "train/trainer.h"

#include "model/transformer/parameters.h"
#include "train/batch.h"

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
    run.steps_planned = loop.steps_planned;
    run.steps_from_seconds = loop.steps_from_seconds;
    return run;
}
