// gpt_training.h — training chapter 12's decoder-only model on token sequences (poems), and
// its loss on held-out ones: the loop of trainer.h, with batches of windows.
#pragma once
#include <cstddef>
#include <vector>

#include "model/gpt/gpt.h"
#include "train/trainer.h"

// A batch: `batch` windows of at most context + 1 tokens, each from a random sequence at a
// random offset; the model reads a window's first `context` tokens and predicts each next one.
struct WindowBatches {
    std::size_t batch = 16, context = 64;
};

struct GptTrainingRun {
    Gpt model;
    LoopResult loop;
};

// Trains model (initialised) on windows of sequences, with settings.smoothing's label smoothing
// (the held-out loss is always the plain cross-entropy, comparable with the baselines').
GptTrainingRun train_gpt(Gpt model, const std::vector<Tokens>& sequences, WindowBatches windows,
                         const TrainingSettings& settings, const StepReport& report = {});

// The steps of the loop on one fixed batch, the model trained in place: their losses (chapter
// 12 checks them against torch.optim.AdamW on a tiny model).
std::vector<double> steps_on_batch(Gpt& model, const std::vector<Tokens>& inputs,
                                   const std::vector<Tokens>& targets,
                                   const TrainingSettings& settings);

// The mean cross-entropy of every token after <bos> of the sequences, each predicted from the
// tokens before it in windows of `context` (what the model saw in training).
double gpt_heldout_loss(const Gpt& model, const std::vector<Tokens>& sequences,
                        std::size_t context);
