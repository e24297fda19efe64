// plan.h — everything a training run is made of, in one place: the task, the model's shape, the
// seeds, the batches, the optimiser and the run's bounds. Chapter 7 trains from one; chapter 9
// trains the same numerals model from one when the reader has not saved it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/transformer/config.h"  // exports: a plan holds its config
#include "train/tasks.h"
#include "train/optimise.h"

struct Transformer;  // model/transformer/transformer.h
struct TrainingRun;  // train/trainer.h

struct TrainingPlan {
    Task task;
    TransformerConfig config;     // the vocabularies are the task's
    std::uint64_t init_seed = 0;  // the initial weights; the batches are drawn from another seed
    std::size_t batch_size = 16;
    TrainingSettings settings;
    std::size_t check_steps = 20;  // what --check trains: a few steps
    std::size_t heldout = 1000;    // held-out examples scored after training
    std::uint64_t heldout_seed = 0;
};

// The model before its first step: seeded random weights of the plan's shape.
Transformer initial_model(const TrainingPlan& plan);

// Trains initial_model(plan) on the task's batches; reports every step.
TrainingRun train_plan(const TrainingPlan& plan, const StepReport& report = {});

// The plan's held-out examples (never drawn for training).
std::vector<Example> heldout_examples(const TrainingPlan& plan);
