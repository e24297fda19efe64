// gpt_training.h — training chapter 12's decoder-only model on token sequences (poems), and
// its loss on held-out ones: the loop of trainer.h, with batches of windows.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "model/gpt/gpt.h"  // exports: a run keeps its best model
#include "train/optimise.h"

// A batch: `batch` windows of at most context + 1 tokens, each from a random sequence at a
// random offset; the model reads a window's first `context` tokens and predicts each next one.
struct WindowBatches {
    std::size_t batch = 16, context = 64;
};

// Choosing while training: every `every` steps (and after the last) the loss on validation
// sequences — carved out of the training text, never the held-out ones — and the step where it
// was lowest is the one kept. every = 0: no validation, the last step is kept.
// patience > 0: the run ends once that many validations in a row found no better step (the
// rest of the run would only learn the training text by heart).
struct GptValidation {
    const std::vector<Tokens>* sequences = nullptr;
    std::size_t every = 0;
    std::size_t patience = 0;
};

// One point of the training curve: the mean training loss of the steps since the point before
// (label-smoothed when the training is) and the validation loss at that step.
struct CurvePoint {
    std::size_t step = 0;
    double training_loss = 0, validation_loss = 0;
};

struct GptTrainingRun {
    Gpt model;  // the best step's (lowest validation loss); the last step's without validation
    LoopResult loop;
    bool stopped_early = false;  // patience ran out before the last planned step
    std::size_t best_step = 0;
    double best_validation_loss = 0;
    std::vector<CurvePoint> curve;
};

// Trains model (initialised) on windows of sequences, with settings.smoothing's label smoothing
// (the held-out loss is always the plain cross-entropy, comparable with the baselines').
// report, when given, also hears of each validation (a point of the curve).
using CurveReport = std::function<void(const CurvePoint&)>;
GptTrainingRun train_gpt(Gpt model, const std::vector<Tokens>& sequences, WindowBatches windows,
                         const TrainingSettings& settings, const GptValidation& validation = {},
                         const StepReport& report = {}, const CurveReport& curve_report = {});

// The steps of the loop on one fixed batch, the model trained in place: their losses (chapter
// 12 checks them against torch.optim.AdamW on a tiny model).
std::vector<double> steps_on_batch(Gpt& model, const std::vector<Tokens>& inputs,
                                   const std::vector<Tokens>& targets,
                                   const TrainingSettings& settings);

// The mean cross-entropy of every token after <bos> of the sequences, each predicted from the
// tokens before it in windows of `context` that follow one another (what the model saw in
// training; quick, but a window starts over every `context` tokens, and its first token is
// predicted from one token before it). Validation while training uses it.
double gpt_heldout_loss(const Gpt& model, const std::vector<Tokens>& sequences,
                        std::size_t context);

// The same, each token predicted from up to `context` tokens before it (a window sliding one
// token at a time): a sequence's first context + 1 tokens in one window, as above, then each
// later token at the end of a window of the `context` tokens before it. The held-out measure.
double gpt_sliding_loss(const Gpt& model, const std::vector<Tokens>& sequences,
                        std::size_t context);
// Windows' logits computed as the held-out losses compute them: in parts of a few windows, each
// part's whole pass on one thread (train/parts.h; faster than sharing out each product). each(p,
// logits, inputs, targets) gets part p's windows and the logits of their rows whose target is
// not <pad>, in order (a sliding window's last row alone), on the thread that computed them: it
// writes only what is part p's own, for p below parts_in(inputs).
using PartLogits =
    std::function<void(std::size_t part, const Matrix& logits, const std::vector<Tokens>& inputs,
                       const std::vector<Tokens>& targets)>;
void logits_in_parts(const Gpt& model, const std::vector<Tokens>& inputs,
                     const std::vector<Tokens>& targets, const PartLogits& each);
std::size_t parts_in(const std::vector<Tokens>& inputs);

// Those sliding windows, 32 at a time: each call gets their inputs and targets (a target of
// <pad> is not predicted; a later window predicts its last token only).
using WindowsReport =
    std::function<void(const std::vector<Tokens>& inputs, const std::vector<Tokens>& targets)>;
void for_sliding_windows(const std::vector<Tokens>& sequences, std::size_t context, int pad,
                         const WindowsReport& each);
