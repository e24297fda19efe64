// plan.cpp — a training run from its plan.
#include "model/transformer/transformer.h"
#include "train/plan.h"

#include "core/random.h"
#include "model/transformer/transformer_init.h"
#include "train/trainer.h"

Transformer initial_model(const TrainingPlan& plan) {
    return random_transformer(plan.config, plan.init_seed);
}

TrainingRun train_plan(const TrainingPlan& plan, const StepReport& report) {
    const Task& task = plan.task;
    const std::size_t batch_size = plan.batch_size;
    return train(
        initial_model(plan), plan.settings,
        [&](Random& rng) { return task.training(rng, batch_size); }, report);
}

std::vector<Example> heldout_examples(const TrainingPlan& plan) {
    Random rng(plan.heldout_seed);
    return plan.task.heldout(rng, plan.heldout);
}
