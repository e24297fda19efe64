// training_plan.h — a training plan (train/plan.h) read from a data file.
#pragma once
#include <string>

#include <cstddef>
#include <vector>

#include "io/data_file.h"
#include "train/example.h"
#include "train/plan.h"

// The task "reverse" or "numerals" and its settings from the object at key (with a trailing
// '.'): d_model, n_heads, d_ff, layers, norm_first, batch_size, smoothing, factor, warmup,
// max_steps, max_seconds, seed, check_steps, heldout, heldout_seed, and the task's own
// (min_length and max_length, or max_digits). Every number is checked against its range.
TrainingPlan read_training_plan(const DataFile& data, const std::string& key,
                                const std::string& task);

// Throws DataError naming key (the plan's object, without the trailing '.') when the run stopped
// at a step that was not finite — a loss, gradient or weight that is NaN or infinite: its model
// must not be used, saved or scored.
void check_finite_run(const DataFile& data, const std::string& key, const TrainingRun& run);

// [[source ids, target ids], …] at key: at least one example, source ids below src_vocab and
// target ids below tgt_vocab.
std::vector<Example> read_examples(const DataFile& data, const std::string& key,
                                   std::size_t src_vocab, std::size_t tgt_vocab);
